/**
 * What the engines read from a text, as one comparable string: detection, Services, rules, IPVS services,
 * network counts and diagnostics by line. Columns are left out (a prefix or indentation shifts them), and so
 * are the notes that only say how the paste was unwrapped.
 */
import { analyzeText, diagnosticsOf } from '../../src/core/analyze';

const UNWRAP_NOTES = new Set([
  'log-prefixed-paste',
  'hash-prefixed-paste',
  'quoted-paste',
  'numbered-paste',
  'typographic-quotes',
  'typographic-dashes',
  'html-references',
  'html-line-breaks',
  'ansible-output',
  'unicode-spaces',
  'double-spaced-paste',
  'terminal-escapes',
  'docker-json-log',
  'container-log-parts',
  'klog-commands',
  'grep-file-names',
]);

export function readingOf(text: string): string {
  const a = analyzeText(text);
  return JSON.stringify({
    kind: a.detection.kind,
    services: a.iptables?.kube.services.map((s) => [
      s.name,
      s.clusterIP,
      s.port,
      s.endpoints.map((e) => `${e.ip}:${e.port}`),
    ]),
    rules: a.iptables?.dump.rules.map((r) => [r.line, r.chain, r.target?.name]),
    ipvs: a.ipvs?.services.map((s) => [s.protocol, s.address, s.port, s.realServers.length]),
    network: a.network && [
      a.network.routes.length,
      a.network.interfaces.length,
      a.network.conntrack.length,
      a.network.ipsets.length,
    ],
    diagnostics: diagnosticsOf(a, 'en')
      .filter((d) => !UNWRAP_NOTES.has(d.code))
      .map((d) => `${d.span.line}:${d.code}`),
  });
}
