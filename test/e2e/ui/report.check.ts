// Diagnose Service... against the seed lab (run.mjs brings it up as root and sets KPP_E2E_LAB): the palette, the
// kubernetes Service, the client pod, and the report with the seed's verdict, shown as Markdown preview.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { UiCheck } from './check';
import { answerQuickInput, closeAllEditors, runCommand, settle } from './workbench';

export const checks: UiCheck[] = [
  {
    name: 'Diagnose Service... on the seed lab opens a report naming the gateway bypass',
    async run({ page, screenshot, log, settingsFile }) {
      if (!process.env.KPP_E2E_LAB) {
        log('skipped: no lab cluster');
        return;
      }
      const settings = fs.readFileSync(settingsFile, 'utf8');
      assert.match(
        settings,
        /"kubePacketPath\.kubeconfig"/,
        `the user settings lost the lab's kubeconfig:\n${settings}`,
      );
      await runCommand(page, 'Kube Packet Path: Diagnose Service...');
      await answerQuickInput(page, 'kubernetes', /kubernetes/);
      await answerQuickInput(page, 'client', /client/);
      // The checks take ~10 s in the pod (a ClusterIP connect that times out, DNS); the report opens beside.
      const line = page.locator('.editor-instance .view-line', { hasText: 'pod-route-bypasses-node' }).first();
      await line.waitFor({ state: 'visible', timeout: 60_000 });
      await screenshot('diagnose-report-markdown');
      await page.keyboard.press('Escape');
      // The same report rendered, as a person reads it: Markdown: Open Preview on the report's editor.
      await line.click();
      await runCommand(page, 'Markdown: Open Preview');
      const rendered = await settle(
        async () => {
          for (const frame of page.frames()) {
            if (frame === page.mainFrame()) continue; // the workbench itself shows the Markdown source
            // Runs in the page: the webview frame's text (no DOM types in this Node project).
            const text = await frame.evaluate('document.body ? document.body.innerText : ""').then(String, () => '');
            if (text.includes('pod-route-bypasses-node') && text.includes('Evidence')) return text;
          }
          return '';
        },
        (text) => text.length > 0,
        30_000,
      );
      log(`report: ${rendered.split('\n').filter(Boolean).slice(0, 4).join(' | ')}`);
      // One wide group for the picture: the dump, the Markdown source and its preview side by side are too narrow.
      await runCommand(page, 'View: Join All Editor Groups');
      await page.mouse.move(900, 700); // no tab tooltip over the picture
      await page.waitForTimeout(1_000);
      await screenshot('diagnose-report', { x: 340, y: 30, width: 1060, height: 560 });
      assert.match(rendered, /pod-route-bypasses-node/);
      assert.match(rendered, /eth1/);
      await closeAllEditors(page);
    },
  },
];
