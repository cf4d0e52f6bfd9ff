// A dump with one rule pasted thousands of times (a firewall script run in a loop): the editor gets the first
// diagnostics of each code and one that counts the rest, not a message as big as the dump's every duplicate.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSession } from './client';

const REPEATED = 1600;
const SHOWN = 1000;

function repeatedRules(count: number): string {
  const rule = '-A INPUT -s 192.0.2.10/32 -p tcp -m tcp --dport 22 -j ACCEPT';
  return ['*filter', ':INPUT ACCEPT [0:0]', ...Array<string>(count).fill(rule), 'COMMIT', ''].join('\n');
}

for (const [locale, counted] of [
  ['en', /^599 more duplicate-rule problems in this document are not listed here \(the first 1000 are\); kpp lint/],
  ['zh-CN', /^本文档中另有 599 条 duplicate-rule 问题未在此列出（已列出前 1000 条）/],
] as const) {
  test(`thousands of one problem: the first ${SHOWN} reach the editor, then one that counts the rest (${locale})`, async () => {
    const s = await startSession({ locale });
    try {
      s.settings.language = locale;
      const uri = `file:///work/looped-${locale}.iptables`;
      const wait = s.waitDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'duplicate-rule'));
      await s.open(uri, 'iptables', repeatedRules(REPEATED));
      const { diagnostics } = await wait;
      const duplicates = diagnostics.filter((d) => d.code === 'duplicate-rule');
      assert.equal(duplicates.length, SHOWN);
      // The ones shown are the first in the text: lines 4.. (the first copy, line 3, is the original).
      assert.deepEqual([duplicates[0].range.start.line, duplicates[SHOWN - 1].range.start.line], [3, SHOWN + 2]);
      const capped = diagnostics.filter((d) => d.code === 'diagnostics-capped');
      assert.equal(capped.length, 1);
      assert.equal(capped[0].range.start.line, SHOWN + 3, 'at the first problem not listed');
      assert.equal(capped[0].severity, duplicates[0].severity);
      const message = capped[0].message;
      assert.ok(typeof message === 'string');
      assert.match(message, counted);
    } finally {
      await s.close();
    }
  });
}
