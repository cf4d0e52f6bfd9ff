#!/usr/bin/env node
// Installs the end-to-end toolchain outside the repository, once: Node 24 from the npm registry, then
// code-server (VS Code's server + web workbench) built with that Node. Later runs see the completion
// marker and return at once. Only the npm registry is used, so it works on machines without internet.
//
// Exit codes: 0 ready, 1 an install step failed, 2 a system prerequisite is missing.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION, NODE_VERSION, toolPaths } from './paths.mjs';

const started = Date.now();
const tools = toolPaths();
const logDir = path.join(tools.root, 'logs');

const say = (text) => console.log(`[e2e setup] ${text}`);
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

class SetupError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

// npm 11 warns about install scripts not approved in `allowScripts` (and announces it will block them).
// Approvals are by name: with `omit-lockfile-registry-resolved` set (it is on some machines) npm cannot
// verify a pinned `name@version` entry, and the versions are pinned in `dependencies` anyway. The nested
// installs that code-server's postinstall runs in lib/vscode use VS Code's own `allowScripts`.
const NODE_SCRIPTS = { node: true };
const CODE_SERVER_SCRIPTS = { 'code-server': true, argon2: true };

// Built files whose absence means the install only looked successful.
const REQUIRED_BUILD_OUTPUTS = [
  'lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node',
  'lib/vscode/node_modules/@vscode/sqlite3/build/Release/vscode-sqlite3.node',
  'lib/vscode/node_modules/@vscode/native-watchdog/build/Release/watchdog.node',
  'lib/vscode/node_modules/kerberos/build/Release/kerberos.node',
  'lib/vscode/out/server-main.js',
  'out/node/entry.js',
];

async function main() {
  say(`cache folder: ${tools.root}`);
  if (isReady()) {
    say(`already installed (marker ${path.basename(tools.marker)}); nothing to do (${seconds(started)})`);
    return;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new SetupError(`only linux-x64 is supported by this setup (this is ${process.platform}-${process.arch})`, 2);
  }
  checkPrerequisites();
  fs.mkdirSync(logDir, { recursive: true });

  await installNode();
  await installCodeServer();

  fs.writeFileSync(
    tools.marker,
    JSON.stringify(
      { node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString() },
      null,
      2,
    ) + '\n',
  );
  say(`ready: code-server ${CODE_SERVER_VERSION} on Node ${NODE_VERSION} (total ${seconds(started)})`);
}

function isReady() {
  return [tools.marker, tools.nodeBin, tools.codeServerEntry].every((p) => fs.existsSync(p));
}

function checkPrerequisites() {
  const missing = [];
  for (const [command, pkg] of [
    ['g++', 'g++'],
    ['make', 'make'],
    ['python3', 'python3'],
    ['pkg-config', 'pkg-config'],
  ]) {
    if (spawnSync('sh', ['-c', 'command -v "$1"', 'sh', command]).status !== 0) missing.push(pkg);
  }
  // code-server's `kerberos` module links against MIT Kerberos' GSSAPI.
  if (!missing.includes('pkg-config') && spawnSync('pkg-config', ['--exists', 'krb5-gssapi']).status !== 0) {
    missing.push('libkrb5-dev');
  }
  if (missing.length > 0) {
    throw new SetupError(
      `missing system packages needed to build code-server's native modules: ${missing.join(', ')}\n` +
        `  install them with: apt-get install -y ${missing.join(' ')}   (.ci/run installs them on CI)`,
      2,
    );
  }
}

async function installNode() {
  if (nodeVersionAt(tools.nodeBin) === `v${NODE_VERSION}`) {
    say(`Node ${NODE_VERSION} already present`);
    return;
  }
  const t = Date.now();
  say(`installing Node ${NODE_VERSION} from the npm registry into ${tools.nodeProject}`);
  fs.rmSync(tools.nodeProject, { recursive: true, force: true });
  writeProject(tools.nodeProject, 'kpp-e2e-node', { node: NODE_VERSION }, NODE_SCRIPTS);
  await npm(['install', '--no-audit', '--no-fund'], {
    cwd: tools.nodeProject,
    env: withoutOuterNpmRun(process.env),
    log: 'node-install.log',
  });
  const version = nodeVersionAt(tools.nodeBin);
  if (version !== `v${NODE_VERSION}`) {
    throw new SetupError(`expected ${tools.nodeBin} to be v${NODE_VERSION}, found ${version ?? 'nothing'}`);
  }
  say(`Node ${NODE_VERSION} installed (${seconds(t)})`);
}

async function installCodeServer() {
  const t = Date.now();
  say(
    `installing code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION} into ${tools.codeServerProject} (about 2 minutes)`,
  );
  // A half-finished install cannot be trusted: start from nothing.
  fs.rmSync(tools.codeServerProject, { recursive: true, force: true });
  writeProject(
    tools.codeServerProject,
    'kpp-e2e-code-server',
    { 'code-server': CODE_SERVER_VERSION },
    CODE_SERVER_SCRIPTS,
  );
  const env = node24Env();
  // code-server's postinstall installs the bundled VS Code's dependencies and compiles their native
  // modules against the Node running npm, which is why Node 24 is first on PATH.
  await npm(['install', '--no-audit', '--no-fund', '--foreground-scripts'], {
    cwd: tools.codeServerProject,
    env,
    log: 'code-server-install.log',
  });

  const absent = REQUIRED_BUILD_OUTPUTS.filter((rel) => !fs.existsSync(path.join(tools.codeServerHome, rel)));
  if (absent.length > 0) {
    throw new SetupError(
      `code-server install finished but these are missing:\n  ${absent.join('\n  ')}\n  see ${path.join(logDir, 'code-server-install.log')}`,
    );
  }
  const versionLine = codeServerVersionLine(env);
  if (!versionLine)
    throw new SetupError(
      `code-server ${CODE_SERVER_VERSION} does not start: see ${path.join(logDir, 'code-server-version.log')}`,
    );
  say(`code-server installed: ${versionLine} (${seconds(t)})`);
}

/** Asks the installed code-server its version, with its config and data kept out of $HOME. */
function codeServerVersionLine(env) {
  const scratch = fs.mkdtempSync(path.join(tools.root, 'version-check-'));
  try {
    const r = spawnSync(tools.nodeBin, [tools.codeServerEntry, '--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...env, XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch, XDG_CACHE_HOME: scratch },
    });
    fs.writeFileSync(
      path.join(logDir, 'code-server-version.log'),
      `exit ${r.status}\n${r.stdout ?? ''}${r.stderr ?? ''}`,
    );
    return r.status === 0 ? r.stdout.split('\n').find((line) => line.startsWith(`${CODE_SERVER_VERSION} `)) : undefined;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function writeProject(dir, name, dependencies, allowScripts) {
  fs.mkdirSync(dir, { recursive: true });
  const pkg = {
    name,
    private: true,
    description: 'Kube Packet Path end-to-end toolchain (generated)',
    dependencies,
    allowScripts,
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
}

/** Environment in which `node` is Node 24 and node-gyp compiles against its headers. */
function node24Env() {
  return {
    ...withoutOuterNpmRun(process.env),
    PATH: `${path.dirname(tools.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: tools.nodeHome,
    npm_config_ignore_scripts: 'false',
    JOBS: 'max',
  };
}

/**
 * Under `npm test` the outer npm (on the repository's Node) exports its user agent, node path and package
 * details. Inherited, they would make the inner npm describe itself as running on that Node, and
 * code-server's postinstall reads the Node version from the user agent and refuses anything but 24.
 */
function withoutOuterNpmRun(env) {
  const outer =
    /^(npm_config_(user_agent|node_gyp|local_prefix|global_prefix|prefix|npm_version)|npm_package_.*|npm_lifecycle_.*|npm_execpath|npm_node_execpath|npm_command|INIT_CWD|NODE)$/i;
  return Object.fromEntries(Object.entries(env).filter(([key]) => !outer.test(key)));
}

function nodeVersionAt(bin) {
  if (!fs.existsSync(bin)) return undefined;
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** Runs npm with output in a log file, a heartbeat on the console, and the log's tail on failure. */
function npm(args, { cwd, env = process.env, log }) {
  const logPath = path.join(logDir, log);
  const out = fs.openSync(logPath, 'w');
  const t = Date.now();
  say(`  $ npm ${args.join(' ')}   (log: ${logPath})`);
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', out, out] });
    const heartbeat = setInterval(() => say(`  ... still running (${seconds(t)})`), 30_000);
    child.on('error', (err) => {
      clearInterval(heartbeat);
      fs.closeSync(out);
      reject(new SetupError(`could not start npm: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      clearInterval(heartbeat);
      fs.closeSync(out);
      if (code === 0) return resolve();
      const tail = fs.readFileSync(logPath, 'utf8').split('\n').slice(-40).join('\n');
      reject(
        new SetupError(
          `npm ${args[0]} failed (${signal ?? `exit ${code}`}) after ${seconds(t)}; last lines of ${logPath}:\n${tail}`,
        ),
      );
    });
  });
}

main().catch((err) => {
  console.error(`[e2e setup] FAILED: ${err.message}`);
  console.error(`[e2e setup] after ${seconds(started)}`);
  process.exit(err instanceof SetupError ? err.exitCode : 1);
});
