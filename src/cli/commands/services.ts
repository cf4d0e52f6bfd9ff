/** `kpp services [-n NS | -A] [--context C] [--kubeconfig F] [--json]`: the Services of the kube context. */
import { ALL_NAMESPACES } from '../../cluster';
import type { EndpointInfo, ServiceInfo } from '../../core/kube/types';
import { serviceKey } from '../../core/kube/types';
import { parseArgs, UsageError } from '../args';
import { langOption } from '../lang';
import { printJson } from '../io';
import { expandShortOptions, guarded, openSession, secondsOption } from './clusterArgs';

export interface ServiceRow extends ServiceInfo {
  /** Endpoints of all ports together: ready ones and all. */
  endpoints: { ready: number; total: number; source?: 'EndpointSlice' | 'Endpoints' };
}

function portsText(s: ServiceInfo): string {
  if (!s.ports.length) return '<none>';
  return s.ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol}`).join(',');
}

function table(rows: string[][]): string {
  // A loop, not Math.max(...): a cluster's Services can outnumber the arguments a call has room for (~120k).
  const widths = rows[0].map((_, i) => rows.reduce((widest, r) => Math.max(widest, r[i].length), 0));
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

export async function runServices(argv: string[]): Promise<number> {
  const args = parseArgs(
    expandShortOptions(argv),
    ['namespace', 'context', 'kubeconfig', 'request-timeout', 'lang'],
    ['all-namespaces', 'json'],
  );
  if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const all = args.flags.has('all-namespaces');
  if (all && args.options.has('namespace')) throw new UsageError('-n and -A cannot go together');
  const timeoutMs = secondsOption(args.options.get('request-timeout'), 'request-timeout');
  return guarded('services', langOption(args), async () => {
    const session = await openSession({
      kubeconfig: args.options.get('kubeconfig'),
      context: args.options.get('context'),
      namespace: args.options.get('namespace'),
      ...(timeoutMs ? { timeoutMs } : {}),
    });
    try {
      const scope = all ? ALL_NAMESPACES : session.namespace;
      const snap = await session.snapshot(scope);
      const rows: ServiceRow[] = snap.services
        .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
        .map((s) => {
          const key = serviceKey(s.namespace, s.name);
          // One count per address (a pod serving two ports is one endpoint); ready when ready on any port.
          const byIp = new Map<string, boolean>();
          for (const e of Object.values(snap.endpoints[key] ?? {}).flat() as EndpointInfo[]) {
            byIp.set(e.ip, (byIp.get(e.ip) ?? false) || e.ready);
          }
          const ready = [...byIp.values()].filter(Boolean).length;
          const source = snap.endpointSources[key];
          return { ...s, endpoints: { ready, total: byIp.size, ...(source ? { source } : {}) } };
        });
      if (args.flags.has('json')) {
        printJson({
          context: session.context,
          ...(all ? {} : { namespace: session.namespace }),
          services: rows,
          ...(snap.warnings.length ? { warnings: snap.warnings } : {}),
        });
        return 0;
      }
      if (!rows.length) {
        process.stdout.write(all ? 'No Services found.\n' : `No Services found in namespace ${session.namespace}.\n`);
        return 0;
      }
      const head = [...(all ? ['NAMESPACE'] : []), 'NAME', 'TYPE', 'CLUSTER-IP', 'PORT(S)', 'ENDPOINTS'];
      const body = rows.map((r) => [
        ...(all ? [r.namespace] : []),
        r.name,
        r.type,
        r.clusterIP || '<none>',
        portsText(r),
        r.type === 'ExternalName'
          ? `-> ${r.externalName ?? ''}`
          : `${r.endpoints.ready}/${r.endpoints.total} ready${r.endpoints.total > 0 && r.endpoints.ready === 0 ? ' (!)' : ''}`,
      ]);
      process.stdout.write(`${table([head, ...body])}\n`);
      for (const w of snap.warnings) process.stderr.write(`kpp services: warning: ${w}\n`);
      return 0;
    } finally {
      session.dispose();
    }
  });
}
