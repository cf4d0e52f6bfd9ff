/**
 * `kpp`: the engine headless. Exit codes: 0 fine, 1 findings (lint errors), 2 usage or unreadable input
 * (one line on stderr, never a stack trace).
 */
import { UsageError } from './args';
import { runExplain } from './commands/explain';
import { runGenerate } from './commands/generate';
import { runLint } from './commands/lint';
import { runParse } from './commands/parse';
import { runTrace } from './commands/trace';
import { ownEntry } from '../core/common/own';

const USAGE = `kpp: Kube Packet Path on the command line

usage:
  kpp parse FILE [--json]
  kpp trace FILE --src IP --dst IP:PORT [--proto tcp|udp|sctp] [--hook prerouting|output]
                 [--in-iface IFACE] [--local-ip IP,...] [--json] [--lang en|zh-CN]
  kpp explain FILE --line N [--column C] [--lang en|zh-CN]
  kpp lint FILE [--json] [--lang en|zh-CN]
  kpp generate CLUSTER.json [--cluster-cidr CIDR] [--masquerade-all]

FILE is an iptables-save / iptables -S / iptables -L dump, ipvsadm output, or ip route / ip addr / conntrack /
ipset text; "-" reads standard input. Lines and columns are 1-based.
exit codes: 0 fine, 1 findings (lint errors), 2 usage or unreadable input`;

const COMMANDS: Record<string, (argv: string[]) => number> = {
  parse: runParse,
  trace: runTrace,
  explain: runExplain,
  lint: runLint,
  generate: runGenerate,
};

export function main(argv: string[]): number {
  if (require.main !== module) quietOnClosedPipe();
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
  try {
    return run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`kpp ${command}: ${e.message}\n`);
      return 2;
    }
    // Never a stack trace: one line that says what failed.
    process.stderr.write(`kpp ${command}: internal error: ${(e as Error).message ?? String(e)}\n`);
    return 2;
  }
}

declare const KPP_VERSION: string | undefined;
const VERSION = typeof KPP_VERSION === 'string' ? KPP_VERSION : '0.1.0';

/** A reader that closed the pipe (`kpp ... | head`) is not an error worth a stack trace. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => process.exit(e.code === 'EPIPE' ? 0 : 2));
}

if (require.main === module) {
  quietOnClosedPipe();
  process.exitCode = main(process.argv.slice(2));
}
