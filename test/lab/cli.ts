/**
 * `npm run lab -- <command>`: run a lab cluster in the background and talk to it with kubectl.
 *
 *   up SCENARIO [--kubeconfig PATH]    start a shipped scenario (see `list`); returns once the lab is ready
 *   up --file PATH [--kubeconfig PATH] start a scenario file
 *   up --scale NxM [--kubeconfig PATH] N Services x M endpoints served by the API only (no data plane)
 *   api-stop [--after N] [--for MS]    the API server goes away (now, or after N more requests; back after MS)
 *   api-start                          the API server listens again (same port, same kubeconfig)
 *   down                               stop the lab, remove its namespaces and files, and any stale lab
 *   status                             say whether a lab runs, and where its kubeconfig is
 *   list                               the shipped scenarios
 *
 * `up` starts a detached daemon (this file with `__daemon`) that builds the data plane and serves the API on
 * 127.0.0.1; its pid and state are kept in a state folder (/run/kpp-lab as root, else the OS temp folder;
 * `KPP_LAB_STATE_DIR` overrides it).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isAlive, removeStaleLabs, unownedLabNamespaces } from './dataplane/cleanup';
import type { LabApiServer } from './apiserver';
import { startLab } from './dataplane/lab';
import { nodeScriptArgv } from './dataplane/node-script';
import { newRunId } from './dataplane/plan';
import { labSupport } from './dataplane/sys';
import { parseScale, startScaleLab } from './scale';
import { listScenarios, loadScenario } from './scenario';

const USAGE = `usage: npm run lab -- <command>
  up SCENARIO [--kubeconfig PATH]     start a shipped scenario (names: npm run lab -- list)
  up --file PATH [--kubeconfig PATH]  start a scenario from a JSON file
  up --scale NxM [--kubeconfig PATH]  N Services x M endpoints, API only (no data plane), e.g. 5000x3
  api-stop [--after N] [--for MS]     the API server goes away: connections cut, then refused (now, or
                                      once N more requests are answered; back by itself after MS)
  api-start                           the API server listens again on the same port
  down                                stop the lab and remove its namespaces, files and stale labs
  status                              show the running lab
  list                                list the shipped scenarios`;

const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

export interface LabState {
  status: 'starting' | 'ready' | 'failed';
  pid: number;
  runId: string;
  scenario: string;
  kubeconfig: string;
  log: string;
  apiUrl?: string;
  namespaces?: string[];
  nodes?: { name: string; ip: string; netns: string }[];
  error?: string;
  startedAt: string;
  /** False while the API server is stopped (api-stop). */
  apiListening?: boolean;
  /** The kubeconfig's current context (kpp-lab-viewer for execDenied). */
  context?: string;
}

/** What `api-stop` asks the daemon to do (written next to the state file, then SIGUSR1). */
interface ApiControl {
  afterRequests?: number;
  downForMs?: number;
}

const SCALE_PREFIX = 'scale:';

/** `$KPP_LAB_STATE_DIR`, else /run/kpp-lab when writable (root), else <tmp>/kpp-lab. */
export function stateDir(): string {
  const override = process.env.KPP_LAB_STATE_DIR;
  const candidates = override ? [path.resolve(override)] : ['/run/kpp-lab', path.join(os.tmpdir(), 'kpp-lab')];
  for (const dir of candidates) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.accessSync(dir, fs.constants.W_OK);
      return dir;
    } catch {
      // try the next one
    }
  }
  throw new Error(`no writable state folder (${candidates.join(' or ')})`);
}

function stateFile(dir: string): string {
  return path.join(dir, 'lab.json');
}

function readState(file: string): LabState | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LabState;
  } catch {
    return undefined;
  }
}

function writeState(file: string, state: LabState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2));
  fs.renameSync(tmp, file);
}

class UsageError extends Error {}

function parseUp(args: string[]): { scenario: string; kubeconfig?: string } {
  let scenario: string | undefined;
  let kubeconfig: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--kubeconfig' || a === '--file' || a === '--scale') {
      const v = args[++i];
      if (!v) throw new UsageError(`${a} needs a value`);
      if (scenario && a !== '--kubeconfig') throw new UsageError(`one scenario only (got "${scenario}" and ${a})`);
      if (a === '--kubeconfig') kubeconfig = path.resolve(v);
      else if (a === '--scale') {
        try {
          parseScale(v);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        scenario = `${SCALE_PREFIX}${v}`;
      } else scenario = path.resolve(v);
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else if (scenario) throw new UsageError(`one scenario only (got "${scenario}" and "${a}")`);
    else scenario = a;
  }
  if (!scenario) throw new UsageError('up needs a scenario name or --file PATH');
  return { scenario, ...(kubeconfig ? { kubeconfig } : {}) };
}

function requireLabSupport(): void {
  const support = labSupport();
  if (!support.ok) {
    process.stderr.write(`lab: cannot run here: ${support.reason}\n`);
    process.exit(2);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function up(args: string[]): Promise<number> {
  const { scenario: which, kubeconfig: kubeconfigArg } = parseUp(args);
  const scale = which.startsWith(SCALE_PREFIX);
  const scenario = scale ? { name: which } : loadScenario(which); // validates before anything starts
  // A scale lab is only the API server on loopback: no namespaces, so no root needed.
  if (!scale) requireLabSupport();
  const dir = stateDir();
  const file = stateFile(dir);
  const existing = readState(file);
  if (existing && isAlive(existing.pid)) {
    process.stderr.write(
      `lab: a lab is already running (scenario ${existing.scenario}, pid ${existing.pid}); stop it first: npm run lab -- down\n`,
    );
    return 1;
  }
  const stale = labSupport().ok ? removeStaleLabs() : [];
  if (stale.length) process.stdout.write(`removed ${stale.length} namespaces of earlier labs\n`);

  const kubeconfig = kubeconfigArg ?? path.join(dir, 'kubeconfig');
  const log = path.join(dir, 'daemon.log');
  fs.rmSync(file, { force: true });
  const out = fs.openSync(log, 'w');
  const [node, ...nodeArgs] = nodeScriptArgv(__dirname, 'cli');
  const daemon = spawn(
    node,
    [...nodeArgs, '__daemon', '--state', file, '--kubeconfig', kubeconfig, '--log', log, which],
    {
      detached: true,
      stdio: ['ignore', out, out],
      env: process.env,
    },
  );
  fs.closeSync(out);
  daemon.unref();
  const pid = daemon.pid!;

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const state = readState(file);
    if (state?.status === 'ready') {
      printReady(state);
      return 0;
    }
    if (state?.status === 'failed' || !isAlive(pid) || Date.now() > deadline) {
      if (isAlive(pid)) process.kill(pid, 'SIGTERM');
      const why =
        state?.error ??
        (Date.now() > deadline ? `not ready after ${READY_TIMEOUT_MS / 1000} s` : 'the lab daemon exited');
      process.stderr.write(`lab: ${scenario.name} failed to start: ${why}\n--- ${log} ---\n${tail(log)}\n`);
      return 1;
    }
    await sleep(100);
  }
}

function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

function printReady(s: LabState): void {
  const lines = [
    `lab "${s.scenario}" is up (daemon pid ${s.pid}, API ${s.apiUrl})`,
    `kubeconfig: ${s.kubeconfig} (context ${s.context ?? 'kpp-lab'})`,
    s.context === 'kpp-lab-viewer'
      ? '  the current context is the read-only user (exec and pod creation answer 403); context kpp-lab may'
      : '  also context kpp-lab-viewer: a read-only user (get/list/watch; exec and pod creation answer 403)',
    ...(s.apiListening === false ? ['the API server is stopped (npm run lab -- api-start)'] : []),
    '',
    `  export KUBECONFIG=${s.kubeconfig}`,
    ...(s.scenario.startsWith(SCALE_PREFIX)
      ? ['  kubectl get svc -A          # API only: no data plane, exec answers an error']
      : [
          '  kubectl get pods -A -o wide',
          '  kubectl exec client -- curl -sS --max-time 3 http://web/',
          '  kubectl get pods -n kube-system -l k8s-app=kube-proxy -o wide   # exec into one runs on its node',
          '',
          'nodes (run commands on a node with `ip netns exec NETNS ...`):',
          ...(s.nodes ?? []).map((n) => `  ${n.name}  ${n.ip}  ${n.netns}`),
        ]),
    '',
    'the API server goes away and comes back with: npm run lab -- api-stop [--after N] [--for MS]; api-start',
    '',
    'stop it with: npm run lab -- down',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** Sends the daemon a signal and waits until its state says the API server is (not) listening. */
async function apiSwitch(args: string[], stop: boolean): Promise<number> {
  const control: ApiControl = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = Number(args[i + 1]);
    if (stop && (a === '--after' || a === '--for')) {
      if (!Number.isInteger(v) || v < (a === '--after' ? 1 : 0))
        throw new UsageError(`${a} needs a whole number${a === '--after' ? ' >= 1' : ' of milliseconds'}`);
      if (a === '--after') control.afterRequests = v;
      else control.downForMs = v;
      i++;
    } else throw new UsageError(`unknown option ${a}`);
  }
  const file = stateFile(stateDir());
  const state = readState(file);
  if (!state || !isAlive(state.pid) || state.status !== 'ready') {
    process.stderr.write('lab: no lab is running (npm run lab -- up SCENARIO)\n');
    return 1;
  }
  if (stop) fs.writeFileSync(controlFile(file), JSON.stringify(control));
  process.kill(state.pid, stop ? 'SIGUSR1' : 'SIGUSR2');
  const api = state.apiUrl ?? 'the API server';
  if (stop && control.afterRequests !== undefined) {
    process.stdout.write(
      `${api} goes away after ${control.afterRequests} more requests${control.downForMs !== undefined ? `, back ${control.downForMs} ms later` : ' (npm run lab -- api-start brings it back)'}\n`,
    );
    return 0;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const now = readState(file);
    if (now?.apiListening === !stop) {
      process.stdout.write(
        stop
          ? `${api} stopped: clients now see connection refused (npm run lab -- api-start)\n`
          : `${api} listens again\n`,
      );
      return 0;
    }
    await sleep(50);
  }
  process.stderr.write(`lab: the daemon (pid ${state.pid}) did not ${stop ? 'stop' : 'start'} the API server\n`);
  return 1;
}

function controlFile(state: string): string {
  return `${state}.api-control.json`;
}

async function down(): Promise<number> {
  const scale = readState(stateFile(stateDir()))?.scenario.startsWith(SCALE_PREFIX) ?? false;
  if (!scale || labSupport().ok) requireLabSupport();
  const dir = stateDir();
  const file = stateFile(dir);
  const state = readState(file);
  if (state && isAlive(state.pid)) {
    process.kill(state.pid, 'SIGTERM');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (isAlive(state.pid) && Date.now() < deadline) await sleep(50);
    if (isAlive(state.pid)) process.kill(state.pid, 'SIGKILL');
    process.stdout.write(`stopped lab "${state.scenario}" (pid ${state.pid})\n`);
  } else if (state) {
    process.stdout.write(`lab "${state.scenario}" was not running (pid ${state.pid} is gone)\n`);
  } else {
    process.stdout.write('no lab was running\n');
  }
  const support = labSupport().ok;
  const removed = support ? removeStaleLabs() : [];
  if (removed.length) process.stdout.write(`removed ${removed.length} lab namespaces\n`);
  const unowned = support ? unownedLabNamespaces() : [];
  if (unowned.length) {
    process.stdout.write(
      `left alone (no owner pid in the name, maybe not a lab's): ${unowned.join(', ')}; remove with: ip netns del NAME\n`,
    );
  }
  if (state) {
    for (const f of [state.kubeconfig, state.log]) fs.rmSync(f, { force: true });
  }
  fs.rmSync(file, { force: true });
  fs.rmSync(controlFile(file), { force: true });
  try {
    fs.rmdirSync(dir); // only when empty
  } catch {
    // something else is kept there
  }
  return 0;
}

function status(): number {
  const state = readState(stateFile(stateDir()));
  if (!state || !isAlive(state.pid)) {
    process.stdout.write('no lab is running\n');
    return 1;
  }
  if (state.status === 'ready') printReady(state);
  else process.stdout.write(`lab "${state.scenario}" is ${state.status} (pid ${state.pid})\n`);
  return 0;
}

function list(): number {
  const scenarios = listScenarios();
  const width = Math.max(...scenarios.map((s) => s.name.length));
  for (const s of scenarios) process.stdout.write(`${s.name.padEnd(width)}  ${s.description}\n`);
  return 0;
}

/** The background process `up` starts: builds the lab, records it, and serves until SIGTERM. */
async function daemon(args: string[]): Promise<number> {
  const opt = (name: string): string => {
    const i = args.indexOf(name);
    if (i < 0 || !args[i + 1]) throw new UsageError(`__daemon needs ${name}`);
    return args[i + 1];
  };
  const file = opt('--state');
  const which = args[args.length - 1];
  const runId = newRunId();
  const base: LabState = {
    status: 'starting',
    pid: process.pid,
    runId,
    scenario: which,
    kubeconfig: opt('--kubeconfig'),
    log: opt('--log'),
    startedAt: new Date().toISOString(),
  };
  writeState(file, base);
  try {
    const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
    const apiLog = (line: string) => process.stdout.write(`${new Date().toISOString()} api ${line}\n`);
    let ready: LabState;
    let api: LabApiServer;
    if (which.startsWith(SCALE_PREFIX)) {
      const started = Date.now();
      const lab = await startScaleLab({
        ...parseScale(which.slice(SCALE_PREFIX.length)),
        kubeconfigPath: base.kubeconfig,
        apiLog,
      });
      log(`scale lab serving ${JSON.stringify(lab.counts)} at ${lab.api.url} (${Date.now() - started} ms)`);
      process.on('SIGTERM', () => void lab.stop().finally(() => process.exit(143)));
      api = lab.api;
      ready = { ...base, status: 'ready', apiUrl: lab.api.url, namespaces: [], nodes: [] };
    } else {
      const scenario = loadScenario(which);
      const lab = await startLab(scenario, { runId, kubeconfigPath: base.kubeconfig, log, apiLog });
      api = lab.api;
      ready = {
        ...base,
        status: 'ready',
        scenario: scenario.name,
        context: scenario.faults.execDenied ? 'kpp-lab-viewer' : 'kpp-lab',
        apiUrl: lab.api.url,
        namespaces: lab.namespaces(),
        nodes: lab.plan.nodes.map((n) => ({ name: n.node.name, ip: n.node.ip, netns: n.netns })),
      };
    }
    const record = () => writeState(file, { ...ready, apiListening: api.listening });
    record();
    // api-stop / api-start: the API server goes away and comes back; the data plane stays.
    process.on('SIGUSR1', () => {
      let control: ApiControl = {};
      try {
        control = JSON.parse(fs.readFileSync(controlFile(file), 'utf8')) as ApiControl;
      } catch {
        // no control file: stop now
      }
      log(`api-stop ${JSON.stringify(control)}`);
      if (control.afterRequests !== undefined) {
        api.goAwayAfter(control.afterRequests, control.downForMs);
        return;
      }
      void api.suspend().then(() => {
        record();
        if (control.downForMs !== undefined)
          setTimeout(
            () => void api.resume().then(record, (e: Error) => log(`api-start failed: ${e.message}`)),
            control.downForMs,
          );
      });
    });
    process.on('SIGUSR2', () => {
      log('api-start');
      void api.resume().then(record, (e: Error) => log(`api-start failed: ${e.message}`));
    });
    // A fault or an api-stop --after/--for may stop or start it by itself: keep the state file honest.
    setInterval(() => {
      const was = readState(file)?.apiListening;
      if (was !== api.listening) record();
    }, 200); // also keeps the daemon alive while the API server is stopped
    // The API server keeps the process alive; SIGTERM (down) runs the teardown hooks and exits.
    return await new Promise<number>(() => undefined);
  } catch (e) {
    writeState(file, { ...base, status: 'failed', error: (e as Error).message });
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'up':
        return await up(rest);
      case 'down':
        return await down();
      case 'status':
        return status();
      case 'api-stop':
        return await apiSwitch(rest, true);
      case 'api-start':
        return await apiSwitch(rest, false);
      case 'list':
        return list();
      case '__daemon':
        return await daemon(rest);
      default:
        process.stderr.write(`${command ? `unknown command "${command}"\n` : ''}${USAGE}\n`);
        return 2;
    }
  } catch (e) {
    process.stderr.write(`lab: ${(e as Error).message}\n`);
    if (e instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (require.main === module) {
  // `npm run lab -- list | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? 0 : 1));
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
