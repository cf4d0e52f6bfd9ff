import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildModel } from '../../../src/core/iptables/model';
import { endpointChainName, serviceChainName } from '../../../src/core/iptables/chainHashes';
import { parseIptables } from '../../../src/core/iptables/parser';
import { parseServiceComment, probabilityEra } from '../../../src/core/iptables/kubeView';

function dumpFor(
  spn: string,
  ip: string,
  port: number,
  endpoints: string[],
  opts: { wrongHash?: boolean } = {},
): string {
  const svc = opts.wrongHash ? 'KUBE-SVC-AAAAAAAAAAAAAAAA' : serviceChainName('KUBE-SVC-', spn, 'tcp');
  const seps = endpoints.map((e) => endpointChainName(spn, 'tcp', e));
  const lines = ['*nat', ':KUBE-SERVICES - [0:0]', `:${svc} - [0:0]`, ...seps.map((s) => `:${s} - [0:0]`)];
  lines.push(
    `-A KUBE-SERVICES -d ${ip}/32 -p tcp -m comment --comment "${spn} cluster IP" -m tcp --dport ${port} -j ${svc}`,
  );
  endpoints.forEach((e, i) => {
    const n = endpoints.length;
    const stat = i < n - 1 ? ` -m statistic --mode random --probability ${(1 / (n - i)).toFixed(10)}` : '';
    lines.push(`-A ${svc} -m comment --comment "${spn} -> ${e}"${stat} -j ${seps[i]}`);
  });
  endpoints.forEach((e, i) => {
    lines.push(`-A ${seps[i]} -s ${e.split(':')[0]}/32 -m comment --comment "${spn}" -j KUBE-MARK-MASQ`);
    lines.push(`-A ${seps[i]} -p tcp -m comment --comment "${spn}" -m tcp -j DNAT --to-destination ${e}`);
  });
  lines.push('COMMIT');
  return lines.join('\n');
}

test('a 3-endpoint Service: cluster IP, port, protocol, endpoints with 1/3 each, hashes verified', () => {
  const m = buildModel(
    parseIptables(
      dumpFor('default/web:http', '172.16.5.5', 80, ['10.244.1.2:8080', '10.244.1.3:8080', '10.244.2.2:8080']),
    ),
  );
  assert.equal(m.kube.mode, 'iptables');
  assert.equal(m.kube.services.length, 1);
  const s = m.kube.services[0];
  assert.equal(s.name, 'default/web:http');
  assert.deepEqual([s.namespace, s.service, s.portName], ['default', 'web', 'http']);
  assert.deepEqual([s.protocol, s.clusterIP, s.port], ['tcp', '172.16.5.5', 80]);
  assert.equal(s.hashVerified, true);
  assert.deepEqual(
    s.endpoints.map((e) => `${e.ip}:${e.port}`),
    ['10.244.1.2:8080', '10.244.1.3:8080', '10.244.2.2:8080'],
  );
  for (const e of s.endpoints) {
    assert.ok(e.share !== undefined && Math.abs(e.share - 1 / 3) < 1e-9, `share ${e.share}`);
    assert.equal(e.hashVerified, true);
  }
  assert.equal(m.kube.serviceByChain.get(s.chain!), s);
});

test('a chain whose name does not match its comment is reported as unverified', () => {
  const m = buildModel(
    parseIptables(dumpFor('default/web:http', '172.16.5.5', 80, ['10.244.1.2:8080'], { wrongHash: true })),
  );
  assert.equal(m.kube.services[0].hashVerified, false);
});

test('filter "has no endpoints" rules make a Service with noEndpoints', () => {
  const m = buildModel(
    parseIptables(
      '*filter\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -d 172.16.9.9/32 -p tcp -m comment --comment "ns/empty:web has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable\nCOMMIT\n',
    ),
  );
  const s = m.kube.services[0];
  assert.equal(s.name, 'ns/empty:web');
  assert.equal(s.noEndpoints, true);
  assert.equal(s.clusterIP, '172.16.9.9');
  assert.equal(s.endpoints.length, 0);
});

test('jump graph: references and callees', () => {
  const m = buildModel(
    parseIptables(dumpFor('default/web:http', '172.16.5.5', 80, ['10.244.1.2:8080', '10.244.1.3:8080'])),
  );
  const svc = m.kube.services[0].chain!;
  assert.equal(m.references('nat', svc).length, 1);
  assert.equal(m.references('nat', svc)[0].chain, 'KUBE-SERVICES');
  assert.equal(m.callees('nat', svc).length, 2);
  assert.equal(m.references('nat', 'KUBE-MARK-MASQ').length, 2);
  const line = m.references('nat', svc)[0].line;
  const tok = m.tokenAt(line, m.references('nat', svc)[0].target!.span.column + 2);
  assert.equal(tok?.kind, 'target');
});

test('probability era: five decimals (old kube-proxy) and ten decimals', () => {
  assert.equal(probabilityEra(0.33332999982), 'five-decimal-probability');
  assert.equal(probabilityEra(0.33333333349), 'ten-decimal-probability');
  assert.equal(probabilityEra(0.5), undefined);
});

test('version hints: KUBE-XLB, KUBE-PROXY-FIREWALL, or-mark', () => {
  const m = buildModel(
    parseIptables(
      '*nat\n:KUBE-XLB-ABC - [0:0]\n:KUBE-MARK-MASQ - [0:0]\n-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000\nCOMMIT\n*filter\n:KUBE-PROXY-FIREWALL - [0:0]\nCOMMIT\n',
    ),
  );
  const codes = m.kube.versionHints.map((h) => h.code).sort();
  assert.deepEqual(codes, ['or-mark', 'proxy-firewall', 'xlb-chains']);
  assert.equal(m.kube.masqueradeMark, '0x4000');
});

test('version hints of a dump with Services: read when asked, the same as when the mode needs them', () => {
  const text = dumpFor('default/web:http', '172.16.5.5', 80, ['10.244.1.2:8080', '10.244.1.3:8080', '10.244.2.2:8080']);
  const ipvsChains = '*nat\n:KUBE-NODE-PORT - [0:0]\n:KUBE-LOAD-BALANCER - [0:0]\nCOMMIT\n';
  const m = buildModel(parseIptables(`${text}\n${ipvsChains}`));
  assert.equal(m.kube.mode, 'iptables');
  // Three endpoints: a ladder of 1/3 (ten decimals) and 1/2; IPVS chains beside them.
  assert.deepEqual(
    m.kube.versionHints.map((h) => h.code),
    ['ipvs-mode', 'ten-decimal-probability'],
  );
  assert.equal(m.kube.versionHints, m.kube.versionHints);
  const ipvs = buildModel(parseIptables(ipvsChains));
  assert.equal(ipvs.kube.mode, 'ipvs');
  assert.deepEqual(
    ipvs.kube.versionHints.map((h) => [h.code, h.line]),
    [['ipvs-mode', 1]],
  );
});

test('an SVL chain declared before its SVC chain: the listed endpoint is verified, the SVL copy is not', () => {
  const spn = 'default/a';
  const svc = serviceChainName('KUBE-SVC-', spn, 'tcp');
  const svl = serviceChainName('KUBE-SVL-', spn, 'tcp');
  const sep = endpointChainName(spn, 'tcp', '10.0.0.1:80');
  const text = [
    '*nat',
    ':KUBE-SERVICES - [0:0]',
    `:${svl} - [0:0]`,
    `:${svc} - [0:0]`,
    `:${sep} - [0:0]`,
    `-A KUBE-SERVICES -d 10.96.0.9/32 -p tcp -m comment --comment "${spn} cluster IP" -m tcp --dport 80 -j ${svc}`,
    `-A ${svl} -m comment --comment "${spn}" -j ${sep}`,
    `-A ${svc} -j ${sep}`,
    `-A ${sep} -p tcp -m tcp -j DNAT --to-destination 10.0.0.1:80`,
    'COMMIT',
  ].join('\n');
  const m = buildModel(parseIptables(text));
  const s = m.kube.services.find((x) => x.name === spn)!;
  assert.deepEqual(
    s.endpoints.map((e) => [e.ip, e.port, e.hashVerified]),
    [['10.0.0.1', 80, true]],
  );
});

test('a ladder cut by grep leaves shares unknown; a whole one keeps them', () => {
  const spn = 'kube-system/kube-dns:dns';
  const whole = dumpFor(spn, '10.96.0.10', 53, ['10.244.0.2:53', '10.244.0.3:53', '10.244.0.4:53']).split('\n');
  const sharesOf = (lines: string[]) =>
    buildModel(parseIptables(lines.join('\n')))
      .kube.services.find((x) => x.name === spn)!
      .endpoints.map((e) => e.share);
  assert.deepEqual(
    sharesOf(whole).map((s) => s?.toFixed(4)),
    ['0.3333', '0.3333', '0.3333'],
  );
  // The first ladder rule (probability 1/3) missing: the other two look like 1/2 and "the rest", but are not.
  const withoutFirst = whole.filter((l) => !/probability 0\.3333/.test(l));
  assert.deepEqual(sharesOf(withoutFirst), [undefined, undefined, undefined]);
  // Only the tail left: it alone would look like 100%.
  const tailOnly = whole.filter((l) => !/probability/.test(l));
  assert.deepEqual(sharesOf(tailOnly), [undefined, undefined, undefined]);
  // The tail missing: the ladder never ends.
  const noTail = whole.filter((l, i) => !(l.includes('-> 10.244.0.4:53') && i > 0));
  assert.ok(sharesOf(noTail).every((s) => s === undefined));
});

test("an endpoint's hash check: true for its own chain, false for a chain of another address, null without an address", () => {
  const spn = 'default/web:http';
  const good = endpointChainName(spn, 'tcp', '10.244.1.2:8080');
  const text = dumpFor(spn, '172.16.5.5', 80, ['10.244.1.2:8080', '10.244.1.3:8080'])
    // The second endpoint chain DNATs to an address its name was not hashed from.
    .replace('--to-destination 10.244.1.3:8080', '--to-destination 10.244.9.9:8080');
  const m = buildModel(parseIptables(text));
  const [first, second] = m.kube.services[0].endpoints;
  assert.deepEqual(
    [first.chain, first.hashVerified, second.ip, second.hashVerified],
    [good, true, '10.244.9.9', false],
  );
  assert.deepEqual(JSON.parse(JSON.stringify(first)), {
    ip: '10.244.1.2',
    port: 8080,
    chain: good,
    probability: 0.5,
    share: 0.5,
    ruleLine: 6,
    dnatLine: 9,
    hashVerified: true,
  });
  assert.equal(m.kube.endpointByChain.get(good)?.endpoint, first);

  // A ladder rule whose endpoint chain is not in the paste, and whose comment has no `-> ip:port`: no address to hash.
  const bare = buildModel(
    parseIptables(
      [
        '*nat',
        `:KUBE-SVC-AAAAAAAAAAAAAAAA - [0:0]`,
        `-A KUBE-SVC-AAAAAAAAAAAAAAAA -m comment --comment "${spn}" -j ${good}`,
        'COMMIT',
      ].join('\n'),
    ),
  );
  const lone = bare.kube.services[0].endpoints[0];
  assert.deepEqual(
    [lone.chain, lone.ip, lone.hashVerified, lone.share, lone.probability],
    [good, '', null, 1, undefined],
  );
});

/** The patterns kube-proxy's comments were read with: the reader by characters must answer as they do. */
function commentByPatterns(comment: string | undefined) {
  if (!comment) return undefined;
  const arrow = /^(\S+?\/\S+?)\s+->\s+(\S+)$/.exec(comment);
  if (arrow) return { spn: arrow[1], endpoint: arrow[2] };
  const m =
    /^(\S+?\/\S+?)(?:\s+(cluster IP|external IP|loadbalancer IP|has no endpoints|has no local endpoints|health check node port))?$/.exec(
      comment,
    );
  if (!m || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[a-z0-9]/.test(m[1])) return undefined;
  return { spn: m[1], ...(m[2] ? { kind: m[2] } : {}) };
}

test('service comments read by characters as the patterns read them (kube-proxy shapes, 40,000 random ones)', () => {
  const known = [
    'ns/svc:p80 cluster IP',
    'kube-system/kube-dns:dns-tcp',
    'default/kubernetes:https -> 10.0.1.11:6443',
    'a/b',
    'a/b  ->\t10.0.0.1:80',
    'a/b -> 10.0.0.1:80 x',
    'a/b ->10.0.0.1:80',
    'ns/svc has no local endpoints',
    'ns/svc has  no endpoints',
    'Ns/svc cluster IP',
    'ns-/svc',
    '/ns/svc',
    'ns/',
    'ns//svc',
    'ns/svc\u00a0cluster IP',
    'kubernetes service portals',
    'masquerade LOCAL traffic for ns-0/svc-0:p0 external destinations',
    '',
    undefined,
  ];
  for (const c of known) assert.deepEqual(parseServiceComment(c), commentByPatterns(c), JSON.stringify(c));
  // Pieces that move the patterns' decisions: slashes, blanks of every kind, the arrow, the kinds' words.
  const pieces = ['a', 'z', '0', '-', '.', '/', ':', 'A', ' ', '  ', '\t', '\u00a0', '\u2028', '->', '>', 'cluster IP'];
  const words = [
    'external IP',
    'loadbalancer IP',
    'has no endpoints',
    'health check node port',
    'ns/svc:p',
    '1.2.3.4:5',
  ];
  let seed = 7;
  const random = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let i = 0; i < 20000; i++) {
    let c = '';
    const length = 1 + random(9);
    for (let k = 0; k < length; k++) c += random(5) === 0 ? words[random(words.length)] : pieces[random(pieces.length)];
    assert.deepEqual(parseServiceComment(c), commentByPatterns(c), JSON.stringify(c));
  }
  // And shaped as kube-proxy writes them, a piece at a time going wrong: a first word, blanks, an arrow or a kind.
  const firsts = ['ns/svc:p', 'n.s/a', 'n-/a', 'a/B', 'ns/', '/a', 'a//b', 'A/b', 'ns/svc:p/x', 'a-b.c/d-e'];
  const blanks = ['', ' ', '  ', '\t', '\u00a0', ' \n'];
  const tails = ['cluster IP', 'cluster  IP', 'has no local endpoints', 'IP', '10.0.0.1:80', '10.0.0.1 :80', ''];
  for (let i = 0; i < 20000; i++) {
    const arrow = random(2) === 0 ? `->${blanks[random(blanks.length)]}` : '';
    const c = `${firsts[random(firsts.length)]}${blanks[random(blanks.length)]}${arrow}${tails[random(tails.length)]}`;
    assert.deepEqual(parseServiceComment(c), commentByPatterns(c), JSON.stringify(c));
  }
});

test('a Service of many endpoints, one step repeated: each endpoint listed once, in ladder order', () => {
  const eps = Array.from({ length: 200 }, (_, i) => `10.244.${i >> 8}.${i & 255}:8080`);
  const text = dumpFor('default/fleet:http', '172.16.9.9', 80, eps);
  // A ladder step pasted twice (a re-run script, a merge) must not list its endpoint twice.
  const repeated = text.split('\n').find((l) => l.includes(`-> ${eps[150]}"`))!;
  const m = buildModel(parseIptables(text.replace(repeated, `${repeated}\n${repeated}`)));
  const s = m.kube.services[0];
  assert.deepEqual(
    s.endpoints.map((e) => `${e.ip}:${e.port}`),
    eps,
  );
  assert.equal(new Set(s.chains.map((c) => c.name)).size, s.chains.length, 'a chain listed twice');
});
