// The cluster half's errors in the person's language: every ClusterError text is a catalog text (English and
// Chinese), `message`/`hint` stay English (logs, tests, contracts) and `messageIn`/`hintIn`/`oneLine(lang)` are what
// the CLI and the extension show. Before, a ClusterError held English sentences only, whatever --lang said.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ClusterError,
  errorText,
  httpError,
  isClusterError,
  kubeconfigFiles,
  timeoutError,
  transportError,
} from '../../../src/cluster';
import { pickPort } from '../../../src/cluster/diagnose';
import { checkPodName } from '../../../src/cluster/validate';
import { catalogs } from '../../../src/core/i18n/catalog';
import { normaliseCluster } from '../../../src/core/kube/objects';
import type { ServiceInfo } from '../../../src/core/kube/types';
import { repoRoot } from '../../helpers/corpus';

const CHINESE = /[\u4e00-\u9fff]/;

function caught(f: () => unknown): ClusterError {
  try {
    f();
  } catch (e) {
    assert.ok(isClusterError(e), String(e));
    return e;
  }
  assert.fail('no error');
}

/** kube-dns as clusters run it: port 53 over UDP and TCP, and metrics. */
const dns: ServiceInfo = normaliseCluster([
  {
    kind: 'Service',
    metadata: { namespace: 'kube-system', name: 'kube-dns' },
    spec: {
      clusterIP: '10.43.0.10',
      selector: { 'k8s-app': 'kube-dns' },
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    },
  },
]).services[0];

describe('ClusterError texts in both languages', () => {
  it('a port the Service lacks: English message and hint as before, Chinese through oneLine("zh-CN")', () => {
    const e = caught(() => pickPort(dns, '8053'));
    assert.equal(e.code, 'not-found');
    assert.equal(
      e.message,
      'Service kube-system/kube-dns has no port 8053 (ports: dns:53/UDP, dns-tcp:53/TCP, metrics:9153/TCP)',
    );
    const zh = e.oneLine('zh-CN');
    assert.match(zh, CHINESE);
    assert.ok(zh.includes('kube-system/kube-dns') && zh.includes('dns-tcp:53/TCP'), zh);
    assert.match(e.hintIn('zh-CN'), /--port/);
    assert.match(e.hintIn('zh-CN'), CHINESE);
    assert.equal(e.oneLine(), e.oneLine('en'));
  });

  it('403, 401, 404, timeouts and an unreachable server read in Chinese with the API text kept as it came', () => {
    const forbidden = httpError(
      403,
      JSON.stringify({ kind: 'Status', message: 'pods "client" is forbidden: User "viewer"', reason: 'Forbidden' }),
      { verb: 'exec into', resource: 'pods/exec', namespace: 'shop', name: 'client' },
    );
    assert.equal(forbidden.code, 'exec-forbidden');
    assert.match(forbidden.message, /^403: you may not exec into pods in shop: pods "client" is forbidden/);
    assert.match(forbidden.messageIn('zh-CN'), /^403：.*（命名空间 shop）：pods "client" is forbidden/);
    const list = httpError(403, '{}', { verb: 'list', resource: 'nodes' });
    assert.equal(list.message, '403: you may not list nodes (cluster-wide)');
    assert.match(list.messageIn('zh-CN'), /整个集群/);
    const refused = httpError(401, '', { verb: 'list', resource: 'pods' }, 'ops');
    assert.match(refused.messageIn('zh-CN'), /401：.*"ops"/);
    const gone = httpError(404, '', { verb: 'get', resource: 'services', namespace: 'shop', name: 'web' });
    assert.equal(gone.message, '404: service shop/web not found');
    assert.match(gone.oneLine('zh-CN'), /找不到 service shop\/web/);
    const slow = timeoutError({ verb: 'list', resource: 'pods', namespace: 'shop' }, 2500);
    assert.equal(slow.message, 'timed out after 2.5 s: list pods in shop');
    assert.match(slow.messageIn('zh-CN'), /2\.5 秒后超时/);
    const down = transportError(
      Object.assign(new Error('connect ECONNREFUSED 10.9.8.7:6443'), { code: 'ECONNREFUSED' }),
      'https://10.9.8.7:6443',
    );
    assert.equal(down.message, 'cluster unreachable: connect ECONNREFUSED 10.9.8.7:6443');
    assert.match(
      down.oneLine('zh-CN'),
      /^无法连接集群：connect ECONNREFUSED 10\.9\.8\.7:6443（.*https:\/\/10\.9\.8\.7:6443.*）$/,
    );
  });

  it('names and kubeconfig paths: the validation and kubeconfig errors too', () => {
    const bad = caught(() => checkPodName('web;rm'));
    assert.equal(bad.message, '"web;rm" is not a valid pod name');
    assert.match(bad.oneLine('zh-CN'), /"web;rm" 不是有效的 Pod 名称/);
    const missing = caught(() => kubeconfigFiles({ kubeconfig: '/nonexistent/kpp-test/config' }));
    assert.equal(missing.code, 'kubeconfig');
    assert.match(missing.oneLine('zh-CN'), /\/nonexistent\/kpp-test\/config 不存在/);
  });

  it('a ClusterError inside another error reads in the same language', () => {
    const inner = httpError(404, '', { verb: 'get', resource: 'pods', namespace: 'shop', name: 'web-0' });
    const outer = new ClusterError('api', errorText('debug-pod-not-deleted', { pod: 'shop/dbg', text: inner }));
    assert.equal(outer.message, 'could not delete debug pod shop/dbg: 404: pod shop/web-0 not found');
    assert.match(outer.messageIn('zh-CN'), /^无法删除调试 Pod shop\/dbg：404：找不到 pod shop\/web-0$/);
  });
});

describe('every ClusterError of src/cluster is a catalog text', () => {
  const dir = join(repoRoot(__dirname), 'src', 'cluster');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));

  it('no ClusterError is built from an English string or template literal', () => {
    // A message from elsewhere (an Error's own text, a variable) is allowed; a sentence written here is not.
    const literal = /new ClusterError\(\s*[^,]+,\s*[`'"]/g;
    const found = files.flatMap((f) => [...f.text.matchAll(literal)].map((m) => `${f.name}: ${m[0]}`));
    assert.deepEqual(found, []);
  });

  it('every errorText / hintText key exists in English and Chinese', () => {
    const keys = new Set<string>();
    for (const f of files)
      for (const m of f.text.matchAll(/\b(error|hint)Text\(\s*'([^']+)'/g)) keys.add(`cluster.${m[1]}.${m[2]}`);
    assert.ok(keys.size > 50, `${keys.size} keys`);
    for (const key of keys) {
      assert.ok(key in catalogs.en, `${key} in en`);
      assert.ok(key in catalogs['zh-CN'], `${key} in zh-CN`);
    }
  });
});
