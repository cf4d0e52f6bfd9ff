/**
 * kube-proxy logs as people paste them, written out by hand for the tests of the log reader (unit, CLI, language
 * server): a -v=9 sync whose restore input is one klog line with Go's escapes.
 */
import type { SvcSpec } from '../unit/trace/helpers';

export const KUBE_DNS: SvcSpec = {
  ns: 'kube-system',
  name: 'kube-dns',
  clusterIP: '10.96.0.10',
  port: 53,
  endpoints: ['10.244.0.3:53', '10.244.1.7:53'],
};
export const CART: SvcSpec = {
  ns: 'shop',
  name: 'cart',
  clusterIP: '10.96.14.20',
  port: 80,
  endpoints: ['10.244.2.12:8080'],
};

/** klog prints the input (a byte slice) with %+q; Go's quoting of ASCII text is JSON's. */
export function klogRestoreLine(dump: string): string {
  return `I1206 10:00:01.123456       1 proxier.go:1538] "Restoring iptables" rules=${JSON.stringify(dump)}`;
}

/** One sync of the log: the restore line (1-based line 2) between the lines kube-proxy logs around it. */
export function klogSync(restoreLine: string): string {
  return [
    'I1206 10:00:01.101234       1 proxier.go:805] "Syncing iptables rules"',
    restoreLine,
    'I1206 10:00:01.140211       1 proxier.go:826] "SyncProxyRules complete" elapsed="39.1ms"',
    '',
  ].join('\n');
}
