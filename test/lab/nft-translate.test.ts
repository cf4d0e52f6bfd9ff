/**
 * The nft reader against nft expressions it was not written from: the generator's kube-proxy dump goes through the
 * real `iptables-restore-translate` (iptables' own translation of each match and target into nft), is laid out
 * as `nft list ruleset` prints tables and chains, and must read back as the same Services, ClusterIPs, ports and
 * endpoints (with the same shares) as the iptables-save it came from. The translator only prints; it loads
 * nothing into any kernel. Skips with a message when it is missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { syntheticCluster } from '../../src/core/kube/synthetic';
import { normaliseCluster } from '../../src/core/kube/objects';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { buildModel, type IptablesModel } from '../../src/core/iptables/model';
import { parseIptables } from '../../src/core/iptables/parser';
import { which } from '../helpers/which';

/** `add table/chain/rule` commands laid out as `nft list ruleset` prints them; untranslatable rules are counted. */
function asRuleset(commands: string): { text: string; untranslated: number } {
  const tables = new Map<string, Map<string, string[]>>();
  let untranslated = 0;
  for (const line of commands.split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = /^add table (\w+ \S+)$/.exec(line))) tables.set(m[1], new Map());
    else if ((m = /^add chain (\w+ \S+) (\S+)(?: \{ (.*) \})?$/.exec(line)))
      tables.get(m[1])?.set(m[2], m[3] ? [m[3]] : []);
    else if ((m = /^add rule (\w+ \S+) (\S+) (.*)$/.exec(line))) tables.get(m[1])?.get(m[2])?.push(m[3]);
    else if (/^# -t /.test(line)) untranslated++;
  }
  const out: string[] = [];
  for (const [table, chains] of tables) {
    out.push(`table ${table} {`);
    for (const [chain, rules] of chains) out.push(`\tchain ${chain} {`, ...rules.map((r) => `\t\t${r}`), '\t}', '');
    out.push('}');
  }
  return { text: out.join('\n') + '\n', untranslated };
}

function servicesOf(model: IptablesModel) {
  return model.kube.services
    .map((s) => ({
      name: s.name,
      protocol: s.protocol,
      clusterIP: s.clusterIP,
      port: s.port,
      nodePort: s.nodePort,
      endpoints: s.endpoints.map((e) => `${e.ip}:${e.port} ${e.share?.toFixed(6)}`).sort(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const translate = which('iptables-restore-translate');

test('a kube-proxy dump translated by iptables-restore-translate reads back as the same Services and endpoints', (t) => {
  if (!translate) return t.skip('missing iptables-restore-translate on PATH (iptables-nft provides it)');
  // No session affinity: its `-m recent` has no nft translation (the translator leaves such rules as comments).
  const snapshot = normaliseCluster(
    syntheticCluster({
      services: 60,
      endpointsPerService: 3,
      seed: 5,
      portsPerService: 2,
      nodePortEvery: 4,
      notReadyOneIn: 6,
    }),
  );
  const { text } = generateIptablesRestore(snapshot, {
    clusterCidr: '10.128.0.0/9',
    nodeName: 'node-1',
    nodeIPs: ['192.168.0.11'],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'kpp-nft-'));
  try {
    const file = path.join(dir, 'dump.iptables');
    writeFileSync(file, text);
    const r = spawnSync(translate, ['-f', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(r.status, 0, r.stderr);
    const { text: ruleset, untranslated } = asRuleset(r.stdout);
    assert.equal(untranslated, 0, 'every rule of this dump has a translation');

    const original = buildModel(parseIptables(text));
    const read = buildModel(parseIptables(ruleset));
    assert.equal(read.dump.format, 'nft');
    assert.equal(read.chain('nat', 'PREROUTING')?.policy, 'ACCEPT');
    assert.equal(read.chain('nat', 'PREROUTING')?.rules.length, original.chain('nat', 'PREROUTING')?.rules.length);
    assert.equal(read.dump.rules.length, original.dump.rules.length);
    const want = servicesOf(original);
    assert.ok(want.length >= 100 && want.some((s) => s.nodePort) && want.every((s) => s.endpoints.length > 0));
    assert.deepEqual(servicesOf(read), want);
    // Each rule's expressions were all read: nothing is left as text the tracer cannot follow.
    assert.deepEqual(
      read.dump.diagnostics
        .filter((d) => d.code === 'nft-text-unmapped')
        .map((d) => read.ruleAtLine(d.span.line)?.text),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
