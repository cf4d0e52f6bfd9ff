// ipvsadm's own refusals (libipvs' ipvs_strerror) are answers a person was looking for, not prose around the output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainIpvsLine, looksLikeIpvs, parseIpvs } from '../../../src/core/ipvs';

const HEAD = [
  'IP Virtual Server version 1.2.1 (size=4096)',
  'Prot LocalAddress:Port Scheduler Flags',
  '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
];

const codesOf = (text: string, lang: 'en' | 'zh-CN' = 'en') =>
  parseIpvs(text, { lang }).diagnostics.map((d) => [d.span.line, d.code, d.severity, d.message]);

test('"No such service" after ipvsadm -Ln -t VIP:PORT says the node has no such virtual service', () => {
  for (const answer of ['No such service', 'Service not defined']) {
    const [d, ...rest] = codesOf(['# ipvsadm -Ln -t 10.96.0.50:80', answer].join('\n'));
    assert.deepEqual(rest, []);
    assert.deepEqual(d.slice(0, 3), [1, 'ipvs-no-such-service', 'warning']);
    assert.match(String(d[3]), new RegExp(`"${answer}".*no virtual service`));
    assert.match(String(codesOf(answer, 'zh-CN')[0][3]), /没有.*虚拟服务/);
  }
});

test("ipvsadm's other refusals are warnings that quote it, and the output around them is read as before", () => {
  const refusals = ['Memory allocation problem', 'Permission denied (you must be root)', 'No such destination'];
  const text = [
    ...HEAD,
    'TCP  10.96.0.1:443 rr',
    '  -> 192.168.1.10:6443            Masq    1      0          0',
    ...refusals,
  ];
  const dump = parseIpvs(text.join('\n'));
  assert.equal(dump.services.length, 1);
  assert.equal(dump.services[0].realServers.length, 1);
  assert.deepEqual(
    dump.diagnostics.map((d) => [d.span.line, d.code, d.severity]),
    refusals.map((_, i) => [5 + i, 'ipvs-ipvsadm-error', 'warning']),
  );
  assert.ok(dump.diagnostics.every((d, i) => d.message.includes(`"${refusals[i]}"`)));
  // A sentence that only starts like one is still prose.
  assert.deepEqual(
    parseIpvs('No such services were listed on this node today').diagnostics.map((d) => d.code),
    ['ipvs-text-line'],
  );
});

test('a hover on a refusal explains that refusal, and a refusal alone does not make a text an ipvsadm output', () => {
  const dump = parseIpvs(['# ipvsadm -Ln -t 10.96.0.50:80', 'No such service', 'Memory allocation problem'].join('\n'));
  assert.match(explainIpvsLine(dump, 1)!.markdown, /"No such service".*no virtual service/);
  assert.match(explainIpvsLine(dump, 2)!.markdown, /refused the command.*"Memory allocation problem"/);
  assert.match(explainIpvsLine(parseIpvs("Can't initialize ipvs: Protocol not available"), 0)!.markdown, /ip_vs/);
  assert.equal(looksLikeIpvs('Permission denied (you must be root)'), 0);
  assert.ok(looksLikeIpvs([...HEAD, 'No such service'].join('\n')) > 0.9);
});
