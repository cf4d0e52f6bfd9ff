import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogs } from '../../../src/core/i18n/catalog';
import { traceMessages } from '../../../src/core/i18n/messages/trace';
import { parseIptables } from '../../../src/core/iptables/parser';
import { formatTraceTree, renderTraceMessage, tracePacket } from '../../../src/core/iptables/trace';
import { kubeProxyDump, saveText, TCP } from './helpers';

const DUMP = parseIptables(
  kubeProxyDump([
    {
      ns: 'default',
      name: 'web',
      clusterIP: '172.16.0.20',
      port: 80,
      endpoints: ['10.244.1.5:8080', '10.244.2.6:8080'],
    },
  ]),
);

describe('trace: readable tree and messages', () => {
  it('prints a tree that branches at the statistic rule, with 1-based lines, verdicts and DNAT targets', () => {
    const r = tracePacket(DUMP, TCP('10.244.9.9', '172.16.0.20', 80, { localAddresses: ['192.168.0.1'] }));
    const text = formatTraceTree(r, 'en');
    const lines = text.trimEnd().split('\n');
    assert.equal(lines[0], 'tcp 10.244.9.9 -> 172.16.0.20:80 (hook prerouting): 2 paths');
    // The shared prefix (PREROUTING -> KUBE-SERVICES) is printed once, then two branches.
    assert.equal(lines.filter((l) => l.includes('nat/PREROUTING:') && l.includes('[jump]')).length, 1);
    assert.equal(lines.filter((l) => /^(├─|└─) /.test(l)).length, 2);
    assert.match(text, /=> ACCEPT with probability 0\.5, DNAT 10\.244\.1\.5:8080, forwarded/);
    assert.match(text, /=> ACCEPT with probability 0\.5, DNAT 10\.244\.2\.6:8080, forwarded/);
    const preroutingStep = r.paths[0].steps[0];
    assert.ok(text.includes(`nat/PREROUTING:${preroutingStep.line + 1} [jump]`));
  });

  it('prints in Chinese, assumptions and warnings included', () => {
    const text = saveText({
      filter: {
        policies: { INPUT: 'ACCEPT', FORWARD: 'ACCEPT', OUTPUT: 'ACCEPT' },
        rules: ['-A FORWARD -m set --match-set BLOCK src -j DROP'],
      },
    });
    const r = tracePacket(parseIptables(text), TCP('10.0.0.1', '10.0.0.2', 80), { lang: 'zh-CN' });
    const out = formatTraceTree(r, 'zh-CN');
    assert.match(out, /条路径/);
    // The ipset fork is not a coin flip: each side is an alternative under its condition.
    assert.match(out, /=> DROP，概率 1\n.*分支：若 src \(10\.0\.0\.1\) 在 ipset BLOCK 中/);
    assert.match(out, /警告：/);
    assert.match(r.paths[0].assumptions[0], /ipset BLOCK/);
    // Codes re-render in the other language without tracing again.
    assert.match(
      renderTraceMessage(r.paths[0].assumptionMessages[0], 'en'),
      /^assumed src \(10\.0\.0\.1\) is in ipset BLOCK$/,
    );
  });

  it('every trace message key exists in both languages, and every code the tracer emits has a text', () => {
    // `.one` forms are English plurals; Chinese reads `.other`.
    assert.deepEqual(
      Object.keys(traceMessages.en)
        .filter((k) => !k.endsWith('.one'))
        .sort(),
      Object.keys(traceMessages['zh-CN']).sort(),
    );
    for (const k of Object.keys(traceMessages.en)) assert.ok(k.startsWith('trace.'), k);
    const text = saveText({
      raw: { policies: { PREROUTING: 'ACCEPT', OUTPUT: 'ACCEPT' }, rules: ['-A PREROUTING -s 10.9.9.9 -j NOTRACK'] },
      nat: {
        policies: { PREROUTING: 'ACCEPT', INPUT: 'ACCEPT', OUTPUT: 'ACCEPT', POSTROUTING: 'ACCEPT' },
        chains: ['X'],
        rules: [
          '-A PREROUTING -m statistic --mode random --probability 0.5 -j DNAT --to-destination 10.0.0.5-10.0.0.6:80',
          '-A PREROUTING -i eth+ -j REDIRECT --to-ports 8080',
          '-A POSTROUTING -m addrtype --src-type LOCAL -j SNAT --to-source 1.1.1.1',
          '-A POSTROUTING -o eth0 -j MASQUERADE',
        ],
      },
      filter: {
        policies: { INPUT: 'ACCEPT', FORWARD: 'DROP', OUTPUT: 'ACCEPT' },
        chains: ['A'],
        rules: [
          '-A FORWARD -j LOG',
          '-A FORWARD -j CONNMARK --save-mark',
          '-A FORWARD -j NOPE',
          '-A FORWARD -j ODD --x 1',
          '-A FORWARD -m statistic --mode nth --every 2 -j A',
          '-A A -j A',
          '-A FORWARD -m frob -j ACCEPT',
          '-A FORWARD -m limit --limit 1/s -j LOG',
          '-A INPUT -p tcp --sport 5 -j REJECT --reject-with tcp-reset',
          '-A INPUT -j NFQUEUE',
        ],
      },
    });
    const dump = parseIptables(text);
    const seen = new Set<string>();
    for (const pkt of [
      TCP('10.0.0.1', '10.0.0.2', 80),
      TCP('10.9.9.9', '10.0.0.2', 80),
      { ...TCP('10.0.0.1', 'bad', 80) },
    ]) {
      const r = tracePacket(dump, pkt);
      formatTraceTree(r, 'zh-CN');
      for (const m of r.warningMessages) seen.add(m.code);
      for (const p of r.paths) {
        for (const m of p.assumptionMessages) seen.add(m.code);
        for (const m of p.givenMessages) seen.add(`if.${m.code.slice('assume.'.length)}`);
        for (const s of p.steps) if (s.noteMessage) seen.add(s.noteMessage.code);
      }
    }
    assert.ok(seen.size > 15, `only ${seen.size} codes exercised`);
    for (const code of seen) {
      assert.ok(`trace.${code}` in catalogs.en, `missing en text for ${code}`);
      assert.ok(`trace.${code}` in catalogs['zh-CN'], `missing zh-CN text for ${code}`);
    }
  });
});
