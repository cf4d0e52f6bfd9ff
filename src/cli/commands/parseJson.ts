/** `kpp parse --json`: the shape of its answer and how an analysis becomes it (also read by the text report). */
import { analyzeOrRead, localizeDiagnostic, type Analysis } from '../../core/analyze';
import type { Lang } from '../../core/i18n/catalog';
import type { Diagnostic } from '../../core/common/diagnostics';
import type { LineIndex } from '../../core/common/lines';
import { documentDiagnostic } from '../../core/documentPositions';
import { ipvsToJson } from '../../core/ipvs/json';
import { IndexGaveUp, indexKubeFacts, indexSaveDump } from '../../core/iptables/dumpIndex';
import { kubeViewOf, type KubeService } from '../../core/iptables/kubeView';
import { ownDiagnostics, skippedFamilyReading } from '../../core/nftFamilies';
import { diagnosticJson } from '../io';
import { JsonBytes } from '../jsonBytes';

export interface ParseJson {
  format: string;
  counts: { tables: number; chains: number; rules: number };
  services: ServiceJson[];
  ipvs?: ReturnType<typeof ipvsToJson>;
  routes?: unknown[];
  routeGets?: unknown[];
  policyRules?: unknown[];
  addresses?: unknown[];
  conntrack?: unknown[];
  ipsets?: unknown[];
  diagnostics: ReturnType<typeof diagnosticJson>[];
  /** A session paste (format `session`): which lines (1-based, inclusive) each engine read. */
  sections?: { kind: string; firstLine: number; lastLine: number }[];
}

/** A Service as `kpp parse --json` prints it. */
export interface ServiceJson {
  name: string;
  protocol: string | null;
  clusterIP: string | null;
  port: number | null;
  nodePort?: number;
  externalIPs?: string[];
  loadBalancerIPs?: string[];
  trafficPolicy?: string;
  sessionAffinitySeconds?: number;
  noEndpoints?: true;
  chain: string | null;
  hashVerified: boolean | null;
  endpoints: { ip: string; port: number | null; chain: string; share: number | null }[];
}

export function serviceJson(s: KubeService): ServiceJson {
  // Fields assigned in the printed order, the optional ones only when present (no spread of a literal per field).
  const out = {
    name: s.name,
    protocol: s.protocol ?? null,
    clusterIP: s.clusterIP ?? null,
    port: s.port ?? null,
  } as ServiceJson;
  if (s.nodePort !== undefined) out.nodePort = s.nodePort;
  if (s.externalIPs.length) out.externalIPs = s.externalIPs;
  if (s.loadBalancerIPs.length) out.loadBalancerIPs = s.loadBalancerIPs;
  if (s.trafficPolicy) out.trafficPolicy = s.trafficPolicy;
  if (s.sessionAffinitySeconds !== undefined) out.sessionAffinitySeconds = s.sessionAffinitySeconds;
  if (s.noEndpoints) out.noEndpoints = true;
  out.chain = s.chain ?? null;
  out.hashVerified = s.hashVerified;
  out.endpoints = s.endpoints.map((e) => ({
    ip: e.ip,
    port: e.port ?? null,
    chain: e.chain,
    share: e.share === undefined ? null : round(e.share),
  }));
  return out;
}

/** Engine records as the CLI prints them: positions dropped except `line`, which becomes 1-based. */
function forPeople<T>(items: T[]): unknown[] {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'span' || k === 'spans' || k === 'valueSpans' || k === 'tokens') continue;
      out[k] = k === 'line' && typeof x === 'number' ? x + 1 : walk(x);
    }
    return out;
  };
  return items.map(walk);
}

function round(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

/** `skipped`: the reading of the family a dual-stack nft ruleset's analysis skipped, whose tables count too. */
export function parseResultJson(a: Analysis, lang: Lang = 'en', skipped?: Analysis): ParseJson {
  const out = parseResult(a, lang, skipped);
  if (a.iptables) out.services = servicesOf(a, skipped).map(serviceJson);
  return out;
}

/** The Services of the analysis, then those of the skipped family's reading. */
function servicesOf(a: Analysis, skipped?: Analysis): readonly KubeService[] {
  const services = a.iptables?.kube.services ?? [];
  return skipped?.iptables ? services.concat(skipped.iptables.kube.services) : services;
}

/**
 * Services and endpoints up to which `parseResultJsonBytes` prints through objects: measured, the byte writer costs
 * more on 500 Services x 5 (its loops have not warmed up yet), about the same on 2,500 x 5 (15,000) and less on
 * 10,000 x 5; the line is drawn below the break-even point.
 */
const SMALL_ANSWER = 12_000;

/**
 * `JSON.stringify(parseResultJson(a, lang), null, 2)` as UTF-8, the same bytes, with the Services written straight
 * from the view: a big dump's 10,000 Services and 50,000 endpoints would otherwise become objects, then a string,
 * then bytes, only to be printed.
 */
export function parseResultJsonBytes(
  a: Analysis,
  lang: Lang = 'en',
  objectsUpTo = SMALL_ANSWER,
  skipped?: Analysis,
): Buffer {
  return answerBytes(parseResult(a, lang, skipped), servicesOf(a, skipped), objectsUpTo);
}

/**
 * `parseResultJsonBytes(analyzeText(text), lang)`, the same bytes. A plain iptables-save dump that the parser would
 * read without a diagnostic answers from its index instead (dumpIndex.ts): counts from the index, the kube view
 * from the words of the lines it reads, no rule parsed.
 */
export function parseTextJsonBytes(text: string, lang: Lang = 'en', objectsUpTo = SMALL_ANSWER): Buffer {
  const a = analyzeOrRead(text, indexedAnswer);
  if ('read' in a) return answerBytes(a.read.out, a.read.services, objectsUpTo);
  return parseResultJsonBytes(a, lang, objectsUpTo, skippedFamilyReading(a, text));
}

/** The answer of a plain dump from its index, or undefined when the index declines it (it is then parsed). */
function indexedAnswer(lines: LineIndex): { out: ParseJson; services: readonly KubeService[] } | undefined {
  const index = indexSaveDump(lines);
  if (!index) return undefined;
  let services: readonly KubeService[];
  try {
    services = kubeViewOf(indexKubeFacts(index)).services;
  } catch (e) {
    if (e instanceof IndexGaveUp) return undefined;
    throw e;
  }
  const counts = { tables: index.tables.length, chains: index.chainCount, rules: index.ruleCount };
  return { out: { format: 'iptables-save', counts, services: [], diagnostics: [] }, services };
}

/** The answer `out` with `services` as its Services, as UTF-8 (`JSON.stringify(..., null, 2)`'s bytes). */
function answerBytes(out: ParseJson, services: readonly KubeService[], objectsUpTo: number): Buffer {
  let endpoints = 0;
  for (const s of services) endpoints += s.endpoints.length;
  if (services.length + endpoints <= objectsUpTo) {
    // A small answer: the objects and JSON.stringify's native code, faster than code that has not warmed up yet.
    out.services = services.map(serviceJson);
    return Buffer.from(JSON.stringify(out, null, 2), 'utf8');
  }
  const json = new JsonBytes(4096 + services.length * 400 + endpoints * 150);
  const fields = out as unknown as Record<string, unknown>;
  let first = true;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (value === undefined) continue;
    json.ascii(first ? '{\n  ' : ',\n  ');
    first = false;
    json.string(key);
    json.ascii(': ');
    if (key === 'services') writeServices(json, services);
    // A value one level down: JSON.stringify's own lines, each indented once more (strings hold no line breaks).
    else json.text(JSON.stringify(value, null, 2).replace(/\n/g, '\n  '));
  }
  json.ascii('\n}');
  return json.result();
}

/** The Services as `serviceJson` objects print at the second level of the answer. */
function writeServices(json: JsonBytes, services: readonly KubeService[]): void {
  if (services.length === 0) return json.ascii('[]');
  json.ascii('[');
  for (let i = 0; i < services.length; i++) {
    json.ascii(i ? ',\n    {' : '\n    {');
    writeService(json, services[i]);
    json.ascii('\n    }');
  }
  json.ascii('\n  ]');
}

// The keys and indentation of an endpoint (50,000 of a big dump), as bytes once; values go between them.
const FIRST_ENDPOINT_IP = JsonBytes.piece('\n        {\n          "ip": "');
const NEXT_ENDPOINT_IP = JsonBytes.piece(',\n        {\n          "ip": "');
const ENDPOINT_PORT = JsonBytes.piece('",\n          "port": ');
const ENDPOINT_CHAIN = JsonBytes.piece(',\n          "chain": "');
const ENDPOINT_SHARE = JsonBytes.piece('",\n          "share": ');
const ENDPOINT_END = JsonBytes.piece('\n        }');

/** The fields of `serviceJson(s)`, in its order, one a line. */
function writeService(json: JsonBytes, s: KubeService): void {
  json.ascii('\n      "name": ');
  json.string(s.name);
  json.ascii(',\n      "protocol": ');
  json.stringOrNull(s.protocol);
  json.ascii(',\n      "clusterIP": ');
  json.stringOrNull(s.clusterIP);
  json.ascii(',\n      "port": ');
  json.number(s.port);
  if (s.nodePort !== undefined) {
    json.ascii(',\n      "nodePort": ');
    json.number(s.nodePort);
  }
  if (s.externalIPs.length) {
    json.ascii(',\n      "externalIPs": ');
    writeStrings(json, s.externalIPs);
  }
  if (s.loadBalancerIPs.length) {
    json.ascii(',\n      "loadBalancerIPs": ');
    writeStrings(json, s.loadBalancerIPs);
  }
  if (s.trafficPolicy) {
    json.ascii(',\n      "trafficPolicy": ');
    json.string(s.trafficPolicy);
  }
  if (s.sessionAffinitySeconds !== undefined) {
    json.ascii(',\n      "sessionAffinitySeconds": ');
    json.number(s.sessionAffinitySeconds);
  }
  if (s.noEndpoints) json.ascii(',\n      "noEndpoints": true');
  json.ascii(',\n      "chain": ');
  json.stringOrNull(s.chain);
  json.ascii(
    s.hashVerified === null
      ? ',\n      "hashVerified": null'
      : s.hashVerified
        ? ',\n      "hashVerified": true'
        : ',\n      "hashVerified": false',
  );
  json.ascii(',\n      "endpoints": ');
  const endpoints = s.endpoints;
  if (endpoints.length === 0) return json.ascii('[]');
  json.ascii('[');
  for (let i = 0; i < endpoints.length; i++) {
    const e = endpoints[i];
    json.piece(i ? NEXT_ENDPOINT_IP : FIRST_ENDPOINT_IP);
    json.stringContent(e.ip);
    json.piece(ENDPOINT_PORT);
    json.number(e.port);
    json.piece(ENDPOINT_CHAIN);
    json.stringContent(e.chain);
    json.piece(ENDPOINT_SHARE);
    json.number(e.share === undefined ? undefined : round(e.share));
    json.piece(ENDPOINT_END);
  }
  json.ascii('\n      ]');
}

/** A list of strings at the third level of the answer. */
function writeStrings(json: JsonBytes, values: readonly string[]): void {
  json.ascii('[');
  for (let i = 0; i < values.length; i++) {
    json.ascii(i ? ',\n        ' : '\n        ');
    json.string(values[i]);
  }
  json.ascii('\n      ]');
}

/** Everything but the Services, which the caller adds (as objects or as text). */
function parseResult(a: Analysis, lang: Lang, skipped?: Analysis): ParseJson {
  const diagnostics: Diagnostic[] = [];
  const out: ParseJson = {
    format: 'unknown',
    counts: { tables: 0, chains: 0, rules: 0 },
    services: [],
    diagnostics: [],
  };
  if (a.iptables) {
    const d = a.iptables.dump;
    out.format =
      a.detection.kind === 'nft'
        ? 'nft'
        : d.rules.length || d.tables.length
          ? d.format
          : a.detection.kind === 'unknown'
            ? 'unknown'
            : d.format;
    // Rules the chains hold once `-D`, `-R` and `-F` lines are applied: what the kernel would end up with.
    const tables = skipped?.iptables ? d.tables.concat(skipped.iptables.dump.tables) : d.tables;
    let rules = 0;
    for (const t of tables) for (const c of t.chains.values()) rules += c.rules.length;
    out.counts = {
      tables: tables.filter((t) => t.span).length,
      chains: tables.reduce((n, t) => n + t.chains.size, 0),
      rules,
    };
    for (const x of d.diagnostics) diagnostics.push(x);
    if (skipped?.iptables)
      for (const x of ownDiagnostics(a, skipped, skipped.iptables.dump.diagnostics)) diagnostics.push(x);
  }
  if (a.ipvs) {
    out.format = a.ipvs.format === 'unknown' ? 'ipvsadm' : `ipvsadm-${a.ipvs.format}`;
    out.ipvs = ipvsToJson(a.ipvs);
    for (const x of a.ipvs.diagnostics) diagnostics.push(x);
  }
  if (a.network) {
    const n = a.network;
    out.format = n.formats?.[0] ?? 'network';
    out.routes = forPeople(n.routes);
    out.routeGets = forPeople(n.routeGets);
    if (n.policyRules.length) out.policyRules = forPeople(n.policyRules);
    out.addresses = forPeople(n.interfaces);
    out.conntrack = forPeople(n.conntrack);
    out.ipsets = forPeople(n.ipsets);
    for (const x of n.diagnostics) diagnostics.push(x);
  }
  if (a.session) {
    out.format = 'session';
    out.sections = a.session.map((x) => ({ kind: x.kind, firstLine: x.firstLine + 1, lastLine: x.endLine }));
  }
  out.diagnostics = diagnostics
    .sort((x, y) => x.span.line - y.span.line || x.span.column - y.span.column)
    .map((d) => diagnosticJson(localizeDiagnostic(documentDiagnostic(a, d), lang)));
  return out;
}
