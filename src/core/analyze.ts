/**
 * One entry for every face (CLI, language server, extension): detect what a text is and parse it with the
 * right engine. Parsing happens once here; callers keep the result and answer questions from its indexes.
 */
import type { Diagnostic } from './common/diagnostics';
import type { IpFamily } from './common/ip';
import { LineIndex, normalizeLineBreaks } from './common/lines';
import { memoryCheckpoint } from './common/memoryCheck';
import type { PastePositions } from './common/pastePositions';
import { unwrapPaste, type UnwrappedPaste } from './common/pasteWrappers';
import { detectDump, type Detection, type DumpKind } from './detect';
import { t, type Lang } from './i18n/catalog';
import { explainAt, type Explanation } from './iptables/explain';
import { lintIptables } from './iptables/lint';
import { explainIpvsAt } from './ipvs/explain';
import { lintIpvs } from './ipvs/lint';
import { buildModel, type IptablesModel } from './iptables/model';
import { parseIptables } from './iptables/parser';
import type { TraceFocus } from './iptables/traceSlice';
import { parseIpvs } from './ipvs/parse';
import type { IpvsDump } from './ipvs/types';
import { explainNetworkAt } from './netstate/explain';
import { parseNetworkText } from './netstate/parse';
import type { NetworkState } from './netstate/types';
import { largestKind, sessionText, splitSession, type SessionKind, type SessionSection } from './session';

export interface Analysis {
  detection: Detection;
  iptables?: IptablesModel;
  ipvs?: IpvsDump;
  network?: NetworkState;
  /** A pasted session with outputs of several tools: which lines each engine read. */
  session?: readonly SessionSection[];
  /**
   * The engines' lines are not the text's (a kube-proxy log line carried the dump with its line breaks escaped):
   * every position the engines give or take crosses this map at the faces.
   */
  positions?: PastePositions;
  /** The lines of the text the iptables engine read, when it read the whole of it (the language server reuses them). */
  lines?: LineIndex;
}

/** An analysis made for a trace (see `traceText`). */
export interface TraceReading {
  /** The analysis is for one trace of this packet only, and may read only the lines it needs. */
  focus?: TraceFocus;
  /** The packet's family: an nft ruleset's tables of that family are read (the focus's, when that is given). */
  packetFamily?: IpFamily;
}

/** `kind` forces a family (e.g. the editor's language id); otherwise the text decides. */
export function analyzeText(text: string, kind?: DumpKind, trace?: TraceReading): Analysis {
  return analyzeOrRead<never>(text, undefined, kind, trace) as Analysis;
}

/**
 * How a face answers a plain iptables dump without the analysis (`kpp parse --json`'s index): handed the lines of
 * the text `analyzeText` would parse whole (no paste wrapper, no session paste, detected as iptables); undefined has
 * it analysed.
 */
export type PlainDumpReader<T> = (lines: LineIndex) => T | undefined;

/** `analyzeText`, offering a plain iptables dump to `plain` first: its answer as `{ read }` when it gives one. */
export function analyzeOrRead<T>(
  text: string,
  plain: PlainDumpReader<T> | undefined,
  kind?: DumpKind,
  trace?: TraceReading,
): Analysis | { read: T } {
  // Every engine below counts lines as the editor does (a lone CR ends a line too), and columns without a leading
  // byte order mark (a Windows editor's, or UTF-16's kept by the CLI's decoding), as the editor, which drops it.
  const input = normalizeLineBreaks(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const paste = unwrapPaste(input);
  if (!paste) return analyzeOutput(input, kind, trace, true, plain);
  // A quoted or logged paste: the engines read what is inside, and the dump says how it was unwrapped.
  // kube-proxy logged an iptables-restore input: iptables, however many log lines came before it.
  const a = analyzeOutput(paste.text, kind ?? (paste.kubeProxy ? 'iptables' : undefined), trace) as Analysis;
  const dumpDiagnostics = a.iptables?.dump.diagnostics ?? a.ipvs?.diagnostics ?? a.network?.diagnostics;
  dumpDiagnostics?.unshift(...pasteNotes(paste));
  if (paste.positions) a.positions = paste.positions;
  return a;
}

/**
 * The notes on how a paste was unwrapped (quoted, logged, numbered, ...): the dump's diagnostics start with them.
 * A second reading of the same paste (a dual-stack ruleset's other family) gives them again.
 */
export const PASTE_NOTE_CODES = [
  'ansible-output',
  'command-other-family',
  'container-log-parts',
  'docker-json-log',
  'double-spaced-paste',
  'grep-file-names',
  'html-line-breaks',
  'html-references',
  'klog-commands',
  'kube-proxy-log',
  'log-prefixed-paste',
  'logfmt-commands',
  'numbered-paste',
  'quoted-paste',
  'terminal-escapes',
  'typographic-dashes',
  'typographic-quotes',
  'unicode-spaces',
] as const;
export type PasteNoteCode = (typeof PASTE_NOTE_CODES)[number];

function pasteNotes(paste: UnwrappedPaste): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const note = (
    code: PasteNoteCode,
    line: number,
    column: number,
    length: number,
    key: string,
    params?: Record<string, string | number>,
  ) =>
    notes.push({
      span: { line, column, length },
      severity: 'info',
      code,
      message: t('en', key, params),
      messageKey: key,
      ...(params ? { params } : {}),
    });
  const {
    containerLog,
    terminalEscapes,
    doubleSpaced,
    spaces,
    quote,
    fileNames,
    numbers,
    ansible,
    log,
    logfmt,
    logfmtOtherFamily,
    klogCommands,
    htmlBreaks,
    html,
    typographic,
    dashes,
    kubeProxy,
  } = paste;
  if (containerLog) {
    const { form, line, column, joined } = containerLog;
    if (form === 'docker-json') note('docker-json-log', line, column, 1, 'parse.docker-json-log');
    else note('container-log-parts', line, column, 1, 'parse.container-log-parts', { count: joined });
  }
  if (terminalEscapes)
    note('terminal-escapes', terminalEscapes.line, terminalEscapes.column, 1, 'parse.terminal-escapes');
  if (doubleSpaced) note('double-spaced-paste', doubleSpaced.line, 0, doubleSpaced.length, 'parse.double-spaced-paste');
  if (spaces) note('unicode-spaces', spaces.line, spaces.column, 1, 'parse.unicode-spaces');
  if (quote) note('quoted-paste', quote.firstLine, 0, quote.length, 'parse.quoted-paste', { mark: quote.mark });
  if (fileNames) note('grep-file-names', fileNames.firstLine, 0, fileNames.length, 'parse.grep-file-names');
  if (numbers) note('numbered-paste', numbers.firstLine, 0, numbers.length, 'parse.numbered-paste');
  if (ansible) note('ansible-output', ansible.line, ansible.column, ansible.length, 'parse.ansible-output');
  if (log) note('log-prefixed-paste', log.line, log.column, log.length, 'parse.log-prefixed-paste');
  if (logfmt) note('logfmt-commands', logfmt.line, logfmt.column, logfmt.length, 'parse.logfmt-commands');
  if (logfmtOtherFamily) {
    // One note for the log's ip6tables commands, on the first (a dual-stack agent runs each rule twice).
    const { line, column, length, count } = logfmtOtherFamily;
    note('command-other-family', line, column, length, 'parse.logfmt-other-family', { count });
  }
  if (klogCommands)
    note('klog-commands', klogCommands.line, klogCommands.column, klogCommands.length, 'parse.klog-commands');
  if (htmlBreaks) note('html-line-breaks', htmlBreaks.line, htmlBreaks.column, 1, 'parse.html-line-breaks');
  if (html) note('html-references', html.line, html.column, 1, 'parse.html-references');
  if (typographic) note('typographic-quotes', typographic.line, typographic.column, 1, 'parse.typographic-quotes');
  if (dashes) note('typographic-dashes', dashes.line, dashes.column, 2, 'parse.typographic-dashes');
  if (kubeProxy) {
    const { line, column, length } = kubeProxy.header;
    const several = kubeProxy.inputs > 1;
    note(
      'kube-proxy-log',
      line,
      column,
      length,
      several ? 'parse.kube-proxy-log.several' : 'parse.kube-proxy-log',
      several ? { count: kubeProxy.inputs } : undefined,
    );
  }
  return notes;
}

/** `normalized`: the text's line breaks are normalized already (`normalizeLineBreaks`). */
function analyzeOutput<T>(
  text: string,
  kind?: DumpKind,
  trace: TraceReading = {},
  normalized = false,
  plain?: PlainDumpReader<T>,
): Analysis | { read: T } {
  // The editor's language id already says what the text is; detecting costs a full extra parse on big dumps.
  // A session paste is read by sections, also in the editor when its language is one of the session's kinds.
  // One line index for the session split and the parser: a pass over a big dump's lines costs milliseconds.
  const lines = new LineIndex(text, normalized);
  const session = splitSession(text, lines);
  if (session && (!kind || session.some((x) => x.kind === kind))) return analyzeSession(text, session, kind);
  const detection: Detection = kind
    ? { kind, confidence: 1, ...(kind === 'iptables' || kind === 'ipvs' ? { languageId: kind } : {}) }
    : detectDump(text);
  const chosen = detection.kind;
  // Between phases: what a face's memory check sees before the next phase (the parse, then what asks the analysis).
  memoryCheckpoint();
  switch (chosen) {
    case 'ipvs':
      return afterPhase({ detection, ipvs: parseIpvs(text) });
    case 'network':
      return afterPhase({ detection, network: parseNetworkText(text) });
    default: {
      const read = chosen === 'iptables' && plain ? plain(lines) : undefined;
      if (read !== undefined) return { read };
      // iptables, nft and unknown text all go through the iptables parser, which explains what it cannot read.
      return afterPhase({
        detection,
        lines,
        iptables: buildModel(parseIptables(text, { lines, traceFocus: trace.focus, packetFamily: trace.packetFamily })),
      });
    }
  }
}

function afterPhase<T>(result: T): T {
  memoryCheckpoint();
  return result;
}

/** Each engine reads its sections of a session paste; the detection names the editor's kind or the one with most lines. */
function analyzeSession(text: string, session: readonly SessionSection[], kind?: DumpKind): Analysis {
  const kinds = new Set<SessionKind>(session.map((x) => x.kind));
  const main = kind === 'iptables' || kind === 'ipvs' ? kind : largestKind(session);
  const detection: Detection = { kind: main, confidence: 1, ...(main !== 'network' ? { languageId: main } : {}) };
  return {
    detection,
    session,
    ...(kinds.has('iptables') ? { iptables: buildModel(parseIptables(sessionText(text, session, 'iptables'))) } : {}),
    ...(kinds.has('ipvs') ? { ipvs: parseIpvs(sessionText(text, session, 'ipvs')) } : {}),
    ...(kinds.has('network') ? { network: parseNetworkText(sessionText(text, session, 'network')) } : {}),
  };
}

/**
 * The explanation of the token at line:column (or of the whole rule with column -1), by the engine that read the
 * line: in a session paste, its section's; otherwise the dump's.
 */
export function explainLine(a: Analysis, line: number, column: number, lang: Lang): Explanation | undefined {
  const engine =
    a.session?.find((x) => line >= x.firstLine && line < x.endLine)?.kind ??
    (a.ipvs ? 'ipvs' : a.iptables ? 'iptables' : 'network');
  if (engine === 'ipvs') return a.ipvs ? explainIpvsAt(a.ipvs, line, column, lang) : undefined;
  if (engine === 'iptables') return a.iptables ? explainAt(a.iptables, line, column, lang) : undefined;
  if (!a.network) return undefined;
  const services = a.iptables?.kube.services;
  const serviceOf = services?.length
    ? (ip: string) => services.find((s) => s.clusterIP === ip)?.name || undefined
    : undefined;
  return explainNetworkAt(a.network, line, lang, serviceOf);
}

/** A diagnostic in the person's language, when its text is a catalog key (parse problems). */
export function localizeDiagnostic(d: Diagnostic, lang: Lang): Diagnostic {
  // The engines write English; a text without a catalog key stays as it is.
  if (lang === 'en' || (!d.messageKey && !d.related?.some((r) => r.messageKey))) return d;
  return {
    ...d,
    ...(d.messageKey ? { message: t(lang, d.messageKey, d.params) } : {}),
    ...(d.related
      ? { related: d.related.map((r) => (r.messageKey ? { ...r, message: t(lang, r.messageKey) } : r)) }
      : {}),
  };
}

/**
 * Parse problems and lint findings of an analysis, in line order: what the editor and `kpp lint` show. `lint`
 * false: the parse problems only (the language server publishes these first when a big dump opens).
 */
export function diagnosticsOf(a: Analysis, lang: Lang, lint = true): Diagnostic[] {
  // concat, not push(...): a huge paste can have more diagnostics than a call has room for arguments.
  let found: Diagnostic[] = [];
  if (a.iptables)
    found = found.concat(
      a.iptables.dump.diagnostics.map((d) => localizeDiagnostic(d, lang)),
      lint ? lintIptables(a.iptables, lang) : [],
    );
  if (a.ipvs)
    found = found.concat(
      a.ipvs.diagnostics.map((d) => localizeDiagnostic(d, lang)),
      lint ? lintIpvs(a.ipvs, lang) : [],
    );
  if (a.network) found = found.concat(a.network.diagnostics.map((d) => localizeDiagnostic(d, lang)));
  memoryCheckpoint();
  return found.sort((x, y) => x.span.line - y.span.line || x.span.column - y.span.column);
}
