import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  IPVS_SEMANTIC_TOKEN_TYPES,
  ipvsSemanticTokens,
  ipvsToJson,
  looksLikeIpvs,
  parseIpvs,
} from '../../../src/core/ipvs';
import { ipvsMessages } from '../../../src/core/i18n/messages/ipvs';
import { CONNECTIONS, LIST, MESSY, PERSISTENT_CONN, SAVE, STATS, THRESHOLDS, TIMEOUT } from './samples';

describe('ipvsToJson', () => {
  it('gives exactly the CLI contract and omits absent keys', () => {
    const json = ipvsToJson(parseIpvs(LIST));
    assert.deepEqual(json.services[0], {
      protocol: 'TCP',
      address: '10.96.0.1',
      port: 443,
      scheduler: 'rr',
      flags: [],
      realServers: [
        { address: '192.168.10.11', port: 6443, forward: 'Masq', weight: 1, activeConn: 3, inactConn: 12 },
        { address: '192.168.10.12', port: 6443, forward: 'Masq', weight: 1, activeConn: 2, inactConn: 9 },
        { address: '192.168.10.13', port: 6443, forward: 'Masq', weight: 0, activeConn: 1, inactConn: 4 },
      ],
    });
    assert.deepEqual(json.services[4], {
      protocol: 'FWM',
      fwmark: 7,
      family: 6,
      scheduler: 'mh',
      flags: ['mh-port'],
      realServers: [{ address: 'fd00:10:244:3::7', port: 0, forward: 'Route', weight: 1, activeConn: 0, inactConn: 0 }],
    });
    assert.deepEqual(Object.keys(json.services[3]), [
      'protocol',
      'address',
      'port',
      'scheduler',
      'flags',
      'persistent',
      'pe',
      'realServers',
    ]);
    assert.equal(json.services[1].netmask, '255.255.255.0');
    assert.equal(json.services[3].pe, 'sip');
    assert.equal('family' in json.services[0], false, 'family is given for fwmark services, whose line says it');
    assert.deepEqual(JSON.parse(JSON.stringify(json)), json);
  });

  it('keeps what --thresholds, --persistent-conn and -S tunnel options printed', () => {
    assert.deepEqual(ipvsToJson(parseIpvs(THRESHOLDS)).services[0].realServers[0], {
      address: '172.18.0.2',
      port: 6443,
      activeConn: 7,
      inactConn: 3,
      thresholds: { upper: 100, lower: 50 },
    });
    assert.deepEqual(ipvsToJson(parseIpvs(PERSISTENT_CONN)).services[0].realServers[0], {
      address: '172.18.0.2',
      port: 6443,
      weight: 1,
      activeConn: 2,
      inactConn: 1,
      persistConn: 4,
    });
    const tunnel = parseIpvs(
      '-A -t 10.96.0.1:443 -s rr\n-a -t 10.96.0.1:443 -r 10.0.0.5:443 -i -w 1 --tun-type gue --tun-port 6080 --tun-nocsum',
    );
    assert.deepEqual(ipvsToJson(tunnel).services[0].realServers[0].tunnel, {
      type: 'gue',
      port: 6080,
      flags: ['nocsum'],
    });
  });
});

describe('looksLikeIpvs', () => {
  it('is high for every ipvsadm output and low for other text', () => {
    for (const text of [LIST, STATS, CONNECTIONS, TIMEOUT, SAVE, MESSY])
      assert.ok(looksLikeIpvs(text) >= 0.8, text.slice(0, 40));
    assert.equal(looksLikeIpvs(''), 0);
    assert.equal(looksLikeIpvs('hello world\nnothing here'), 0);
    const iptables =
      '*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y\nCOMMIT';
    assert.ok(looksLikeIpvs(iptables) < 0.3, String(looksLikeIpvs(iptables)));
    assert.ok(looksLikeIpvs('default via 10.0.0.1 dev eth0\n10.0.0.0/24 dev eth0 proto kernel scope link') === 0);
    assert.ok(looksLikeIpvs('TCP  10.0.0.1:80 rr') < looksLikeIpvs(LIST));
  });
});

describe('semantic tokens', () => {
  it('are ordered, do not overlap, use legend types, and mark weight 0', () => {
    const toks = ipvsSemanticTokens(parseIpvs(LIST));
    for (let i = 1; i < toks.length; i++) {
      const a = toks[i - 1].span;
      const b = toks[i].span;
      assert.ok(a.line < b.line || (a.line === b.line && a.column + a.length <= b.column));
    }
    assert.ok(toks.every((t) => IPVS_SEMANTIC_TOKEN_TYPES.includes(t.type)));
    const zero = toks.find((t) => t.kind === 'weight' && t.span.line === 7)!;
    assert.deepEqual(zero.modifiers, ['deprecated']);
    assert.deepEqual(
      toks.filter((t) => t.span.line === 4).map((t) => t.type),
      ['keyword', 'variable', 'number', 'function'],
    );
  });
});

describe('ipvs messages', () => {
  it('every key exists in both languages, is namespaced ipvs.*, and Chinese texts are Chinese', () => {
    const en = Object.keys(ipvsMessages.en).sort();
    const zh = Object.keys(ipvsMessages['zh-CN']).sort();
    assert.deepEqual(zh, en);
    assert.ok(en.every((k) => k.startsWith('ipvs.')));
    const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const k of en) assert.deepEqual(placeholders(ipvsMessages['zh-CN'][k]), placeholders(ipvsMessages.en[k]), k);
    const notChinese = zh.filter((k) => !/[\u4e00-\u9fff]/.test(ipvsMessages['zh-CN'][k]));
    // Only pure templates, names and separators may have no Chinese characters.
    assert.deepEqual(notChinese, [
      'ipvs.fwd.Masq.short',
      'ipvs.line.service',
      'ipvs.line.serviceNoScheduler',
      'ipvs.sep.list',
    ]);
  });
});
