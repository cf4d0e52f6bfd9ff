import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { explainIpvsAt, explainIpvsLine, parseIpvs, type IpvsDump } from '../../../src/core/ipvs';
import { CONNECTIONS, LIST, SAVE, STATS } from './samples';

const CJK = /[\u4e00-\u9fff]/;

/** Hover at the first occurrence of `needle` on `line`. */
function hover(dump: IpvsDump, text: string, line: number, needle: string, lang: 'en' | 'zh-CN' = 'en') {
  const column = text.split('\n')[line].indexOf(needle);
  assert.ok(column >= 0, `${needle} not on line ${line}`);
  return explainIpvsAt(dump, line, column, lang);
}

describe('explain: virtual service lines', () => {
  const text = [
    'TCP  10.96.0.1:443 rr',
    '  -> 172.18.0.2:6443              Masq    1      0          0',
    '  -> 172.18.0.3:6443              Masq    1      0          0',
    '  -> 172.18.0.4:6443              Masq    1      0          0',
    'TCP  10.96.5.5:80 sh',
    '  -> 10.244.1.2:80                Masq    1      0          0',
    '  -> 10.244.1.3:80                Masq    0      5          1',
  ].join('\n');
  const dump = parseIpvs(text);

  it('says scheduler, share per server and kube-ipvs0 binding, in English', () => {
    assert.equal(
      explainIpvsLine(dump, 0, 'en')?.markdown,
      'TCP 10.96.0.1:443, round robin over 3 real servers (33.3% each), bound by kube-proxy to kube-ipvs0.',
    );
    assert.deepEqual(explainIpvsLine(dump, 0)?.span, { line: 0, column: 0, length: 21 });
  });

  it('and in Chinese', () => {
    const zh = explainIpvsLine(dump, 0, 'zh-CN')!.markdown;
    assert.match(zh, CJK);
    assert.match(
      zh,
      /^TCP 10\.96\.0\.1:443：轮询（rr），在 3 个真实服务器之间分配（各占 33.3%），由 kube-proxy 绑定到 kube-ipvs0。$/,
    );
  });

  it('sh is sticky by source address, and weight 0 is draining', () => {
    const sh = hover(dump, text, 4, 'sh')!;
    assert.match(sh.markdown, /source hashing/);
    assert.match(sh.markdown, /each client is sticky to one server/);
    assert.deepEqual(sh.span, { line: 4, column: 18, length: 2 });
    assert.equal(
      explainIpvsLine(dump, 4)!.markdown,
      'TCP 10.96.5.5:80, source hashing to a single real server (10.244.1.2:80); 1 more with weight 0 (draining), bound by kube-proxy to kube-ipvs0.',
    );
    const zeroColumn = text.split('\n')[6].indexOf('0 ');
    const zero = explainIpvsAt(dump, 6, zeroColumn, 'en')!;
    assert.match(zero.markdown, /draining/);
    assert.match(zero.markdown, /no new connections/);
    const zeroZh = explainIpvsAt(dump, 6, zeroColumn, 'zh-CN')!;
    assert.match(zeroZh.markdown, /排空/);
    assert.match(hover(dump, text, 4, 'sh', 'zh-CN')!.markdown, /源地址哈希[\s\S]*按源地址粘滞/);
  });

  it('a real-server line gives forwarding, weight, connections and share', () => {
    assert.equal(
      explainIpvsLine(dump, 1)?.markdown,
      'Real server 172.18.0.2:6443 of TCP 10.96.0.1:443: NAT (Masq), weight 1, 0 active and 0 inactive connections, expected share 33.3% of new connections.',
    );
    assert.match(explainIpvsLine(dump, 6)!.markdown, /weight 0, draining/);
  });
});

describe('explain: tokens', () => {
  const dump = parseIpvs(LIST);

  it('forward methods: Masq = NAT, Route = direct routing, Tunnel = IPIP, Local', () => {
    assert.match(hover(dump, LIST, 5, 'Masq')!.markdown, /NAT/);
    assert.match(hover(dump, LIST, 9, 'Route')!.markdown, /direct routing/);
    assert.match(hover(dump, LIST, 10, 'Tunnel')!.markdown, /IP-in-IP/);
    assert.match(hover(dump, LIST, 12, 'Local')!.markdown, /this node/);
    assert.match(hover(dump, LIST, 9, 'Route', 'zh-CN')!.markdown, /直接路由/);
  });

  it('a tunnel is named by its --tun-type: GUE is no IPIP', () => {
    const save =
      '-A -t 10.96.0.1:443 -s rr\n-a -t 10.96.0.1:443 -r 10.0.0.5:443 -i -w 1 --tun-type gue --tun-port 6080\n-a -t 10.96.0.1:443 -r 10.0.0.6:443 -i -w 1';
    const d = parseIpvs(save);
    assert.match(explainIpvsLine(d, 1, 'en')!.markdown, /GUE tunnel \(Tunnel\)/);
    assert.doesNotMatch(explainIpvsLine(d, 1, 'en')!.markdown, /IPIP/);
    assert.match(explainIpvsLine(d, 1, 'zh-CN')!.markdown, /GUE 隧道/);
    assert.match(explainIpvsLine(d, 2, 'en')!.markdown, /[^E] tunnel \(Tunnel\)/);
  });

  it('persistent, flags, FWM, header, columns', () => {
    assert.match(hover(dump, LIST, 13, '10800')!.markdown, /10800 seconds \(3 h\).*sessionAffinity: ClientIP/);
    assert.match(hover(dump, LIST, 8, 'sh-fallback')!.markdown, /sh-fallback[\s\S]*sh-port/);
    assert.match(hover(dump, LIST, 16, 'FWM')!.markdown, /firewall-mark/);
    assert.match(hover(dump, LIST, 16, '7')!.markdown, /Firewall mark 7 \(0x7\)/);
    assert.match(hover(dump, LIST, 1, 'size')!.markdown, /hash table/);
    assert.match(hover(dump, LIST, 3, 'InActConn')!.markdown, /Column header/);
    assert.match(hover(dump, LIST, 5, '12')!.markdown, /^InActConn 12/);
    assert.match(hover(dump, LIST, 13, 'sip')!.markdown, /Call-ID/);
    assert.match(hover(dump, LIST, 0, 'ipvsadm')!.markdown, /ipvsadm -Ln/);
  });

  it('every token of every sample has a non-empty explanation in both languages', () => {
    for (const text of [LIST, STATS, CONNECTIONS, SAVE]) {
      const d = parseIpvs(text);
      for (const tok of d.tokens) {
        for (const lang of ['en', 'zh-CN'] as const) {
          const e = explainIpvsAt(d, tok.span.line, tok.span.column, lang);
          assert.ok(e && e.markdown.length > 0, `${tok.kind} ${tok.text}`);
          assert.ok(!/ipvs\.[a-z]/.test(e.markdown), `raw key in ${e.markdown}`);
          if (lang === 'zh-CN') assert.match(e.markdown, CJK, `${tok.kind} ${tok.text}: ${e.markdown}`);
        }
      }
    }
  });

  it('counters with suffixes and connection states', () => {
    const stats = parseIpvs(STATS);
    assert.match(hover(stats, STATS, 3, '12K')!.markdown, /InBytes.*12K = about 12,000/);
    // Only the bytes were rounded there: the counts the sentence quotes are exact.
    assert.match(explainIpvsLine(stats, 3)!.markdown, /Counters: 812 connections, 123456 packets in/);
    assert.equal(
      explainIpvsLine(stats, 4)!.markdown,
      'Real server 10.244.0.2:9153 of TCP 10.96.0.10:9153: 400 connections, 60000 packets in, 300000 packets out.',
    );
    const rounded = parseIpvs(
      ['TCP  10.96.0.10:53   12K  5100K  5000K  400M  380M', '  -> 10.244.0.5:53  2K 2500 2400 200000 190000'].join(
        '\n',
      ),
    );
    assert.match(explainIpvsLine(rounded, 0)!.markdown, /Counters: about 12000 connections, 5100000 packets in/);
    assert.match(explainIpvsLine(rounded, 1)!.markdown, /: about 2000 connections, 2500 packets in/);
    assert.match(explainIpvsLine(rounded, 1, 'zh-CN')!.markdown, /约 2000 个连接/);
    const conns = parseIpvs(CONNECTIONS);
    assert.match(hover(conns, CONNECTIONS, 3, 'ESTABLISHED')!.markdown, /connection is open/);
    assert.match(explainIpvsLine(conns, 5)!.markdown, /^Persistence template: client 10\.244\.2\.8:0/);
    assert.match(explainIpvsLine(conns, 3, 'zh-CN')!.markdown, /连接/);
  });

  it('positions outside tokens fall back to the line, blank lines give nothing', () => {
    const d = parseIpvs('TCP  10.96.0.1:443 rr\n\n');
    assert.match(explainIpvsAt(d, 0, 4)!.markdown, /^TCP 10\.96\.0\.1:443, round robin/);
    assert.equal(explainIpvsAt(d, 1, 0), undefined);
    assert.equal(explainIpvsAt(d, 99, 0), undefined);
  });
});
