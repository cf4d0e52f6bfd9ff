import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCreation, type PlannedCreation } from '../../../src/cluster/debug';
import { t } from '../../../src/core/i18n/catalog';

const ephemeral: PlannedCreation = {
  kind: 'ephemeral-container',
  image: 'nicolaka/netshoot',
  namespace: 'shop',
  pod: 'cart-7d9f',
  lifetimeSeconds: 600,
};
const debugPod: PlannedCreation = {
  kind: 'debug-pod',
  image: 'busybox:1.36',
  namespace: 'kube-system',
  node: 'node-b',
};

test('a planned creation names what, where and for how long, in English and in Chinese', () => {
  assert.equal(
    describeCreation('en', ephemeral),
    "add an ephemeral debug container (image nicolaka/netshoot) to pod shop/cart-7d9f; it shares the pod's network and ends by itself after 600 s",
  );
  assert.match(
    describeCreation('en', debugPod),
    /privileged hostNetwork debug pod \(image busybox:1\.36\) on node node-b/,
  );
  for (const c of [ephemeral, debugPod]) {
    const zh = describeCreation('zh-CN', c);
    assert.match(zh, /[\u4e00-\u9fff]/);
    assert.doesNotMatch(zh, /\b(add|create|deleted)\b/);
    assert.ok(zh.includes(c.image));
  }
});

test('the confirmation reads as one sentence around the creation (not "needs to create add ...")', () => {
  const en = t('en', 'ui.pick.create.confirm', { what: describeCreation('en', ephemeral) });
  assert.match(en, /^Kube Packet Path is about to add an ephemeral debug container .* Go ahead\?$/);
  const zh = t('zh-CN', 'ui.pick.create.confirm', { what: describeCreation('zh-CN', debugPod) });
  assert.match(zh, /^Kube Packet Path 将要在节点 node-b 上/);
});
