/**
 * `kpp diagnose svc/NAME -n NS [--port P[/tcp|/udp|/sctp]] [--from pod/NAME] [--from-namespace NS] [--container C] [--context C] [--kubeconfig F]
 *  [--timeout S] [--json] [--lang en|zh-CN] [--yes]`: checks a Service from inside a pod and prints the verdict.
 * Exit 0 when the verdict is `ok`, 1 for any other verdict, 2 for usage or connection errors (one line on stderr).
 */
import { DEFAULT_DEBUG_IMAGE, diagnoseService, isClusterError } from '../../cluster';
import { reportMarkdown } from '../../core/diagnose/report';
import { parseArgs, UsageError } from '../args';
import { printJson } from '../io';
import { langOption } from '../lang';
import { t } from '../../core/i18n/catalog';
import {
  confirmer,
  expandShortOptions,
  guarded,
  openSession,
  progressWriter,
  resourceName,
  secondsOption,
} from './clusterArgs';

/** `kpp diagnose --help`. */
export const DIAGNOSE_HELP = `usage: kpp diagnose svc/NAME [-n NS] [options]

Checks a Service from inside a pod: connects to its ClusterIP and to its endpoints, looks its name up, asks the
pod's kernel where the packets go, reads the node's kube-proxy rules before and after, and prints the verdict
with its evidence and next steps.

  -n, --namespace NS     the Service's namespace (default: the context's)
  --port P               the Service port to check: its number or name, or number/protocol (53/tcp, 53/udp)
                         where one number is served over two protocols (kube-dns); a container port (targetPort)
                         picks the Service port that sends there. Default: the first port. The report names the
                         protocol it checked and the other one, if any.
  --from pod/NAME        the pod to check from (default: a running pod of the namespace that is no backend)
  --from-namespace NS    that pod's namespace (default: the Service's)
  --container C          the container to run the checks in (default: kubectl's default container)
  --timeout S            seconds per check (default 5)
  --request-timeout S    seconds per API request
  --context C            the kubeconfig context
  --kubeconfig F         the kubeconfig file (default: KUBECONFIG, else ~/.kube/config)
  --json                 the report as JSON
  --lang en|zh-CN        the report's and the errors' language (default: LC_ALL / LC_MESSAGES / LANG)
  --yes                  allow a debug container or a debug pod when one is needed (removed afterwards)
  --image IMAGE          the debug image (default ${DEFAULT_DEBUG_IMAGE})
  --no-node              do not read the node's rules
  --verbose              progress on stderr

exit codes: 0 verdict ok, 1 any other verdict, 2 usage or cluster errors, 130 cancelled`;

/** What --port accepts: a number, a port name, either with /tcp, /udp or /sctp. */
const PORT_OPTION = /^(\d{1,5}|[a-z0-9]([-a-z0-9]*[a-z0-9])?)(\/(tcp|udp|sctp))?$/i;

export async function runDiagnose(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${DIAGNOSE_HELP}\n`);
    return 0;
  }
  const args = parseArgs(
    expandShortOptions(argv),
    [
      'namespace',
      'port',
      'from',
      'from-namespace',
      'container',
      'context',
      'kubeconfig',
      'timeout',
      'request-timeout',
      'lang',
      'image',
    ],
    ['json', 'yes', 'verbose', 'no-node'],
  );
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length ? `one Service only (got ${args.positionals.join(' ')})` : 'missing svc/NAME',
    );
  }
  const service = resourceName(args.positionals[0], ['svc', 'service', 'services'], 'Service');
  const from = args.options.has('from')
    ? resourceName(args.options.get('from'), ['pod', 'pods', 'po'], 'pod', true)
    : undefined;
  const port = args.options.get('port');
  if (port !== undefined && !PORT_OPTION.test(port)) {
    throw new UsageError('--port must be a port number or a port name, optionally with /tcp, /udp or /sctp');
  }
  const timeoutMs = secondsOption(args.options.get('timeout'), 'timeout');
  const requestTimeoutMs = secondsOption(args.options.get('request-timeout'), 'request-timeout');
  const lang = langOption(args);
  const json = args.flags.has('json');

  return guarded('diagnose', lang, async () => {
    const session = await openSession({
      kubeconfig: args.options.get('kubeconfig'),
      context: args.options.get('context'),
      namespace: args.options.get('namespace'),
      ...(requestTimeoutMs ? { timeoutMs: requestTimeoutMs } : {}),
    });
    const ctl = new AbortController();
    const onSignal = () => ctl.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const progress = progressWriter(args.flags.has('verbose'));
      const report = await diagnoseService(session, {
        namespace: session.namespace,
        service,
        ...(port !== undefined ? { port } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(args.options.has('from-namespace') ? { fromNamespace: args.options.get('from-namespace') } : {}),
        ...(args.options.has('container') ? { container: args.options.get('container') } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        lang,
        confirm: confirmer(args.flags.has('yes'), lang),
        debugImage: args.options.get('image') ?? DEFAULT_DEBUG_IMAGE,
        nodeEvidence: !args.flags.has('no-node'),
        signal: ctl.signal,
        ...(progress ? { onProgress: progress } : {}),
      });
      if (json) printJson(report);
      else process.stdout.write(`${reportMarkdown(report, lang).trimEnd()}\n`);
      return report.verdict.code === 'ok' ? 0 : 1;
    } catch (e) {
      if (isClusterError(e) && e.code === 'cancelled') {
        process.stderr.write(`kpp diagnose: ${t(lang, 'cluster.error.cancelled.cleaned-up')}\n`);
        return 130;
      }
      throw e;
    } finally {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      session.dispose();
    }
  });
}
