/**
 * Reads a paste of network state from a node or a pod: any mix of `ip route`, `ip route get`, `ip rule`, `ip addr`/`ip link`,
 * `route -n`, `conntrack -L/-E` and `ipset list` output, with shell prompts, `...` elisions, blank lines,
 * indentation and CRLF. Each line goes to the reader its shape (and the last command seen) points at; lines no
 * reader takes become diagnostics. Never throws.
 */
import { splitLines } from '../common/lines';
import type { Lang } from '../i18n/catalog';
import { describeCommand, readCommandLine } from './commands';
import {
  looksLikeConntrack,
  parseConntrackLine,
  readConntrackSummary,
  splitGluedSummary,
  versionOfPrefix,
} from './conntrack';
import {
  isBriefLine,
  isDetailHead,
  isInterfaceHeader,
  isOnelineAddressHead,
  parseBriefLine,
  parseInterfaceDetail,
  parseInterfaceHeader,
  parseOnelineAddressHead,
} from './ipAddr';
import { adoptNexthopFamily, parseNexthopLine, parseRouteLine } from './ipRoute';
import {
  hasRouteGetMarks,
  parseCacheLine,
  parseRouteGetLine,
  readErrorLine,
  routeGetError,
  routeGetFromRoute,
} from './ipRouteGet';
import { looksLikePolicyRule, parsePolicyRuleLine } from './ipRule';
import { IpsetReader, looksLikeIpsetMember } from './ipset';
import { Reporter } from './report';
import { isDestinationWord, looksLikeRouteWords } from './routeWords';
import {
  fitsRouteNColumns,
  isRouteNTitle,
  looksLikeRouteNRow,
  parseRouteNRow,
  readRouteNHeader,
  ROUTE_N_DEFAULT_COLUMNS,
  type RouteNColumn,
} from './routeN';
import {
  NETWORK_FORMATS,
  type NetworkFormat,
  type NetworkInterface,
  type NetworkState,
  type Route,
  type RouteGet,
} from './types';
import { makeSegment, segmentSpan, splitWords, type Segment, type Word } from './words';

export interface ParseNetworkOptions {
  /** Language of diagnostic messages (default English). */
  lang?: Lang;
  /** What the text is when no command line says so (e.g. the output of a command the caller ran itself). */
  format?: NetworkFormat;
}

/** What a line turned out to be; `undefined` for lines nothing could read. */
export type LineKind = NetworkFormat | 'blank' | 'command' | 'elision' | 'comment';

export interface NetworkParseDetails {
  state: NetworkState;
  /** One entry per line of the text. */
  lineKinds: (LineKind | undefined)[];
}

/** Lines people put in place of cut output: `...`, `…`, `[...]`, `<snip>`, grep's `--`. */
const ELISION = /^(?:\.{3,}|\u2026+|\[\.{3}\]|\(\.{3}\)|<snip(?:ped)?>|--)$/i;

interface Section {
  format?: NetworkFormat;
  table?: string;
  family?: 4 | 6;
  destination?: string;
}

class NetworkParser {
  readonly state: NetworkState = {
    formats: [],
    routes: [],
    routeGets: [],
    policyRules: [],
    interfaces: [],
    conntrack: [],
    conntrackSummaries: [],
    ipsets: [],
    commands: [],
    diagnostics: [],
  };
  readonly lineKinds: (LineKind | undefined)[] = [];
  private readonly reporter: Reporter;
  private readonly ipset: IpsetReader;
  private readonly baseSection: Section;
  private section: Section;
  private iface?: NetworkInterface;
  private ifaceColumn = 0;
  private routeNColumns?: readonly RouteNColumn[];
  private lastRoute?: Route;
  private lastGet?: RouteGet;
  private conntrackVersion?: string;

  constructor(options: ParseNetworkOptions) {
    this.reporter = new Reporter(options.lang ?? 'en');
    this.state.diagnostics = this.reporter.diagnostics;
    this.ipset = new IpsetReader(this.reporter, this.state.ipsets);
    this.baseSection = options.format ? { format: options.format } : {};
    this.section = this.baseSection;
  }

  run(text: string): this {
    const lines = splitLines(text);
    this.lineKinds.length = 0;
    for (let i = 0; i < lines.length; i++) this.lineKinds.push(undefined);
    for (let i = 0; i < lines.length; i++) this.readLine(i, lines[i]);
    this.ipset.close();
    this.checkRuleTables();
    this.state.formats = formatsByLines(this.lineKinds);
    return this;
  }

  /**
   * With `ip route show table all` in the paste (routes that name their table), a rule that looks up a table
   * none of them is in finds nothing there: the kernel goes on to the next rule.
   */
  private checkRuleTables(): void {
    const routes = this.state.routes;
    if (!routes.some((r) => r.tableSource === 'explicit')) return;
    const tables = new Set(routes.map((r) => r.table));
    for (const rule of this.state.policyRules) {
      if (rule.action !== 'lookup' || !rule.table || !rule.spans.table || tables.has(rule.table)) continue;
      if (rule.table === 'local' || rule.table === 'main' || rule.table === 'default' || rule.table.startsWith('['))
        continue;
      this.reporter.report('routes-rule-table-not-pasted', 'info', rule.spans.table, {
        table: rule.table,
        priority: rule.priority,
      });
    }
  }

  private readLine(line: number, raw: string): void {
    const seg = makeSegment(line, raw);
    if (seg.text === '') {
      this.lineKinds[line] = 'blank';
      this.ipset.blank();
      this.lastRoute = undefined;
      this.routeNColumns = undefined;
      return;
    }
    if (ELISION.test(seg.text)) {
      this.lineKinds[line] = 'elision';
      return;
    }
    const command = readCommandLine(seg.text);
    if (command) {
      this.lineKinds[line] = 'command';
      this.startCommand(seg, command.command, command.column);
      return;
    }
    if (seg.text.startsWith('#')) {
      this.lineKinds[line] = 'comment';
      return;
    }
    if (this.readOneline(seg, raw)) return;
    this.readSegment(seg);
  }

  private startCommand(seg: Segment, command: string, column: number): void {
    this.ipset.close();
    this.iface = undefined;
    this.routeNColumns = undefined;
    this.lastRoute = undefined;
    this.lastGet = undefined;
    if (command === '') return; // an empty prompt: the output above is over, nothing new announced
    const info = describeCommand(command);
    this.section = { ...info };
    const entry = {
      line: seg.line,
      span: { line: seg.line, column: seg.column + column, length: Math.max(1, command.length) },
      command,
      ...(info.format ? { format: info.format } : {}),
    };
    this.state.commands.push(entry);
  }

  /** `ip -o addr|link` lines: `\` stands where the normal output has line breaks. */
  private readOneline(seg: Segment, raw: string): boolean {
    const cut = raw.indexOf('\\');
    if (cut < 0) return false;
    const head = makeSegment(seg.line, raw, 0, cut);
    const headWords = splitWords(head);
    if (!isInterfaceHeader(headWords) && !isOnelineAddressHead(headWords)) return false;
    this.readSegment(head);
    let start = cut + 1;
    while (start <= raw.length) {
      const next = raw.indexOf('\\', start);
      const end = next < 0 ? raw.length : next;
      const part = makeSegment(seg.line, raw, start, end);
      if (part.text !== '' && this.iface) this.readDetail(part, splitWords(part), true);
      if (next < 0) break;
      start = next + 1;
    }
    return true;
  }

  private mark(line: number, kind: NetworkFormat): void {
    this.lineKinds[line] = kind;
    if (kind !== 'ip-addr') this.iface = undefined;
    if (kind !== 'ip-route') this.lastRoute = undefined;
    if (kind !== 'ip-route-get') this.lastGet = undefined;
    if (kind !== 'route-n') this.routeNColumns = undefined;
  }

  private readSegment(seg: Segment): void {
    const words = splitWords(seg);
    if (words.length === 0) return;

    const glued = splitGluedSummary(seg);
    if (glued) {
      this.conntrackVersion = glued.version ? versionOfPrefix(glued.version.text) : this.conntrackVersion;
      this.lineKinds[seg.line] = 'conntrack';
      for (const piece of glued.rest) this.readSegment(piece);
      return;
    }
    const summary = readConntrackSummary(seg.text, seg.line, seg.column);
    if (summary) {
      if (!summary.version && this.conntrackVersion) summary.version = this.conntrackVersion;
      this.conntrackVersion = undefined;
      this.state.conntrackSummaries.push(summary);
      this.mark(seg.line, 'conntrack');
      return;
    }

    if (looksLikePolicyRule(words)) {
      this.state.policyRules.push(parsePolicyRuleLine(words, this.section.family, this.reporter));
      this.mark(seg.line, 'ip-rule');
      return;
    }

    if (this.ipset.accept(seg, words)) {
      this.mark(seg.line, 'ipset');
      return;
    }

    if (this.readRouteN(seg, words)) return;

    if (isInterfaceHeader(words)) {
      this.startInterface(parseInterfaceHeader(words), seg);
      return;
    }
    if (isOnelineAddressHead(words)) {
      const head = parseOnelineAddressHead(words);
      const known = this.findInterface(head);
      this.startInterface(known ?? head, seg, !known);
      this.readDetail(seg, words.slice(2), true);
      return;
    }
    if (looksLikeConntrack(words)) {
      this.state.conntrack.push(parseConntrackLine(words, this.reporter));
      this.mark(seg.line, 'conntrack');
      return;
    }

    if (this.iface && (seg.column > this.ifaceColumn || isDetailHead(words[0].text))) {
      if (this.readDetail(seg, words, seg.column > this.ifaceColumn)) return;
    } else if (!this.iface && isDetailHead(words[0].text)) {
      this.reporter.report('routes-addr-outside-interface', 'warning', segmentSpan(seg), { word: words[0].text });
      return;
    }

    const error = readErrorLine(seg.text);
    if (error) {
      if (this.section.format === 'ip-route-get') {
        this.state.routeGets.push(routeGetError(error, segmentSpan(seg), this.section));
        this.mark(seg.line, 'ip-route-get');
      } else {
        this.reporter.report('routes-command-error', 'info', segmentSpan(seg), { reason: error.reason });
        this.lineKinds[seg.line] = 'comment';
      }
      return;
    }

    const head = words[0].text;
    if (head === 'nexthop') return this.readNexthop(seg, words);
    if (head === 'cache') return this.readCache(seg, words);

    // iproute2 prints a multipath route without proto or metric as its destination alone, the legs on the lines
    // after: inside route output (after a route or under `ip route`), such a line starts a route.
    const bareDestination =
      words.length === 1 &&
      isDestinationWord(head) &&
      (this.section.format === 'ip-route' || this.lastRoute !== undefined);
    if (bareDestination || looksLikeRouteWords(words)) {
      if (this.section.format === 'ip-route-get' || hasRouteGetMarks(words)) {
        const get = parseRouteGetLine(words, this.section, this.reporter);
        this.state.routeGets.push(get);
        this.mark(seg.line, 'ip-route-get');
        this.lastGet = get;
        return;
      }
      const before = this.reporter.diagnostics.length;
      const route = parseRouteLine(words, this.section, this.reporter);
      // Outside `ip route` output, a line with words no route has (e.g. `ip neigh`: `lladdr`, `REACHABLE`) is not one.
      if (route.unknown.length === 0 || this.section.format === 'ip-route') {
        this.state.routes.push(route);
        this.mark(seg.line, 'ip-route');
        this.lastRoute = route;
        return;
      }
      this.reporter.diagnostics.length = before;
    }

    if (isBriefLine(words)) {
      const iface = parseBriefLine(words);
      this.state.interfaces.push(iface);
      this.mark(seg.line, 'ip-addr');
      return;
    }

    if (looksLikeIpsetMember(seg)) {
      this.reporter.report('routes-ipset-member-outside-set', 'warning', segmentSpan(seg), { value: seg.text });
      return;
    }

    // A line not understood ends any route or answer: a `nexthop` after it belongs to nothing we read.
    this.lastRoute = undefined;
    this.lastGet = undefined;
    this.reporter.report('routes-unrecognized-line', this.section.format ? 'warning' : 'info', segmentSpan(seg), {
      text: seg.text.length > 60 ? `${seg.text.slice(0, 57)}...` : seg.text,
    });
  }

  private readRouteN(seg: Segment, words: Word[]): boolean {
    if (isRouteNTitle(seg.text)) {
      this.mark(seg.line, 'route-n');
      this.routeNColumns = ROUTE_N_DEFAULT_COLUMNS;
      return true;
    }
    const header = readRouteNHeader(words);
    if (header) {
      this.mark(seg.line, 'route-n');
      this.routeNColumns = header;
      return true;
    }
    const columns =
      this.routeNColumns && fitsRouteNColumns(words, this.routeNColumns)
        ? this.routeNColumns
        : looksLikeRouteNRow(words)
          ? ROUTE_N_DEFAULT_COLUMNS
          : undefined;
    if (!columns) return this.readCutRouteNRow(words);
    const route = parseRouteNRow(words, columns, this.reporter);
    if (route) this.state.routes.push(route);
    this.mark(seg.line, 'route-n');
    this.routeNColumns = columns;
    return true;
  }

  /** Inside a table, a row that starts with an address but has the wrong number of columns was cut or wrapped. */
  private readCutRouteNRow(words: Word[]): boolean {
    const columns = this.routeNColumns;
    if (!columns || !isDestinationWord(words[0].text) || looksLikeRouteWords(words)) return false;
    parseRouteNRow(words, columns, this.reporter);
    this.mark(words[0].line, 'route-n');
    this.routeNColumns = columns;
    return true;
  }

  private startInterface(iface: NetworkInterface, seg: Segment, isNew = true): void {
    if (isNew) this.state.interfaces.push(iface);
    this.mark(seg.line, 'ip-addr');
    this.iface = iface;
    this.ifaceColumn = seg.column;
  }

  /** The interface an `ip -o addr` line continues: the latest one with the same index and name. */
  private findInterface(head: NetworkInterface): NetworkInterface | undefined {
    for (let i = this.state.interfaces.length - 1; i >= 0; i--) {
      const known = this.state.interfaces[i];
      if (known.name === head.name && known.index === head.index) return known;
    }
    return undefined;
  }

  /** A line under an interface header. Unknown lines are kept only when they are clearly nested (indented). */
  private readDetail(seg: Segment, words: Word[], nested: boolean): boolean {
    const iface = this.iface;
    if (!iface || words.length === 0) return false;
    if (parseInterfaceDetail(words, iface, this.reporter)) {
      this.mark(seg.line, 'ip-addr');
      return true;
    }
    // Route lines pasted under an indented listing are routes, not details.
    if (!nested || looksLikeRouteWords(words) || words[0].text === 'cache') return false;
    iface.details.push(seg.text);
    this.reporter.report('routes-addr-unknown-detail', 'info', segmentSpan(seg), { name: iface.name });
    this.mark(seg.line, 'ip-addr');
    return true;
  }

  private readNexthop(seg: Segment, words: Word[]): void {
    const route = this.lastRoute;
    if (!route) {
      this.reporter.report('routes-nexthop-without-route', 'warning', segmentSpan(seg));
      return;
    }
    route.nexthops.push(...parseNexthopLine(words, this.reporter));
    adoptNexthopFamily(route, this.section);
    this.mark(seg.line, 'ip-route');
    this.lastRoute = route;
  }

  private readCache(seg: Segment, words: Word[]): void {
    const cache = parseCacheLine(words, this.reporter);
    if (this.lastGet && !this.lastGet.cache) {
      this.lastGet.cache = cache;
      this.mark(seg.line, 'ip-route-get');
      return;
    }
    const route = this.lastRoute;
    if (route && this.section.format === 'ip-route') {
      // `ip route show cache`: cached routes carry their own cache lines.
      route.attributes.cache = [...cache.flags.map((f) => `<${f}>`), ...Object.entries(cache.attributes).flat()]
        .join(' ')
        .trim();
      this.mark(seg.line, 'ip-route');
      this.lastRoute = route;
      return;
    }
    if (route && this.state.routes[this.state.routes.length - 1] === route && route.source === 'ip-route') {
      // An answer of an older `ip route get` (no `uid`), first read as a route: the cache line tells what it was.
      this.state.routes.pop();
      const get = routeGetFromRoute(route, cache);
      this.state.routeGets.push(get);
      this.lineKinds[route.line] = 'ip-route-get';
      this.mark(seg.line, 'ip-route-get');
      this.lastGet = get;
      return;
    }
    this.reporter.report('routes-cache-without-route-get', 'warning', segmentSpan(seg));
  }
}

/** Lines read as each kind of output. */
export function countFormats(lineKinds: readonly (LineKind | undefined)[]): Record<NetworkFormat, number> {
  const counts = Object.fromEntries(NETWORK_FORMATS.map((f) => [f, 0])) as Record<NetworkFormat, number>;
  for (const kind of lineKinds) if (kind !== undefined && kind in counts) counts[kind as NetworkFormat]++;
  return counts;
}

function formatsByLines(lineKinds: readonly (LineKind | undefined)[]): NetworkFormat[] {
  const counts = countFormats(lineKinds);
  return NETWORK_FORMATS.filter((f) => counts[f] > 0).sort((a, b) => counts[b] - counts[a]);
}

/** Parses a paste and also tells what each line was (used by the format detector). */
export function parseNetworkDetails(text: string, options: ParseNetworkOptions = {}): NetworkParseDetails {
  const parser = new NetworkParser(options).run(text);
  return { state: parser.state, lineKinds: parser.lineKinds };
}

export function parseNetworkText(text: string, options: ParseNetworkOptions = {}): NetworkState {
  return parseNetworkDetails(text, options).state;
}
