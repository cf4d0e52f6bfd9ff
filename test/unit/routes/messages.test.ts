import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routesMessages } from '../../../src/core/i18n/messages/routes';
import { KUBE_PROXY_IPSETS, messageKey, ROUTES_CODES } from '../../../src/core/routes';

test('every routes text exists in both languages and is namespaced', () => {
  assert.deepEqual(Object.keys(routesMessages['zh-CN']).sort(), Object.keys(routesMessages.en).sort());
  for (const key of Object.keys(routesMessages.en)) assert.match(key, /^routes\./);
  for (const lang of ['en', 'zh-CN'] as const)
    for (const [k, v] of Object.entries(routesMessages[lang])) assert.ok(v.trim(), `${lang} ${k}`);
});

test('placeholders match between languages', () => {
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, v] of Object.entries(routesMessages.en))
    assert.deepEqual(names(routesMessages['zh-CN'][k]), names(v), k);
});

test('every diagnostic code has a message, and every kube-proxy set a purpose', () => {
  for (const code of ROUTES_CODES) {
    assert.match(code, /^routes-[a-z-]+$/);
    assert.ok(routesMessages.en[messageKey(code)], code);
  }
  for (const key of Object.values(KUBE_PROXY_IPSETS)) assert.ok(routesMessages.en[key], key);
});
