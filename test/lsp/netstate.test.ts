/**
 * Linux network state (`netstate`: ip route / ip route get / ip rule / ip addr / conntrack / ipset output) served
 * by the real server over stdio, and the detection request the editor asks before it switches a plain-text
 * document's language.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import {
  DocumentSymbolRequest,
  HoverRequest,
  type DocumentSymbol,
  type Hover,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { DetectLanguageRequest } from '../../src/server/protocol';
import { repoRoot } from '../helpers/corpus';
import { startSession, type LspSession } from './client';

const NETSTATE = `$ ip route
default via 10.0.0.1 dev eth0 proto dhcp metric 100
10.0.0.0/24 dev eth0 proto kernel scope link src 10.0.0.5 frobnicate
blackhole 10.9.0.0/16
$ ip route get 172.16.0.1
172.16.0.1 via 192.168.100.1 dev eth0 src 192.168.100.23 uid 0
    cache
$ ip rule
0:	from all lookup local
32766:	from all lookup main
$ ip addr
2: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default
    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0
    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0
       valid_lft forever preferred_lft forever
$ conntrack -L
tcp      6 431999 ESTABLISHED src=10.244.1.5 dst=10.96.0.1 sport=5555 dport=443 src=10.0.1.11 dst=10.244.1.5 sport=6443 dport=5555 [ASSURED] mark=0 use=1
$ ipset list KUBE-CLUSTER-IP
Name: KUBE-CLUSTER-IP
Type: hash:ip,port
Revision: 5
Header: family inet hashsize 1024 maxelem 65536
Size in memory: 600
References: 2
Number of entries: 1
Members:
10.96.0.1,tcp:443
`;
const LINES = NETSTATE.split('\n');
const lineOf = (prefix: string) => LINES.findIndex((l) => l.startsWith(prefix));
const URI = 'file:///work/pod-network.netstate';
const text = (h: Hover | null) => (h?.contents as MarkupContent | undefined)?.value ?? '';

let s: LspSession;
before(async () => {
  s = await startSession();
});
after(async () => {
  await s.close();
});

test("netstate: the parser's diagnostics are published for the document", async () => {
  const published = await s.open(URI, 'netstate', NETSTATE);
  const unknown = published.diagnostics.find((d) => d.code === 'routes-route-unknown-word');
  assert.ok(unknown, JSON.stringify(published.diagnostics));
  assert.equal(unknown.range.start.line, lineOf('10.0.0.0/24'));
  assert.equal(
    LINES[unknown.range.start.line].slice(unknown.range.start.character, unknown.range.end.character),
    'frobnicate',
  );
});

test('netstate: hovers say what the kernel does with a route, a route lookup, a rule and a flow', async () => {
  const at = async (prefix: string, character = 2) =>
    text(
      await s.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: URI },
        position: { line: lineOf(prefix), character },
      }),
    );
  assert.match(await at('172.16.0.1 via'), /next hop 192\.168\.100\.1/);
  assert.match(await at('default via'), /10\.0\.0\.1/);
  assert.match(await at('blackhole'), /drop|discard/i);
  assert.match(await at('32766:'), /main/);
  assert.match(await at('tcp      6'), /DNAT/);
});

test('netstate: the outline lists routes, lookups, rules, interfaces with addresses, flows and sets', async () => {
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri: URI },
  })) as DocumentSymbol[];
  const byName = new Map(symbols.map((x) => [x.name, x]));
  assert.deepEqual(
    [...byName.keys()],
    [
      'Routes',
      'Route lookups (ip route get)',
      'Policy rules (ip rule)',
      'Interfaces',
      'Connections (conntrack)',
      'IP sets',
    ],
  );
  assert.deepEqual(
    byName.get('Routes')!.children!.map((c) => c.name),
    ['default', '10.0.0.0/24', '10.9.0.0/16'],
  );
  assert.match(byName.get('Routes')!.children![0].detail!, /via 10\.0\.0\.1 dev eth0/);
  const lookup = byName.get('Route lookups (ip route get)')!.children![0];
  assert.equal(lookup.name, '172.16.0.1');
  assert.equal(lookup.range.start.line, lineOf('172.16.0.1 via'));
  assert.equal(byName.get('Policy rules (ip rule)')!.children!.length, 2);
  const eth0 = byName.get('Interfaces')!.children![0];
  assert.equal(eth0.name, 'eth0');
  assert.deepEqual(
    eth0.children!.map((c) => c.name),
    ['10.244.1.5/24'],
  );
  assert.match(byName.get('Connections (conntrack)')!.children![0].name, /^tcp 10\.244\.1\.5:5555 → 10\.96\.0\.1:443$/);
  assert.match(byName.get('Connections (conntrack)')!.children![0].detail!, /DNAT → 10\.0\.1\.11:6443/);
  const set = byName.get('IP sets')!.children![0];
  assert.equal(set.name, 'KUBE-CLUSTER-IP');
  assert.deepEqual(
    set.children!.map((c) => c.name),
    ['10.96.0.1,tcp:443'],
  );
});

test('netstate: the outline and hovers follow the language (zh-CN)', async () => {
  const zh = await startSession({ locale: 'zh-cn' });
  try {
    await zh.open(URI, 'netstate', NETSTATE);
    const symbols = (await zh.connection.sendRequest(DocumentSymbolRequest.type, {
      textDocument: { uri: URI },
    })) as DocumentSymbol[];
    assert.equal(symbols[0].name, '路由');
    const h = await zh.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: URI },
      position: { line: lineOf('172.16.0.1 via'), character: 2 },
    });
    assert.match(text(h), /下一跳/);
  } finally {
    await zh.close();
  }
});

test('detection: dumps behind a shell prompt, the nft sample and ip route get output, each with its language and certainty', async () => {
  const iptables =
    '$ sudo iptables-save\n# Generated by iptables-save v1.8.7\n*nat\n:PREROUTING ACCEPT [0:0]\n:KUBE-SERVICES - [0:0]\n-A PREROUTING -j KUBE-SERVICES\n-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\nCOMMIT\n';
  const ipvs =
    '[root@node ~]# ipvsadm -Ln\nIP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\nTCP  10.96.0.1:443 rr\n  -> 10.0.1.11:6443               Masq    1      0          0\n';
  const nft = readFileSync(path.join(repoRoot(), 'samples', 'kube-proxy-nftables.nft'), 'utf8');
  const routeGet = '172.16.0.1 via 192.168.100.1 dev eth0 src 192.168.100.23 uid 0\n    cache\n';
  const cases: [string, string, string | undefined, string][] = [
    ['iptables-save behind $ sudo', iptables, 'iptables', 'sure'],
    ['ipvsadm -Ln behind [root@node ~]#', ipvs, 'ipvs', 'sure'],
    ['samples/kube-proxy-nftables.nft', nft, 'iptables', 'sure'],
    ['ip route get output', routeGet, 'netstate', 'sure'],
    ['the network-state paste above', NETSTATE, 'netstate', 'sure'],
    [
      'a note that mentions a rule',
      'notes from the incident\nwe tried this:\n-A KUBE-SERVICES -j DROP\n',
      'iptables',
      'likely',
    ],
    ['prose', 'Dear team,\nthe service is down again.\nRegards\n', undefined, 'no'],
    ['an empty text', '', undefined, 'no'],
  ];
  for (const [what, input, languageId, certainty] of cases) {
    const r = await s.connection.sendRequest(DetectLanguageRequest, { text: input });
    assert.equal(r.languageId, languageId, `${what}: ${JSON.stringify(r)}`);
    assert.equal(r.certainty, certainty, `${what}: ${JSON.stringify(r)}`);
  }
});

test('detection: a request without text is an error answer, and the server keeps answering', async () => {
  await assert.rejects(s.connection.sendRequest(DetectLanguageRequest, {} as never), /text/);
  const r = await s.connection.sendRequest(DetectLanguageRequest, {
    text: 'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n',
  });
  assert.equal(r.languageId, 'ipvs');
});
