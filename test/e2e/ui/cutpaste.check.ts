// Pastes as people make them, in the Problems panel and the detection offer, in English and in Chinese: a paste cut
// off inside its last rule (a warning and a note, not an error), a `cat -n` listing with typographic quotes (two
// notes, no warnings), a paste cut inside its last table header (`*n`: a note that it is read as *nat, and the
// missing COMMIT), a dump copied from a page's source (one note), ipvsadm's "No such service" (a warning), kube-proxy's JSON log of its restore input as base64, saved as a .log, and with
// kubePacketPath.detectLanguage `ask` such a log offered in a notification in both languages.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiCheck, UiContext } from './check';
import {
  closeAllEditors,
  openFile,
  problemRows,
  runCommand,
  setEnumSetting,
  settle,
  statusBarLanguage,
} from './workbench';

const CUT = 'ticket-cut-off.iptables';
/** iptables-save of filter, then the nat table's header cut to `*n` by the end of the paste. */
const CUT_HEADER = 'ticket-cut-at-nat.iptables';
/** `cat -n` of a save dump whose quotes a word processor made typographic. */
const NUMBERED = 'ticket-numbered.txt';
/** A save dump copied from a web page's source: its quotes and arrows are HTML character references. */
const PAGE_SOURCE = 'ticket-page-source.txt';
/** ipvsadm asked for a virtual service the node does not have: its answer is a warning, not prose. */
const NO_SUCH_SERVICE = 'ipvsadm-no-such-service.ipvs';
/** A terminal transcript: a DNAT rule inserted, iptables-save -t nat (showing it), then a flush typed after. */
const TRANSCRIPT = 'ticket-transcript.txt';
/** kube-proxy's JSON log (zap) with the restore input as base64. */
const JSON_LOG = 'kube-proxy-json.log';
/** kube-proxy logs of other nodes, offered once each (an answer is remembered per file). */
const OFFERED_LOG = 'kube-proxy-node-b.log';
const OFFERED_LOG_ZH = 'kube-proxy-node-c.log';

/** What every check leaves behind: no editor, no panel, the display language back to auto. */
async function leaveAsFound(page: Page): Promise<void> {
  await setEnumSetting(page, 'kubePacketPath.language', 'auto');
  await closeAllEditors(page);
  await runCommand(page, 'View: Hide Panel');
}

/**
 * Opens `file`, waits until it reads as a dump, and for each display language waits for the Problems row `noted`,
 * takes the screenshot `shot` and hands the rows to `check`.
 */
async function problemsInEachLanguage(
  { page, screenshot, log }: UiContext,
  file: string,
  languages: [lang: 'auto' | 'zh-CN', noted: RegExp, shot: string][],
  check: (rows: string[]) => void,
  language = 'iptables dump',
): Promise<void> {
  await openFile(page, file);
  await settle(
    () => statusBarLanguage(page),
    (l) => l === language,
    60_000,
  );
  try {
    for (const [lang, noted, shot] of languages) {
      await setEnumSetting(page, 'kubePacketPath.language', lang);
      const rows = await problemRows(page, (all) => all.some((r) => noted.test(r)));
      log(`problems (${lang}): ${rows.join(' | ')}`);
      await screenshot(shot, page.locator('.markers-panel'));
      check(rows);
    }
  } finally {
    await leaveAsFound(page);
  }
}

export const checks: UiCheck[] = [
  {
    name: 'a paste cut inside its last rule: Problems says the text ends inside it, and its missing value is a warning',
    async run({ page, screenshot, log }) {
      await openFile(page, CUT);
      const rows = await problemRows(page, (all) => all.some((r) => r.includes('The text ends inside this rule')));
      log(`problems: ${rows.join(' | ')}`);
      await screenshot('cut-paste-problems', page.locator('.markers-panel'));
      assert.ok(rows.some((r) => r.includes('The text ends inside this rule (the paste was cut off?)')));
      const value = rows.find((r) => r.includes('--dport expects a value'));
      assert.ok(value, 'the missing value is listed');
      assert.doesNotMatch(value, /^Error/i, 'a warning, not an error');
      await closeAllEditors(page);
      await runCommand(page, 'View: Hide Panel');
    },
  },
  {
    name: 'with kubePacketPath.language zh-CN, the same problems are in Simplified Chinese',
    async run({ page, screenshot, log }) {
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        await openFile(page, CUT);
        const rows = await problemRows(page, (all) => all.some((r) => r.includes('文本在这条规则中间结束')));
        log(`problems: ${rows.join(' | ')}`);
        await screenshot('cut-paste-problems-zh-CN', page.locator('.markers-panel'));
        assert.ok(rows.some((r) => r.includes('--dport 需要一个值')));
      } finally {
        await leaveAsFound(page);
      }
    },
  },
  {
    name: 'cat -n with typographic quotes reads as the dump: Problems shows the two notes and no warning, in both languages',
    async run({ page, screenshot, log }) {
      await openFile(page, NUMBERED);
      await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      const rows = await problemRows(page, (all) => all.some((r) => r.includes('Typographic quotes')));
      log(`problems: ${rows.join(' | ')}`);
      await screenshot('numbered-typographic-problems', page.locator('.markers-panel'));
      assert.ok(rows.some((r) => r.includes('Lines start with line numbers (')));
      // The first row is the file's own (`2 problems in file ...`).
      const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
      assert.equal(problems.length, 2);
      assert.ok(
        problems.every((r) => r.startsWith('Info')),
        'notes only',
      );
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        const zh = await problemRows(page, (all) => all.some((r) => r.includes('排版引号')));
        log(`problems (zh-CN): ${zh.join(' | ')}`);
        await screenshot('numbered-typographic-problems-zh-CN', page.locator('.markers-panel'));
        assert.ok(zh.some((r) => r.includes('各行以行号开头')));
      } finally {
        await leaveAsFound(page);
      }
    },
  },
  {
    name: 'a paste ending in a cut table header (`*n`): a note that it is read as *nat, and the missing COMMIT, in both languages',
    run: (ctx) =>
      problemsInEachLanguage(
        ctx,
        CUT_HEADER,
        [
          ['auto', /`\*n` is read as `\*nat`/, 'cut-table-header-problems'],
          ['zh-CN', /`\*n` 按 `\*nat` 读取/, 'cut-table-header-problems-zh-CN'],
        ],
        (rows) => {
          // On the last line: the header read as nat is a note; the table it opens has no COMMIT, a warning.
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 2, problems.join(' | '));
          assert.ok(
            problems.some((r) => /^Info: .*\*nat.* at line 17 /.test(r)),
            problems.join(' | '),
          );
          assert.ok(
            problems.some((r) => /^Warning: .*\bnat\b.* at line 17 /.test(r)),
            problems.join(' | '),
          );
        },
      ),
  },
  {
    name: "a dump copied from a page's source (&quot;, &gt;) reads as the dump: one note, in both languages, and no warning",
    run: (ctx) =>
      problemsInEachLanguage(
        ctx,
        PAGE_SOURCE,
        [
          ['auto', /HTML character references/, 'page-source-problems'],
          ['zh-CN', /HTML 字符引用/, 'page-source-problems-zh-CN'],
        ],
        (rows) => {
          // The quoted comments are read whole: no rule is left with a stray word, so the note is the only row.
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 1, problems.join(' | '));
          assert.ok(problems[0].startsWith('Info'));
        },
      ),
  },
  {
    name: 'ipvsadm -Ln -t answering "No such service": a warning that the node has no such virtual service, in both languages',
    run: (ctx) =>
      problemsInEachLanguage(
        ctx,
        NO_SUCH_SERVICE,
        [
          ['auto', /no virtual service/, 'ipvsadm-no-such-service-problems'],
          ['zh-CN', /没有.*虚拟服务/, 'ipvsadm-no-such-service-problems-zh-CN'],
        ],
        (rows) => {
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 1, problems.join(' | '));
          assert.match(problems[0], /^Warning: .*"No such service".* at line 8 /);
        },
        'IPVS dump',
      ),
  },
  {
    name: 'a terminal transcript: the commands before and after the iptables-save are notes (not applied), in both languages',
    run: (ctx) =>
      problemsInEachLanguage(
        ctx,
        TRANSCRIPT,
        [
          ['auto', /iptables -F is not applied/, 'transcript-problems'],
          ['zh-CN', /iptables -F 未被应用/, 'transcript-problems-zh-CN'],
        ],
        (rows) => {
          // Two notes, on the command lines; the saved rules read as they are (no duplicate-rule warning).
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 2, problems.join(' | '));
          assert.ok(
            problems.every((r) => r.startsWith('Info')),
            problems.join(' | '),
          );
          assert.match(problems.join('\n'), /-I .* at line 1 [\s\S]*-F .* at line 48 /);
        },
      ),
  },
  {
    name: "kube-proxy's JSON log of its restore input as base64, saved as .log, reads as the dump on the log's line 2",
    run: (ctx) =>
      problemsInEachLanguage(
        ctx,
        JSON_LOG,
        [
          ['auto', /A kube-proxy log/, 'base64-log-problems'],
          ['zh-CN', /kube-proxy 的日志/, 'base64-log-problems-zh-CN'],
        ],
        // Its Service without endpoints is a warning on the log line that carried the input.
        (rows) => assert.ok(rows.some((r) => /^Warning: .*shop\/checkout:p.* at line 2 /.test(r))),
      ),
  },
  {
    name: 'with detectLanguage ask, a kube-proxy .log is offered: "Keep as a log" keeps it a log; in Chinese, 以…打开 switches it',
    async run({ page, screenshot, log }) {
      await setEnumSetting(page, 'kubePacketPath.detectLanguage', 'ask');
      try {
        const answer = async (file: string, asked: string, button: string, shot: string) => {
          await openFile(page, file);
          await runCommand(page, 'Notifications: Show Notifications');
          const offer = page.locator('.notifications-center .notification-list-item', { hasText: asked }).first();
          await offer.waitFor({ state: 'visible', timeout: 60_000 });
          log(`offer: ${(await offer.innerText()).replace(/\s+/g, ' ')}`);
          assert.equal(await statusBarLanguage(page), 'Log', 'offered, not switched');
          await screenshot(shot, page.locator('.notifications-center'));
          await offer.locator('.monaco-button', { hasText: button }).first().click();
          await page.keyboard.press('Escape');
        };
        await answer(OFFERED_LOG, `${OFFERED_LOG} looks like iptables dump`, 'Keep as a log', 'log-offer');
        // Declined: it stays a log, also after the server has long answered.
        await page.waitForTimeout(2_000);
        assert.equal(await statusBarLanguage(page), 'Log');
        await closeAllEditors(page);
        await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
        await answer(
          OFFERED_LOG_ZH,
          `${OFFERED_LOG_ZH} 看起来是 iptables 转储`,
          '以 iptables 转储打开',
          'log-offer-zh-CN',
        );
        const language = await settle(
          () => statusBarLanguage(page),
          (l) => l === 'iptables dump',
          30_000,
        );
        assert.equal(language, 'iptables dump');
      } finally {
        // No panel was opened here (and "View: Hide Panel" is only in the palette while one is shown).
        await closeAllEditors(page);
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await setEnumSetting(page, 'kubePacketPath.detectLanguage', 'always');
      }
    },
  },
];
