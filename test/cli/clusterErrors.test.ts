// The cluster commands' error line in the person's language (--lang, or LANG), and `kpp diagnose --help` / --port
// with a protocol. No cluster: a kubeconfig that does not exist and one whose server refuses (127.0.0.1:1). Before,
// the error line was English whatever --lang said, --help was an unknown option and --port 53/tcp a usage error.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/corpus';

const cli = join(repoRoot(), 'bin', 'kpp.js');
const dir = mkdtempSync(join(tmpdir(), 'kpp-cli-errors-'));
const missing = join(dir, 'no-such-kubeconfig');
const refusing = join(dir, 'refusing.kubeconfig');
writeFileSync(
  refusing,
  [
    'apiVersion: v1',
    'kind: Config',
    'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
    'users: [{name: u, user: {token: t}}]',
    'contexts: [{name: x, context: {cluster: c, user: u}}]',
    'current-context: x',
    '',
  ].join('\n'),
);

function kpp(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CHINESE = /[\u4e00-\u9fff]/;

test('a missing kubeconfig: English by default, Chinese with --lang zh-CN or LANG=zh_CN.UTF-8', () => {
  const en = kpp(['diagnose', 'svc/web', '--kubeconfig', missing]);
  assert.equal(en.code, 2);
  assert.equal(
    en.stderr,
    `kpp diagnose: kubeconfig ${missing} does not exist (check the --kubeconfig path or the kubePacketPath.kubeconfig setting)\n`,
  );
  for (const [args, env] of [
    [['--lang', 'zh-CN'], {}],
    [[], { LANG: 'zh_CN.UTF-8' }],
  ] as const) {
    for (const command of [
      ['diagnose', 'svc/web'],
      ['services', '-A'],
      ['capture', 'node/n1'],
    ]) {
      const zh = kpp([...command, '--kubeconfig', missing, ...args], env);
      assert.equal(zh.code, 2, zh.stderr);
      assert.ok(zh.stderr.startsWith(`kpp ${command[0]}: kubeconfig ${missing} 不存在（`), zh.stderr);
      assert.match(zh.stderr, CHINESE);
    }
  }
});

test('a server that refuses: the unreachable line in the chosen language', () => {
  const en = kpp(['diagnose', 'svc/web', '--kubeconfig', refusing]);
  assert.equal(en.code, 2);
  assert.match(en.stderr, /^kpp diagnose: cluster unreachable: .*ECONNREFUSED 127\.0\.0\.1:1 \(is the API server at/);
  const zh = kpp(['diagnose', 'svc/web', '--kubeconfig', refusing, '--lang', 'zh-CN']);
  assert.equal(zh.code, 2);
  assert.match(
    zh.stderr,
    /^kpp diagnose: 无法连接集群：.*ECONNREFUSED 127\.0\.0\.1:1（https:\/\/127\.0\.0\.1:1 上的 API/,
  );
});

test('kpp diagnose --help documents --port with a protocol; --port 53/tcp is accepted, 53/icmp is not', () => {
  const help = kpp(['diagnose', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: kpp diagnose svc\/NAME/);
  assert.match(help.stdout, /--port P .*number\/protocol \(53\/tcp, 53\/udp\)/);
  // Past the option check: it fails on the kubeconfig, not on the port.
  const tcp = kpp(['diagnose', 'svc/kube-dns', '-n', 'kube-system', '--port', '53/tcp', '--kubeconfig', missing]);
  assert.equal(tcp.code, 2);
  assert.match(tcp.stderr, /does not exist/);
  const bad = kpp(['diagnose', 'svc/kube-dns', '--port', '53/icmp', '--kubeconfig', missing]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--port must be a port number or a port name, optionally with \/tcp, \/udp or \/sctp/);
});
