// Breadcrumbs follow the chain a rule belongs to, also in kube-proxy's restore layout where chains interleave
// (a KUBE-POSTROUTING rule once showed "*nat > KUBE-SERVICES"); semantic colours tell a Service's chain, an
// endpoint's chain and kube-proxy's fixed chains apart in the default light and dark themes.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UiCheck } from './check';
import type { Page } from 'playwright-core';
import { answerQuickInput, openFile, runCommand, settle } from './workbench';

const SHOP = 'shop-no-endpoints.iptables';

export const checks: UiCheck[] = [
  {
    name: 'breadcrumbs name the chain of the rule under the cursor where chains interleave',
    async run({ page, screenshot, workspace }) {
      const lines = readFileSync(join(workspace, SHOP), 'utf8').split('\n');
      await openFile(page, SHOP);
      const crumbs = page.locator('.editor-group-container.active .breadcrumbs-control');
      const at = async (prefix: string, chain: RegExp): Promise<string> => {
        const line = lines.findIndex((l) => l.startsWith(prefix)) + 1;
        assert.ok(line > 0, prefix);
        await page.keyboard.press('Control+G');
        await answerQuickInput(page, `:${line}`);
        // Separators are icon glyphs: only the printable words are kept. Waits for this line's chain, not the last.
        const text = await settle(
          async () => (await crumbs.innerText()).replace(/[^\x21-\x7e]+/g, ' ').trim(),
          (t) => chain.test(t),
          20_000,
        );
        assert.match(text, chain, `line ${line}: ${lines[line - 1]}`);
        return text;
      };
      await at('-A KUBE-POSTROUTING -m mark', /\*nat KUBE-POSTROUTING$/);
      // No tab tooltip over the breadcrumbs in the picture.
      await page.mouse.move(700, 880);
      await page.waitForTimeout(500);
      await screenshot('breadcrumbs-restore-layout', { x: 0, y: 30, width: 1000, height: 300 });
      // In the interleaved ladder: a KUBE-SEP rule between two rules of the KUBE-SVC chain.
      await at('-A KUBE-SEP-', /\*nat KUBE-SEP-[A-Z0-9]+$/);
      await at('-A KUBE-SVC-', /\*nat KUBE-SVC-[A-Z0-9]+$/);
    },
  },
  {
    name: 'Service, endpoint and kube-proxy chains have three colours in the default light and dark themes',
    async run({ page, screenshot, workspace }) {
      const lines = readFileSync(join(workspace, SHOP), 'utf8').split('\n');
      await openFile(page, SHOP);
      const line = lines.findIndex((l) => l.startsWith('-A KUBE-SVC-') && l.includes('statistic')) + 1;
      await page.keyboard.press('Control+G');
      await answerQuickInput(page, `:${line}`);
      const svc = /^-A (\S+)/.exec(lines[line - 1])![1];
      const sep = /-j (KUBE-SEP-\S+)/.exec(lines[line - 1])![1];
      const colours = (p: Page) =>
        p.evaluate(`(() => {
          const spans = [...document.querySelectorAll('.editor-group-container.active .view-line span span')];
          const colour = (text) => { const s = spans.find((x) => x.textContent === text); return s ? getComputedStyle(s).color : ''; };
          return { service: colour(${JSON.stringify(svc)}), endpoint: colour(${JSON.stringify(sep)}), fixed: colour('KUBE-MARK-MASQ') };
        })()`) as Promise<{ service: string; endpoint: string; fixed: string }>;
      const distinct = (c: { service: string; endpoint: string; fixed: string }) =>
        !!c.service && !!c.endpoint && !!c.fixed && new Set([c.service, c.endpoint, c.fixed]).size === 3;
      const light = await settle(() => colours(page), distinct, 20_000);
      await screenshot('chain-colours-light', { x: 340, y: 60, width: 1000, height: 400 });
      assert.ok(distinct(light), JSON.stringify(light));
      // The dark theme picked as a person does (Preferences: Color Theme), then the light one again.
      try {
        await runCommand(page, 'Preferences: Color Theme');
        await answerQuickInput(page, 'Dark Modern', /Dark Modern/);
        const dark = await settle(
          () => colours(page),
          (c) => distinct(c) && c.service !== light.service,
          20_000,
        );
        await screenshot('chain-colours-dark', { x: 340, y: 60, width: 1000, height: 400 });
        assert.notEqual(dark.service, light.service, 'the dark theme is on');
        assert.ok(distinct(dark), JSON.stringify(dark));
      } finally {
        await runCommand(page, 'Preferences: Color Theme');
        await answerQuickInput(page, 'Light Modern', /Light Modern/);
        await page.waitForTimeout(1_000);
        // Leave no hover behind (a tab's tooltip would cover the next check's clicks).
        await page.mouse.move(700, 880);
        await page.keyboard.press('Escape');
      }
    },
  },
];
