import assert from 'node:assert/strict';
import { test } from 'node:test';
import { servicePort } from '../../../src/core/common/services';
import { parsePortList, parsePortRange } from '../../../src/core/iptables/trace/values';

test('service names give their ports; unknown names give nothing', () => {
  assert.equal(servicePort('ssh'), 22);
  assert.equal(servicePort('HTTPS'), 443);
  assert.equal(servicePort('domain'), 53);
  assert.equal(servicePort('kube-apiserver'), undefined);
});

test('port values accept names, also with a dash and inside ranges and lists', () => {
  assert.deepEqual(parsePortRange('http-alt'), { lo: 8080, hi: 8080 });
  assert.deepEqual(parsePortRange('ms-sql-s'), { lo: 1433, hi: 1433 });
  assert.deepEqual(parsePortRange('ssh:http'), { lo: 22, hi: 80 });
  assert.deepEqual(parsePortList('domain,https,30000:32767'), [
    { lo: 53, hi: 53 },
    { lo: 443, hi: 443 },
    { lo: 30000, hi: 32767 },
  ]);
  assert.equal(parsePortRange('no-such-service'), undefined);
  assert.equal(parsePortRange('70000'), undefined);
});
