// Checks on the product as a person gets it, run by run.mjs without a browser (each `run(ctx)` throws to fail):
// `npm start` on this checkout (which packages the VSIX), the npm package's `kpp` installed alone, the manifest,
// `npm run test:desktop`, every command the READMEs show, and `npm run demo` started and stopped.
// ctx: { root (the run's temp folder), resultsDir, vsixPath, lab?: { kubeconfig }, log(text) }.
import { spawn, spawnSync } from 'node:child_process';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { answers, sleep } from './codeserver.mjs';
import { repoRoot } from './paths.mjs';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
/** README commands this run executed itself (exactly, or as noted where they are run), filled by the checks. */
const ranHere = new Map();
/** The installed `kpp` of the npm-package check. */
let installedKpp;

function node(args, { env = {}, timeout = 180_000, cwd = repoRoot } = {}) {
  return spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
}

function saveLog(ctx, name, r) {
  fs.writeFileSync(path.join(ctx.resultsDir, name), `exit ${r.status ?? r.signal}\n${r.stdout ?? ''}${r.stderr ?? ''}`);
}

/** Activation events beyond the contributed languages, views and commands, each with the reason it is there. */
const OTHER_ACTIVATION = {
  'onLanguage:plaintext': 'kubePacketPath.detectLanguage: a dump pasted into a plain-text editor is recognised',
};

export const productChecks = [
  {
    name: 'npm start: builds, packages the VSIX, tours the CLI, diagnoses the seed lab (as root) and prints the install command',
    async run(ctx) {
      const r = node([path.join(repoRoot, 'scripts', 'start.mjs')], { timeout: 300_000 });
      saveLog(ctx, 'npm-start.log', r);
      assert.equal(r.status, 0, `npm start exited ${r.status ?? r.signal}; see .test-results/e2e/npm-start.log`);
      const out = r.stdout;
      assert.ok(fs.existsSync(ctx.vsixPath), `no ${ctx.vsixPath}`);
      assert.ok(out.includes(`code --install-extension ${ctx.vsixPath}`), 'the install command is printed');
      assert.match(out, /\[package\] bundle dist\/extension\.js: [\d.]+ [kM]B/, 'bundle sizes are printed');
      assert.match(out, /\[package\] \S+\.vsix: [\d.]+ [kM]B/, 'the VSIX size is printed');
      assert.match(
        out,
        /\$ kpp trace .* --dst 172\.16\.0\.1:443[\s\S]*DNAT/,
        'the CLI tour traces the kubernetes Service',
      );
      ranHere.set('npm start', 'scripts/start.mjs');
      ranHere.set('npm run package', 'scripts/start.mjs runs scripts/package.mjs');
      if (/lab: up/.test(out)) {
        assert.match(out, /verdict: pod-route-bypasses-node/, 'the seed lab diagnosis names the gateway bypass');
        assert.match(out, /lab: down \(exit 0\)/, 'the lab is taken down');
        ctx.log(`lab diagnosis: ${/verdict: .*/.exec(out)?.[0]}`);
      } else ctx.log(`no lab: ${/\(lab: not started.*\)/.exec(out)?.[0] ?? '?'}`);
      ctx.log(/\[package\] \S+\.vsix: .*/.exec(out)?.[0] ?? '');
    },
  },
  {
    name: 'npm run package needs no network (vsce in a network namespace with none, as root)',
    async run(ctx) {
      if (process.getuid?.() !== 0 || spawnSync('sh', ['-c', 'command -v unshare']).status !== 0) {
        ctx.log('skipped: needs root and unshare for a private network namespace');
        return;
      }
      const out = path.join(ctx.root, 'offline.vsix');
      // unshare -n: a new network namespace with only a down loopback; any registry or marketplace call fails.
      const r = spawnSync(
        'unshare',
        ['-n', process.execPath, path.join(repoRoot, 'scripts', 'package.mjs'), '--out', out],
        { cwd: repoRoot, encoding: 'utf8', timeout: 180_000 },
      );
      saveLog(ctx, 'package-offline.log', r);
      assert.equal(
        r.status,
        0,
        `package.mjs without a network exited ${r.status ?? r.signal}; see .test-results/e2e/package-offline.log`,
      );
      assert.ok(fs.statSync(out).size < 5 * 1024 * 1024);
      ctx.log(/\[package\] \S+\.vsix: .*/.exec(r.stdout)?.[0] ?? '');
    },
  },
  {
    name: 'npm pack: the kpp package installs offline into an empty prefix and runs on Node alone',
    async run(ctx) {
      const dir = path.join(ctx.root, 'npm-package');
      fs.mkdirSync(dir, { recursive: true });
      const pack = spawnSync('npm', ['pack', '--pack-destination', dir], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(pack.status, 0, `npm pack: ${pack.stderr}`);
      const tarball = path.join(dir, TARBALL);
      assert.ok(fs.existsSync(tarball), `npm pack made no ${TARBALL}`);
      const list = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
      const expected = ['package.json', ...pkg.files.filter((f) => fs.existsSync(path.join(repoRoot, f)))]
        .map((f) => `package/${f}`)
        .sort();
      assert.deepEqual(list, expected, 'the package holds exactly package.json and `files`');
      assert.ok(list.includes('package/bin/kpp.js') && list.includes('package/dist/cli.js'));
      const prefix = path.join(dir, 'prefix');
      // --offline: the package must need nothing from the registry (its code is one bundle).
      const install = spawnSync(
        'npm',
        ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball],
        { cwd: dir, encoding: 'utf8', timeout: 120_000 },
      );
      assert.equal(install.status, 0, `npm install -g ${TARBALL}: ${install.stderr}`);
      installedKpp = path.join(prefix, 'bin', 'kpp');
      const env = {
        ...process.env,
        PATH: `${path.join(prefix, 'bin')}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
        NODE_PATH: '',
      };
      const version = spawnSync('kpp', ['--version'], { cwd: dir, env, encoding: 'utf8' });
      assert.equal(version.stdout.trim(), pkg.version, `kpp --version: ${version.stderr}`);
      const parsed = spawnSync('kpp', ['parse', path.join(repoRoot, 'samples', 'node-a.ipvs'), '--json'], {
        cwd: dir,
        env,
        encoding: 'utf8',
      });
      assert.equal(parsed.status, 0, parsed.stderr);
      assert.ok(JSON.parse(parsed.stdout).ipvs.services.length > 0, 'kpp parse lists the IPVS services');
      const size = fs.statSync(tarball).size;
      ctx.log(
        `${TARBALL}: ${(size / 1024 / 1024).toFixed(2)} MB, ${list.length} files; installed in ${prefix}; kpp ${version.stdout.trim()}`,
      );
      ranHere.set('npm pack', 'into a temp folder');
      ranHere.set(`npm install -g ./${TARBALL}`, 'with --prefix <temp> --offline');
      ranHere.set('kpp --version', 'the installed bin');
    },
  },
  {
    name: 'the manifest: activation on the dump languages, views and commands only; limited in untrusted workspaces; icon',
    async run() {
      const c = pkg.contributes;
      const expected = [
        ...c.languages.map((l) => `onLanguage:${l.id}`),
        ...Object.values(c.views)
          .flat()
          .map((v) => `onView:${v.id}`),
        ...c.commands.map((x) => `onCommand:${x.command}`),
        // Plain-text documents are read for dumps by content (kubePacketPath.detectLanguage).
        'onLanguage:plaintext',
      ].sort();
      const missing = expected.filter((e) => !pkg.activationEvents.includes(e));
      assert.deepEqual(
        missing,
        [],
        'every contributed language, view and command activates the extension (a new command needs its onCommand)',
      );
      const other = pkg.activationEvents.filter((e) => !expected.includes(e) && !(e in OTHER_ACTIVATION));
      assert.deepEqual(
        other,
        [],
        'no activation beyond the languages, views and commands (or one named in OTHER_ACTIVATION with its reason)',
      );
      const untrusted = pkg.capabilities.untrustedWorkspaces;
      assert.equal(untrusted.supported, 'limited');
      assert.ok(untrusted.restrictedConfigurations.includes('kubePacketPath.kubeconfig'));
      const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8'));
      assert.match(
        nls[untrusted.description.slice(1, -1)],
        /Diagnose Service.*Capture Node Rules/,
        'the untrusted description names the cluster actions it restricts',
      );
      const png = fs.readFileSync(path.join(repoRoot, pkg.icon));
      assert.equal(png.toString('ascii', 1, 4), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'the icon is 128x128');
      for (const key of ['repository', 'keywords', 'categories', 'galleryBanner', 'license', 'publisher'])
        assert.ok(pkg[key], `package.json has ${key}`);
      assert.ok(fs.existsSync(path.join(repoRoot, 'LICENSE')));
    },
  },
  {
    name: 'npm run test:desktop runs the suite in desktop VS Code, or says why it cannot and exits 0',
    async run(ctx) {
      const r = node([path.join(repoRoot, 'scripts', 'test-desktop.mjs')], { timeout: 600_000 });
      saveLog(ctx, 'test-desktop.log', r);
      assert.equal(r.status, 0, `test:desktop exited ${r.status ?? r.signal}:\n${r.stdout}${r.stderr}`);
      ctx.log((r.stdout.split('\n').find((l) => /skipped|passed/.test(l)) ?? r.stdout.trim().split('\n').pop()) || '');
      ranHere.set('npm run test:desktop', 'scripts/test-desktop.mjs');
    },
  },
];

/** Commands of the READMEs' sh blocks, with the `#` comments and `$ ` prompts taken off. */
export function readmeCommands(file) {
  const text = fs.readFileSync(file, 'utf8');
  const commands = [];
  for (const block of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    for (const raw of block[1].split('\n')) {
      const line = raw
        .replace(/^\$ /, '')
        .replace(/\s+#.*$/, '')
        .trim();
      if (line && !line.startsWith('#')) commands.push(line);
    }
  }
  return commands;
}

/**
 * README commands that this harness does not run, and where they run. Each entry names a file and a string in it
 * that proves it (checked here), so renaming or dropping the runner breaks this check rather than the README.
 */
const RUN_ELSEWHERE = [
  { command: /^npm test$/, by: '.ci/run', proof: 'npm test' },
  { command: /^npm test -- [a-z ]+$/, by: 'scripts/test.mjs', proof: 'const requested = process.argv.slice(2);' },
  { command: /^npm ci$/, by: '.ci/run', proof: 'npm ci --no-audit --no-fund' },
  {
    command: /^npm run lab -- up seed-gateway-bypass$/,
    by: 'scripts/e2e/codeserver.mjs',
    proof: "labCli(['up', scenario",
  },
  { command: /^npm run lab -- down$/, by: 'scripts/e2e/codeserver.mjs', proof: "labCli(['down']" },
  { command: /^npm run lab -- list$/, by: 'test/lab/cli.test.ts', proof: "'list'" },
  {
    command: /^code --install-extension kube-packet-path-[\d.]+\.vsix$/,
    by: 'scripts/e2e/codeserver.mjs (code-server --install-extension, the same CLI)',
    proof: "'--install-extension', vsix",
  },
  {
    command: /^kpp (services|capture)\b/,
    by: 'test/lab/diagnose.test.ts (when no lab is up here)',
    proof: "kpp(['capture', 'node/node-a'",
  },
  {
    command: /^kpp diagnose /,
    by: 'scripts/start.mjs (when no lab is up here)',
    proof: "'diagnose', 'svc/kubernetes', '-n', 'default', '--from', 'pod/client'",
  },
];
const FILE_COMMANDS = new Set(['parse', 'trace', 'explain', 'lint', 'generate', '--version', '--help']);
const CLUSTER_COMMANDS = new Set(['services', 'diagnose', 'capture']);

/** Splits a README command into argv (single and double quotes; no shell features). */
function argv(command) {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

export const readmeCheck = {
  name: 'every command in the READMEs (sh blocks) is run here or by a named test',
  async run(ctx) {
    assert.ok(installedKpp, 'the npm-package check installs kpp first');
    const files = ['README.md', 'README.zh-CN.md'].filter((f) => fs.existsSync(path.join(repoRoot, f)));
    const work = path.join(ctx.root, 'readme-commands');
    fs.cpSync(path.join(repoRoot, 'samples'), path.join(work, 'samples'), { recursive: true });
    const problems = [];
    const report = [];
    const seen = new Set();
    for (const file of files) {
      for (const command of readmeCommands(path.join(repoRoot, file))) {
        if (seen.has(command)) continue;
        seen.add(command);
        const words = argv(command);
        if (words[0] === 'kpp' && (FILE_COMMANDS.has(words[1]) || (CLUSTER_COMMANDS.has(words[1]) && ctx.lab))) {
          // Run it as written with the installed kpp, in a folder holding the samples; the lab's kubeconfig for
          // the cluster commands. 0 = fine, 1 = findings/verdict; 2 = usage or input error: the README is wrong.
          const r = spawnSync(installedKpp, words.slice(1), {
            cwd: work,
            encoding: 'utf8',
            timeout: 60_000,
            maxBuffer: 64 * 1024 * 1024,
            env: { ...process.env, ...(ctx.lab ? { KUBECONFIG: ctx.lab.kubeconfig } : {}) },
          });
          if (r.status !== 0 && r.status !== 1)
            problems.push(
              `${file}: \`${command}\` exited ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n')[0]}`,
            );
          else report.push(`ran    ${command} (exit ${r.status})`);
          continue;
        }
        if (ranHere.has(command)) {
          report.push(`ran    ${command} (${ranHere.get(command)})`);
          continue;
        }
        const elsewhere = RUN_ELSEWHERE.find((e) => e.command.test(command));
        if (!elsewhere) {
          problems.push(
            `${file}: \`${command}\` is run by no test: run it in scripts/e2e/product.mjs or list its test in RUN_ELSEWHERE`,
          );
          continue;
        }
        const byFile = path.join(repoRoot, elsewhere.by.split(' ')[0]);
        // Compared with blanks collapsed: a formatter may break the proof's line.
        const oneLine = (text) => text.replace(/\s+/g, ' ');
        if (!fs.existsSync(byFile) || !oneLine(fs.readFileSync(byFile, 'utf8')).includes(oneLine(elsewhere.proof)))
          problems.push(
            `${file}: \`${command}\` is listed as run by ${elsewhere.by}, which no longer holds ${JSON.stringify(elsewhere.proof)}`,
          );
        else report.push(`listed ${command} -> ${elsewhere.by}`);
      }
    }
    fs.writeFileSync(
      path.join(ctx.resultsDir, 'readme-commands.txt'),
      `${report.join('\n')}\n${problems.map((p) => `PROBLEM ${p}`).join('\n')}\n`,
    );
    ctx.log(
      `${seen.size} commands in ${files.join(', ')}: ${report.filter((l) => l.startsWith('ran')).length} run here, ${report.filter((l) => l.startsWith('listed')).length} by named tests (.test-results/e2e/readme-commands.txt)`,
    );
    assert.ok(seen.size > 0, 'the READMEs show commands in ```sh blocks');
    assert.deepEqual(problems, []);
  },
};

/** `npm run demo`: starts, prints a URL that answers, and leaves nothing behind after Ctrl-C. */
export const demoCheck = {
  name: 'npm run demo serves the VSIX in code-server on 127.0.0.1 and Ctrl-C leaves nothing behind',
  async run(ctx) {
    // --no-lab: the demo's lab is startLab(), which the phases of this run use too; this check is about what is
    // the demo's own (the VSIX installed, the URL answering, Ctrl-C leaving nothing behind).
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', 'demo.mjs'), '--no-lab'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    try {
      const deadline = Date.now() + 150_000;
      while (!/open (http:\/\/127\.0\.0\.1:\d+\/\S*)/.test(out) && Date.now() < deadline && child.exitCode === null)
        await sleep(250);
      const url = /open (http:\/\/127\.0\.0\.1:\d+)\/\S*/.exec(out)?.[1];
      assert.ok(url, `the demo printed no URL:\n${out}`);
      assert.ok(await answers(`${url}/healthz`), `${url}/healthz does not answer`);
      const pid = Number(/code-server pid (\d+)/.exec(out)?.[1]);
      const temp = /temp folder (\S+)/.exec(out)?.[1];
      child.kill('SIGINT');
      const code = await Promise.race([exited, sleep(30_000).then(() => 'still running')]);
      assert.equal(code, 0, `the demo ended with ${code} after Ctrl-C:\n${out}`);
      assert.equal(await answers(`${url}/healthz`), false, 'code-server still answers after Ctrl-C');
      let groupAlive = true;
      try {
        process.kill(-pid, 0);
      } catch {
        groupAlive = false;
      }
      assert.equal(groupAlive, false, `code-server's process group ${pid} outlived the demo`);
      assert.ok(temp && !fs.existsSync(temp), `the demo left ${temp}`);
      ranHere.set('npm run demo', 'scripts/demo.mjs --no-lab, stopped with SIGINT');
      ctx.log(`served ${url}, stopped cleanly`);
    } finally {
      fs.writeFileSync(path.join(ctx.resultsDir, 'npm-run-demo.log'), out);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await Promise.race([exited, sleep(15_000)]);
      }
    }
  },
};
