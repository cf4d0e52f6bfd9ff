// A hover on a Service chain shows the server's explanation in the real workbench.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import type { Page } from 'playwright-core';
import { activeEditor, aroundHover, hoverText, openFile, setEnumSetting } from './workbench';

const CHAIN = 'KUBE-SVC-XRY76EGRC3BSCIIJ';

/** Points at the demo/web jump on line 56 until the hover's text passes `accept`; returns that text. */
async function hoverChain(page: Page, accept: (text: string) => boolean): Promise<string> {
  await page.keyboard.press('Control+G');
  await page.keyboard.type('56');
  await page.keyboard.press('Enter');
  const token = activeEditor(page).locator('.view-lines .view-line span span', { hasText: CHAIN }).first();
  return (await hoverText(page, token, accept)).text;
}

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
      const { text, hover } = await hoverText(page, token, (t) => t.includes('demo/web'));
      log(`hover: ${text.slice(0, 160).replace(/\n/g, ' | ')}`);
      await screenshot('hover-service-chain', await aroundHover(hover));
      assert.match(text, /load-balancing chain of Service/);
      assert.match(text, /demo\/web:http/);
    },
  },
  {
    name: 'with kubePacketPath.language zh-CN in the user settings, the same hover is in Simplified Chinese',
    async run({ page, screenshot, log }) {
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        await openFile(page, SAMPLES.iptables);
        const text = await hoverChain(page, (t) => /[\u4e00-\u9fff]/.test(t) && t.includes('demo/web'));
        log(`hover: ${text.slice(0, 160).replace(/\n/g, ' | ')}`);
        await screenshot(
          'hover-service-chain-zh-CN',
          await aroundHover(page.locator('.monaco-hover').filter({ visible: true }).first()),
        );
        assert.match(text, /[\u4e00-\u9fff]/, 'Chinese text in the hover');
        assert.match(text, /demo\/web/);
      } finally {
        await page.keyboard.press('Escape');
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
      await openFile(page, SAMPLES.iptables);
      // Back in English for the checks after this one.
      await hoverChain(page, (t) => t.includes('load-balancing chain of Service'));
      await page.keyboard.press('Escape');
    },
  },
];
