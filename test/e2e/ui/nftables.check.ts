// kube-proxy in nftables mode sends a packet to a Service's chain through a verdict map (`vmap @service-ips`), and from
// there to an endpoint's chain through another (`numgen random mod 2 vmap { ... }`): the call hierarchy of a Service
// chain (Calls: Show Call Hierarchy, the References side bar) follows both maps, callers up to the nat hooks and
// callees down to the endpoints; a hover on the map says the lookup, in English and Chinese.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UiCheck } from './check';
import {
  activeEditor,
  answerQuickInput,
  aroundHover,
  hoverText,
  openFile,
  runCommand,
  setEnumSetting,
  settle,
  SIDE_BAR_WIDTH,
  sideBarRows,
  statusBarLanguage,
  widenSideBar,
} from './workbench';

const RULESET = 'kube-proxy-nftables.nft';
const SERVICE = 'service-C4RT9Q2M-shop/cart/tcp/http';
const ENDPOINTS = [
  'endpoint-A7PLX3VD-shop/cart/tcp/http__10.244.1.14/8080',
  'endpoint-Q9WMB2HT-shop/cart/tcp/http__10.244.2.21/8080',
];

/** The row of a chain: its name, then its table as the row's description (no space between them in the text). */
const rowOf = (rows: string[], chain: string) => rows.find((r) => r.replace(/\s+/g, '') === `${chain}kube-proxy`);

export const checks: UiCheck[] = [
  {
    name: "the call hierarchy of a Service's nft chain follows the verdict maps: callers up to the nat hooks, callees down to its endpoints",
    async run({ page, screenshot, log, workspace }) {
      const lines = readFileSync(join(workspace, RULESET), 'utf8').split('\n');
      await openFile(page, RULESET);
      await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      // The cursor on the Service chain's name where the ruleset declares it.
      const line = lines.findIndex((l) => l.trim().startsWith(`chain ${SERVICE} `)) + 1;
      assert.ok(line > 0, `chain ${SERVICE} in ${RULESET}`);
      await page.keyboard.press('Control+G');
      // Go to Line's column is the one the status bar shows: a tab counts as the tab size (4).
      await answerQuickInput(page, `:${line}:${lines[line - 1].replace(/\t/g, '    ').indexOf(SERVICE) + 3}`);
      await widenSideBar(page);
      try {
        await runCommand(page, 'Calls: Show Call Hierarchy');
        // Callers first: the one rule of `services` that looks the address up in @service-ips.
        const callers = await settle(
          () => sideBarRows(page),
          (rows) => !!rowOf(rows, SERVICE) && !!rowOf(rows, 'services'),
          30_000,
        );
        log(`callers: ${callers.join(' | ')}`);
        // Up one more: `services` is jumped to from the nat hooks' chains.
        await page
          .locator('.part.sidebar .pane-body .monaco-list-row', { hasText: /^services/ })
          .first()
          .click();
        await page.keyboard.press('ArrowRight');
        const up = await settle(
          () => sideBarRows(page),
          (rows) => !!rowOf(rows, 'nat-prerouting') && !!rowOf(rows, 'nat-output'),
          30_000,
        );
        log(`callers of services: ${up.join(' | ')}`);
        await page.mouse.move(900, 600);
        await screenshot('call-hierarchy-incoming', { x: 0, y: 0, width: 1100, height: 460 });
        assert.ok(rowOf(up, 'services'), up.join(' | '));
        assert.ok(rowOf(up, 'nat-prerouting') && rowOf(up, 'nat-output'), up.join(' | '));
        // Nothing calls the Service's chain but the map's rule (not the endpoints, not the hooks directly).
        assert.equal(up.filter((r) => /^endpoint-/.test(r)).length, 0, up.join(' | '));

        await runCommand(page, 'Calls: Show Outgoing Calls');
        const callees = await settle(
          () => sideBarRows(page),
          (rows) => ENDPOINTS.every((e) => rowOf(rows, e)),
          30_000,
        );
        log(`callees: ${callees.join(' | ')}`);
        await page.mouse.move(900, 600);
        await screenshot('call-hierarchy-outgoing', { x: 0, y: 0, width: 1100, height: 460 });
        for (const endpoint of ENDPOINTS) assert.ok(rowOf(callees, endpoint), `${endpoint}: ${callees.join(' | ')}`);
        assert.ok(rowOf(callees, 'mark-for-masquerade'), callees.join(' | '));
      } finally {
        await widenSideBar(page, SIDE_BAR_WIDTH);
      }
    },
  },
  {
    name: 'a hover on the verdict map kube-proxy looks Services up in says the lookup, in both languages',
    async run({ page, screenshot, log, workspace }) {
      // The rule on screen first: the editor draws only the lines in view.
      const lines = readFileSync(join(workspace, RULESET), 'utf8').split('\n');
      await page.keyboard.press('Control+G');
      await answerQuickInput(page, `:${lines.findIndex((l) => l.includes('vmap @service-ips')) + 1}`);
      const map = () =>
        activeEditor(page)
          .locator('.view-lines .view-line', { hasText: 'vmap @service-ips' })
          .first()
          .locator('span span', { hasText: 'service-ips' })
          .first();
      try {
        for (const [lang, said, shot] of [
          [
            'auto',
            /^(?=[\s\S]*Verdict map @service-ips, declared in this table)[\s\S]*looks ip daddr \. meta l4proto \. th dport up in @service-ips and takes the verdict of the element found/,
            'hover-verdict-map',
          ],
          [
            'zh-CN',
            /^(?=[\s\S]*判决映射 @service-ips)[\s\S]*查找 ip daddr \. meta l4proto \. th dport 在 @service-ips 中的元素，并执行其判决/,
            'hover-verdict-map-zh-CN',
          ],
        ] as const) {
          await setEnumSetting(page, 'kubePacketPath.language', lang);
          const { text, hover } = await hoverText(page, map(), (t) => said.test(t));
          log(`hover (${lang}): ${text.replace(/\n+/g, ' | ')}`);
          await screenshot(shot, await aroundHover(hover));
          assert.match(text, said);
          await page.keyboard.press('Escape');
        }
      } finally {
        await page.keyboard.press('Escape');
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await runCommand(page, 'View: Show Explorer');
      }
    },
  },
];
