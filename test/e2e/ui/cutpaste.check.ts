// A paste cut off inside its last rule: the Problems panel says the cut, in English and in Chinese, and the rule's
// missing value is a warning there, not an error.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiCheck } from './check';
import { closeAllEditors, openFile, runCommand, setEnumSetting, settle } from './workbench';

const CUT = 'ticket-cut-off.iptables';

/** The Problems panel's rows (aria labels: severity, message, position) once one passes `accept`. */
async function problemRows(page: Page, accept: (rows: string[]) => boolean): Promise<string[]> {
  await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
  const rows = page.locator('.markers-panel .monaco-list-row');
  return settle(
    async () => (await rows.evaluateAll((all) => all.map((r) => r.getAttribute('aria-label') ?? ''))).filter(Boolean),
    accept,
    60_000,
  );
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
        await closeAllEditors(page);
        await runCommand(page, 'View: Hide Panel');
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
    },
  },
];
