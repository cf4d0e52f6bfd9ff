/**
 * iptables-nft lists nothing of a table nft tools filled and says so on stderr (`iptables v1.8.9 (nf_tables): table
 * `filter' is incompatible, use 'nft' tool.`): a paste with that line leaves the table out, and says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { traceHints } from '../../../src/core/iptables/traceHints';

test("iptables-nft's message that a whole table is nft's is a warning naming the table and the nft command", () => {
  for (const [line, family] of [
    ["iptables v1.8.9 (nf_tables): table `nat' is incompatible, use 'nft' tool.", 'ip'],
    ["ip6tables v1.8.7 (nf_tables): table `nat' is incompatible, use 'nft' tool.", 'ip6'],
    ["iptables-save v1.8.4 (nf_tables): table `nat' is incompatible, use 'nft' tool.", 'ip'],
  ]) {
    const dump = parseIptables(`${line}\n*filter\n:INPUT ACCEPT [0:0]\nCOMMIT\n`);
    assert.deepEqual(
      dump.diagnostics.map((d) => [d.span.line, d.code, d.severity, d.params?.table]),
      [[0, 'nft-incompatible', 'warning', 'nat']],
      line,
    );
    assert.match(dump.diagnostics[0].message, new RegExp(`nft list table ${family} nat`));
  }
  // A chain's message keeps its own form.
  const chain = parseIptables(
    "iptables v1.8.7 (nf_tables): chain `X' in table `filter' is incompatible, use 'nft' tool.\n",
  );
  assert.deepEqual(
    chain.diagnostics.map((d) => [d.code, d.params?.chain]),
    [['nft-incompatible', 'X']],
  );
});

test('a trace through a paste whose nat table iptables could not list says the table is missing', () => {
  const dump = parseIptables(
    "iptables v1.8.9 (nf_tables): table `nat' is incompatible, use 'nft' tool.\n*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n",
  );
  const packet = { src: '10.244.1.5', dst: '10.96.0.1', dport: 443, proto: 'tcp', hook: 'prerouting' } as const;
  const hints = traceHints(buildModel(dump), packet, tracePacket(dump, packet), 'en');
  assert.ok(
    hints.some((h) => /table nat holds rules iptables cannot show \(line 1\)/.test(h)),
    hints.join('\n'),
  );
});
