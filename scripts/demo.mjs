#!/usr/bin/env node
// `npm run demo`: the packaged extension in a real VS Code in your browser. Installs the e2e toolchain once
// (scripts/e2e/setup.mjs: Node 24 + code-server into a cache folder), packages the VSIX when it is missing or older
// than the sources, installs it with code-server's --install-extension into a fresh profile, opens a workspace with
// the sample dumps, and — as root with the lab's tools — brings up the lab `seed-gateway-bypass` with the
// extension's kubeconfig setting pointing at it. Prints the URL (127.0.0.1 only) and waits; Ctrl-C stops
// code-server (its process group), takes the lab down and removes the temp folder. Nothing else is touched.
// Options: --port N (default: a free port), --no-lab; KPP_DEMO_NO_LAB=1 is --no-lab.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  freePort,
  installVsix,
  labUnavailable,
  LAB_SCENARIO,
  makeProfile,
  startCodeServer,
  startLab,
} from './e2e/codeserver.mjs';
import { repoRoot, toolPaths } from './e2e/paths.mjs';

const say = (text) => console.log(`[demo] ${text}`);
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const noLab = args.includes('--no-lab') || process.env.KPP_DEMO_NO_LAB === '1';
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const vsix = path.join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
const owned = { server: undefined, lab: undefined, temp: undefined };

function node(script, extra = []) {
  const r = spawnSync(process.execPath, [path.join(repoRoot, script), ...extra], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${script} failed (exit ${r.status ?? r.signal})`);
}

/** The newest modification time under the folders a VSIX is built from. */
function newestSource() {
  let newest = 0;
  const walk = (p) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const rel of [
    'src',
    'syntaxes',
    'language-configuration',
    'media',
    'package.json',
    'package.nls.json',
    'README.md',
  ]) {
    if (fs.existsSync(path.join(repoRoot, rel))) walk(path.join(repoRoot, rel));
  }
  return newest;
}

async function main() {
  if (!fs.existsSync(path.join(repoRoot, 'node_modules', '@vscode', 'vsce'))) {
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm ci failed');
  }
  node('scripts/e2e/setup.mjs');
  if (!fs.existsSync(vsix) || fs.statSync(vsix).mtimeMs < newestSource()) node('scripts/package.mjs');
  else say(`using ${path.basename(vsix)} (newer than the sources)`);
  const tools = toolPaths();

  owned.temp = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-demo-'));
  const workspace = path.join(owned.temp, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  // The sample dumps a person would open: the repository's samples and the e2e workspace's node dumps.
  for (const from of [path.join(repoRoot, 'samples'), path.join(repoRoot, 'test', 'e2e', 'fixtures', 'workspace')]) {
    for (const name of fs.readdirSync(from)) fs.copyFileSync(path.join(from, name), path.join(workspace, name));
  }

  let settings = {};
  const why = noLab ? '--no-lab' : labUnavailable();
  if (why) say(`lab: not started (${why}); the Cluster view will show your own kube context, if any`);
  else {
    try {
      owned.lab = startLab(owned.temp);
      settings = { 'kubePacketPath.kubeconfig': owned.lab.kubeconfig };
      say(
        `lab: ${LAB_SCENARIO} up (kubeconfig ${owned.lab.kubeconfig}); its client pod cannot reach the kubernetes Service`,
      );
    } catch (error) {
      say(`lab: ${error.message}`);
    }
  }
  const profile = makeProfile(path.join(owned.temp, 'profile'), {}, settings);
  const installed = installVsix(tools, profile, vsix);
  say(`installed ${path.basename(vsix)} (${path.basename(installed)})`);
  const port = portArg >= 0 ? Number(args[portArg + 1]) : await freePort();
  owned.server = await startCodeServer(tools, profile, { port, logPath: path.join(owned.temp, 'code-server.log') });
  const url = `${owned.server.origin}/?folder=${encodeURIComponent(workspace)}`;
  say(`code-server pid ${owned.server.child.pid}, temp folder ${owned.temp}`);
  say('');
  say(`open ${url}`);
  say('');
  say(
    owned.lab
      ? 'try: open kube-proxy.iptables and hover a KUBE-SVC chain; the Kube Packet Path view > Cluster > default > kubernetes > Diagnose'
      : 'try: open kube-proxy.iptables, hover a KUBE-SVC chain, then "Kube Packet Path: Trace Packet..."',
  );
  say('Ctrl-C stops code-server, takes the lab down and removes the temp folder');
  owned.server.child.on('exit', (code, signal) => {
    if (!stopping) {
      say(`code-server exited (${signal ?? `exit ${code}`}); see ${path.join(owned.temp, 'code-server.log')}`);
      void stop(1);
    }
  });
}

let stopping;
async function stop(code) {
  stopping ??= (async () => {
    if (owned.server) await owned.server.stop();
    owned.server = undefined;
    if (owned.lab) say(`lab: down (exit ${owned.lab.stop()})`);
    owned.lab = undefined;
    if (owned.temp) fs.rmSync(owned.temp, { recursive: true, force: true });
    say('stopped; nothing left behind');
    process.exit(code);
  })();
  return stopping;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(0));
main().catch((error) => {
  console.error(`[demo] FAILED: ${error.message}`);
  void stop(1);
});
