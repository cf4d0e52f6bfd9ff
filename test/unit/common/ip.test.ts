import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIp, inCidr, joinHostPort, parseCidr, parseIp, splitHostPort } from '../../../src/core/common/ip';

test('IPv4 and IPv6 parse, format and CIDR membership', () => {
  assert.equal(parseIp('10.0.0.1')?.family, 4);
  assert.equal(parseIp('256.0.0.1'), undefined);
  assert.equal(parseIp('01.2.3.4'), undefined);
  assert.equal(formatIp(parseIp('fd00:0:0:0:0:0:0:1')!), 'fd00::1');
  assert.equal(inCidr('10.244.1.5', '10.244.0.0/16'), true);
  assert.equal(inCidr('10.245.1.5', '10.244.0.0/16'), false);
  assert.equal(inCidr('10.1.2.3', '10.0.0.0/255.0.0.0'), true);
  assert.equal(inCidr('fd00::5', 'fd00::/64'), true);
  assert.equal(inCidr('10.0.0.1', 'fd00::/64'), false);
  assert.equal(parseCidr('10.0.0.0/33'), undefined);
  assert.equal(parseCidr('0.0.0.0/0')?.prefix, 0);
});

test('host:port splitting', () => {
  assert.deepEqual(splitHostPort('10.0.0.1:80'), { host: '10.0.0.1', port: 80 });
  assert.deepEqual(splitHostPort('[fd00::1]:443'), { host: 'fd00::1', port: 443 });
  assert.deepEqual(splitHostPort('fd00::1'), { host: 'fd00::1' });
});

test('host:port joining brackets IPv6 and round-trips with splitting', () => {
  assert.equal(joinHostPort('10.0.0.1', 80), '10.0.0.1:80');
  assert.equal(joinHostPort('fd00::a', 53), '[fd00::a]:53');
  assert.equal(joinHostPort('fd00::a', '?'), '[fd00::a]:?');
  assert.equal(joinHostPort('fd00::a', undefined), 'fd00::a');
  for (const [host, port] of [
    ['10.1.2.3', 8080],
    ['fd00:10:244:1::5', 53],
    ['::1', 0],
  ] as const) {
    assert.deepEqual(splitHostPort(joinHostPort(host, port)), { host, port });
  }
});
