// kubeconfig as kubectl reads it: the KUBECONFIG list merged with the first file winning, missing files skipped,
// an explicit file alone, ~/.kube/config otherwise, and clear errors. Temp files only; no network.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { isClusterError } from '../../../src/cluster/errors';
import { kubeconfigFiles, loadKubeconfig, readContexts } from '../../../src/cluster/kubeconfig';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-kubeconfig-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body);
  return file;
}

const config = (o: {
  current?: string;
  cluster: string;
  server: string;
  user: string;
  ctx: string;
  ns?: string;
  extra?: string;
}) => `apiVersion: v1
kind: Config
${o.current ? `current-context: ${o.current}\n` : ''}clusters:
- name: ${o.cluster}
  cluster:
    server: ${o.server}
    certificate-authority: ca.crt
users:
- name: ${o.user}
  user:
    token: secret-${o.user}
contexts:
- name: ${o.ctx}
  context:
    cluster: ${o.cluster}
    user: ${o.user}
${o.ns ? `    namespace: ${o.ns}\n` : ''}${o.extra ?? ''}`;

const a = write(
  'a/config',
  config({
    current: 'ctx-a',
    cluster: 'shared',
    server: 'https://a.example:6443',
    user: 'u',
    ctx: 'ctx-a',
    ns: 'team-a',
  }),
);
const b = write(
  'b/config',
  config({ current: 'ctx-b', cluster: 'shared', server: 'https://b.example:6443', user: 'u', ctx: 'ctx-b' }),
);
const missing = path.join(dir, 'nope/config');

const rejectsWith = (code: string, message: RegExp) => (e: unknown) => {
  assert.ok(isClusterError(e));
  assert.equal(e.code, code);
  assert.match(e.message, message);
  return true;
};

describe('kubeconfig, kubectl rules', () => {
  it('KUBECONFIG: the first file sets current-context and wins each duplicate name; missing files are skipped', async () => {
    const env = { KUBECONFIG: [missing, a, b, a].join(path.delimiter) };
    const files = kubeconfigFiles({ env });
    assert.deepEqual(files.files, [a, b]);
    assert.deepEqual(files.skipped, [missing]);
    const k = await loadKubeconfig({ env });
    assert.equal(k.context, 'ctx-a');
    assert.equal(k.namespace, 'team-a');
    assert.equal(k.server, 'https://a.example:6443', 'cluster "shared" comes from the first file');
    assert.deepEqual(k.contexts, ['ctx-a', 'ctx-b']);
    // Relative certificate paths are taken relative to the file that names them.
    assert.equal(k.kc.getCluster('shared')?.caFile, path.join(dir, 'a', 'ca.crt'));
  });

  it('the reverse order gives the other current-context', async () => {
    const k = await loadKubeconfig({ env: { KUBECONFIG: [b, a].join(path.delimiter) } });
    assert.equal(k.context, 'ctx-b');
    assert.equal(k.namespace, 'default');
    assert.equal(k.server, 'https://b.example:6443');
  });

  it('a context and namespace chosen by the caller, in memory only', async () => {
    const before = fs.readFileSync(a, 'utf8');
    const k = await loadKubeconfig({
      env: { KUBECONFIG: [a, b].join(path.delimiter) },
      context: 'ctx-b',
      namespace: 'x',
    });
    assert.equal(k.context, 'ctx-b');
    assert.equal(k.namespace, 'x');
    assert.equal(k.kc.getCurrentContext(), 'ctx-b');
    assert.equal(fs.readFileSync(a, 'utf8'), before);
  });

  it('an explicit file is the only one read and must exist', async () => {
    const k = await loadKubeconfig({ kubeconfig: b, env: { KUBECONFIG: a } });
    assert.equal(k.context, 'ctx-b');
    assert.deepEqual(k.files, [b]);
    await assert.rejects(loadKubeconfig({ kubeconfig: missing }), rejectsWith('kubeconfig', /does not exist/));
  });

  it('without KUBECONFIG: ~/.kube/config', async () => {
    const home = path.join(dir, 'home');
    write(
      'home/.kube/config',
      config({ current: 'h', cluster: 'c', server: 'https://h.example', user: 'u', ctx: 'h' }),
    );
    const k = await loadKubeconfig({ env: {}, home });
    assert.equal(k.context, 'h');
    await assert.rejects(
      loadKubeconfig({ env: {}, home: path.join(dir, 'empty-home') }),
      rejectsWith('kubeconfig', /no kubeconfig found/),
    );
  });

  it('names an unknown context, a missing current-context, a broken file', async () => {
    await assert.rejects(
      loadKubeconfig({ kubeconfig: a, context: 'nope' }),
      rejectsWith('kubeconfig', /context "nope" is not in the kubeconfig \(contexts: ctx-a\)/),
    );
    const noCurrent = write('nocurrent', config({ cluster: 'c', server: 'https://x', user: 'u', ctx: 'only' }));
    await assert.rejects(
      loadKubeconfig({ kubeconfig: noCurrent }),
      rejectsWith('kubeconfig', /names no current context \(contexts: only\)/),
    );
    const broken = write('broken', 'clusters: [\n');
    await assert.rejects(loadKubeconfig({ kubeconfig: broken }), rejectsWith('kubeconfig', /cannot be read/));
  });

  it('readContexts lists every context and the current one without choosing', async () => {
    const r = await readContexts({ env: { KUBECONFIG: [b, a].join(path.delimiter) } });
    assert.equal(r.current, 'ctx-b');
    assert.deepEqual(
      r.contexts.map((c) => `${c.name} ${c.namespace ?? '-'}`),
      ['ctx-b -', 'ctx-a team-a'],
    );
  });

  it('never puts a token into an error message', async () => {
    const bad = write('badctx', config({ current: 'x', cluster: 'c', server: 'https://x', user: 'u', ctx: 'y' }));
    await assert.rejects(loadKubeconfig({ kubeconfig: bad }), (e: Error) => !e.message.includes('secret-'));
  });
});
