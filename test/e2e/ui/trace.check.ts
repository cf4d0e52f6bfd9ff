// Trace Packet... as a person runs it: the palette, a source IP, a Service picked from the dump by its name, and
// the paths in the Packet Trace view: one row per path that fits the default side bar, the summary whole in the
// view's message (it wraps; a tree row would be cut at the side bar's edge), a selected path's lines alone highlighted
// in a colour of their own and its endpoint chain whole as its first row, a new trace with no path selected or open
// (the same path then selected and lit again), the view in Chinese, and a Service without
// endpoints whose "is it the node's address?" fork is two alternatives after the node's addresses were asked for
// once, each condition with its paths whole in the message; a Service whose KUBE-SERVICES rule is missing, said as
// such in both languages, the whole warning readable at the default side bar width; a dual-stack nft ruleset, whose
// IPv6 Service the picker offers and the view traces through the ip6 table, and whose ip6 rule a hover explains,
// in both languages.
import * as assert from 'node:assert/strict';
import { t, type Lang } from '../../../src/core/i18n/catalog';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import {
  activeEditor,
  aroundHover,
  closeAllEditors,
  foldView,
  hoverText,
  openFile,
  setEnumSetting,
  settle,
  SIDE_BAR_WIDTH,
  sideBarRows,
  statusBarLanguage,
  traceFromPalette,
  widenSideBar,
} from './workbench';
import type { Page } from 'playwright-core';

/** shop/checkout (no endpoints) and shop/cart (3 endpoints). */
const SHOP = 'shop-no-endpoints.iptables';
/**
 * The same dump as kube-proxy logged it at -v=9, saved as a .log (VS Code's Log language until it is detected): the
 * whole restore input escaped on line 2.
 */
const SHOP_LOG = 'kube-proxy-v9.log';
/** The demo dump without KUBE-SERVICES's rule for demo/web: its chains are there, nothing sends a packet to them. */
const SERVICE_RULE_MISSING = 'kube-proxy-service-rule-missing.iptables';
/**
 * `nft list ruleset` of a dual-stack node (kube-proxy in iptables mode through iptables-nft): `table ip6 nat` first,
 * then `table ip nat`, which has more rules and is the one the editor reads; shop/web has a cluster IP in each.
 */
const DUAL_STACK = 'kube-proxy-dual-stack.nft';

/** Path rows whose label the side bar cuts (text wider than its box). */
function cutPathRows(page: Page): Promise<string[]> {
  return cutRows(page, '^\\d+(\\.\\d+)?%');
}

/** Rows whose text matches `pattern` (a RegExp source) and whose label the side bar cuts. */
async function cutRows(page: Page, pattern: string): Promise<string[]> {
  // In the page (no DOM types here): the label wider than its row's box.
  return page.evaluate(`[...document.querySelectorAll('.part.sidebar .pane-body .monaco-list-row')]
    .filter((row) => new RegExp(${JSON.stringify(pattern)}).test((row.textContent || '').trim()))
    .filter((row) => { const name = row.querySelector('.label-name'); return !!name && name.getBoundingClientRect().right > row.getBoundingClientRect().right - 2; })
    .map((row) => (row.textContent || '').trim())`);
}

/**
 * The messages shown above the side bar's tree views (the Packet Trace view's warnings): their text, how many lines
 * they wrap to, and whether the whole of each lies inside the side bar and its view (nothing cut or scrolled away).
 */
async function traceViewMessages(page: Page): Promise<{ text: string; lines: number; whole: boolean }[]> {
  return page.evaluate(`[...document.querySelectorAll('.part.sidebar .pane-body .tree-explorer-viewlet-tree-view > .message:not(.hide)')]
    .map((m) => {
      const box = m.getBoundingClientRect();
      const bar = document.querySelector('.part.sidebar').getBoundingClientRect();
      const pane = m.closest('.pane-body').getBoundingClientRect();
      const inside = (outer) => box.left >= outer.left - 1 && box.right <= outer.right + 1 && box.top >= outer.top - 1 && box.bottom <= outer.bottom + 1;
      const lineHeight = parseFloat(getComputedStyle(m).lineHeight) || 18;
      return {
        text: (m.textContent || '').trim(),
        lines: Math.round((box.height - parseFloat(getComputedStyle(m).paddingTop) - parseFloat(getComputedStyle(m).paddingBottom)) / lineHeight),
        whole: inside(bar) && inside(pane) && m.scrollWidth <= m.clientWidth + 1 && m.scrollHeight <= m.clientHeight + 1 && box.height > 0,
      };
    })
    .filter((m) => m.text)`);
}

/** The sample dump open and demo/web traced from 10.244.1.9: the Packet Trace view's rows once its 3 paths are shown. */
async function traceDemoWeb(page: Page): Promise<string[]> {
  await openFile(page, SAMPLES.iptables);
  await traceFromPalette(page, '10.244.1.9', 'demo/web', /demo\/web:http/);
  return settle(
    () => sideBarRows(page),
    (texts) => texts.filter((t) => /^33\.3% DNAT 10\.244\.\d\.\d:8080\s*KUBE-SEP-/.test(t)).length === 3,
    60_000,
  );
}

/**
 * Waits for a new trace to be shown after one with a path selected (its rows have the same labels): every matched
 * line lit in the trace's colour again, not the path's; then the path rows still selected or open (none expected).
 */
async function afterNewTrace(page: Page): Promise<string[]> {
  await settle(
    () => pathHighlightedLines(page),
    (n) => n === 0,
    15_000,
  );
  return settle(
    () => touchedPathRows(page).allInnerTexts(),
    (rows) => rows.length === 0,
    5_000,
  );
}

/** Path rows (`33.3% DNAT ...`) of the Packet Trace view that are selected or open. */
function touchedPathRows(page: Page) {
  const row = '.part.sidebar .pane-body .monaco-list-row';
  return page.locator(`${row}.selected, ${row}[aria-expanded="true"]`, { hasText: /^\d+(\.\d+)?%/ });
}

/**
 * Selects demo/web's path to 10.244.2.7 with a click, as a person does: the lines then lit in the path's colour, and
 * the side bar's rows once the path is open (its endpoint chain first).
 */
async function selectWebPath(page: Page, log: (text: string) => void): Promise<{ lit: number; chain: string[] }> {
  const row = page
    .locator('.part.sidebar .pane-body .monaco-list-row', { hasText: /^33\.3%\s+DNAT 10\.244\.2\.7:8080/ })
    .first();
  await row.click();
  // Under load a click once focused the row without selecting it: a row not selected is clicked once more (a click on
  // a selected row would fold it again).
  const isSelected = async () => (await row.getAttribute('aria-selected')) === 'true';
  if (!(await settle(isSelected, (yes) => yes, 5_000))) {
    log('the path row was not selected by the click: clicking it again');
    await row.click();
  }
  const lit = await settle(
    () => pathHighlightedLines(page),
    (n) => n > 0,
    15_000,
  );
  const chain = await settle(
    () => sideBarRows(page),
    (texts) => texts.some((t) => /^KUBE-SEP-[A-Z0-9]{16}$/.test(t)),
    15_000,
  );
  return { lit, chain };
}

/** Editor lines painted with the selected path's colour (kubePacketPath.tracePathBackground). */
async function pathHighlightedLines(page: Page): Promise<number> {
  return page.evaluate(`[...document.querySelectorAll('.editor-group-container.active .view-overlays > div > div')]
    .filter((d) => /rgba?\\((46, 125, 50|165, 214, 167)/.test(getComputedStyle(d).backgroundColor)).length`);
}

export const checks: UiCheck[] = [
  {
    name: 'Trace Packet... to demo/web picked by name: one summary row per path that fits the side bar',
    async run({ page, screenshot, log }) {
      const rows = await traceDemoWeb(page);
      const said = await settle(
        () => traceViewMessages(page),
        (all) => all.some((m) => m.text.includes('3 paths')),
        30_000,
      );
      await foldView(page, 'Cluster');
      await page.waitForTimeout(500);
      log(
        `trace: ${rows
          .filter((t) => /DNAT|%/.test(t))
          .slice(0, 6)
          .join(' | ')}`,
      );
      // At the default side bar width: the rows are read whole.
      await screenshot('trace-view', { x: 0, y: 30, width: 760, height: 560 });
      assert.deepEqual(await cutPathRows(page), [], 'path rows fit the default side bar');
      // The summary is the view's message, read whole.
      const summary = said.find((m) => m.text.includes('3 paths'));
      assert.ok(summary?.whole, JSON.stringify(said));
      for (const ip of ['10.244.1.5:8080', '10.244.2.7:8080', '10.244.3.9:8080'])
        assert.ok(summary.text.includes(ip), `${ip} in the summary: ${summary.text}`);
      assert.ok(!rows.some((t) => /path\(s\)|ACCEPT DNAT to/.test(t)), rows.join(' | '));
    },
  },
  {
    name: "selecting a path lights that path's rules only, in a colour that is not the current line's",
    async run({ page, screenshot, log }) {
      // The trace the check before left, unless its paths are not shown, or one is open, selected or lit already
      // (this check's first attempt, when this is its second): then a new trace, so that each attempt starts alike.
      const pathRows = (await sideBarRows(page)).filter((t) => /^33\.3% DNAT /.test(t));
      if (
        pathRows.length !== 3 ||
        (await touchedPathRows(page).count()) > 0 ||
        (await pathHighlightedLines(page)) > 0
      ) {
        log('the paths of demo/web are not shown as the trace left them: tracing it again');
        await traceDemoWeb(page);
        await afterNewTrace(page);
      }
      const before = await pathHighlightedLines(page);
      const { lit, chain } = await selectWebPath(page, log);
      await screenshot('trace-path-selected', { x: 0, y: 30, width: 1000, height: 560 });
      assert.ok(
        chain.some((t) => /^KUBE-SEP-[A-Z0-9]{16}$/.test(t)),
        chain.join(' | '),
      );
      assert.deepEqual(await cutRows(page, '^KUBE-SEP-'), [], 'the endpoint chain is read whole');
      assert.equal(before, 0);
      // The path's filter and nat rules on screen (FORWARD, PREROUTING...), not every matched line of the trace.
      assert.ok(lit >= 3, `${lit} lines lit`);
    },
  },
  {
    name: 'a new trace starts with no path selected or open, and selecting the same path again lights it',
    async run({ page, log }) {
      // A path selected and open, as the check before leaves it and a person would before tracing again.
      if ((await touchedPathRows(page).count()) === 0) {
        if ((await sideBarRows(page)).filter((t) => /^33\.3% DNAT /.test(t)).length !== 3) await traceDemoWeb(page);
        await selectWebPath(page, log);
      }
      await traceDemoWeb(page);
      assert.deepEqual(await afterNewTrace(page), [], 'no path row selected or open after a new trace');
      const { lit, chain } = await selectWebPath(page, log);
      assert.ok(lit >= 3, `${lit} lines lit`);
      assert.ok(
        chain.some((t) => /^KUBE-SEP-[A-Z0-9]{16}$/.test(t)),
        chain.join(' | '),
      );
    },
  },
  {
    name: 'with Simplified Chinese the Packet Trace view on screen turns Chinese, the open path still open',
    async run({ page, screenshot }) {
      await page.mouse.move(700, 880);
      await page.keyboard.press('Escape');
      // The check before left a path open (when it ran): a change of language keeps it so.
      const openPaths = page.locator('.part.sidebar .pane-body .monaco-list-row[aria-expanded="true"]', {
        hasText: /^\d+(\.\d+)?%/,
      });
      const openBefore = await openPaths.count();
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        // The message is set at once; the tree's rows are drawn anew when the workbench asks for them, later (under
        // load, a run read English rows below the Chinese message): both are waited for.
        const english = (t: string) => /\bpaths?\b|masqueraded/.test(t);
        const texts = await settle(
          async () => [...(await traceViewMessages(page)).map((m) => m.text), ...(await sideBarRows(page))],
          (all) => all.some((t) => t.includes('3 条路径')) && !all.some(english),
          30_000,
        );
        await screenshot('trace-view-zh', { x: 0, y: 30, width: 760, height: 560 });
        assert.ok(
          texts.some((t) => t.includes('3 条路径')),
          texts.join(' | '),
        );
        assert.ok(!texts.some(english), texts.join(' | '));
        assert.equal(await openPaths.count(), openBefore, 'the path open before is open in Chinese');
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
    },
  },
  {
    name: 'a Service without endpoints: the node addresses asked once, then two alternatives instead of a coin flip',
    async run({ page, screenshot }) {
      await openFile(page, SHOP);
      await traceFromPalette(page, '10.244.0.9', 'shop/checkout', /shop\/checkout:p/);
      const input = page.locator('.quick-input-widget input');
      // The picker closes, the question about the node's addresses opens in the same widget.
      const question = page.locator('.quick-input-widget', { hasText: 'addresses of this node' });
      await question.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(300);
      const prompt = await question.innerText();
      await screenshot('trace-node-addresses', page.locator('.quick-input-widget'));
      assert.match(prompt, /10\.96\.0\.10 is an address of this node/);
      // Left empty: both alternatives stay.
      await page.keyboard.press('Enter');
      const rows = await settle(
        () => sideBarRows(page),
        (texts) => texts.some((t) => t.startsWith('if 10.96.0.10 is not an address of this node')),
        30_000,
      );
      // At the default side bar width: the summary and each alternative's condition with its paths are the view's
      // message, read whole (the rows are cut at the side bar's edge).
      const said = await settle(
        () => traceViewMessages(page),
        (all) => all.some((m) => /has no endpoints: kube-proxy rejects the connection/.test(m.text)),
        30_000,
      );
      await page.mouse.move(900, 500);
      await screenshot('trace-alternatives', { x: 0, y: 30, width: 760, height: 560 });
      const message = said.find((m) => /has no endpoints/.test(m.text));
      assert.ok(message?.whole, `the message is read whole: ${JSON.stringify(said)}`);
      assert.match(message.text, /alternative: if 10\.96\.0\.10 is not an address of this node → 100% REJECT/);
      assert.match(message.text, /alternative: if 10\.96\.0\.10 is an address of this node → 100% ACCEPT/);
      const text = [message.text, ...rows].join('\n');
      assert.ok(!/50%/.test(text), text);
      // Asked once per document: a second trace does not ask again.
      await traceFromPalette(page, '10.244.0.9', 'shop/checkout', /shop\/checkout:p/);
      await page.waitForTimeout(2_000);
      assert.equal(await input.isVisible(), false, 'no second question');
    },
  },
  {
    name: "a kube-proxy log carrying the dump on one line: the trace's summary names the log's line, in both languages",
    async run({ page, screenshot, log }) {
      await openFile(page, SHOP_LOG);
      await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      await traceFromPalette(page, '10.244.0.9', 'shop/checkout', /shop\/checkout:p/);
      const question = page.locator('.quick-input-widget', { hasText: 'addresses of this node' });
      await question.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(300);
      await page.keyboard.press('Enter');
      // The view still shows the trace of the dump itself (its line 17) until this one replaces it.
      const summary = () => traceViewMessages(page).then((all) => all.map((m) => m.text));
      const rows = await settle(
        summary,
        (texts) => texts.some((t) => /has no endpoints: kube-proxy rejects the connection \(\S+ line 2,/.test(t)),
        30_000,
      );
      const said = rows.find((t) => /has no endpoints/.test(t)) ?? '';
      log(`summary: ${said}`);
      await widenSideBar(page);
      try {
        await page.waitForTimeout(500);
        await screenshot('trace-kube-proxy-log', { x: 0, y: 30, width: 1000, height: 560 });
        // Line 2 of the log holds the whole input; line 17 is a line of the escaped dump, nowhere in the log.
        assert.match(said, /filter\/KUBE-SERVICES line 2,/);
        await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
        const zh = await settle(summary, (texts) => texts.some((t) => t.includes('没有端点')), 30_000);
        const saidZh = zh.find((t) => t.includes('没有端点')) ?? '';
        log(`summary (zh-CN): ${saidZh}`);
        await screenshot('trace-kube-proxy-log-zh-CN', { x: 0, y: 30, width: 1000, height: 560 });
        assert.match(saidZh, /第 2 行/);
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        // The trace on screen is made again in English: wait for it, so that the next check starts from rest.
        await settle(summary, (texts) => texts.some((t) => /has no endpoints: kube-proxy rejects/.test(t)), 30_000);
        await widenSideBar(page, SIDE_BAR_WIDTH);
        // Off the sash and the tabs (a tab's tooltip can cover what the next check clicks), and no editors left.
        await page.mouse.move(900, 500);
        await page.keyboard.press('Escape');
        await closeAllEditors(page);
      }
    },
  },
  {
    name: "a Service whose KUBE-SERVICES rule is missing: the trace's warning is read whole at the default side bar width, in both languages",
    async run({ page, screenshot, log }) {
      await openFile(page, SERVICE_RULE_MISSING);
      await traceFromPalette(page, '10.244.1.9', 'demo/web', /demo\/web:http/);
      const question = page.locator('.quick-input-widget', { hasText: 'addresses of this node' });
      await question.waitFor({ state: 'visible', timeout: 30_000 });
      await page.waitForTimeout(300);
      await page.keyboard.press('Enter');
      const warning = (lang: Lang) =>
        t(lang, 'ui.trace.warning', {
          text: t(lang, 'trace.hint.service-not-reached', {
            dst: '172.16.45.20:80/TCP',
            service: 'demo/web:http',
            chain: 'KUBE-SVC-XRY76EGRC3BSCIIJ',
          }),
        });
      const paths: Record<Lang, RegExp> = { en: /: 2 paths → /, 'zh-CN': /：2 条路径 → / };
      const seeWhole = async (lang: Lang, shot: string) => {
        // The summary and the warning are the view's message, set at once; the rows are drawn when the workbench
        // asks for them, later: both are waited for (the previous trace's rows, with its DNATs, may still show).
        const dnatRow = (r: string) => /DNAT 10\.244\.\d\.\d:8080/.test(r);
        const { messages, rows } = await settle(
          async () => ({ messages: await traceViewMessages(page), rows: await sideBarRows(page) }),
          (seen) =>
            seen.messages.some(
              (m) =>
                m.text.startsWith('TCP 10.244.1.9 → 172.16.45.20:80') &&
                paths[lang].test(m.text) &&
                m.text.endsWith(warning(lang)),
            ) &&
            seen.rows.length > 0 &&
            !seen.rows.some(dnatRow),
          30_000,
        );
        log(`message (${lang}): ${JSON.stringify(messages)}`);
        await screenshot(shot, { x: 0, y: 30, width: 760, height: 560 });
        const shown = messages.find((m) => m.text.endsWith(warning(lang)));
        assert.ok(shown, `the whole warning is in the view's message: ${JSON.stringify(messages)}`);
        assert.ok(shown.whole, `no part of it is cut or scrolled away: ${JSON.stringify(shown)}`);
        assert.ok(shown.lines > 1, `it wraps: ${JSON.stringify(shown)}`);
        // Said once: no tree row repeats it (cut at the side bar's edge).
        assert.ok(!rows.some((r) => r.includes('KUBE-SVC-XRY76EGRC3BSCIIJ')), rows.join(' | '));
        // No path took a DNAT: the Service's endpoints are nowhere in the view's paths.
        assert.ok(!rows.some(dnatRow), rows.join(' | '));
      };
      try {
        await page.mouse.move(900, 500);
        await seeWhole('en', 'trace-service-rule-missing');
        await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
        await seeWhole('zh-CN', 'trace-service-rule-missing-zh-CN');
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await settle(
          () => traceViewMessages(page),
          (all) => all.some((m) => m.text.endsWith(warning('en'))),
          30_000,
        );
        await page.mouse.move(900, 500);
        await page.keyboard.press('Escape');
        await closeAllEditors(page);
      }
    },
  },
  {
    name: "a dual-stack nft ruleset: the picker offers the IPv6 Service too, traced through the ip6 table's rules, and a hover on that table's rule reads it, in both languages",
    async run({ page, screenshot, log }) {
      await openFile(page, DUAL_STACK);
      await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      // The IPv6 cluster IP's row, picked by the Service's name: the editor read the ip table, the picker lists both.
      await traceFromPalette(page, 'fd00:244:0:2::9', 'shop/web', /fd00:96::2a/);
      const question = page.locator('.quick-input-widget', { hasText: 'addresses of this node' });
      if (await question.isVisible().catch(() => false)) await page.keyboard.press('Enter');
      const paths: Record<Lang, RegExp> = { en: /: 1 path → /, 'zh-CN': /：1 条路径 → / };
      // The path's row: its DNAT, then the start of its endpoint chain (the row shows the chain's start only).
      const ipv6Path = (row: string) => /^100% DNAT \[fd00:244:0:1::1e\]:8080\s*KUBE-SEP-4APS/.test(row);
      const seen = async (lang: Lang, shot: string) => {
        const { messages, rows } = await settle(
          async () => ({ messages: await traceViewMessages(page), rows: await sideBarRows(page) }),
          (now) =>
            now.messages.some(
              (m) => m.text.startsWith('TCP fd00:244:0:2::9 → [fd00:96::2a]:80') && paths[lang].test(m.text),
            ) && now.rows.some(ipv6Path),
          30_000,
        );
        log(`dual-stack trace (${lang}): ${JSON.stringify(messages)} rows: ${rows.join(' | ')}`);
        await page.mouse.move(900, 500);
        // Down to the path's row, below the summary.
        await screenshot(shot, { x: 0, y: 30, width: 760, height: 620 });
        const summary = messages.find((m) => m.text.startsWith('TCP fd00:244:0:2::9'));
        assert.ok(summary?.whole, JSON.stringify(messages));
        // The endpoint of the ip6 table; the ip table's endpoint of the same Service is nowhere.
        assert.ok(summary.text.includes('[fd00:244:0:1::1e]:8080'), summary.text);
        assert.ok(rows.some(ipv6Path), rows.join(' | '));
        assert.ok(!rows.some((r) => r.includes('10.244.1.30')), rows.join(' | '));
        assert.ok(!messages.some((m) => /IPv4|family|族/.test(m.text)), JSON.stringify(messages));
        // A hover on the ip6 table's Service rule reads that table, as on the ip table's.
        const address = activeEditor(page)
          .locator('.view-lines .view-line', { hasText: 'ip6 daddr fd00:96::2a' })
          .first()
          .locator('span span', { hasText: 'fd00:96::2a' })
          .first();
        const rule = hovered[lang];
        const { text, hover } = await hoverText(page, address, (t) => rule.test(t));
        log(`hover on the ip6 rule (${lang}): ${text.replace(/\n+/g, ' | ')}`);
        await screenshot(`hover-dual-stack-nft${lang === 'en' ? '' : '-zh-CN'}`, await aroundHover(hover));
        assert.match(text, rule);
        await page.keyboard.press('Escape');
      };
      const hovered: Record<Lang, RegExp> = {
        en: /TCP to \[fd00:96::2a\]:80 \(Service shop\/web, port http\) goes to KUBE-SVC-67NZLRHBNDSAWJRO/,
        'zh-CN': /发往 \[fd00:96::2a\]:80 的 TCP 流量（Service shop\/web/,
      };
      try {
        await seen('en', 'trace-dual-stack-nft');
        await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
        await seen('zh-CN', 'trace-dual-stack-nft-zh-CN');
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await settle(
          () => traceViewMessages(page),
          (all) => all.some((m) => paths.en.test(m.text)),
          30_000,
        );
        await page.mouse.move(900, 500);
        await page.keyboard.press('Escape');
        await closeAllEditors(page);
      }
    },
  },
];
