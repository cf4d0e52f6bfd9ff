/** Mutable state of one parse: the dump being built, the layout in force, and helpers for tokens and diagnostics. */
import { lineSpan, type Severity, type Span } from '../common/diagnostics';
import type { SourceLine } from '../common/lines';
import { t, type Lang } from '../i18n/catalog';
import { realServerKey, serviceKey } from './identity';
import { IpvsTokens } from './tokenStore';
import type { IpvsDump, IpvsLayout, IpvsLine, IpvsToken, IpvsTokenKind, RealServer, VirtualService } from './types';
import { wordSpan, type Word } from './words';

type TokenExtra = Omit<IpvsToken, 'kind' | 'text' | 'span'>;

interface ServiceOrigin {
  section: number;
  layouts: Set<IpvsLayout>;
}

export class ParseContext {
  readonly dump: IpvsDump = {
    format: 'unknown',
    services: [],
    connections: [],
    daemons: [],
    orphanRealServers: [],
    exact: false,
    diagnostics: [],
    tokens: new IpvsTokens(),
    lines: [],
    removals: [],
  };
  /** Layout announced by the last command or column header; undefined until one is seen. */
  layout: IpvsLayout | undefined;
  section = 0;
  private sectionHasContent = false;
  /** Service that following `->` lines belong to. */
  currentService: number | undefined;
  /** True when the current service line was merged into one seen in another section (e.g. -Ln then --stats). */
  currentServiceMerged = false;
  /** After a prompt running another command, its output is expected and not worth a warning. */
  foreign = false;
  readonly layoutsSeen = new Set<IpvsLayout>();
  readonly serviceByKey = new Map<string, number>();
  readonly serviceOrigin = new Map<number, ServiceOrigin>();
  /** Index in `dump.removals` of what took each service out (by service index), and each real server ("s|r"). */
  readonly removedService = new Map<number, number>();
  readonly removedRealServer = new Map<string, number>();
  private readonly reported = new Set<string>();
  /**
   * The services no restore line took out, in order and by key (a paste can show one service twice), and each
   * one's real servers still in it, by key: a restore of thousands of `-a`/`-d` lines searched them all per line.
   */
  private readonly liveServiceSet = new Set<number>();
  private readonly liveServicesByKey = new Map<string, number[]>();
  private readonly liveRealServersOf = new Map<number, Map<string, number[]>>();

  /** Adds a service to the dump; returns its index. */
  addService(svc: VirtualService): number {
    const index = this.dump.services.push(svc) - 1;
    this.liveServiceSet.add(index);
    pushTo(this.liveServicesByKey, serviceKey(svc), index);
    return index;
  }

  /** The indexes of the services no restore line took out, in order. */
  liveServices(): number[] {
    return [...this.liveServiceSet];
  }

  /** The same, of the services with this key. */
  liveServicesWithKey(key: string): readonly number[] {
    return this.liveServicesByKey.get(key) ?? [];
  }

  /** Takes service `index` out, as removal `removal` did. */
  removeService(index: number, removal: number): void {
    this.removedService.set(index, removal);
    this.liveServiceSet.delete(index);
    dropFrom(this.liveServicesByKey, serviceKey(this.dump.services[index]), index);
  }

  /** Adds a real server to service `service`; returns its index there. */
  addRealServer(service: number, rs: RealServer): number {
    const at = this.dump.services[service].realServers.push(rs) - 1;
    let byKey = this.liveRealServersOf.get(service);
    if (!byKey) this.liveRealServersOf.set(service, (byKey = new Map()));
    pushTo(byKey, realServerKey(rs), at);
    return at;
  }

  /** The first real server of service `service` with this key that no restore line took out, -1 if none. */
  liveRealServer(service: number, key: string): number {
    return this.liveRealServersOf.get(service)?.get(key)?.[0] ?? -1;
  }

  /** Takes real server `at` out of service `service`, as removal `removal` did. */
  removeRealServer(service: number, at: number, removal: number): void {
    this.removedRealServer.set(`${service}|${at}`, removal);
    const byKey = this.liveRealServersOf.get(service);
    if (byKey) dropFrom(byKey, realServerKey(this.dump.services[service].realServers[at]), at);
  }

  constructor(readonly lang: Lang) {}

  get sectionHasData(): boolean {
    return this.sectionHasContent;
  }

  /** A command or a version header starts a new block of output; real servers no longer attach upwards. */
  startSection(layout: IpvsLayout | undefined): void {
    if (this.sectionHasContent) {
      this.section++;
      this.sectionHasContent = false;
    }
    this.layout = layout;
    this.currentService = undefined;
    this.currentServiceMerged = false;
  }

  /** Records that a line of `layout` carried data in the current section. */
  sawData(layout: IpvsLayout): void {
    this.layoutsSeen.add(layout);
    this.sectionHasContent = true;
    this.foreign = false;
  }

  /** Records line `sl` as `info`, which becomes the line's entry (callers pass a new object). */
  setLine(sl: SourceLine, info: Omit<IpvsLine, 'span'>): void {
    // Not `{ ...info, span }`: a spread copy of 60,000 lines took twice the heap (337 against 156 bytes a line).
    const line = info as IpvsLine;
    line.span = lineSpan(sl.line, sl.raw);
    this.dump.lines[sl.line] = line;
  }

  token(kind: IpvsTokenKind, line: number, word: Word, extra: TokenExtra = {}): void {
    this.tokenAt(kind, word.text, wordSpan(line, word), extra);
  }

  tokenAt(kind: IpvsTokenKind, text: string, span: Span, extra: TokenExtra = {}): void {
    this.dump.tokens.push(kind, text, span, extra);
  }

  /** Adds diagnostic `ipvs-<name>` with its localised text `ipvs.diag.<name>`. */
  diag(name: string, severity: Severity, span: Span, params?: Record<string, string | number>): void {
    this.dump.diagnostics.push({
      span,
      severity,
      code: `ipvs-${name}`,
      message: t(this.lang, `ipvs.diag.${name}`, params),
      messageKey: `ipvs.diag.${name}`,
      ...(params ? { params } : {}),
    });
  }

  /** Like `diag`, but only the first time `name` comes up in this dump. */
  diagOnce(name: string, severity: Severity, span: Span, params?: Record<string, string | number>): void {
    if (this.reported.has(name)) return;
    this.reported.add(name);
    this.diag(name, severity, span, params);
  }

  lineSpan(sl: SourceLine): Span {
    return lineSpan(sl.line, sl.raw);
  }
}

function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function dropFrom<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  const at = list ? list.indexOf(value) : -1;
  if (at < 0) return;
  if (list!.length === 1) map.delete(key);
  else list!.splice(at, 1);
}
