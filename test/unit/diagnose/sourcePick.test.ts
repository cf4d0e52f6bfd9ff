// Without --from, the pod checked from is a running one of the namespace, not a backend, and ready ones first: a
// pod whose containers crash (CrashLoopBackOff) is Running too but its exec fails, so the verdict was tool-missing
// ("the tool probe could not run") for a pod picked only because its name sorted first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../src/cluster';
import { pickSource } from '../../../src/cluster/diagnose';
import { PLANS, type AddressPlan } from './fixtures';

function podObject(p: AddressPlan, name: string, ip: string, ready: boolean): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: p.svcNamespace, name },
    spec: { nodeName: p.nodeName, containers: [{ name: 'main' }] },
    status: {
      phase: 'Running',
      podIP: ip,
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False' },
        { type: 'ContainersReady', status: ready ? 'True' : 'False' },
      ],
    },
  };
}

for (const p of PLANS) {
  describe(`the pod picked without --from (plan ${p.name})`, () => {
    const crashing = podObject(p, 'a-crashlooping', p.podIP.replace(/\d+$/, '201'), false);
    const client = podObject(p, p.podName, p.podIP, true);
    const backend = podObject(p, '0-backend', p.endpoints[0], true);

    it('a ready pod before a not-ready one that sorts first', () => {
      assert.equal(pickSource([crashing, client], new Set())?.metadata?.name, p.podName);
    });

    it('a not-ready pod still before a backend of the Service', () => {
      assert.equal(pickSource([backend, crashing], new Set([p.endpoints[0]]))?.metadata?.name, 'a-crashlooping');
    });

    it('only not-ready pods: the first by name', () => {
      const other = podObject(p, 'b-also-down', p.podIP.replace(/\d+$/, '202'), false);
      assert.equal(pickSource([other, crashing], new Set())?.metadata?.name, 'a-crashlooping');
    });
  });
}
