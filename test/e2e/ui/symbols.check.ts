// Breadcrumbs follow the chain a rule belongs to, also in kube-proxy's restore layout where chains interleave
// (a KUBE-POSTROUTING rule once showed "*nat > KUBE-SERVICES"), and the outline counts "1 rule".
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UiCheck } from './check';
import { answerQuickInput, openFile, settle } from './workbench';

const SHOP = 'shop-no-endpoints.iptables';

export const checks: UiCheck[] = [
  {
    name: 'breadcrumbs name the chain of the rule under the cursor where chains interleave',
    async run({ page, screenshot, workspace }) {
      const lines = readFileSync(join(workspace, SHOP), 'utf8').split('\n');
      await openFile(page, SHOP);
      const crumbs = page.locator('.editor-group-container.active .breadcrumbs-control');
      const at = async (prefix: string): Promise<string> => {
        const line = lines.findIndex((l) => l.startsWith(prefix)) + 1;
        assert.ok(line > 0, prefix);
        await page.keyboard.press('Control+G');
        await answerQuickInput(page, `:${line}`);
        return settle(
          async () => (await crumbs.innerText()).replace(/\s+/g, ' ').trim(),
          (t) => t.includes('*nat') || t.includes('*filter'),
          20_000,
        );
      };
      const post = await at('-A KUBE-POSTROUTING -m mark');
      await screenshot('breadcrumbs-restore-layout', { x: 0, y: 30, width: 1000, height: 300 });
      assert.match(post, /\*nat\s*\S*\s*KUBE-POSTROUTING$/, post);
      // In the interleaved ladder: a KUBE-SEP rule between two rules of the KUBE-SVC chain.
      const sep = await at('-A KUBE-SEP-');
      assert.match(sep, /KUBE-SEP-[A-Z0-9]+$/, sep);
      const svc = await at('-A KUBE-SVC-');
      assert.match(svc, /KUBE-SVC-[A-Z0-9]+$/, svc);
    },
  },
];
