// The parts of a code-server session that the e2e harness (run.mjs) and `npm run demo` (scripts/demo.mjs) share:
// quiet user settings, a VSIX installed with code-server's own CLI, code-server started in its own process group
// (stopped with the group: extension hosts otherwise linger), and the lab cluster with its kubeconfig.
// Everything started here is returned to the caller, who stops exactly that (by PID / process group).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { repoRoot } from './paths.mjs';

export const LAB_SCENARIO = 'seed-gateway-bypass';

/** User settings for a quiet first start: no welcome page, no AI side panels, nothing reaching for the network. */
export const QUIET_SETTINGS = {
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
};

/**
 * A code-server profile under `root`: user data with `settings`, an extensions dir and XDG folders (code-server and
 * Chromium otherwise write into $HOME). `machineSettings` go to the remote machine's settings too (the Settings
 * editor's "Remote" tab): machine-scoped settings such as `kubePacketPath.kubeconfig` are read from there once the
 * window has been reloaded, whatever the user settings say.
 */
export function makeProfile(root, settings = {}, machineSettings = {}) {
  const dir = (...parts) => {
    const p = path.join(root, ...parts);
    fs.mkdirSync(p, { recursive: true });
    return p;
  };
  const userData = dir('user-data');
  dir('user-data', 'User');
  const settingsFile = path.join(userData, 'User', 'settings.json');
  fs.writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...settings, ...machineSettings }, null, 2));
  if (Object.keys(machineSettings).length) {
    dir('user-data', 'Machine');
    fs.writeFileSync(path.join(userData, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2));
  }
  return {
    root,
    userData,
    settingsFile,
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

/** Adds settings to a profile's user settings file (code-server picks the change up while running). */
export function updateSettings(profile, changes) {
  const settings = JSON.parse(fs.readFileSync(profile.settingsFile, 'utf8'));
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete settings[key];
    else settings[key] = value;
  }
  fs.writeFileSync(profile.settingsFile, JSON.stringify(settings, null, 2));
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

function codeServerEnv(tools, profile) {
  const env = { ...withoutInheritedEditorEnv(process.env), ...profile.xdgEnv };
  env.PATH = `${path.dirname(tools.nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
  env.EXTENSIONS_GALLERY = '{}'; // no marketplace lookups
  return env;
}

/**
 * Installs a VSIX into the profile's extensions dir with code-server's own `--install-extension` (what
 * `code --install-extension` does in desktop VS Code). Returns the installed extension's folder.
 */
export function installVsix(tools, profile, vsix, logPath) {
  const r = spawnSync(
    tools.nodeBin,
    [
      tools.codeServerEntry,
      '--user-data-dir',
      profile.userData,
      '--extensions-dir',
      profile.extensions,
      '--install-extension',
      vsix,
    ],
    { cwd: profile.root, env: codeServerEnv(tools, profile), encoding: 'utf8', timeout: 120_000 },
  );
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (logPath) fs.writeFileSync(logPath, `exit ${r.status ?? r.signal}\n${output}`);
  if (r.status !== 0)
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status ?? r.signal}):\n${output.trim()}`);
  const installed = fs
    .readdirSync(profile.extensions)
    .find((name) => name.startsWith('kube-packet-path.kube-packet-path-'));
  if (!installed)
    throw new Error(
      `code-server said it installed ${vsix}, but ${profile.extensions} holds no kube-packet-path folder:\n${output.trim()}`,
    );
  return path.join(profile.extensions, installed);
}

/**
 * Starts code-server on 127.0.0.1:`port` for `profile`; resolves once /healthz answers. `smokeTestDriver` makes the
 * workbench honour the `payload` URL parameter (extensionTestsPath) and call window.codeAutomationExit.
 */
export async function startCodeServer(tools, profile, { port, logPath, smokeTestDriver = false, cwd = profile.root }) {
  fs.writeFileSync(profile.config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const args = [
    tools.codeServerEntry,
    '--config',
    profile.config,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--user-data-dir',
    profile.userData,
    '--extensions-dir',
    profile.extensions,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
  ];
  const log = fs.openSync(logPath, 'w');
  // detached: the child calls setsid(), so it leads a new process group and `kill(-pid)` also reaches the extension
  // hosts, pty host and file watchers it forks.
  const child = spawn(tools.nodeBin, args, {
    cwd,
    env: codeServerEnv(tools, profile),
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const server = { child, port, origin: `http://127.0.0.1:${port}`, stop: () => stopGroup(child) };
  let exited;
  child.on('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`code-server stopped during start-up (${exited}); see ${logPath}:\n${tail(logPath)}`);
    if (await answers(`${server.origin}/healthz`)) return server;
    await sleep(250);
  }
  await server.stop();
  throw new Error(`code-server did not answer on port ${port} within 90 s; see ${logPath}:\n${tail(logPath)}`);
}

/** SIGTERM to the child's process group, SIGKILL after 5 s; resolves when the group is gone. */
export async function stopGroup(child) {
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

/** Why the lab cannot run here, or undefined when it can (root, iproute2, iptables). */
export function labUnavailable() {
  if (process.env.KPP_E2E_NO_LAB === '1') return 'KPP_E2E_NO_LAB=1';
  if (process.getuid?.() !== 0) return 'not root';
  for (const tool of ['ip', 'iptables-restore']) {
    if (spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool]).status !== 0) return `no ${tool} command`;
  }
  if (!fs.existsSync(path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs')))
    return 'tsx is not installed (npm ci)';
  return undefined;
}

function labCli(args, env, timeout) {
  return spawnSync(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      path.join(repoRoot, 'test', 'lab', 'cli.ts'),
      ...args,
    ],
    { env, encoding: 'utf8', timeout },
  );
}

/**
 * Brings up the lab scenario with its own state folder under `root` and writes its kubeconfig there. Returns
 * `{ scenario, kubeconfig, stop }`; throws when it did not come up (after taking down what it left).
 */
export function startLab(root, scenario = LAB_SCENARIO) {
  const state = path.join(root, 'lab-state');
  fs.mkdirSync(state, { recursive: true });
  const kubeconfig = path.join(root, 'lab-kubeconfig');
  const env = { ...process.env, KPP_LAB_STATE_DIR: state };
  const lab = {
    scenario,
    kubeconfig,
    stop: () => {
      const down = labCli(['down'], env, 60_000);
      return down.status ?? down.signal;
    },
  };
  const up = labCli(['up', scenario, '--kubeconfig', kubeconfig], env, 120_000);
  if (up.status !== 0) {
    lab.stop();
    throw new Error(
      `lab ${scenario} did not come up (exit ${up.status ?? up.signal})\n${(up.stderr || up.stdout || '').trim()}`,
    );
  }
  return lab;
}

export function freePort() {
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

export function answers(url) {
  return new Promise((resolve) => {
    const request = http.get(url, { timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

export function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// Not unref'd: during cleanup these timers may be all that keeps the process alive until it exits on purpose.
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
