// The Cluster view as a person sees it: opened from the command palette, the lab's context and namespaces as
// rows, a namespace expanded to its Services (run.mjs sets KPP_E2E_LAB when the lab is up).
import * as assert from 'node:assert/strict';
import type { UiCheck } from './check';
import { setEnumSetting, settle, SIDE_BAR_WIDTH, widenSideBar } from './workbench';

export const checks: UiCheck[] = [
  {
    name: 'the Cluster view shows the lab context, namespaces and Services',
    async run({ page, screenshot, log }) {
      if (!process.env.KPP_E2E_LAB) {
        log('skipped: no lab cluster');
        return;
      }
      // The first check of a fresh workbench: a palette opened before the extension's contributions are read lists
      // no such command and does not list it later (a VSIX run waited 30 s for it in vain), so it is opened anew.
      const input = page.locator('.quick-input-widget input');
      const command = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Cluster' }).first();
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 30_000 });
        await input.fill('>Kube Packet Path: Focus on Cluster View');
        const listed = await command
          .waitFor({ state: 'visible', timeout: 20_000 })
          .then(() => true)
          .catch((e: unknown) => {
            if (attempt === 3) throw e;
            return false;
          });
        if (listed) break;
        await page.keyboard.press('Escape');
      }
      await page.keyboard.press('Enter');
      const rows = page.locator('.pane-body .monaco-list-row');
      const seen = await settle(
        async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
        (texts) => texts.some((t) => t.startsWith('kpp-lab')) && texts.some((t) => t.startsWith('default')),
        60_000,
      );
      log(`rows: ${seen.slice(0, 8).join(' | ')}`);
      assert.ok(
        seen.some((t) => t.startsWith('kpp-lab')),
        `context row among: ${seen.join(' | ')}`,
      );
      await page
        .locator('.pane-body .monaco-list-row', { hasText: /^default/ })
        .first()
        .click();
      const services = await settle(
        async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
        (texts) =>
          texts.some((t) => /^web\s*ClusterIP/.test(t)) && texts.some((t) => /^kubernetes\s*ClusterIP/.test(t)),
        30_000,
      );
      // The web Service opened down to its endpoints (pod, node, ready), with room for the rows' descriptions.
      await widenSideBar(page);
      await page.locator('.pane-body .monaco-list-row', { hasText: /^web/ }).first().click();
      await page
        .locator('.pane-body .monaco-list-row', { hasText: /80\/TCP/ })
        .nth(1)
        .click()
        .catch(() => undefined);
      const opened = await settle(
        async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
        (texts) => texts.some((t) => /web-\d/.test(t)),
        15_000,
      );
      log(`web: ${opened.filter((t) => /web-\d|8080/.test(t)).join(' | ')}`);
      await screenshot('cluster-tree', { x: 0, y: 0, width: 600, height: 320 });
      // The same rows in Simplified Chinese as soon as kubePacketPath.language says so (the tree redraws).
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      let zh: string[];
      try {
        zh = await settle(
          async () => (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
          (texts) => texts.some((t) => /就绪 · web-\d/.test(t)),
          30_000,
        );
        log(`web in zh-CN: ${zh.filter((t) => /web-\d/.test(t)).join(' | ')}`);
        await screenshot('cluster-tree-zh-CN', { x: 0, y: 0, width: 600, height: 320 });
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
      await widenSideBar(page, SIDE_BAR_WIDTH);
      assert.ok(
        zh.some((t) => /就绪 · web-\d/.test(t)),
        `a ready endpoint in Chinese among: ${zh.join(' | ')}`,
      );
      assert.ok(
        services.some((t) => /^web\s*ClusterIP \S+ 80\/TCP/.test(t)),
        `web row among: ${services.join(' | ')}`,
      );
    },
  },
];
