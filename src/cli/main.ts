/**
 * `kpp`: the engine headless. Exit codes: 0 fine, 1 findings (lint errors), 2 usage or unreadable input
 * (one line on stderr, never a stack trace).
 */
import { join } from 'node:path';
import type * as ClusterCommands from './clusterCommands';
import { runExplain } from './commands/explain';
import { runGenerate } from './commands/generate';
import { runLint } from './commands/lint';
import { runParse } from './commands/parse';
import { runTrace } from './commands/trace';
import { runCommand, type Command } from './run';
import { ownEntry } from '../core/common/own';
import { useNativeSha256, type Sha256 } from '../core/common/sha256';
import { assumeDefaultLocaleKeepsRootOrder } from '../core/common/textOrder';
import { defaultLocaleKeepsRootOrder } from './defaultLocale';

const USAGE = `kpp: Kube Packet Path on the command line

usage:
  kpp parse FILE [--json]
  kpp trace FILE --src IP --dst IP:PORT [--proto tcp|udp|sctp] [--hook prerouting|output]
                 [--in-iface IFACE] [--local-ip IP,...] [--json] [--lang en|zh-CN]
  kpp explain FILE --line N [--column C] [--lang en|zh-CN]
  kpp lint FILE [--json] [--lang en|zh-CN]
  kpp generate CLUSTER.json [--cluster-cidr CIDR] [--masquerade-all]
  kpp services [-n NS | -A] [--context C] [--kubeconfig F] [--json] [--lang en|zh-CN]
  kpp diagnose svc/NAME [-n NS] [--port P[/tcp|/udp]] [--from pod/NAME] [--from-namespace NS] [--container C]
               [--context C] [--kubeconfig F] [--timeout S] [--json] [--lang en|zh-CN] [--yes] [--verbose]
               (kpp diagnose --help says more)
  kpp capture node/NAME [--context C] [--kubeconfig F] [--out DIR] [--yes] [--json] [--lang en|zh-CN]

FILE is an iptables-save / iptables -S / iptables -L dump, ipvsadm output, or ip route / ip addr / conntrack /
ipset text, in UTF-8 or UTF-16, or gzip-compressed; "-" reads standard input. Lines and columns are 1-based.
The cluster commands read the kubeconfig as kubectl does (KUBECONFIG, else ~/.kube/config); --yes allows a
debug container / debug pod (removed afterwards) when a pod has no tools or a node has no usable kube-proxy pod.
exit codes: 0 fine, 1 findings (lint errors; diagnose: a verdict other than ok), 2 usage, unreadable input or
cluster errors`;

/** Set by scripts/build.mjs in the CLI bundle: the file name of the cluster commands' bundle beside it. */
declare const KPP_CLI_CLUSTER_BUNDLE: string | undefined;

/** Bundled, the cluster commands are a file of their own, read only when one runs; from source, the module. */
function clusterCommands(): typeof ClusterCommands {
  return typeof KPP_CLI_CLUSTER_BUNDLE === 'string'
    ? require(join(__dirname, KPP_CLI_CLUSTER_BUNDLE))
    : require(join(__dirname, 'clusterCommands'));
}

const cluster =
  (name: ClusterCommands.ClusterCommand): Command =>
  (argv) =>
    clusterCommands().runClusterCommand(name, argv);

const COMMANDS: Record<string, Command> = {
  parse: runParse,
  trace: runTrace,
  explain: runExplain,
  lint: runLint,
  generate: runGenerate,
  services: cluster('services'),
  diagnose: cluster('diagnose'),
  capture: cluster('capture'),
};

export function main(argv: string[]): number | Promise<number> {
  if (require.main !== module) quietOnClosedPipe();
  assumeDefaultLocaleKeepsRootOrder(defaultLocaleKeepsRootOrder(process.env, process.execArgv));
  useNativeSha256(oneShotSha256);
  const [command, ...rest] = argv;
  if (!command) {
    process.stderr.write('kpp: missing command (try kpp --help)\n');
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const run = ownEntry(COMMANDS, command);
  if (!run) {
    process.stderr.write(`kpp: unknown command "${command}" (try kpp --help)\n`);
    return 2;
  }
  return runCommand(command, run, rest);
}

declare const KPP_VERSION: string | undefined;
const VERSION = typeof KPP_VERSION === 'string' ? KPP_VERSION : '0.1.0';

/** node:crypto's one-shot `hash` (Node 20.12 and later), loaded when a chain name is first verified. */
export function oneShotSha256(): Sha256 | undefined {
  const { hash } = require('node:crypto') as {
    hash?: (algorithm: string, data: string, outputEncoding: 'buffer') => Buffer;
  };
  return hash ? (text) => hash('sha256', text, 'buffer') : undefined;
}

/** A reader that closed the pipe (`kpp ... | head`) is not an error worth a stack trace. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? 0 : 2));
}

if (require.main === module) {
  quietOnClosedPipe();
  const result = main(process.argv.slice(2));
  if (typeof result === 'number') process.exitCode = result;
  else {
    // Cluster commands: once the answer is written, leftover sockets (keep-alive, a closing WebSocket) must not
    // hold the process.
    void result.then((code) => {
      process.exitCode = code;
      process.stdout.write('', () => process.exit(code));
    });
  }
}
