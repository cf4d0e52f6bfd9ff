// A hover on a Service chain shows the server's explanation in the real workbench.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import { activeEditor, openFile, settle } from './workbench';

const CHAIN = 'KUBE-SVC-XRY76EGRC3BSCIIJ';

export const checks: UiCheck[] = [
  {
    name: 'hovering a KUBE-SVC chain shows which Service it balances',
    async run({ page, screenshot, log }) {
      await openFile(page, SAMPLES.iptables);
      // Reveal the KUBE-SERVICES rule of demo/web (Ctrl+G, line number), then point at the chain name.
      await page.keyboard.press('Control+G');
      await page.keyboard.type('56');
      await page.keyboard.press('Enter');
      const token = activeEditor(page).locator('.view-lines .view-line span span', { hasText: CHAIN }).first();
      await token.waitFor({ state: 'visible', timeout: 30_000 });
      const hover = page.locator('.monaco-hover').filter({ visible: true });
      const text = await settle(
        async () => {
          await token.hover();
          await page.waitForTimeout(800);
          return (await hover.count()) ? (await hover.first().innerText()).replace(/\u00a0/g, ' ') : '';
        },
        (t) => t.includes('demo/web'),
        60_000,
      );
      log(`hover: ${text.slice(0, 160).replace(/\n/g, ' | ')}`);
      await screenshot('hover-service-chain');
      assert.match(text, /load-balancing chain of Service/);
      assert.match(text, /demo\/web:http/);
    },
  },
];
