/**
 * Words a dump may contain that are also names on Object.prototype (`constructor`, `toString`, `__proto__`, ...).
 * A lookup table written as an object literal finds those names unless it asks for its own entries only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownEntry } from '../../../src/core/common/own';
import { LANGS, t } from '../../../src/core/i18n/catalog';
import { explainAt } from '../../../src/core/iptables/explain';
import { lintIptables } from '../../../src/core/iptables/lint';
import { buildModel } from '../../../src/core/iptables/model';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { explainIpvsAt, explainIpvsLine, ipvsToJson, lintIpvs, parseIpvs } from '../../../src/core/ipvs';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { proxyView } from '../../../src/core/kube/apiView';
import {
  kubeProxySetInfo,
  parseConntrack,
  parseIpAddr,
  parseIpRoute,
  parseIpset,
  parseRouteN,
} from '../../../src/core/netstate';
import { readRouteNHeader } from '../../../src/core/netstate/routeN';
import { makeSegment, splitWords } from '../../../src/core/netstate/words';

const WORDS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

/** Every token of every line hovered in both languages; no hover may throw or show a bare message key. */
function hoverEverywhere(
  text: string,
  hover: (line: number, column: number, lang: 'en' | 'zh-CN') => { markdown: string } | undefined,
): void {
  text.split('\n').forEach((content, line) => {
    for (let column = 0; column < content.length; column++) {
      for (const lang of LANGS) {
        const md = hover(line, column, lang)?.markdown ?? '';
        assert.doesNotMatch(
          md,
          /function \w*\(|\[native code\]|\[object Object\]|undefined|NaN/,
          `line ${line}:${column} ${lang}: ${md}`,
        );
      }
    }
  });
}

test('ownEntry finds own entries only', () => {
  const table: Record<string, number> = { a: 1, zero: 0 };
  assert.equal(ownEntry(table, 'a'), 1);
  assert.equal(ownEntry(table, 'zero'), 0);
  for (const w of WORDS) assert.equal(ownEntry(table, w), undefined, w);
});

const SAVE = [
  '*nat',
  ':PREROUTING ACCEPT [0:0]',
  ':__proto__ - [0:0]',
  ':constructor - [0:0]',
  ':toString - [0:0]',
  '-A PREROUTING -m __proto__ --constructor 1 -j __proto__',
  '-A PREROUTING -p tcp -m constructor --toString x -j constructor',
  '-A __proto__ -m comment --comment "__proto__/constructor:toString cluster IP" -d 10.0.0.1/32 -p tcp --dport 80 -j toString',
  '-A constructor -j hasOwnProperty',
  '-A toString -m statistic --mode __proto__ --probability 0.5 -j valueOf',
  '-A toString -j DNAT --to-destination __proto__',
  'COMMIT',
  '*__proto__',
  ':constructor ACCEPT [0:0]',
  '-A constructor -p constructor -j __proto__',
  '-A constructor -p tcp --tcp-flags constructor,SYN SYN -j toString',
  'COMMIT',
].join('\n');

test('iptables-save: a jump to the missing chain valueOf ends UNKNOWN with an undefined-chain warning, not a mark step', () => {
  const dump = parseIptables(SAVE);
  const r = tracePacket(dump, { src: '10.1.1.1', dst: '10.0.0.1', dport: 80, proto: 'tcp', hook: 'prerouting' });
  const viaValueOf = r.paths.filter((p) =>
    p.steps.some((s) => s.chain === 'toString' && s.rule.endsWith('-j valueOf') && s.action !== 'fork'),
  );
  assert.equal(viaValueOf.length, 1);
  const [p] = viaValueOf;
  assert.equal(p.verdict, 'UNKNOWN');
  assert.equal(
    p.steps.some((s) => s.action === 'mark'),
    false,
  );
  assert.deepEqual(p.steps.at(-1)?.noteMessage, { code: 'note.undefined-chain', params: { target: 'valueOf' } });
  assert.equal(
    r.warningMessages.some((m) => m.code === 'warn.undefined-chain' && m.params.target === 'valueOf'),
    true,
  );
  // hasOwnProperty is missing too: no path claims kube-proxy marked the packet.
  assert.equal(
    r.paths.some((q) => q.steps.some((s) => s.action === 'mark')),
    false,
  );
  assert.equal(
    r.warningMessages.some((m) => m.code === 'warn.undefined-chain' && m.params.target === 'hasOwnProperty'),
    true,
  );
  assert.equal(
    r.paths.every((q) => q.mark === 0),
    true,
  );
});

test('iptables-save: the other hooks, zh-CN trace texts, lint and every hover take the words as plain names', () => {
  const dump = parseIptables(SAVE);
  for (const hook of ['prerouting', 'output'] as const) {
    for (const lang of LANGS) {
      const r = tracePacket(dump, { src: '10.1.1.1', dst: '10.0.0.1', dport: 80, proto: 'tcp', hook }, { lang });
      assert.ok(r.paths.length > 0);
      for (const text of [
        ...r.warnings,
        ...r.paths.flatMap((p) => [...p.assumptions, ...p.steps.map((s) => s.note ?? '')]),
      ]) {
        assert.doesNotMatch(text, /function \w*\(|\[native code\]|undefined|NaN/, text);
      }
    }
  }
  const model = buildModel(dump);
  for (const lang of LANGS) {
    const found = lintIptables(model, lang);
    const undefinedChains = found.filter((d) => d.code === 'undefined-chain').map((d) => d.span.line);
    assert.deepEqual(undefinedChains, [8, 9, 14, 15], lang);
    for (const d of found) assert.doesNotMatch(d.message, /function \w*\(|\[native code\]/, d.message);
  }
  hoverEverywhere(SAVE, (line, column, lang) => explainAt(model, line, column, lang));
});

test('iptables listing: `recent: constructor` is not read as a recent flag', () => {
  const text = [
    'Chain KUBE-SVC-ABC (1 references)',
    ' pkts bytes target     prot opt in     out     source               destination',
    '    0     0 KUBE-SEP-1  all  --  *      *       0.0.0.0/0            0.0.0.0/0            recent: constructor toString: 5 CHECK name: X',
  ].join('\n');
  const [rule] = parseIptables(text).rules;
  const names = rule.matches.flatMap((m) => m.options.map((o) => o.name));
  for (const n of names) assert.equal(typeof n, 'string');
  assert.equal(
    names.some((n) => WORDS.includes(n)),
    false,
  );
  assert.equal(rule.matches.find((m) => m.module === 'recent')?.options.length ?? 0, 0);
});

test('nft ruleset: verdicts, mark operators, log keys and reject codes named like Object members', () => {
  const text = `table ip constructor {
	chain __proto__ {
		type filter hook input priority toString; policy accept;
		ip saddr 10.0.0.1 constructor
		meta mark set mark valueOf 0x4000 accept
		log constructor "x" flags hasOwnProperty
		reject with icmp type constructor
		jump valueOf
		ip saddr 10.0.0.9 accept
	}
}
`;
  const d = parseIptables(text);
  const targets = d.rules.map((r) => r.target?.name);
  assert.deepEqual(targets, [undefined, undefined, 'LOG', 'REJECT', 'valueOf', 'ACCEPT']);
  // `priority toString` is no named priority, so the base chain is not placed among iptables' tables.
  assert.equal(
    d.diagnostics.some((x) => x.code === 'nft-base-chain-not-traced'),
    true,
  );
  for (const n of targets) assert.notEqual(typeof n, 'function');
  const reject = d.rules.find((r) => r.target?.name === 'REJECT');
  assert.deepEqual(
    reject?.target?.options.map((o) => o.values),
    [['constructor']],
  );
  const model = buildModel(d);
  for (const lang of LANGS) lintIptables(model, lang);
  hoverEverywhere(text, (line, column, lang) => explainAt(model, line, column, lang));
  tracePacket(d, { src: '10.0.0.1', dst: '10.0.0.2', dport: 80, proto: 'tcp', hook: 'prerouting' });
});

const IPVS_LIST = [
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port Scheduler Flags',
  '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
  'TCP  10.96.0.1:443 constructor',
  '  -> 172.18.0.2:6443              Masq    1      0          0',
  'TCP  10.96.0.2:80 toString',
  '  -> 172.18.0.3:80                valueOf 1      0          0',
].join('\n');

test('ipvsadm: a scheduler named constructor or toString is unknown, not explained as a known one', () => {
  const dump = parseIpvs(IPVS_LIST);
  const unknown = lintIpvs(dump).filter((d) => d.code === 'ipvs-unknown-scheduler');
  assert.deepEqual(
    unknown.map((d) => d.span.line),
    [3, 5],
  );
  for (const lang of LANGS) {
    const column = IPVS_LIST.split('\n')[3].indexOf('constructor');
    assert.equal(
      explainIpvsAt(dump, 3, column, lang)?.markdown.split('\n\n')[0],
      t(lang, 'ipvs.sched.unknown', { name: 'constructor' }),
    );
    for (const line of [3, 5])
      assert.doesNotMatch(explainIpvsLine(dump, line, lang)?.markdown ?? '', /ipvs\.sched\.|function \w*\(/);
  }
  hoverEverywhere(IPVS_LIST, (line, column, lang) => explainIpvsAt(dump, line, column, lang));
  const json = JSON.stringify(ipvsToJson(dump));
  assert.doesNotMatch(json, /function|\[native code\]/);
});

test('ipvsadm-save: options and forward methods named like Object members are unknown options', () => {
  const text = [
    '-A -t 10.0.0.1:80 -s constructor',
    '-a -t 10.0.0.1:80 -r 10.244.0.2:80 --constructor -toString',
    '-__proto__ -t 10.0.0.1:80',
  ].join('\n');
  const dump = parseIpvs(text);
  assert.equal(
    lintIpvs(dump).some((d) => d.code === 'ipvs-unknown-scheduler'),
    true,
  );
  hoverEverywhere(text, (line, column, lang) => explainIpvsAt(dump, line, column, lang));
});

test('conntrack: a protocol word constructor is not mapped to a protocol number', () => {
  const { conntrack } = parseConntrack(
    'constructor src=10.0.0.1 dst=10.0.0.2 src=10.0.0.2 dst=10.0.0.1 constructor=1 __proto__',
  );
  assert.equal(conntrack.length, 1);
  assert.equal(conntrack[0].protocol, 'constructor');
  assert.equal(conntrack[0].protocolNumber, undefined);
  const tcp = parseConntrack('tcp src=10.0.0.1 dst=10.0.0.2').conntrack[0];
  assert.equal(tcp.protocolNumber, 6);
});

test('ip route: a table named constructor keeps its name; reserved ids still map', () => {
  const { routes } = parseIpRoute(
    '10.0.0.0/8 dev eth0 table constructor\n10.1.0.0/16 dev eth0 table toString\n10.2.0.0/16 dev eth0 table 255',
  );
  assert.deepEqual(
    routes.map((r) => r.table),
    ['constructor', 'toString', 'local'],
  );
  assert.doesNotMatch(JSON.stringify(routes), /function/);
});

test('route -n: headers named like Object members are other columns', () => {
  const text = [
    'Destination     Gateway         Genmask         Flags constructor __proto__ Use Iface',
    '10.0.2.0        0.0.0.0         255.255.255.0   U     0      0        0 enp0s3',
  ].join('\n');
  const header = readRouteNHeader(splitWords(makeSegment(0, text.split('\n')[0])));
  assert.deepEqual(header, ['destination', 'gateway', 'genmask', 'flags', 'other', 'other', 'use', 'iface']);
  const { routes } = parseRouteN(text);
  assert.equal(routes.length, 1);
  assert.equal(routes[0].destination, '10.0.2.0/24');
  assert.equal(routes[0].dev, 'enp0s3');
  assert.equal(routes[0].metric, undefined);
});

test('ipset and ip addr: set names and keys named like Object members', () => {
  assert.equal(kubeProxySetInfo('constructor'), undefined);
  assert.equal(kubeProxySetInfo('KUBE-CLUSTER-IP')?.canonicalName, 'KUBE-CLUSTER-IP');
  const { ipsets } = parseIpset(
    [
      'Name: constructor',
      'Type: hash:ip',
      'Header: family inet constructor 1',
      'Members:',
      '10.0.0.1 toString 5 __proto__',
    ].join('\n'),
  );
  assert.equal(ipsets.length, 1);
  assert.equal(ipsets[0].name, 'constructor');
  assert.equal(ipsets[0].kubeProxy, undefined);
  const { interfaces } = parseIpAddr(
    [
      '1: constructor: <UP> mtu 1500 toString 3 qdisc noqueue',
      '    inet 10.0.0.1/24 constructor 1 scope global constructor',
    ].join('\n'),
  );
  assert.equal(interfaces[0]?.name, 'constructor');
  assert.equal(interfaces[0].addresses[0]?.address, '10.0.0.1');
});

test('cluster JSON: a port named constructor is a port like any other', () => {
  const snapshot = normaliseCluster({
    kind: 'List',
    items: [
      {
        kind: 'Service',
        metadata: { namespace: 'ns', name: 'svc' },
        spec: { clusterIP: '10.96.0.5', ports: [{ name: 'constructor', port: 80, protocol: 'TCP' }] },
      },
      {
        kind: 'Endpoints',
        metadata: { namespace: 'ns', name: 'svc' },
        subsets: [{ addresses: [{ ip: '10.244.0.2' }], ports: [{ name: 'constructor', port: 8080 }] }],
      },
      {
        kind: 'Endpoints',
        metadata: { namespace: 'ns', name: 'svc' },
        subsets: [{ addresses: [{ ip: '10.244.0.3' }], ports: [{ name: 'constructor', port: 8080 }] }],
      },
    ],
  });
  const portName: string = 'constructor';
  assert.equal(Object.hasOwn(snapshot.endpoints['ns/svc'], portName), true);
  assert.deepEqual(
    snapshot.endpoints['ns/svc'][portName].map((e) => e.ip),
    ['10.244.0.2', '10.244.0.3'],
  );
  const [port] = proxyView(snapshot, 4).ports;
  assert.deepEqual(
    port.endpoints.map((e) => `${e.ip}:${e.port}`),
    ['10.244.0.2:8080', '10.244.0.3:8080'],
  );
  // A Service port without endpoints of its own name finds none, not an inherited member.
  const bare = normaliseCluster({
    kind: 'Service',
    metadata: { namespace: 'ns', name: 'bare' },
    spec: { clusterIP: '10.96.0.6', ports: [{ name: 'constructor', port: 80 }] },
  });
  assert.deepEqual(proxyView(bare, 4).ports[0].endpoints, []);
});

test('i18n: a key spelled like an Object member is not in the catalog', () => {
  for (const lang of LANGS) for (const w of WORDS) assert.equal(t(lang, w), w);
});
