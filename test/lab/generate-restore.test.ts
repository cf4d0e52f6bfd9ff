/**
 * The generator's output against the real iptables-restore, always inside a private network namespace: first
 * `unshare --net iptables-restore --test` (parse and check every rule against the kernel's extensions), then a real
 * load into a throw-away named namespace, read back with iptables-save. The host's own tables are never touched.
 * Skips with a message when not root or when the binaries are missing.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { syntheticCluster, type SyntheticOptions } from '../../src/core/kube/synthetic';
import { normaliseCluster } from '../../src/core/kube/objects';
import { generateIptablesRestore, type GenerateOptions } from '../../src/core/iptables/generate';
import { which } from '../helpers/which';

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs argv (never a shell string), feeding `input` on stdin; kills it after `timeoutMs`. */
function run(argv: string[], input = '', timeoutMs = 120_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
    child.stdin.on('error', () => undefined); // a tool that exits early closes its stdin; the exit code tells
    child.stdin.end(input);
  });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const tools = {
  unshare: which('unshare'),
  restore: which('iptables-restore'),
  restore6: which('ip6tables-restore'),
  save: which('iptables-save'),
  ip: which('ip'),
};

function skipReason(...needed: (keyof typeof tools)[]): string | undefined {
  if (!isRoot) return 'needs root for network namespaces (run the lab suite as root)';
  const missing = needed.filter((t) => !tools[t]);
  return missing.length ? `missing ${missing.join(', ')} on PATH` : undefined;
}

const MIXED: SyntheticOptions = {
  services: 1000,
  endpointsPerService: 4,
  seed: 11,
  portsPerService: 2,
  nodePortEvery: 5,
  loadBalancerEvery: 7,
  localPolicyEvery: 2,
  affinityEvery: 6,
  externalIPEvery: 9,
  sourceRangesEvery: 2,
  notReadyOneIn: 5,
};
const NODE: GenerateOptions = { clusterCidr: '10.128.0.0/9', nodeName: 'node-1', nodeIPs: ['192.168.0.11'] };

function generate(opts: SyntheticOptions, options: GenerateOptions = NODE) {
  const snapshot = normaliseCluster(syntheticCluster(opts));
  assert.deepEqual(snapshot.issues, []);
  const result = generateIptablesRestore(snapshot, options);
  assert.deepEqual(result.warnings, []);
  return result;
}

test('iptables-restore --test accepts a mixed synthetic cluster (NodePort, LB, Local, affinity, source ranges)', async (t) => {
  const skip = skipReason('unshare', 'restore');
  if (skip) return t.skip(skip);
  const { text, stats } = generate(MIXED);
  assert.ok(stats.natRules > 20_000);
  const r = await run([tools.unshare!, '--net', '--', tools.restore!, '--test'], text);
  assert.equal(r.code, 0, r.stderr);
});

test('iptables-restore --test accepts the kube-proxy layout without builtin jumps, and the by-chain order', async (t) => {
  const skip = skipReason('unshare', 'restore');
  if (skip) return t.skip(skip);
  for (const extra of [
    { builtinJumps: false },
    { order: 'by-chain' as const },
    { masqueradeAll: true, randomFully: true, localhostNodePorts: false },
  ]) {
    const { text } = generate({ ...MIXED, services: 200 }, { ...NODE, ...extra });
    const r = await run([tools.unshare!, '--net', '--', tools.restore!, '--test'], text);
    assert.equal(r.code, 0, `${JSON.stringify(extra)}: ${r.stderr}`);
  }
});

test('ip6tables-restore --test accepts an IPv6 dump', async (t) => {
  const skip = skipReason('unshare', 'restore6');
  if (skip) return t.skip(skip);
  const list = syntheticCluster({ services: 3, endpointsPerService: 2 });
  // Rewrite the synthetic v4 cluster into a single-stack v6 one.
  const v6 = JSON.parse(
    JSON.stringify(list)
      .replace(/"10\.96\.0\.(\d+)"/g, '"fd00:96::$1"')
      .replace(/"10\.128\.0\.(\d+)"/g, '"fd00:128::$1"')
      .replace(/"IPv4"/g, '"IPv6"'),
  );
  const { text } = generateIptablesRestore(normaliseCluster(v6), {
    ...NODE,
    ipFamily: 6,
    clusterCidr: 'fd00:128::/64',
  });
  assert.ok(text.includes('--to-destination [fd00:128::'));
  const r = await run([tools.unshare!, '--net', '--', tools.restore6!, '--test'], text);
  assert.equal(r.code, 0, r.stderr);
});

test('the 10k Services x 5 endpoints benchmark input passes iptables-restore --test', async (t) => {
  const skip = skipReason('unshare', 'restore');
  if (skip) return t.skip(skip);
  const { text, stats } = generate(
    { services: 10_000, endpointsPerService: 5, nodePortEvery: 10 },
    { clusterCidr: '10.128.0.0/9' },
  );
  assert.ok(stats.natRules > 170_000);
  const r = await run([tools.unshare!, '--net', '--', tools.restore!, '--test'], text, 300_000);
  assert.equal(r.code, 0, r.stderr);
});

// A real load needs one namespace for two commands: a named, throw-away one, removed afterwards.
const NETNS_PREFIX = 'kpp-gen-';
const netnsName = `${NETNS_PREFIX}${process.pid}`;
let netnsCreated = false;

async function removeStaleNamespaces(): Promise<void> {
  const list = await run([tools.ip!, 'netns', 'list']);
  for (const line of list.stdout.split('\n')) {
    const name = line.split(' ')[0];
    const pid = Number(name.slice(NETNS_PREFIX.length));
    if (!name.startsWith(NETNS_PREFIX) || !Number.isInteger(pid)) continue;
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await run([tools.ip!, 'netns', 'delete', name]);
  }
}

after(async () => {
  if (netnsCreated) await run([tools.ip!, 'netns', 'delete', netnsName]);
});

test('loaded into a private namespace, iptables-save shows every generated rule', async (t) => {
  const skip = skipReason('ip', 'restore', 'save');
  if (skip) return t.skip(skip);
  await removeStaleNamespaces();
  const add = await run([tools.ip!, 'netns', 'add', netnsName]);
  assert.equal(add.code, 0, add.stderr);
  netnsCreated = true;
  const { text, stats } = generate({ ...MIXED, services: 150 });
  const load = await run([tools.ip!, 'netns', 'exec', netnsName, tools.restore!], text);
  assert.equal(load.code, 0, load.stderr);
  for (const [table, rules, chains] of [
    ['filter', stats.filterRules, stats.filterChains],
    ['nat', stats.natRules, stats.natChains],
  ] as const) {
    const saved = await run([tools.ip!, 'netns', 'exec', netnsName, tools.save!, '-t', table]);
    assert.equal(saved.code, 0, saved.stderr);
    const lines = saved.stdout.split('\n');
    assert.equal(lines.filter((l) => l.startsWith('-A ')).length, rules, `${table} rules`);
    assert.equal(lines.filter((l) => l.startsWith(':')).length, chains, `${table} chains`);
  }
  // iptables-save prints the same rules in its canonical form, e.g. the endpoint DNATs and the probability ladder.
  const nat = (await run([tools.ip!, 'netns', 'exec', netnsName, tools.save!, '-t', 'nat'])).stdout;
  const dnats = text.split('\n').filter((l) => l.includes(' -j DNAT --to-destination ')).length;
  assert.equal(nat.split('\n').filter((l) => l.includes(' -j DNAT --to-destination ')).length, dnats);
  assert.ok(/-m statistic --mode random --probability 0\.\d+/.test(nat));
});
