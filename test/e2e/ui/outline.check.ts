// The Outline view of a dump: tables, then the Services tree the language server builds.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import { foldView, openFile, runCommand, settle, sideBarRows } from './workbench';

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
];
