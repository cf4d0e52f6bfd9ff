// Proof that a change keeps `kpp`'s outputs identical: builds the CLI of two commits in throw-away git worktrees
// (never the working tree) and runs every command that needs no cluster (parse, lint, trace, explain, generate,
// usage errors; human and --json, en and zh-CN) on the samples, on dumps generated at several sizes and on the
// shared corpus of real pastes, then compares stdout, stderr and exit code.
//
//   node scripts/compare-outputs.mjs BASE [HEAD] [--rules FILE] [--jobs N] [--quick] [--only REGEX] [--out DIR]
//
// --quick: two generated sizes and a quarter of the corpus; --only: the inputs whose label matches (e.g. samples);
// --jobs: commands run at once (each runs both CLIs); --out: report.txt and every difference in full as JSON;
// --drop-worktrees: remove the two build worktrees afterwards (otherwise they are reused by the next run);
// --spawn: one `node dist/cli.js` process per command, as a user runs it (several times slower). By default each
// build's CLI runs in one worker process that calls the bundle's main() (what bin/kpp.js calls) on a fresh copy of
// the bundle for every command, capturing what it writes.
// BASE and HEAD are commits (HEAD by default: the last commit, not the working tree's edits). A difference is
// printed so that it can be judged; `--rules FILE` names intended text changes (a JSON list of
// { "name", "pattern", "flags", "replace" }): both outputs are rewritten with them and a difference they remove is
// reported as intended under the rule's name instead of as a change. Exit code 1 when a difference remains.
// compare-outputs-intended-2840057.json lists the changes made on purpose since 2840057, each with its commit.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseCli(argv) {
  const opts = {
    commits: [],
    rules: undefined,
    jobs: 2,
    quick: false,
    out: undefined,
    show: 4,
    only: undefined,
    drop: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rules') opts.rules = argv[++i];
    else if (a === '--jobs') opts.jobs = Number(argv[++i]);
    else if (a === '--quick') opts.quick = true;
    else if (a === '--out') opts.out = argv[++i];
    else if (a === '--show') opts.show = Number(argv[++i]);
    else if (a === '--only') opts.only = new RegExp(argv[++i]);
    else if (a === '--drop-worktrees') opts.drop = true;
    else if (a === '--spawn') opts.spawn = true;
    else if (a === '--serve') opts.serve = argv[++i];
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.commits.push(a);
  }
  if (opts.serve) return opts;
  if (opts.commits.length < 1 || opts.commits.length > 2) {
    throw new Error(
      'usage: node scripts/compare-outputs.mjs BASE [HEAD] [--rules FILE] [--jobs N] [--quick] [--out DIR]',
    );
  }
  if (opts.commits.length === 1) opts.commits.push('HEAD');
  return opts;
}

function git(...args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/** A worktree of `commit` under the temp folder with its CLI built; reused when already built. */
function builtCli(commit) {
  const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
  const dir = join(tmpdir(), 'kpp-compare', sha.slice(0, 12));
  const cli = join(dir, 'dist', 'cli.js');
  const marker = join(dir, '.kpp-compare-built');
  if (existsSync(marker) && existsSync(cli)) return { commit, sha, dir, cli };
  if (!existsSync(join(dir, '.git'))) {
    mkdirSync(dirname(dir), { recursive: true });
    git('worktree', 'add', '--detach', dir, sha);
  }
  // The checkout's dependencies: both commits are built with the same installed packages.
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  console.log(`building ${commit} (${sha.slice(0, 9)}) in ${dir}`);
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(cli)) throw new Error(`build of ${commit} failed:\n${r.stdout}${r.stderr}`);
  writeFileSync(marker, `${sha}\n`);
  return { commit, sha, dir, cli };
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs

/** A cluster in kubectl JSON: `services` Services with a mix of the features the generator writes rules for. */
function syntheticCluster(services, endpointsPerService) {
  const items = [];
  for (let i = 0; i < services; i++) {
    const ns = `ns${i % 7}`;
    const name = `svc${i}`;
    const ip = `10.96.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const udp = i % 11 === 3;
    const ports = [{ name: i % 9 === 4 ? '' : 'http', port: udp ? 53 : 80, protocol: udp ? 'UDP' : 'TCP' }];
    if (i % 5 === 2) ports.push({ name: 'https', port: 443, protocol: 'TCP', targetPort: 8443 });
    const spec = { clusterIP: ip, ports };
    const status = {};
    if (i % 4 === 1) {
      spec.type = 'NodePort';
      ports.forEach((p, k) => (p.nodePort = 30000 + ((i * 2 + k) % 2700)));
    }
    if (i % 13 === 6) {
      spec.type = 'LoadBalancer';
      ports.forEach((p, k) => (p.nodePort = 30000 + ((i * 2 + k) % 2700)));
      status.loadBalancer = { ingress: [{ ip: `203.0.113.${(i % 250) + 1}` }] };
      if (i % 2 === 0) spec.loadBalancerSourceRanges = ['198.51.100.0/24'];
    }
    if (i % 6 === 5 && spec.type) {
      spec.externalTrafficPolicy = 'Local';
      spec.healthCheckNodePort = 32000 + (i % 700);
    }
    if (i % 8 === 7) spec.externalIPs = [`192.0.2.${(i % 250) + 1}`];
    if (i % 10 === 9) {
      spec.sessionAffinity = 'ClientIP';
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
    }
    items.push({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: ns, name }, spec, status });
    const count = i % 17 === 16 ? 0 : endpointsPerService;
    const endpoints = [];
    for (let e = 0; e < count; e++) {
      const ep = {
        addresses: [`10.244.${(i * endpointsPerService + e) % 250}.${(Math.floor(i / 250) % 250) + 2 + e}`],
      };
      ep.nodeName = e % 2 === 0 ? 'node-a' : 'node-b';
      if (i % 12 === 10 && e === 0) ep.conditions = { ready: false, serving: true, terminating: true };
      endpoints.push(ep);
    }
    items.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { namespace: ns, name: `${name}-abc`, labels: { 'kubernetes.io/service-name': name } },
      addressType: 'IPv4',
      endpoints,
      ports: ports.map((p) => ({
        name: p.name,
        port: p.targetPort ?? (p.protocol === 'UDP' ? 53 : 8080),
        protocol: p.protocol,
      })),
    });
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 1);
}

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? filesUnder(p) : name.endsWith('.txt') ? [p] : [];
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

const V4 = String.raw`\d{1,3}(?:\.\d{1,3}){3}`;

/** Packets worth tracing in a dump: Services it names (ClusterIP/VIP and port), a NodePort, and a miss. */
function packetsFor(text, limit) {
  const found = [];
  const add = (dst, port, proto) => {
    const key = `${dst}:${port}/${proto}`;
    if (!found.some((p) => p.key === key)) found.push({ key, dst, port, proto });
  };
  const patterns = [
    [new RegExp(String.raw`-d (${V4})(?:/32)?\s.*?-p (tcp|udp|sctp)\b.*?--dport (\d+)`), (m) => add(m[1], m[3], m[2])],
    [new RegExp(String.raw`ip daddr (${V4})\s+(tcp|udp|sctp) dport (\d+)`), (m) => add(m[1], m[3], m[2])],
    [new RegExp(String.raw`(${V4}) \. (tcp|udp|sctp) \. (\d+)`), (m) => add(m[1], m[3], m[2])],
    [new RegExp(String.raw`^(TCP|UDP|SCTP)\s+(${V4}):(\d+)`), (m) => add(m[2], m[3], m[1].toLowerCase())],
    [/^(TCP|UDP|SCTP)\s+(\[[0-9a-fA-F:.]+\]):(\d+)/, (m) => add(m[2], m[3], m[1].toLowerCase())],
  ];
  for (const line of text.split('\n')) {
    for (const [re, take] of patterns) {
      const m = re.exec(line);
      if (m) take(m);
    }
    if (found.length >= limit) break;
  }
  const nodePort = /KUBE-NODEPORTS .*?-p (tcp|udp)\b.*?--dport (\d+)/.exec(text);
  const packets = found
    .slice(0, limit)
    .map((p) => [
      '--src',
      p.dst.startsWith('[') ? 'fd00:10:244::5' : '10.244.1.5',
      '--dst',
      `${p.dst}:${p.port}`,
      '--proto',
      p.proto,
    ]);
  if (nodePort) {
    packets.push([
      '--src',
      '198.51.100.7',
      '--dst',
      `192.168.0.2:${nodePort[2]}`,
      '--proto',
      nodePort[1],
      '--local-ip',
      '192.168.0.2',
    ]);
  }
  if (packets.length === 0) packets.push(['--src', '10.244.1.5', '--dst', '10.96.0.1:443']);
  packets.push([
    '--src',
    '192.168.0.2',
    '--dst',
    '8.8.8.8:53',
    '--proto',
    'udp',
    '--hook',
    'output',
    '--local-ip',
    '192.168.0.2',
  ]);
  return packets;
}

/** 1-based lines worth explaining: the first, rules of several kinds, the middle and the last. */
function linesFor(text, limit) {
  const lines = text.split('\n');
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (count === 0) return [];
  const picks = [1];
  const kinds = [
    /^(\[\d+:\d+\] )?-A /,
    /DNAT|dnat to/,
    /--probability|numgen/,
    /^:\S+ /,
    /^(TCP|UDP)\s|->|via|jump KUBE/,
    /--comment|comment "/,
  ];
  for (const re of kinds) {
    const i = lines.findIndex((l, n) => n < count && re.test(l));
    if (i >= 0) picks.push(i + 1);
  }
  picks.push(Math.ceil(count / 2), count);
  return [...new Set(picks)].slice(0, limit);
}

/** Every command to run for one dump file; `size` bounds the work on big generated dumps. */
function commandsForDump(file, text, big) {
  const cmds = [
    ['parse', file],
    ['parse', file, '--json'],
    ['lint', file],
    ['lint', file, '--json'],
  ];
  if (!big) cmds.push(['lint', file, '--lang', 'zh-CN']);
  const packets = packetsFor(text, big ? 1 : 3);
  for (const p of packets) {
    cmds.push(['trace', file, ...p]);
    cmds.push(['trace', file, ...p, '--json']);
  }
  cmds.push(['trace', file, ...packets[0], '--lang', 'zh-CN']);
  const lines = linesFor(text, big ? 3 : 7);
  for (const n of lines) cmds.push(['explain', file, '--line', String(n)]);
  if (lines.length > 1) {
    cmds.push(['explain', file, '--line', String(lines[1]), '--lang', 'zh-CN']);
    cmds.push(['explain', file, '--line', String(lines[1]), '--column', '4']);
  }
  return cmds;
}

/** Usage errors and help: their words are outputs too. */
function usageCommands(file) {
  return [
    ['--help'],
    ['--version'],
    [],
    ['frobnicate'],
    ['parse'],
    ['parse', '/nonexistent/kpp-compare-input'],
    ['trace', file],
    ['trace', file, '--src', '10.0.0.1', '--dst', 'not-an-address'],
    ['trace', file, '--src', '10.0.0.1', '--dst', '10.96.0.1:443', '--proto', 'icmp'],
    ['explain', file],
    ['explain', file, '--line', '0'],
    ['explain', file, '--line', '999999'],
    ['lint', file, '--lang', 'fr'],
    ['generate'],
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Running and comparing

const CLI_ENV = { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', LANGUAGE: '', NO_COLOR: '1' };

/** `node CLI ARGS` in its own process: stdout, stderr and exit code. */
function spawnRun(cli, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: CLI_ENV });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code, signal) =>
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        code: code ?? signal,
      }),
    );
  });
}

/** A worker process (this script with --serve CLI) that runs commands one after another: see serve(). */
function worker(cli, cwd) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', cli], {
    cwd,
    env: CLI_ENV,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map();
  let next = 0;
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const answer = JSON.parse(line);
    waiting.get(answer.id)(answer);
    waiting.delete(answer.id);
  });
  return {
    run: (args) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, args })}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

/**
 * Worker side: each command line (JSON) runs the CLI bundle's main() on a fresh copy of the bundle (no state
 * carried from one command to the next), with stdout and stderr captured; the answer is one JSON line.
 */
async function serve(cli) {
  const require = createRequire(import.meta.url);
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write;
  const answer = (obj) => new Promise((resolve) => write(`${JSON.stringify(obj)}\n`, resolve));
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    const { id, args } = JSON.parse(line);
    const captured = { stdout: '', stderr: '' };
    const capture = (key) => (chunk, encoding, done) => {
      captured[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const cb = typeof encoding === 'function' ? encoding : done;
      if (cb) process.nextTick(cb);
      return true;
    };
    const listeners = process.stdout.listeners('error');
    delete require.cache[require.resolve(cli)];
    process.stdout.write = capture('stdout');
    process.stderr.write = capture('stderr');
    let code;
    try {
      const { main } = require(cli);
      code = main(args);
      if (typeof code !== 'number') code = await code;
    } catch (e) {
      code = `threw: ${e?.message ?? e}`;
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
      for (const l of process.stdout.listeners('error')) if (!listeners.includes(l)) process.stdout.off('error', l);
    }
    await answer({ id, stdout: captured.stdout, stderr: captured.stderr, code });
  }
}

function loadRules(file) {
  if (!file) return [];
  return JSON.parse(readFileSync(file, 'utf8')).map((r) => ({ ...r, re: new RegExp(r.pattern, r.flags ?? 'g') }));
}

/** The first differing lines of two texts (after their common head), as `-`/`+` pairs. */
function lineDiff(a, b, limit) {
  const x = a.split('\n');
  const y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  const xs = x.slice(head, x.length - tail);
  const ys = y.slice(head, y.length - tail);
  const shown = [];
  for (let i = 0; i < Math.max(xs.length, ys.length) && shown.length < limit * 2; i++) {
    if (i < xs.length) shown.push(`    - ${head + i + 1}: ${xs[i].slice(0, 300)}`);
    if (i < ys.length) shown.push(`    + ${head + i + 1}: ${ys[i].slice(0, 300)}`);
  }
  const more = Math.max(xs.length, ys.length) - limit;
  if (more > 0) shown.push(`    ... ${more} more differing line(s) in this block`);
  return shown.join('\n');
}

function compare(base, head, rules) {
  const parts = [];
  for (const k of ['stdout', 'stderr', 'code']) {
    if (String(base[k]) === String(head[k])) continue;
    let a = String(base[k]);
    let b = String(head[k]);
    const explainedBy = [];
    for (const r of rules) {
      const a2 = a.replace(r.re, r.replace);
      const b2 = b.replace(r.re, r.replace);
      if (a2 !== a || b2 !== b) explainedBy.push(r.name);
      a = a2;
      b = b2;
    }
    parts.push({
      stream: k,
      intended: a === b,
      rules: a === b ? explainedBy : [],
      base: String(base[k]),
      head: String(head[k]),
    });
  }
  return parts;
}

async function main() {
  const opts = parseCli(process.argv.slice(2));
  if (opts.serve) return serve(opts.serve);
  const rules = loadRules(opts.rules);
  const [base, head] = opts.commits.map(builtCli);
  const work = join(tmpdir(), 'kpp-compare', `inputs-${process.pid}`);
  mkdirSync(work, { recursive: true });

  // The inputs, all read-only for the CLIs: samples of the HEAD commit, dumps generated by the base CLI (the
  // generator's own output is compared separately), the shared corpus when present.
  const dumps = [];
  for (const name of readdirSync(join(head.dir, 'samples')).sort()) {
    if (name === 'README.md' || name.endsWith('.json')) continue;
    dumps.push({ file: join(head.dir, 'samples', name), label: `samples/${name}`, big: false });
  }
  const clusters = [{ label: 'samples/cluster.json', file: join(head.dir, 'samples', 'cluster.json') }];
  const sizes = opts.quick
    ? [
        [3, 2],
        [60, 3],
      ]
    : [
        [3, 2],
        [60, 3],
        [400, 4],
        [2000, 5],
      ];
  for (const [s, e] of sizes) {
    const file = join(work, `cluster-${s}x${e}.json`);
    writeFileSync(file, syntheticCluster(s, e));
    clusters.push({ label: `generated cluster ${s} Services x ${e} endpoints`, file, services: s });
  }
  const generateVariants = [
    ['--cluster-cidr', '10.244.0.0/16'],
    [],
    ['--masquerade-all'],
    ['--cluster-cidr', '10.244.0.0/16', '--node-name', 'node-a', '--node-ip', '192.168.0.2'],
  ];
  const commands = [];
  for (const c of clusters) {
    for (const v of generateVariants) commands.push({ input: c.label, args: ['generate', c.file, ...v] });
    const r = await spawnRun(
      base.cli,
      ['generate', c.file, '--cluster-cidr', '10.244.0.0/16', '--node-name', 'node-a'],
      work,
    );
    if (r.code !== 0) throw new Error(`base generate failed on ${c.label}: ${r.stderr}`);
    const out = join(work, `${basename(c.file, '.json')}.iptables`);
    writeFileSync(out, r.stdout);
    dumps.push({ file: out, label: `kpp generate ${c.label}`, big: (c.services ?? 0) >= 1000 });
  }
  const corpusRoot = join(root, '..', 'shared', 'corpus');
  const corpus = filesUnder(corpusRoot);
  if (corpus.length === 0) console.log(`no shared corpus at ${corpusRoot}: skipped`);
  for (const file of opts.quick ? corpus.filter((_, i) => i % 4 === 0) : corpus) {
    dumps.push({ file, label: `corpus/${relative(corpusRoot, file)}`, big: false });
  }
  for (const d of dumps) {
    for (const args of commandsForDump(d.file, readFileSync(d.file, 'utf8'), d.big))
      commands.push({ input: d.label, args });
  }
  for (const args of usageCommands(dumps[0].file)) commands.push({ input: 'usage', args });
  if (opts.only) commands.splice(0, commands.length, ...commands.filter((c) => opts.only.test(c.input)));

  console.log(
    `comparing ${base.commit} (${base.sha.slice(0, 9)}) with ${head.commit} (${head.sha.slice(0, 9)}): ` +
      `${commands.length} commands over ${dumps.length} dumps and ${clusters.length} cluster files`,
  );
  const started = Date.now();
  const results = new Array(commands.length);
  let done = 0;
  // In-process by default: a worker per build and per job, each running its commands one after another.
  const pairs = Array.from({ length: Math.max(1, opts.jobs) }, () =>
    opts.spawn
      ? [base, head].map((b) => ({ run: (args) => spawnRun(b.cli, args, work), close() {} }))
      : [base, head].map((b) => worker(b.cli, work)),
  );
  let nextCommand = 0;
  await Promise.all(
    pairs.map(async ([a, b]) => {
      while (nextCommand < commands.length) {
        const i = nextCommand++;
        const c = commands[i];
        const [x, y] = await Promise.all([a.run(c.args), b.run(c.args)]);
        results[i] = { ...c, parts: compare(x, y, rules) };
        if (++done % 200 === 0)
          console.log(`  ${done}/${commands.length} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      a.close();
      b.close();
    }),
  );

  // Report: each differing command with its first differing lines, then the figures.
  const shorten = (args) =>
    args.map((a) =>
      a.startsWith(work)
        ? relative(work, a)
        : a.startsWith(head.dir)
          ? relative(head.dir, a)
          : a.startsWith(corpusRoot)
            ? `corpus/${relative(corpusRoot, a)}`
            : a,
    );
  const lines = [];
  const byCommand = new Map();
  let identical = 0;
  let intended = 0;
  let changed = 0;
  const byRule = new Map();
  for (const r of results) {
    const kind = r.args[0] ?? '(none)';
    const k = byCommand.get(kind) ?? { runs: 0, identical: 0, intended: 0, changed: 0 };
    byCommand.set(kind, k);
    k.runs++;
    if (r.parts.length === 0) {
      identical++;
      k.identical++;
      continue;
    }
    const isIntended = r.parts.every((p) => p.intended);
    if (isIntended) {
      intended++;
      k.intended++;
      for (const name of new Set(r.parts.flatMap((p) => p.rules))) byRule.set(name, (byRule.get(name) ?? 0) + 1);
    } else {
      changed++;
      k.changed++;
    }
    lines.push(`${isIntended ? 'INTENDED' : 'CHANGED '} kpp ${shorten(r.args).join(' ')}   [${r.input}]`);
    for (const p of r.parts) {
      lines.push(`  ${p.stream}${p.intended ? ` (intended: ${p.rules.join(', ')})` : ''}:`);
      lines.push(p.stream === 'code' ? `    - ${p.base}\n    + ${p.head}` : lineDiff(p.base, p.head, opts.show));
    }
  }
  lines.push('');
  lines.push(`base ${base.commit} = ${base.sha}`);
  lines.push(`head ${head.commit} = ${head.sha}`);
  const used = new Set(results.map((r) => r.input));
  const count = (prefix) => dumps.filter((d) => used.has(d.label) && d.label.startsWith(prefix)).length;
  lines.push(
    `inputs: ${count('samples/')} samples, ${count('kpp generate')} generated dumps, ${count('corpus/')} corpus files, ` +
      `${results.filter((r) => r.args[0] === 'generate' && r.args.length > 1).length} generate runs over ${clusters.length} cluster files`,
  );
  for (const [kind, k] of [...byCommand].sort()) {
    lines.push(
      `  ${kind.padEnd(12)} ${String(k.runs).padStart(5)} runs: ${k.identical} identical, ${k.intended} intended changes, ${k.changed} other changes`,
    );
  }
  lines.push(
    `commands compared: ${results.length}; identical: ${identical}; intended changes: ${intended}; other changes: ${changed}`,
  );
  for (const [name, n] of byRule) lines.push(`  intended by rule "${name}": ${n}`);
  lines.push(`time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const report = lines.join('\n');
  console.log(report);
  if (opts.out) {
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'report.txt'), `${report}\n`);
    writeFileSync(
      join(opts.out, 'differences.json'),
      JSON.stringify(
        results.filter((r) => r.parts.length).map((r) => ({ input: r.input, args: shorten(r.args), parts: r.parts })),
        null,
        1,
      ),
    );
    console.log(`full outputs of every difference: ${join(opts.out, 'differences.json')}`);
  }
  rmSync(work, { recursive: true, force: true });
  if (opts.drop) for (const b of [base, head]) git('worktree', 'remove', '--force', b.dir);
  else console.log(`builds kept for the next run in ${dirname(base.dir)} (--drop-worktrees removes them)`);
  process.exitCode = changed > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(`compare-outputs: ${e.message}`);
  process.exitCode = 2;
});
