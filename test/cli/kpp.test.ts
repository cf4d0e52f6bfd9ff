import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { corpusFile, corpusFiles, CORPUS_MISSING, repoRoot } from '../helpers/corpus';
import { DUAL_STACK_NFT, NFT_RULESET, seedDump, SESSION_PASTE } from '../helpers/dumps';
import { generateIptablesRestore } from '../../src/core/iptables/generate';
import { normaliseCluster } from '../../src/core/kube/objects';
import { syntheticCluster } from '../../src/core/kube/synthetic';

const root = repoRoot();
// Through the installed entry point (package.json `bin`), as a user runs it.
const cli = join(root, 'bin', 'kpp.js');
const dir = mkdtempSync(join(tmpdir(), 'kpp-cli-'));
const seed = seedDump();
const seedFile = join(dir, 'seed.iptables');
writeFileSync(seedFile, seed.text);

function kpp(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: '' },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface StepJson {
  table: string;
  chain: string;
  line: number | null;
  rule: string;
  skipped?: { count: number; lastLine: number };
}
interface TraceOut {
  paths: {
    probability: number;
    verdict: string;
    dnat: { ip: string; port: number } | null;
    prefix?: number | null;
    steps: StepJson[];
  }[];
  sharedSteps?: (StepJson & { parent: number | null })[];
  truncated?: unknown;
}

/** A path's whole walk from `trace --json`: the shared steps up to its prefix, then its own. */
function walkOf(j: TraceOut, i: number): StepJson[] {
  const head: StepJson[] = [];
  for (let k = j.paths[i].prefix ?? null; k !== null; k = j.sharedSteps![k].parent) head.push(j.sharedSteps![k]);
  return [...head.reverse(), ...j.paths[i].steps];
}

/** `--json` diagnostics as `[line, column, code, message]` rows, for comparing several at once. */
function diagnosticRows(ds: { line: number; column: number; code: string; message: string }[]) {
  return ds.map((d) => [d.line, d.column, d.code, d.message]);
}

test('parse --json follows the contract', () => {
  const r = kpp('parse', seedFile, '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'iptables-save');
  assert.deepEqual(j.counts, { tables: 1, chains: 12, rules: 19 });
  assert.equal(j.services.length, 1);
  const s = j.services[0];
  assert.deepEqual(
    [s.name, s.protocol, s.clusterIP, s.port, s.chain, s.hashVerified],
    ['default/kubernetes:https', 'tcp', '172.16.0.1', 443, seed.svcChain, true],
  );
  assert.deepEqual(
    s.endpoints.map((e: { ip: string; port: number; chain: string }) => [e.ip, e.port, e.chain]),
    [
      ['10.0.1.11', 6443, seed.sepChains[0]],
      ['10.0.1.12', 6443, seed.sepChains[1]],
      ['10.0.1.13', 6443, seed.sepChains[2]],
    ],
  );
  for (const e of s.endpoints) assert.ok(Math.abs(e.share - 1 / 3) < 1e-6);
  assert.deepEqual(j.diagnostics, []);
});

test('trace --json: paths with probabilities, DNAT targets and 1-based step lines', () => {
  const r = kpp('trace', seedFile, '--src', '10.244.1.5', '--dst', '172.16.0.1:443', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.paths.length, 3);
  const sum = j.paths.reduce((n: number, p: { probability: number }) => n + p.probability, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9);
  const dnat = j.paths.map((p: { dnat: { ip: string; port: number } }) => `${p.dnat.ip}:${p.dnat.port}`).sort();
  assert.deepEqual(dnat, ['10.0.1.11:6443', '10.0.1.12:6443', '10.0.1.13:6443']);
  const step = walkOf(j, 0).find((x) => x.chain === 'KUBE-SERVICES')!;
  assert.equal(step.line, seed.lineOf('-A KUBE-SERVICES -d') + 1);
  assert.equal(step.table, 'nat');
  const tree = kpp('trace', seedFile, '--src', '10.244.1.5', '--dst', '172.16.0.1:443');
  assert.match(tree.stdout, /DNAT 10\.0\.1\.12:6443/);
});

test('trace --json of a Service with many endpoints: common steps once, so the answer grows linearly', () => {
  const run = (n: number) => {
    const snapshot = normaliseCluster(syntheticCluster({ services: 1, endpointsPerService: n }));
    const text = generateIptablesRestore(snapshot, { clusterCidr: '10.128.0.0/9', largeClusterMode: false }).text;
    const file = join(dir, `ladder-${n}.iptables`);
    writeFileSync(file, text);
    const r = kpp('trace', file, '--src', '10.250.0.5', '--dst', '10.96.0.1:80', '--local-ip', '192.168.0.2', '--json');
    assert.equal(r.code, 0, r.stderr);
    const endpoints = text.split('\n').flatMap((l) => /-j DNAT --to-destination (\S+)/.exec(l)?.[1] ?? []);
    return { out: JSON.parse(r.stdout) as TraceOut, size: r.stdout.length, endpoints };
  };
  const small = run(100);
  const large = run(400);
  assert.ok(
    large.size / small.size < 5,
    `the answer grew ${(large.size / small.size).toFixed(2)}x for 4x the endpoints`,
  );
  const j = large.out;
  assert.equal(j.paths.length, 400);
  assert.equal(j.truncated, undefined);
  const sum = j.paths.reduce((a, p) => a + p.probability, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9, String(sum));
  assert.deepEqual(
    j.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`),
    large.endpoints,
  );
  assert.ok(j.sharedSteps && j.sharedSteps.length > 0);
  j.sharedSteps.forEach((s, i) => assert.ok(s.parent === null || s.parent < i));
  // A path's own steps are bounded; its whole walk starts at PREROUTING and passes the Service.
  assert.ok(j.paths.every((p) => p.steps.length < 30));
  for (const i of [0, 1, 200, 399]) {
    const walk = walkOf(j, i);
    assert.equal(walk[0].chain, 'PREROUTING');
    assert.ok(walk.some((s) => s.chain === 'KUBE-SERVICES'));
    const skip = walk.find((s) => s.skipped);
    if (i > 1) assert.deepEqual(skip && [skip.skipped!.count, skip.skipped!.lastLine - skip.line!], [i, i - 1]);
  }
});

test('explain prints Markdown in English and Chinese', () => {
  const line = seed.lineOf('-A KUBE-SERVICES -d') + 1;
  const en = kpp('explain', seedFile, '--line', String(line));
  assert.match(en.stdout, /TCP to 172\.16\.0\.1:443 \(Service \*\*default\/kubernetes\*\*, port https\)/);
  const zh = kpp(
    'explain',
    seedFile,
    '--line',
    String(line),
    '--column',
    String(seed.lines[line - 1].indexOf('KUBE-SVC') + 1),
    '--lang',
    'zh-CN',
  );
  assert.match(zh.stdout, /负载均衡链/);
  // Without --column, a chain's declaration line explains the chain it declares (not the `:` before its name).
  const declared = kpp('explain', seedFile, '--line', String(seed.lineOf(':KUBE-SVC-') + 1));
  assert.match(
    declared.stdout,
    /\*\*KUBE-SVC-[A-Z0-9]+\*\*: the load-balancing chain of Service \*\*default\/kubernetes/,
  );
});

test('lint exits 1 on errors, 0 when clean; --json lists diagnostics 1-based', () => {
  assert.equal(kpp('lint', seedFile).code, 0);
  const bad = join(dir, 'bad.iptables');
  writeFileSync(bad, '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -j NOWHERE\nCOMMIT\n');
  const r = kpp('lint', bad, '--json');
  assert.equal(r.code, 1);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    j.diagnostics.map((d: { line: number; column: number; code: string }) => [d.line, d.column, d.code]),
    [[3, 13, 'undefined-chain']],
  );
  // The text form ends with counts in plural forms, in the language asked for.
  assert.match(kpp('lint', bad).stdout, /^1 error, 0 warnings, 0 notes$/m);
  assert.match(kpp('lint', bad, '--lang', 'zh-CN').stdout, /^1 个错误，0 个警告，0 个提示$/m);
});

test('lint exits 0 on a paste cut inside its last rule: the cut is warned about, not counted as an error', () => {
  const cut = join(dir, 'cut.iptables');
  writeFileSync(cut, '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -p tcp --dport');
  const r = kpp('lint', cut);
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /cut\.iptables:3:1: info cut-rule: The text ends inside this rule/);
  assert.match(r.stdout, /^0 errors, 2 warnings, 1 note$/m);
});

test('lint --lang zh-CN gives parse problems in Chinese too, with the same codes and positions', () => {
  const broken = join(dir, 'broken.iptables');
  writeFileSync(broken, '*filter\n:INPUT ACCEPT [0:0]\n-A INPUT -p tcp --dport\nCOMMIT\n');
  const en = JSON.parse(kpp('lint', broken, '--json').stdout).diagnostics;
  const zh = JSON.parse(kpp('lint', broken, '--json', '--lang', 'zh-CN').stdout).diagnostics;
  assert.deepEqual(
    en.map((d: { code: string; message: string }) => [d.code, d.message]),
    [['missing-option-value', '--dport expects a value.']],
  );
  assert.deepEqual(diagnosticRows(zh), [[3, 17, 'missing-option-value', '--dport 需要一个值。']]);
  // parse --json and parse's text say them in the language asked for, with the same codes and positions.
  const parsed = JSON.parse(kpp('parse', broken, '--json', '--lang', 'zh-CN').stdout).diagnostics;
  assert.deepEqual(diagnosticRows(parsed), [[3, 17, 'missing-option-value', '--dport 需要一个值。']]);
  assert.match(kpp('parse', broken, '--lang', 'zh-CN').stderr, /missing-option-value: --dport 需要一个值。/);
  assert.equal(JSON.parse(kpp('parse', broken, '--json').stdout).diagnostics[0].message, '--dport expects a value.');
});

test('generate writes restore text that parses back to the same Services', () => {
  const cluster = join(root, 'samples', 'cluster.json');
  const r = kpp('generate', cluster, '--cluster-cidr', '10.244.0.0/16');
  assert.equal(r.code, 0, r.stderr);
  const out = join(dir, 'gen.iptables');
  writeFileSync(out, r.stdout);
  const j = JSON.parse(kpp('parse', out, '--json').stdout);
  const names = j.services.map((s: { name: string }) => s.name).sort();
  assert.deepEqual(names, [
    'default/kubernetes:https',
    'default/web:http',
    'kube-system/kube-dns:dns',
    'kube-system/kube-dns:dns-tcp',
    'shop/checkout:http',
  ]);
  assert.ok(
    j.services.every(
      (s: { hashVerified: boolean | null; name: string }) => s.hashVerified === true || s.name === 'shop/checkout:http',
    ),
  );
});

test('usage errors and unreadable input exit 2 with one line on stderr, never a stack trace', () => {
  for (const args of [
    ['trace', seedFile, '--src', 'x', '--dst', '1.2.3.4:80'],
    ['parse', join(dir, 'missing.txt')],
    ['explain', seedFile],
    ['nope'],
    ['parse', seedFile, '--bogus'],
    ['generate', seedFile],
  ]) {
    const r = kpp(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  }
  // Lines are counted as `wc -l` does: the line break that ends the last line starts no line of its own.
  const lineCount = readFileSync(seedFile, 'utf8').split('\n').length - 1;
  assert.equal(kpp('explain', seedFile, '--line', String(lineCount)).code, 0);
  const past = kpp('explain', seedFile, '--line', String(lineCount + 1));
  assert.equal(past.code, 2);
  assert.match(past.stderr, new RegExp(`past the end of the file \\(${lineCount} lines\\)`));
});

test("a dump saved as UTF-16 (Windows PowerShell's `>`), with a byte order mark or without, reads as the same dump, line for line", () => {
  // As PowerShell 5 writes `kubectl exec ... -- iptables-save > dump.txt`: a byte order mark, CRLF line ends; with a
  // note in Chinese, whose 一 (U+4E00) and ideographic space (U+3000) put a NUL in the other byte of their pair.
  const windows = `# 一号节点\u3000检查\r\n${seed.text.replace(/\n/g, '\r\n')}`;
  const utf8 = join(dir, 'windows-utf8.txt');
  const le = join(dir, 'windows-utf16le.txt');
  const be = join(dir, 'windows-utf16be.txt');
  writeFileSync(utf8, `\ufeff${windows}`, 'utf8');
  writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(windows, 'utf16le')]));
  writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(windows, 'utf16le').swap16()]));
  // Without a mark too, as some Windows tools and clipboards write it.
  const unmarkedLe = join(dir, 'windows-utf16le-unmarked.txt');
  const unmarkedBe = join(dir, 'windows-utf16be-unmarked.txt');
  writeFileSync(unmarkedLe, Buffer.from(windows, 'utf16le'));
  writeFileSync(unmarkedBe, Buffer.from(windows, 'utf16le').swap16());
  const trace = ['--src', '10.244.1.5', '--dst', '172.16.0.1:443', '--json'];
  const expected = {
    parse: kpp('parse', utf8, '--json').stdout,
    lint: kpp('lint', utf8, '--json').stdout,
    trace: kpp('trace', utf8, ...trace).stdout,
  };
  assert.equal(JSON.parse(expected.parse).services.length, 1);
  assert.equal(JSON.parse(expected.trace).paths.length, 3);
  for (const file of [le, be, unmarkedLe, unmarkedBe]) {
    assert.equal(kpp('parse', file, '--json').stdout, expected.parse, file);
    assert.equal(kpp('lint', file, '--json').stdout, expected.lint.replaceAll(utf8, file), file);
    assert.equal(kpp('trace', file, ...trace).stdout, expected.trace, file);
  }
});

test('an input over the limit exits 2 with one line that says so: a big file, a gzip bomb, an endless pipe', async () => {
  const big = join(dir, 'big.iptables');
  writeFileSync(big, '');
  truncateSync(big, 129 * 1024 * 1024); // sparse: no disk written
  const bomb = join(dir, 'bomb.iptables.gz');
  writeFileSync(bomb, gzipSync(Buffer.alloc(129 * 1024 * 1024), { level: 1 })); // 129 MB of NULs: 130 KB packed
  for (const [file, said] of [
    [big, /big\.iptables is larger than 128 MB: .*iptables-save -t nat/],
    [bomb, /its gzip data unpacks to more than 128 MB/],
  ] as const) {
    const r = kpp('lint', file);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, said);
  }
  // `kubectl logs -f ... | kpp lint -`: the stream never ends; kpp stops at the limit instead of growing without end.
  const child = spawn(process.execPath, [cli, 'lint', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.resume();
  child.stdin.on('error', () => undefined); // EPIPE once kpp has stopped reading
  const block = Buffer.alloc(1024 * 1024, '-A INPUT -s 10.0.0.1/32 -j ACCEPT\n');
  const endless = new Readable({
    read() {
      this.push(block);
    },
  });
  endless.pipe(child.stdin);
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  assert.equal(await exited, 2, stderr);
  endless.unpipe();
  endless.destroy();
  assert.match(stderr, /standard input is larger than 128 MB \(a stream that does not end/);
});

test('a gzip file reads as what it holds; archives, programs, folders and damaged gzip exit 2 naming what they are', () => {
  const gz = join(dir, 'seed.iptables.gz');
  writeFileSync(gz, gzipSync(seed.text));
  assert.equal(kpp('parse', gz, '--json').stdout, kpp('parse', seedFile, '--json').stdout);
  const cut = join(dir, 'cut.gz');
  writeFileSync(cut, gzipSync(seed.text).subarray(0, 60));
  // A tar of one dump: a 512-byte header naming it, then its text.
  const header = Buffer.alloc(512);
  header.write('seed.iptables', 0, 'latin1');
  header.write('ustar', 257, 'latin1');
  const tar = join(dir, 'bundle.tar');
  writeFileSync(tar, Buffer.concat([header, Buffer.from(seed.text)]));
  const tgz = join(dir, 'bundle.tgz');
  writeFileSync(tgz, gzipSync(readFileSync(tar)));
  const nuls = join(dir, 'wiped.iptables');
  writeFileSync(nuls, Buffer.alloc(4096));
  const zip = join(dir, 'bundle.zip');
  writeFileSync(zip, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(seed.text)]));
  for (const [file, said] of [
    [cut, /its gzip data is cut off or damaged/],
    [tar, /is a tar archive \(unpack it first\)/],
    [tgz, /is a tar archive/],
    [zip, /is a zip archive/],
    [process.execPath, /is a binary file, not a text output/],
    [nuls, /is a file of NUL bytes only, not a text output/],
    [dir, /is a folder/],
  ] as const) {
    for (const command of ['parse', 'lint', 'trace']) {
      const r = kpp(command, file, ...(command === 'trace' ? ['--src', '10.244.1.5', '--dst', '172.16.0.1:443'] : []));
      assert.equal(r.code, 2, `${command} ${file}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, said);
    }
  }
  // A text output with a stray NUL (a terminal capture) is still read.
  const stray = join(dir, 'stray-nul.iptables');
  writeFileSync(stray, seed.text.replace('# Generated', '#\u0000 Generated'));
  assert.equal(JSON.parse(kpp('parse', stray, '--json').stdout).services.length, 1);
  // So is a log that logrotate's copytruncate cut while kube-proxy kept writing: a run of NULs, then the text.
  const rotated = join(dir, 'kube-proxy-rotated.log');
  writeFileSync(rotated, Buffer.concat([Buffer.alloc(20_000), Buffer.from(seed.text)]));
  assert.equal(JSON.parse(kpp('parse', rotated, '--json').stdout).services.length, 1);
});

test('IPVS dumps: parse --json has the ipvs contract; trace maps the VIP to real servers', () => {
  const f = join(dir, 'x.ipvs');
  writeFileSync(
    f,
    'TCP  172.16.0.1:443 rr persistent 10800\n  -> 10.0.1.11:6443   Masq    1      2          0\n  -> 10.0.1.12:6443   Masq    1      0          0\n',
  );
  const j = JSON.parse(kpp('parse', f, '--json').stdout);
  assert.deepEqual(j.ipvs.services[0], {
    protocol: 'TCP',
    address: '172.16.0.1',
    port: 443,
    scheduler: 'rr',
    flags: [],
    persistent: 10800,
    realServers: [
      { address: '10.0.1.11', port: 6443, forward: 'Masq', weight: 1, activeConn: 2, inactConn: 0 },
      { address: '10.0.1.12', port: 6443, forward: 'Masq', weight: 1, activeConn: 0, inactConn: 0 },
    ],
  });
  const t = JSON.parse(kpp('trace', f, '--src', '10.244.1.5', '--dst', '172.16.0.1:443', '--json').stdout);
  assert.equal(t.paths.length, 2);
  // Steps name the virtual service as every face does; a share is a JSON probability like an iptables path's.
  assert.deepEqual(
    t.paths[0].steps.map((s: { chain: string; line: number; rule: string }) => [s.chain, s.line, s.rule]),
    [
      ['TCP 172.16.0.1:443', 1, 'TCP 172.16.0.1:443'],
      ['TCP 172.16.0.1:443', 2, '-> 10.0.1.11:6443 Masq'],
    ],
  );
  // Masq is LVS-NAT: the destination is rewritten, the source is not (that would be iptables' MASQUERADE).
  assert.deepEqual(
    t.paths.map((p: { masquerade: boolean }) => p.masquerade),
    [false, false],
  );
  // Direct routing hands the packet over by MAC: the destination stays the VIP, so no DNAT is claimed.
  const dr = join(dir, 'dr.ipvs');
  writeFileSync(dr, 'TCP  10.96.0.9:80 rr\n  -> 10.244.2.9:80   Route   1      0          0\n');
  const drJson = JSON.parse(kpp('trace', dr, '--src', '10.244.1.5', '--dst', '10.96.0.9:80', '--json').stdout);
  assert.deepEqual(
    [drJson.paths[0].dnat, drJson.paths[0].realServer, drJson.paths[0].forward],
    [null, { ip: '10.244.2.9', port: 80 }, 'Route'],
  );
  assert.match(
    kpp('trace', dr, '--src', '10.244.1.5', '--dst', '10.96.0.9:80').stdout,
    /^ {2}100% -> 10\.244\.2\.9:80 \(Route: destination stays 10\.96\.0\.9:80\)/m,
  );
});

test('trace of an IPVS dump prints shares as the editor does and JSON probabilities as for iptables paths', () => {
  const f = join(dir, 'wrr.ipvs');
  writeFileSync(
    f,
    'TCP  10.96.0.5:80 wrr\n  -> 10.244.1.1:80   Masq    1      0          0\n  -> 10.244.1.2:80   Masq    2      0          0\n' +
      'TCP  10.96.0.6:80 wrr\n  -> 10.244.2.1:80   Masq    1      0          0\n  -> 10.244.2.2:80   Masq    399    0          0\n',
  );
  const j = JSON.parse(kpp('trace', f, '--src', '10.244.1.5', '--dst', '10.96.0.5:80', '--json').stdout);
  assert.deepEqual(
    j.paths.map((p: { probability: number }) => p.probability),
    [0.333333333333, 0.666666666667],
  );
  assert.match(
    kpp('trace', f, '--src', '10.244.1.5', '--dst', '10.96.0.5:80').stdout,
    /^ {2}33\.3% -> 10\.244\.1\.1:80/m,
  );
  // One in 400: two decimals below 1%, not 0.3%.
  assert.match(
    kpp('trace', f, '--src', '10.244.1.5', '--dst', '10.96.0.6:80').stdout,
    /^ {2}0\.25% -> 10\.244\.2\.1:80/m,
  );
});

test('IPv6 Services, endpoints and real servers print as [address]:port', () => {
  const ipt = join(dir, 'v6.iptables');
  writeFileSync(
    ipt,
    [
      '*nat',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-SVC-X - [0:0]',
      ':KUBE-SEP-Y - [0:0]',
      '-A KUBE-SERVICES -d fd00:10:96::a/128 -p udp -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-SVC-X',
      '-A KUBE-SVC-X -m comment --comment "kube-system/kube-dns:dns -> [fd00:10:244:1::5]:53" -j KUBE-SEP-Y',
      '-A KUBE-SEP-Y -p udp -m comment --comment "kube-system/kube-dns:dns" -m udp -j DNAT --to-destination [fd00:10:244:1::5]:53',
      'COMMIT',
      '',
    ].join('\n'),
  );
  const text = kpp('parse', ipt).stdout;
  assert.match(text, /udp \[fd00:10:96::a\]:53 -> KUBE-SVC-X/);
  assert.match(text, /endpoint \[fd00:10:244:1::5\]:53 100% via KUBE-SEP-Y/);
  const ipvs = join(dir, 'v6.ipvs');
  writeFileSync(ipvs, 'TCP  [fd00::10]:80 rr\n  -> [fd00:1::5]:8080            Masq    1      0          0\n');
  assert.match(kpp('parse', ipvs).stdout, /virtual TCP \[fd00::10\]:80 rr\n {2}-> \[fd00:1::5\]:8080 Masq/);
  assert.match(
    kpp('trace', ipvs, '--src', 'fd00:2::1', '--dst', '[fd00::10]:80').stdout,
    /^ {2}100% -> \[fd00:1::5\]:8080/m,
  );
});

test('parse text shows multipath next hops and other tables, and says how many routes it left out', () => {
  const f = join(dir, 'routes.txt');
  const many = Array.from({ length: 60 }, (_, i) => `10.244.${i}.0/26 via 10.0.0.${i + 1} dev eth0 proto bird`);
  writeFileSync(
    f,
    [
      '172.16.0.0/16 nexthop via 10.0.0.7 dev eth0 weight 1 nexthop via 10.0.0.8 dev eth1 weight 2',
      '10.9.0.0/16 via 10.0.0.9 dev eth0 table 100',
      ...many,
      '',
    ].join('\n'),
  );
  const out = kpp('parse', f).stdout;
  assert.match(
    out,
    /^route 172\.16\.0\.0\/16 nexthops via 10\.0\.0\.7 dev eth0 weight 1, via 10\.0\.0\.8 dev eth1 weight 2 \(line 1\)$/m,
  );
  assert.match(out, /^route 10\.9\.0\.0\/16 via 10\.0\.0\.9 dev eth0 table 100 \(line 2\)$/m);
  assert.match(out, /^\.\.\. 12 more routes: --json lists them all$/m);
  assert.equal(JSON.parse(kpp('parse', f, '--json').stdout).routes.length, 62);
});

test('ipvsadm --stats and -S: text shows what the output printed (no "undefined"), JSON carries the counters', () => {
  const stats = join(dir, 'stats.ipvs');
  writeFileSync(
    stats,
    [
      'IP Virtual Server version 1.2.1 (size=4096)',
      'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
      '  -> RemoteAddress:Port',
      'UDP  10.96.0.10:53                    1200    5100K    5000K     400M     380M',
      '  -> 10.244.0.5:53                     600     2500     2400   200000   190000',
      '',
    ].join('\n'),
  );
  const text = kpp('parse', stats).stdout;
  assert.doesNotMatch(text, /undefined/);
  assert.match(
    text,
    /^virtual UDP 10\.96\.0\.10:53 conns 1200 inpkts 5100000 outpkts 5000000 inbytes 400000000 outbytes 380000000 \(rounded\)$/m,
  );
  assert.match(text, /^ {2}-> 10\.244\.0\.5:53 conns 600 inpkts 2500 outpkts 2400 inbytes 200000 outbytes 190000$/m);
  const j = JSON.parse(kpp('parse', stats, '--json').stdout);
  assert.equal(j.ipvs.services[0].stats.inPkts, 5100000);
  assert.equal(j.ipvs.services[0].realServers[0].stats.conns, 600);
  const save = join(dir, 'save.ipvs');
  writeFileSync(save, '-A -t 10.96.0.1:443 -s rr -p 10800\n-a -t 10.96.0.1:443 -r 192.168.0.10:6443 -m -w 0\n');
  assert.match(
    kpp('parse', save).stdout,
    /^virtual TCP 10\.96\.0\.1:443 rr persistent 10800\n {2}-> 192\.168\.0\.10:6443 Masq weight 0$/m,
  );
});

test('parse text lists conntrack flows with the NAT their reply tuple shows', () => {
  const f = join(dir, 'ct.txt');
  writeFileSync(
    f,
    [
      'tcp      6 86397 ESTABLISHED src=10.244.1.5 dst=172.16.0.1 sport=43210 dport=443 src=192.168.0.10 dst=10.244.1.5 sport=6443 dport=43210 [ASSURED] mark=0 use=1',
      'tcp      6 118 SYN_SENT src=10.244.1.5 dst=172.16.0.1 sport=43211 dport=443 [UNREPLIED] src=172.16.0.1 dst=10.244.1.5 sport=443 dport=43211 mark=0 use=1',
      'icmp     1 29 src=10.244.1.5 dst=10.0.9.9 type=8 code=0 id=7 src=10.0.9.9 dst=10.0.0.5 type=0 code=0 id=7 mark=0 use=1',
      '',
    ].join('\n'),
  );
  const out = kpp('parse', f).stdout;
  assert.match(
    out,
    /^conntrack tcp 10\.244\.1\.5:43210 -> 172\.16\.0\.1:443 ESTABLISHED ASSURED, DNAT to 192\.168\.0\.10:6443 \(line 1\)$/m,
  );
  assert.match(out, /^conntrack tcp 10\.244\.1\.5:43211 -> 172\.16\.0\.1:443 SYN_SENT UNREPLIED, no NAT \(line 2\)$/m);
  assert.match(out, /^conntrack icmp 10\.244\.1\.5 -> 10\.0\.9\.9, SNAT to 10\.0\.0\.5 \(line 3\)$/m);
});

test('parse text lists interfaces with their addresses and ipsets with their first members', () => {
  const addr = join(dir, 'addr.txt');
  writeFileSync(
    addr,
    [
      '2: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default',
      '    link/ether 66:3a:11:22:33:44 brd ff:ff:ff:ff:ff:ff link-netnsid 0',
      '    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0',
      '       valid_lft forever preferred_lft forever',
      '',
    ].join('\n'),
  );
  assert.match(
    kpp('parse', addr).stdout,
    /^interface eth0@if12 \(state UP, mtu 1450\): 10\.244\.1\.5\/24 \(line 1\)$/m,
  );
  const sets = join(dir, 'sets.txt');
  const members = Array.from({ length: 7 }, (_, i) => `10.96.0.${i + 1},tcp:443`);
  writeFileSync(
    sets,
    [
      'Name: KUBE-CLUSTER-IP',
      'Type: hash:ip,port',
      'Revision: 5',
      'Header: family inet hashsize 1024 maxelem 65536',
      'Size in memory: 600',
      'References: 2',
      'Number of entries: 9',
      'Members:',
      ...members,
      '',
    ].join('\n'),
  );
  assert.match(
    kpp('parse', sets).stdout,
    /^ipset KUBE-CLUSTER-IP hash:ip,port, 7 members: 10\.96\.0\.1,tcp:443 10\.96\.0\.2,tcp:443 10\.96\.0\.3,tcp:443 10\.96\.0\.4,tcp:443 10\.96\.0\.5,tcp:443 \.\.\. 2 more \(9 entries said, 7 pasted\) \(line 1\)$/m,
  );
});

test('a pasted terminal session: parse reports its sections, explain and trace use the right engine', () => {
  const f = join(dir, 'session.txt');
  writeFileSync(f, SESSION_PASTE);
  const j = JSON.parse(kpp('parse', f, '--json').stdout);
  assert.equal(j.format, 'session');
  assert.deepEqual(j.sections, [
    { kind: 'network', firstLine: 1, lastLine: 2 },
    { kind: 'iptables', firstLine: 3, lastLine: 6 },
    { kind: 'ipvs', firstLine: 7, lastLine: 9 },
  ]);
  assert.equal(j.services[0].clusterIP, '172.16.0.1');
  assert.equal(j.ipvs.services[0].address, '172.16.0.10');
  assert.equal(j.routes[0].gateway, '192.168.100.1');
  assert.deepEqual(
    j.diagnostics.filter((d: { severity: string }) => d.severity !== 'info'),
    [],
  );
  assert.match(kpp('explain', f, '--line', '4').stdout, /KUBE-SVC-NPX46M4PTMTKRN6Y/);
  assert.match(kpp('explain', f, '--line', '9').stdout, /10\.244\.0\.5/);
  // The IPVS VIP goes to IPVS; the ClusterIP only the iptables rules know goes through them.
  assert.match(
    kpp('trace', f, '--src', '10.244.1.5', '--dst', '172.16.0.10:53').stdout,
    /^ {2}100% -> 10\.244\.0\.5:53/m,
  );
  const viaRules = JSON.parse(kpp('trace', f, '--src', '10.244.1.5', '--dst', '172.16.0.1:443', '--json').stdout);
  assert.deepEqual(
    viaRules.paths.map((p: { dnat: unknown }) => p.dnat),
    [{ ip: '192.168.100.10', port: 6443 }],
  );
});

test('trace of a session with an ipset list decides set matches from its members', () => {
  const f = join(dir, 'ipvs-mode.txt');
  writeFileSync(
    f,
    [
      'root@node:~# iptables-save -t nat',
      '*nat',
      ':PREROUTING ACCEPT [0:0]',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
      '-A PREROUTING -j KUBE-SERVICES',
      '-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000',
      '-A KUBE-SERVICES ! -s 10.244.0.0/16 -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ',
      '-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT',
      'COMMIT',
      'root@node:~# ipset list KUBE-CLUSTER-IP',
      'Name: KUBE-CLUSTER-IP',
      'Type: hash:ip,port',
      'Revision: 5',
      'Header: family inet hashsize 1024 maxelem 65536',
      'Size in memory: 600',
      'References: 2',
      'Number of entries: 1',
      'Members:',
      '10.96.0.1,tcp:443',
      '',
    ].join('\n'),
  );
  const j = JSON.parse(kpp('trace', f, '--src', '10.1.1.1', '--dst', '10.96.0.1:443', '--json').stdout);
  assert.deepEqual(
    j.paths.map((p: { probability: number; verdict: string }) => [p.probability, p.verdict]),
    [[1, 'ACCEPT']],
  );
});

test('every corpus file goes through parse and lint without a crash', (t) => {
  const files = [...corpusFiles('iptables'), ...corpusFiles('ipvs'), ...corpusFiles('routes')];
  if (files.length === 0) return t.skip(CORPUS_MISSING);
  for (const f of files) {
    for (const command of ['parse', 'lint']) {
      const r = kpp(command, f.path, '--json');
      assert.notEqual(r.code, 2, `${command} ${f.name}: ${r.stderr}`);
      assert.ok(Array.isArray(JSON.parse(r.stdout).diagnostics), `${command} ${f.name} prints JSON`);
    }
  }
});

test('the kube-proxy fixture traces to its two endpoints, half each', (t) => {
  const text = corpusFile('iptables', '091');
  if (!text) return t.skip(CORPUS_MISSING);
  const f = join(dir, 'fixture.iptables');
  writeFileSync(f, text);
  const j = JSON.parse(kpp('trace', f, '--src', '10.0.0.2', '--dst', '172.30.0.44:80', '--json').stdout);
  assert.deepEqual(
    j.paths.map((p: { probability: number; dnat: { ip: string } }) => [p.probability, p.dnat.ip]),
    [
      [0.5, '10.180.0.4'],
      [0.5, '10.180.0.5'],
    ],
  );
});

test('bare kpp and trace on a non-dump give one-line reasons', () => {
  const bare = kpp();
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /missing command/);
  const routes = kpp(
    'trace',
    join(root, 'samples', 'client-pod-routes.txt'),
    '--src',
    '10.0.0.1',
    '--dst',
    '172.16.0.1:443',
  );
  assert.equal(routes.code, 2);
  assert.match(routes.stderr, /needs an iptables or ipvsadm dump/);
  const mixed = kpp('trace', seedFile, '--src', '10.0.0.1', '--dst', '[fd00::1]:443');
  assert.equal(mixed.code, 2);
});

test('trace to a Service address on a port it does not serve says so', () => {
  const j = JSON.parse(kpp('trace', seedFile, '--src', '10.244.1.5', '--dst', '172.16.0.1:444', '--json').stdout);
  assert.ok(j.paths.every((p: { dnat: unknown }) => p.dnat === null));
  assert.ok(
    j.warnings.some((w: string) =>
      /172\.16\.0\.1 belongs to default\/kubernetes:https \(ports 443\/TCP\), but no rule matched 444\/TCP/.test(w),
    ),
    JSON.stringify(j.warnings),
  );
});

test('a dump of policies and no rules is traced by its policies, the step pointing at the -P that set it', () => {
  const file = join(dir, 'policy-only.iptables');
  writeFileSync(
    file,
    '*filter\n:INPUT ACCEPT [0:0]\n:FORWARD ACCEPT [0:0]\n:OUTPUT ACCEPT [0:0]\n-P FORWARD DROP\nCOMMIT\n',
  );
  const r = kpp('trace', file, '--src', '10.0.0.5', '--dst', '10.1.0.9:22', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(
    j.paths.map((p: { verdict: string; steps: { chain: string; line: number }[] }) => [
      p.verdict,
      p.steps.map((s) => `${s.chain}:${s.line}`),
    ]),
    [['DROP', ['FORWARD:5']]],
  );
  const empty = join(dir, 'no-policies.iptables');
  writeFileSync(empty, '*nat\n:KUBE-SERVICES - [0:0]\nCOMMIT\n');
  assert.match(
    kpp('trace', empty, '--src', '10.0.0.5', '--dst', '10.1.0.9:22').stderr,
    /needs an iptables or ipvsadm dump with rules or chain policies/,
  );
});

test('an nft list ruleset: parse --json names the format and reads its Services; trace follows it to the endpoints', () => {
  const file = join(dir, 'ruleset.nft');
  writeFileSync(file, NFT_RULESET);
  const r = kpp('parse', file, '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'nft');
  assert.deepEqual(j.counts, { tables: 2, chains: 11, rules: 19 });
  const dns = j.services.find((s: { name: string }) => s.name === 'kube-system/kube-dns:dns');
  assert.deepEqual([dns.clusterIP, dns.port, dns.protocol, dns.hashVerified], ['10.96.0.10', 53, 'udp', true]);
  assert.deepEqual(dns.endpoints.map((e: { ip: string; share: number }) => [e.ip, e.share]).sort(), [
    ['10.244.0.2', 0.5],
    ['10.244.0.3', 0.5],
  ]);
  const tr = kpp('trace', file, '--src', '10.244.1.9', '--dst', '10.96.0.10:53', '--proto', 'udp', '--json');
  assert.equal(tr.code, 0, tr.stderr);
  const out = JSON.parse(tr.stdout) as TraceOut;
  assert.deepEqual(out.paths.map((p) => p.dnat?.ip).sort(), ['10.244.0.2', '10.244.0.3']);
  const svcLine = NFT_RULESET.split('\n').findIndex((l) => l.includes('jump KUBE-SVC-TCOU7JCQXEZGVUNU comment'));
  assert.ok(
    out.paths.every((_, i) => walkOf(out, i).some((s) => s.chain === 'KUBE-SERVICES' && s.line === svcLine + 1)),
    'steps point at the ruleset lines, 1-based',
  );
});

test("a dual-stack nft ruleset: explain reads a line of the family the dump's reading skipped from that family's tables", () => {
  const file = join(dir, 'dual-stack.nft');
  writeFileSync(file, DUAL_STACK_NFT);
  const lineOf = (needle: string) => String(DUAL_STACK_NFT.split('\n').findIndex((l) => l.includes(needle)) + 1);
  // The ip6 table comes first, the ip table (more rules) is the one read; a line of each is explained.
  const v6 = kpp('explain', file, '--line', lineOf('ip6 daddr fd00:96::5'));
  assert.equal(v6.code, 0, v6.stderr);
  assert.match(v6.stdout, /TCP to \[fd00:96::5\]:80 \(Service \*\*default\/web\*\*, port http\) goes to KUBE-SVC-WEB6/);
  const v4 = kpp('explain', file, '--line', lineOf('ip daddr 10.96.5.5'), '--lang', 'zh-CN');
  assert.match(v4.stdout, /10\.96\.5\.5:80/);
  assert.match(kpp('explain', file, '--line', lineOf('dnat to [fd00:244:1::7]:8080')).stdout, /\[fd00:244:1::7\]:8080/);
});

test("a dual-stack nft ruleset: lint reads the tables of the family the dump's reading skipped in their own reading", () => {
  // A jump in the ip6 table to a chain it does not hold; the ip table (more rules) is the one read.
  const broken = DUAL_STACK_NFT.replace('jump KUBE-SEP-WEB6A comment', 'jump KUBE-SEP-GONE6 comment');
  const file = join(dir, 'dual-stack-broken.nft');
  const lint = (text: string) => {
    writeFileSync(file, text);
    return (JSON.parse(kpp('lint', file, '--json').stdout).diagnostics as { line: number; code: string }[]).map(
      (d) => `${d.line} ${d.code}`,
    );
  };
  const found = lint(broken);
  const lineOf = (needle: string) => broken.split('\n').findIndex((l) => l.includes(needle)) + 1;
  assert.ok(found.includes(`${lineOf('KUBE-SEP-GONE6')} undefined-chain`), found.join(', '));
  // Each family's lines are linted by its own reading, each finding once: the test chains' names are no hashes.
  assert.ok(found.includes(`${lineOf('chain KUBE-SVC-WEB6 {')} hash-mismatch`), found.join(', '));
  assert.ok(found.includes(`${lineOf('chain KUBE-SVC-WEB4 {')} hash-mismatch`), found.join(', '));
  assert.equal(new Set(found).size, found.length, found.join(', '));
  assert.deepEqual(
    lint(DUAL_STACK_NFT),
    found.filter((f) => !f.endsWith('undefined-chain')),
  );
});

test("a dual-stack nft ruleset: parse counts and lists both families' tables and Services, each once", () => {
  const file = join(dir, 'dual-stack-parse.nft');
  writeFileSync(file, DUAL_STACK_NFT);
  const r = kpp('parse', file, '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  // ip6: 4 chains, 4 rules; ip: 6 chains, 7 rules (the test ruleset's own counts).
  assert.deepEqual(j.counts, { tables: 2, chains: 10, rules: 11 });
  assert.deepEqual(
    j.services.map((s: { name: string; clusterIP: string; endpoints: { ip: string }[] }) =>
      [s.name, s.clusterIP, ...s.endpoints.map((e) => e.ip)].join(' '),
    ),
    [
      'default/web:http 10.96.5.5 10.244.1.7',
      'kube-system/kube-dns:dns 10.96.0.10 10.244.0.2',
      'default/web:http fd00:96::5 fd00:244:1::7',
    ],
  );
  assert.deepEqual(
    j.diagnostics.map((d: { code: string }) => d.code),
    ['nft-table-skipped'],
  );
  assert.match(kpp('parse', file).stdout, /service default\/web:http tcp \[fd00:96::5\]:80 -> KUBE-SVC-WEB6/);
  // An inet table (firewalld's) is read with either family: counted once.
  const inet =
    'table inet firewalld {\n\tchain filter_INPUT {\n\t\ttype filter hook input priority filter + 10; policy accept;\n\t\tct state established,related counter packets 8 bytes 640 accept\n\t}\n}\n';
  writeFileSync(file, DUAL_STACK_NFT + inet);
  assert.deepEqual(JSON.parse(kpp('parse', file, '--json').stdout).counts, { tables: 3, chains: 11, rules: 12 });
  // Quoted in a chat: the same counts, and the note on the quote once (each reading unwraps the quote).
  writeFileSync(file, (DUAL_STACK_NFT + inet).replace(/^/gm, '> '));
  const quoted = JSON.parse(kpp('parse', file, '--json').stdout);
  assert.deepEqual(quoted.counts, { tables: 3, chains: 11, rules: 12 });
  assert.deepEqual(
    quoted.diagnostics.map((d: { code: string }) => d.code),
    ['quoted-paste', 'nft-table-skipped'],
  );
  // The test's chain names are not kube-proxy's hashes (lint says so); the quote's note it says once.
  const linted = JSON.parse(kpp('lint', file, '--json').stdout).diagnostics.map((d: { code: string }) => d.code);
  assert.deepEqual(
    linted.filter((code: string) => code !== 'hash-mismatch'),
    ['quoted-paste', 'nft-table-skipped'],
  );
  // The same with the ip table first: the other family's reading keeps only the ip6 table's lines, and would put the
  // quote's note on that table's first line.
  const [ip6Table, ipTable] = DUAL_STACK_NFT.split(/(?=^table ip nat)/m);
  writeFileSync(file, (ipTable + ip6Table).replace(/^/gm, '> '));
  const swapped = JSON.parse(kpp('lint', file, '--json').stdout).diagnostics.map((d: { code: string }) => d.code);
  assert.deepEqual(
    swapped.filter((code: string) => code !== 'hash-mismatch'),
    ['quoted-paste', 'nft-table-skipped'],
  );
});

test('an nft ruleset with tables of one name in several families (firewalld): a line is read in its own table', () => {
  // inet, ip and ip6 tables all named firewalld; the ip6 one has more rules, so it is the family read, and the ip
  // table, skipped, ends where the ip6 table starts (the tables share a name: one table of the dump).
  const ruleset = [
    'table inet firewalld {',
    '\tchain filter_INPUT {',
    '\t\ttype filter hook input priority filter + 10; policy accept;',
    '\t\tct state established,related accept',
    '\t}',
    '}',
    'table ip firewalld {',
    '\tchain nat_PREROUTING {',
    '\t\ttype nat hook prerouting priority dstnat + 10; policy accept;',
    '\t\tip daddr 10.0.0.1 tcp dport 80 dnat to 10.0.0.2:8080',
    '\t}',
    '}',
    'table ip6 firewalld {',
    '\tchain nat_PREROUTING {',
    '\t\ttype nat hook prerouting priority dstnat + 10; policy accept;',
    '\t\tip6 daddr fd00::1 tcp dport 80 dnat to [fd00::2]:8080',
    '\t\tip6 daddr fd00::3 tcp dport 80 dnat to [fd00::4]:8080',
    '\t}',
    '}',
    '',
  ].join('\n');
  const file = join(dir, 'firewalld-families.nft');
  writeFileSync(file, ruleset);
  const lineOf = (needle: string) => String(ruleset.split('\n').findIndex((l) => l.includes(needle)) + 1);
  const v6 = kpp('explain', file, '--line', lineOf('fd00::3'));
  assert.equal(v6.code, 0, v6.stderr);
  assert.match(v6.stdout, /\[fd00::4\]:8080/);
  const v4 = kpp('explain', file, '--line', lineOf('10.0.0.1'));
  assert.match(v4.stdout, /10\.0\.0\.2:8080/);
});

test("kube-proxy's nftables mode: parse --json lists the Services of the maps, and the text names them", () => {
  const sample = join(root, 'samples', 'kube-proxy-nftables.nft');
  const r = kpp('parse', sample, '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.format, 'nft');
  const web = j.services.find((s: { name: string }) => s.name === 'shop/web:http');
  assert.deepEqual(
    [web.protocol, web.clusterIP, web.port, web.nodePort, web.chain, web.hashVerified],
    ['tcp', '10.96.12.34', 80, 30080, 'service-KHN6ECMT-shop/web/tcp/http', true],
  );
  assert.deepEqual(
    web.endpoints.map((e: { ip: string; port: number; share: number }) => `${e.ip}:${e.port} ${e.share.toFixed(3)}`),
    ['10.244.1.5:8080 0.333', '10.244.1.6:8080 0.333', '10.244.2.7:8080 0.333'],
  );
  const text = kpp('parse', sample);
  assert.match(
    text.stdout,
    /service kube-system\/kube-dns:dns udp 10\.96\.0\.10:53 -> service-FY5PMXPG-kube-system\/kube-dns\/udp\/dns \(hash verified\)/,
  );
});

test('trace of a Service without endpoints: the answer says so, and an undecided local address is two alternatives, not 50/50', () => {
  const text = [
    '*filter',
    ':INPUT ACCEPT [0:0]',
    ':FORWARD ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    '-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "default/checkout:http has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
    'COMMIT',
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':KUBE-SERVICES - [0:0]',
    ':KUBE-NODEPORTS - [0:0]',
    '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
    '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
    'COMMIT',
    '',
  ].join('\n');
  const file = join(dir, 'no-endpoints.iptables');
  writeFileSync(file, text);
  const r = kpp('trace', file, '--src', '10.244.0.9', '--dst', '10.96.0.10:80', '--json');
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout) as {
    paths: { probability: number; verdict: string; given?: string[] }[];
    warnings: string[];
  };
  assert.deepEqual(j.paths.map((p) => [p.verdict, p.probability, p.given]).sort(), [
    ['ACCEPT', 1, ['if 10.96.0.10 is an address of this node']],
    ['REJECT', 1, ['if 10.96.0.10 is not an address of this node']],
  ]);
  assert.ok(
    j.warnings.some((w) => w.startsWith('default/checkout:http has no endpoints: kube-proxy rejects the connection')),
    j.warnings.join('\n'),
  );
  assert.ok(!j.warnings.some((w) => /Check the port and protocol/.test(w)), j.warnings.join('\n'));
  const tree = kpp('trace', file, '--src', '10.244.0.9', '--dst', '10.96.0.10:80', '--local-ip', '192.168.0.5');
  assert.match(tree.stdout, /: 1 path\n/);
  assert.match(tree.stdout, /=> REJECT with probability 1\n/);
  assert.match(tree.stdout, /has no endpoints: kube-proxy rejects the connection/);
  assert.doesNotMatch(tree.stdout, /path\(s\)|Check the port/);
});
