import assert from 'node:assert/strict';
import { test } from 'node:test';
import { netstateMessages } from '../../../src/core/i18n/messages/netstate';
import { KUBE_PROXY_IPSETS, messageKey, ROUTES_CODES } from '../../../src/core/netstate';

test('every routes text exists in both languages and is namespaced', () => {
  assert.deepEqual(Object.keys(netstateMessages['zh-CN']).sort(), Object.keys(netstateMessages.en).sort());
  for (const key of Object.keys(netstateMessages.en)) assert.match(key, /^routes\./);
  for (const lang of ['en', 'zh-CN'] as const)
    for (const [k, v] of Object.entries(netstateMessages[lang])) assert.ok(v.trim(), `${lang} ${k}`);
});

test('placeholders match between languages', () => {
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, v] of Object.entries(netstateMessages.en))
    assert.deepEqual(names(netstateMessages['zh-CN'][k]), names(v), k);
});

test('every diagnostic code has a message, and every kube-proxy set a purpose', () => {
  for (const code of ROUTES_CODES) {
    assert.match(code, /^routes-[a-z-]+$/);
    assert.ok(netstateMessages.en[messageKey(code)], code);
  }
  for (const key of Object.values(KUBE_PROXY_IPSETS)) assert.ok(netstateMessages.en[key], key);
});
