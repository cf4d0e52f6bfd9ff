import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanAge } from './age';
import { convertTo } from './conversion';
import { discoveryFormat, objectFormat } from './media';
import {
  matchesLabels,
  matchesSelection,
  parseFieldSelector,
  parseLabelSelector,
  checkFieldsSupported,
  SelectorError,
} from './selectors';
import type { KubeObject } from './types';

describe('label selectors', () => {
  const web = { app: 'web', tier: 'front' };
  const db = { app: 'db' };
  const cases: [string, boolean, boolean][] = [
    // selector, matches web, matches db
    ['', true, true],
    ['app=web', true, false],
    ['app==web', true, false],
    ['app!=web', false, true],
    ['app in (web, cache)', true, false],
    ['app notin (web)', false, true],
    ['tier', true, false],
    ['!tier', false, true],
    ['tier!=back', true, true], // != matches when the key is absent
    ['app=web,tier=front', true, false],
    ['  app = web ,  tier  ', true, false],
    ['app notin (db),!missing', true, false],
  ];
  for (const [sel, expectWeb, expectDb] of cases) {
    it(`"${sel}"`, () => {
      const reqs = parseLabelSelector(sel);
      assert.equal(matchesLabels(reqs, web), expectWeb);
      assert.equal(matchesLabels(reqs, db), expectDb);
    });
  }

  it('accepts prefixed keys', () => {
    assert.equal(
      matchesLabels(parseLabelSelector('kubernetes.io/service-name=web'), { 'kubernetes.io/service-name': 'web' }),
      true,
    );
  });

  it('accepts an empty value (matches an empty label value)', () => {
    assert.equal(matchesLabels(parseLabelSelector('app='), { app: '' }), true);
    assert.equal(matchesLabels(parseLabelSelector('app='), web), false);
  });

  for (const bad of ['app in ()', 'app in web', 'app=we b', '=web', 'app ~ web', 'app=web,']) {
    it(`rejects "${bad}"`, () => assert.throws(() => parseLabelSelector(bad), SelectorError));
  }
});

describe('field selectors', () => {
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'shop' },
    spec: { nodeName: 'node-a' },
    status: { phase: 'Running' },
  };
  const sel = (text: string) => ({ labels: [], fields: parseFieldSelector(text) });

  it('matches metadata.name, metadata.namespace, spec.nodeName, status.phase', () => {
    assert.equal(matchesSelection(sel('metadata.name=web-1'), pod), true);
    assert.equal(matchesSelection(sel('metadata.namespace==shop,spec.nodeName=node-a'), pod), true);
    assert.equal(matchesSelection(sel('status.phase!=Running'), pod), false);
    assert.equal(matchesSelection(sel('spec.nodeName=node-b'), pod), false);
  });

  it('unescapes values', () => {
    assert.deepEqual(parseFieldSelector('metadata.name=a\\,b,status.phase=x'), [
      { field: 'metadata.name', op: '=', value: 'a,b' },
      { field: 'status.phase', op: '=', value: 'x' },
    ]);
  });

  it('refuses fields the kind cannot be selected by', () => {
    assert.throws(
      () => checkFieldsSupported('Service', parseFieldSelector('spec.nodeName=x')),
      /field label not supported: spec.nodeName/,
    );
    assert.doesNotThrow(() => checkFieldsSupported('Pod', parseFieldSelector('spec.nodeName=x')));
  });

  it('rejects terms without an operator', () => {
    assert.throws(() => parseFieldSelector('metadata.name'), SelectorError);
  });
});

describe('age column', () => {
  const now = Date.parse('2024-01-10T00:00:00Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  const cases: [number, string][] = [
    [5, '5s'],
    [119, '119s'],
    [200, '3m20s'],
    [600, '10m'],
    [3 * 3600 + 5 * 60, '3h5m'],
    [20 * 3600, '20h'],
    [3 * 86400 + 4 * 3600, '3d4h'],
    [30 * 86400, '30d'],
    [(3 * 365 + 10) * 86400, '3y10d'],
  ];
  for (const [seconds, text] of cases)
    it(`${seconds}s -> ${text}`, () => assert.equal(humanAge(ago(seconds), now), text));
  it('handles a missing timestamp', () => assert.equal(humanAge(undefined, now), '<unknown>'));
});

describe('EndpointSlice conversion', () => {
  const v1: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 's', namespace: 'shop' },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'node-a', zone: 'z1', hints: { forZones: [{ name: 'z1' }] } }],
  };

  it('serves v1 as v1beta1 with topology', () => {
    const beta = convertTo(v1, 'v1beta1');
    assert.equal(beta.apiVersion, 'discovery.k8s.io/v1beta1');
    assert.deepEqual(beta.endpoints, [
      {
        addresses: ['10.0.0.1'],
        nodeName: 'node-a',
        topology: { 'kubernetes.io/hostname': 'node-a', 'topology.kubernetes.io/zone': 'z1' },
      },
    ]);
  });

  it('round-trips v1beta1 topology back to nodeName/zone', () => {
    const back = convertTo(convertTo(v1, 'v1beta1'), 'v1');
    assert.deepEqual(back.endpoints, [{ addresses: ['10.0.0.1'], nodeName: 'node-a', zone: 'z1' }]);
  });
});

describe('content negotiation', () => {
  const kubectlDiscovery =
    'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
  it('answers aggregated discovery only in current mode', () => {
    assert.deepEqual(discoveryFormat(kubectlDiscovery, 'current'), {
      aggregated: true,
      version: 'v2',
      contentType: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
    assert.deepEqual(discoveryFormat(kubectlDiscovery, 'legacy-1.20'), { aggregated: false });
  });
  it('prefers Table when kubectl asks for it, plain JSON otherwise, nothing for protobuf only', () => {
    assert.deepEqual(objectFormat('application/json;as=Table;v=v1;g=meta.k8s.io,application/json'), {
      as: 'Table',
      apiVersion: 'meta.k8s.io/v1',
    });
    assert.deepEqual(objectFormat('application/vnd.kubernetes.protobuf, application/json'), { as: 'object' });
    assert.equal(objectFormat('application/vnd.kubernetes.protobuf'), undefined);
  });
});
