#!/usr/bin/env node
// Runs the end-to-end tests in a real VS Code: code-server (installed by setup.mjs) serves the
// workbench, Debian's Chromium driven by playwright-core shows it.
//   1. Extension-host tests: out/test/e2e/index.js run() inside the real Node extension host, started
//      through the workbench's `payload` URL parameter (code-server's CLI refuses extensionTestsPath).
//   2. UI checks: out/test/e2e/ui/*.check.js look at the DOM and take screenshots.
// Builds nothing: `dist/` and `out/` must exist. Results and screenshots go to .test-results/e2e/.
//
// Exit codes: 0 all passed, 1 a test or check failed (or timed out), 2 the harness could not start.
// Environment: KPP_E2E_CACHE (toolchain folder), KPP_E2E_TIMEOUT_MS (whole run, default 360000),
// KPP_E2E_GREP (only host tests whose title matches), KPP_E2E_KEEP=1 (keep the temp folder),
// KPP_E2E_CHROMIUM (browser binary, default /usr/bin/chromium), KPP_E2E_NO_LAB=1 (no lab cluster: the
// cluster tests skip). As root with `ip` present, the lab scenario `seed-gateway-bypass` runs for the whole
// run (its own state folder under the temp folder) and the extension's kubeconfig setting points at it.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, repoRoot, toolPaths } from './paths.mjs';

const require = createRequire(import.meta.url);
const started = Date.now();
process.exitCode = 1; // until the run has actually passed
const TIMEOUT_MS = Number(process.env.KPP_E2E_TIMEOUT_MS || 6 * 60_000);
const HOST_TESTS_TIMEOUT_MS = Math.min(4 * 60_000, TIMEOUT_MS);
const UI_CHECK_TIMEOUT_MS = 90_000;
// The workbench page pulls many scripts; on a loaded CI machine `load` can take well over 30 s.
const PAGE_LOAD = { waitUntil: 'domcontentloaded', timeout: 120_000 };
const CHROMIUM = process.env.KPP_E2E_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const resultsDir = path.join(repoRoot, '.test-results', 'e2e');
const fixturesDir = path.join(repoRoot, 'test', 'e2e', 'fixtures', 'workspace');
const hostTestsEntry = path.join(repoRoot, 'out', 'test', 'e2e', 'index.js');
const uiChecksDir = path.join(repoRoot, 'out', 'test', 'e2e', 'ui');

const say = (text) => console.log(`[e2e] ${text}`);
const seconds = (since = started) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

class HarnessError extends Error {}

/** What this run started, so cleanup stops exactly that and nothing else. */
const owned = { codeServer: undefined, browser: undefined, tempDir: undefined, consoleLog: undefined, lab: undefined };
const LAB_SCENARIO = 'seed-gateway-bypass';

async function main() {
  const tools = checkPrerequisites();
  fs.rmSync(resultsDir, { recursive: true, force: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  owned.consoleLog = fs.createWriteStream(path.join(resultsDir, 'browser-console.log'));

  const dirs = makeTempDirs();
  const lab = startLab(dirs);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  await startCodeServer(tools, dirs, port);
  say(`code-server ${CODE_SERVER_VERSION} ready at ${origin} (${seconds()})`);

  // Each phase gets a fresh browser profile: the web workbench keeps its window state (open editors,
  // focused views) in the browser, and the UI checks must not inherit the tests' state.
  // Each phase also gets its own copy of the workspace: code-server keys editor state and hot-exit
  // backups (e.g. an untitled file a test left dirty) by workspace path.
  await startBrowser(dirs, 'host-tests');
  const host = await runHostTests(origin, copyWorkspace(dirs, 'host-tests'), lab);
  await startBrowser(dirs, 'ui');
  const ui = await runUiChecks(origin, copyWorkspace(dirs, 'ui'));

  const hostCounts = { passed: host.counts?.passed ?? 0, failed: host.counts?.failed ?? 0 };
  if (!host.ok && hostCounts.failed === 0) hostCounts.failed = 1; // a crash or timeout counts as one failure
  say('');
  say(
    `extension-host tests: ${host.ok ? 'passed' : `FAILED, ${host.reason}`} (${host.counts ? `${host.counts.passed} passed, ${host.counts.failed} failed` : 'no result'})`,
  );
  say(`UI checks: ${ui.failed === 0 ? 'passed' : 'FAILED'} (${ui.passed} passed, ${ui.failed} failed)`);
  say(`results and screenshots: ${path.relative(process.cwd(), resultsDir) || resultsDir}`);
  // The one line of the output that ends in "N passed, N failed": scripts/test.mjs adds it to its totals.
  console.log(`${hostCounts.passed + ui.passed} passed, ${hostCounts.failed + ui.failed} failed`);
  return host.ok && ui.failed === 0 ? 0 : 1;
}

async function startBrowser(dirs, phase) {
  await closeBrowser();
  const { chromium } = require('playwright-core');
  owned.browser = await chromium
    .launchPersistentContext(path.join(dirs.root, `chromium-profile-${phase}`), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
      env: { ...process.env, ...dirs.xdgEnv },
      // Playwright would exit on these signals before code-server is stopped; cleanup() handles them.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .catch((error) => {
      throw new HarnessError(`Chromium (${CHROMIUM}) did not start: ${error.message}`);
    });
}

async function closeBrowser() {
  const browser = owned.browser;
  owned.browser = undefined;
  if (browser) await Promise.race([browser.close().catch(() => undefined), sleep(10_000)]);
}

function checkPrerequisites() {
  const tools = toolPaths();
  const problems = [];
  if (!fs.existsSync(tools.marker))
    problems.push(`code-server is not installed in ${tools.root}: run \`node scripts/e2e/setup.mjs\``);
  if (!fs.existsSync(CHROMIUM))
    problems.push(`no browser at ${CHROMIUM}: \`apt-get install -y chromium\` or set KPP_E2E_CHROMIUM`);
  for (const rel of ['dist/extension.js', 'out/test/e2e/index.js']) {
    if (!fs.existsSync(path.join(repoRoot, rel)))
      problems.push(`${rel} is missing: run \`npm run build\` and \`tsc -p tsconfig.json\` first`);
  }
  if (problems.length > 0) throw new HarnessError(problems.join('\n  '));
  if (!fs.existsSync(path.join(repoRoot, 'dist/server.js')))
    say('warning: dist/server.js is missing; language-server features cannot work');
  return tools;
}

function makeTempDirs() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-e2e-'));
  owned.tempDir = root;
  const dir = (...parts) => {
    const p = path.join(root, ...parts);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const userData = dir('user-data');
  // Quiet first start: no welcome page, no AI side panels, nothing reaching for the network.
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'chat.disableAIFeatures': true,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        'git.enabled': false,
        // Overlays that cover tokens near the top of the editor and steal the pointer from UI checks.
        'editor.stickyScroll.enabled': false,
        'editor.minimap.enabled': false,
      },
      null,
      2,
    ),
  );
  return {
    root,
    userData,
    extensions: dir('extensions'),
    config: path.join(root, 'code-server.yaml'),
    xdgEnv: {
      XDG_CONFIG_HOME: dir('xdg', 'config'),
      XDG_DATA_HOME: dir('xdg', 'data'),
      XDG_CACHE_HOME: dir('xdg', 'cache'),
      XDG_STATE_HOME: dir('xdg', 'state'),
    },
  };
}

/** A fresh copy of the sample workspace for one phase; the folder is always named `workspace`. */
function copyWorkspace(dirs, phase) {
  const workspace = path.join(dirs.root, phase, 'workspace');
  fs.cpSync(fixturesDir, workspace, { recursive: true });
  return workspace;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startCodeServer(tools, dirs, port) {
  fs.writeFileSync(dirs.config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    tools.codeServerEntry,
    '--config',
    dirs.config,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // Makes the workbench honour the `payload` URL parameter (extensionTestsPath) and call
    // window.codeAutomationExit when the tests end.
    '--vscode-option',
    'enable-smoke-test-driver',
  ];
  const env = { ...withoutInheritedEditorEnv(process.env), ...dirs.xdgEnv };
  env.PATH = `${path.dirname(tools.nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
  env.EXTENSIONS_GALLERY = '{}'; // no marketplace lookups
  const logPath = path.join(resultsDir, 'code-server.log');
  const log = fs.openSync(logPath, 'w');
  // detached: the child calls setsid(), so it leads a new process group and `kill(-pid)` also reaches
  // the extension hosts, pty host and file watchers it forks (they otherwise outlive it).
  const child = spawn(tools.nodeBin, args, { cwd: dirs.root, env, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  owned.codeServer = child;
  let exited;
  child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exited)
      throw new HarnessError(`code-server stopped during start-up (${exited}); see ${logPath}:\n${tail(logPath)}`);
    if (await answers(`http://127.0.0.1:${port}/healthz`)) return;
    await sleep(250);
  }
  throw new HarnessError(`code-server did not answer on port ${port} within 90 s; see ${logPath}:\n${tail(logPath)}`);
}

function answers(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

/** Variables that would make code-server hand its work to the VS Code this script may be running in. */
function withoutInheritedEditorEnv(env) {
  const copy = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'NODE_OPTIONS') continue;
    copy[key] = value;
  }
  return copy;
}

function workbenchUrl(origin, workspace, payload) {
  const url = new URL('/', origin);
  url.searchParams.set('folder', workspace);
  url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

function remoteUri(origin, absPath) {
  // The authority must be the host:port the browser uses, or the workbench cannot resolve the path.
  return `vscode-remote://${new URL(origin).host}${absPath}`;
}

async function newPage(label) {
  const page = await owned.browser.newPage();
  page.on('console', (message) => forwardConsole(label, message));
  page.on('pageerror', (error) => owned.consoleLog.write(`[${label}] pageerror ${error.message}\n`));
  return page;
}

/** Everything goes to browser-console.log; the host tests' own lines (marked by support/log.ts) also to stdout. */
function forwardConsole(label, message) {
  const text = message.text();
  owned.consoleLog.write(`[${label}] ${message.type()} ${text}\n`);
  const body = hostLine(text);
  if (body === undefined || HOST_SUMMARY.test(body.trim())) return;
  for (const line of body.split('\n')) console.log(`  [host] ${line}`);
}

/** index.ts's closing line; run.mjs folds it into its own total instead of printing it. */
const HOST_SUMMARY = /^(\d+) passed, (\d+) failed$/;

/** The text after the host-log marker, or undefined for the workbench's own messages. */
function hostLine(text) {
  const at = text.indexOf(hostLogMarker());
  return at < 0 ? undefined : text.slice(at + hostLogMarker().length + 1);
}

function hostLogMarker() {
  return require(path.join(repoRoot, 'out', 'test', 'e2e', 'support', 'log.js')).HOST_LOG_MARKER;
}

/**
 * Brings up the lab cluster for the cluster tests when this machine can (root, iproute2), and points the
 * extension's `kubePacketPath.kubeconfig` user setting at its kubeconfig. Returns the scenario and kubeconfig, or
 * undefined.
 */
function startLab(dirs) {
  const why =
    process.env.KPP_E2E_NO_LAB === '1'
      ? 'KPP_E2E_NO_LAB=1'
      : process.getuid?.() !== 0
        ? 'not root'
        : spawnSync('ip', ['-V']).status !== 0
          ? 'no ip command'
          : undefined;
  if (why) {
    say(`lab: not started (${why}); the cluster tests skip`);
    return undefined;
  }
  const state = path.join(dirs.root, 'lab-state');
  fs.mkdirSync(state, { recursive: true });
  const kubeconfig = path.join(dirs.root, 'lab-kubeconfig');
  const env = { ...process.env, KPP_LAB_STATE_DIR: state };
  const t = Date.now();
  const up = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(repoRoot, 'test', 'lab', 'cli.ts'), 'up', LAB_SCENARIO, '--kubeconfig', kubeconfig], { env, encoding: 'utf8', timeout: 120_000 });
  owned.lab = { env };
  if (up.status !== 0) {
    say(`lab: ${LAB_SCENARIO} did not come up (exit ${up.status ?? up.signal}); the cluster tests skip\n${(up.stderr || up.stdout || '').trim()}`);
    return undefined;
  }
  const settingsFile = path.join(dirs.userData, 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  settings['kubePacketPath.kubeconfig'] = kubeconfig;
  fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  say(`lab: ${LAB_SCENARIO} up in ${seconds(t)} (kubeconfig ${kubeconfig})`);
  process.env.KPP_E2E_LAB = LAB_SCENARIO; // the UI checks run in this process
  return { scenario: LAB_SCENARIO, kubeconfig };
}

function stopLab() {
  if (!owned.lab) return;
  const down = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(repoRoot, 'test', 'lab', 'cli.ts'), 'down'], { env: owned.lab.env, encoding: 'utf8', timeout: 60_000 });
  say(`lab: down (exit ${down.status ?? down.signal})`);
  owned.lab = undefined;
}

async function runHostTests(origin, workspace, lab) {
  say('extension-host tests: starting');
  const t = Date.now();
  const page = await newPage('host-tests');
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    saveWorkbenchLogs('host-tests', logs);
    finish({ code });
  });
  let counts;
  page.on('console', (message) => {
    const m = HOST_SUMMARY.exec(hostLine(message.text())?.trim() ?? '');
    if (m) counts = { passed: Number(m[1]), failed: Number(m[2]) };
  });
  const url = workbenchUrl(origin, workspace, [
    ['extensionDevelopmentPath', remoteUri(origin, repoRoot)],
    ['extensionTestsPath', remoteUri(origin, hostTestsEntry)],
    // The test host does not read the user settings file the UI phase uses: KUBECONFIG reaches it directly.
    ...(lab ? [['extensionEnvironment', JSON.stringify({ KPP_E2E_LAB: lab.scenario, KUBECONFIG: lab.kubeconfig })]] : []),
  ]);
  const timeout = sleep(HOST_TESTS_TIMEOUT_MS).then(() => ({ code: 'timeout' }));
  const result = await page.goto(url, PAGE_LOAD).then(
    () => Promise.race([finished, timeout]),
    (error) => ({ code: `page did not load: ${error.message.split('\n')[0]}` }),
  );
  await page.screenshot({ path: path.join(resultsDir, 'host-tests-end.png') }).catch(() => undefined);
  await page.close().catch(() => undefined);
  say(
    `extension-host tests: finished in ${seconds(t)} (${typeof result.code === 'number' ? `exit ${result.code}` : result.code})`,
  );
  if (result.code === 'timeout')
    return { ok: false, reason: `no result within ${HOST_TESTS_TIMEOUT_MS / 1000} s`, counts };
  if (typeof result.code === 'string') return { ok: false, reason: result.code, counts };
  if (result.code !== 0) return { ok: false, reason: `run() rejected (exit ${result.code})`, counts };
  return { ok: true, counts };
}

function saveWorkbenchLogs(label, logs) {
  if (!Array.isArray(logs)) return;
  for (const entry of logs) {
    if (!entry || typeof entry.relativePath !== 'string' || typeof entry.contents !== 'string') continue;
    const target = path.join(resultsDir, `${label}-logs`, entry.relativePath.replace(/\.\.(\/|\\)/g, ''));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, entry.contents);
  }
}

async function runUiChecks(origin, workspace) {
  const checks = loadUiChecks();
  say(`UI checks: ${checks.length} to run`);
  const page = await newPage('ui');
  const t = Date.now();
  try {
    await page.goto(
      workbenchUrl(origin, workspace, [['extensionDevelopmentPath', remoteUri(origin, repoRoot)]]),
      PAGE_LOAD,
    );
    const { waitForWorkbench } = require(path.join(uiChecksDir, 'workbench.js'));
    await waitForWorkbench(page);
  } catch (error) {
    say(`UI checks: the workbench did not come up: ${String(error?.message ?? error).replace(ANSI_ESCAPES, '')}`);
    await page.screenshot({ path: path.join(resultsDir, 'FAILED-workbench.png') }).catch(() => undefined);
    await page.close().catch(() => undefined);
    return { passed: 0, failed: Math.max(checks.length, 1) };
  }
  say(`UI checks: workbench ready (${seconds(t)})`);

  const context = {
    page,
    workspace,
    screenshot: async (name) => {
      const file = path.join(resultsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    log: (text) => console.log(`  [ui] ${text}`),
  };
  let passed = 0;
  let failed = 0;
  for (const check of checks) {
    const tc = Date.now();
    try {
      await Promise.race([
        check.run(context),
        sleep(UI_CHECK_TIMEOUT_MS).then(() => {
          throw new Error(`timed out after ${UI_CHECK_TIMEOUT_MS / 1000} s`);
        }),
      ]);
      passed++;
      say(`  ok   ${check.name} (${seconds(tc)})`);
    } catch (error) {
      failed++;
      const message = String(error?.message ?? error).replace(ANSI_ESCAPES, '');
      say(`  FAIL ${check.name} (${seconds(tc)})\n       ${message.replace(/\n/g, '\n       ')}`);
      await context.screenshot(`FAILED-${check.file}-${failed}`).catch(() => undefined);
      // Leave no half-open widget behind for the next check.
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  await page.close().catch(() => undefined);
  return { passed, failed };
}

// Playwright colours its call logs; CI logs want plain text.
const ANSI_ESCAPES = /\x1b\[[0-9;]*m/g;

function loadUiChecks() {
  if (!fs.existsSync(uiChecksDir)) throw new HarnessError(`${uiChecksDir} is missing: compile the tests first`);
  const files = fs
    .readdirSync(uiChecksDir)
    .filter((name) => name.endsWith('.check.js'))
    .sort();
  const checks = [];
  for (const file of files) {
    const exported = require(path.join(uiChecksDir, file)).checks;
    if (!Array.isArray(exported)) throw new HarnessError(`${file} does not export \`checks\` (an array of UiCheck)`);
    for (const check of exported) checks.push({ ...check, file: path.basename(file, '.check.js') });
  }
  return checks;
}

// ---- cleanup: only what this run started, even after a failure or a timeout ----

let cleaningUp;
function cleanup() {
  cleaningUp ??= (async () => {
    await closeBrowser();
    await stopCodeServer();
    stopLab();
    if (owned.consoleLog) await new Promise((resolve) => owned.consoleLog.end(resolve));
    if (owned.tempDir) {
      if (process.env.KPP_E2E_KEEP === '1') say(`kept temp folder ${owned.tempDir}`);
      else fs.rmSync(owned.tempDir, { recursive: true, force: true });
    }
  })();
  return cleaningUp;
}

async function stopCodeServer() {
  const child = owned.codeServer;
  if (!child?.pid) return;
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (!signalGroup('SIGTERM')) return;
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    await sleep(100);
    if (!signalGroup(0)) return;
  }
  signalGroup('SIGKILL');
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// Not unref'd: during cleanup these timers may be all that keeps the process alive until it exits on purpose.
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function finishWith(code) {
  process.exitCode = code; // also what an unexpected early exit reports
  await cleanup();
  say(`done in ${seconds()} (exit ${code})`);
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    say(`${signal} received: stopping`);
    void finishWith(1);
  });
}
setTimeout(() => {
  say(`TIMEOUT: the whole run exceeded ${TIMEOUT_MS / 1000} s`);
  void finishWith(1);
}, TIMEOUT_MS);

main().then(
  (code) => finishWith(code),
  (error) => {
    if (cleaningUp) return undefined; // stopping already (timeout or signal): this is the fallout
    if (error instanceof HarnessError) console.error(`[e2e] cannot run:\n  ${error.message}`);
    else console.error(`[e2e] ERROR: ${error?.stack ?? error}`);
    return finishWith(error instanceof HarnessError ? 2 : 1);
  },
);
