// The Outline view of a dump: tables, then the Services tree the language server builds.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import { foldView, openFile, runCommand, setEnumSetting, settle, sideBarRows } from './workbench';

export const checks: UiCheck[] = [
  {
    name: 'the Outline view lists the tables and the Services of the dump',
    async run({ page, screenshot, log }) {
      await openFile(page, SAMPLES.iptables);
      await page.keyboard.press('Control+Home');
      await runCommand(page, 'Explorer: Focus on Outline View');
      // Room for the outline: fold the file list above it.
      await foldView(page, 'workspace');
      await settle(
        () => sideBarRows(page),
        (texts) => texts.some((t) => t.includes('*filter')),
        60_000,
      );
      // The tables folded (Left on each), then the Services node opened (Right), with the keyboard.
      const outlineRows = page.locator('.part.sidebar .pane-body .monaco-list-row');
      await outlineRows.filter({ hasText: '*filter' }).first().click();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      const rows = await settle(
        () => sideBarRows(page),
        (texts) => texts.some((t) => t.includes('*nat')) && texts.some((t) => t.includes('Services')),
        30_000,
      );
      const expanded = await settle(
        () => sideBarRows(page),
        (texts) => texts.some((t) => t.includes('demo/web')),
        30_000,
      );
      log(`outline: ${expanded.slice(0, 12).join(' | ')}`);
      await screenshot('outline', { x: 0, y: 0, width: 900, height: 380 });
      assert.ok(
        rows.some((t) => t.includes('*filter')),
        `*filter among: ${rows.join(' | ')}`,
      );
      assert.ok(
        expanded.some((t) => t.includes('demo/web')),
        `demo/web among: ${expanded.join(' | ')}`,
      );
      assert.ok(
        expanded.some((t) => t.includes('default/kubernetes')),
        `default/kubernetes among: ${expanded.join(' | ')}`,
      );
    },
  },
  {
    name: 'the Outline view of an unchanged dump turns Chinese when kubePacketPath.language changes, and back',
    async run({ page, screenshot, log }) {
      // VS Code keeps an outline until the text or the symbol providers change; the document is not touched here, so
      // only the server registering its provider anew on the language change can make the outline ask again.
      const services = (pattern: RegExp) =>
        settle(
          () => sideBarRows(page),
          (texts) => texts.some((t) => pattern.test(t)),
          30_000,
        );
      await services(/2 Services/);
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      let zh: string[];
      try {
        zh = await services(/2 个 Service/);
        log(`outline in zh-CN: ${zh.slice(0, 8).join(' | ')}`);
        await screenshot('outline-zh-CN', { x: 0, y: 0, width: 900, height: 380 });
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
      assert.ok(
        zh.some((t) => /2 个 Service/.test(t)),
        zh.join(' | '),
      );
      const en = await services(/2 Services/);
      assert.ok(
        en.some((t) => /2 Services/.test(t)),
        `back in English: ${en.join(' | ')}`,
      );
    },
  },
];
