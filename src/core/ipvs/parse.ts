/**
 * Tolerant parser for pasted `ipvsadm` output: `-Ln` and its `--stats`/`--rate`/`--thresholds`/`--persistent-conn`
 * variants, `-Lnc` connections, `--timeout`, `--daemon`, and `-S` rules, alone or mixed in a session transcript
 * with shell prompts, comments, indentation, `...` elisions and cut lines. It never throws: what it cannot read
 * becomes a diagnostic with a stable `ipvs-*` code.
 */
import { promptCommand, readHashPrompt } from '../common/commandLines';
import { toSourceLines, type SourceLine } from '../common/lines';
import { isProse } from '../common/prose';
import type { Lang } from '../i18n/catalog';
import { findIpvsadm, type IpvsadmCommand } from './command';
import { layoutOfColumnHeader, TIMEOUT_COLUMNS } from './columns';
import { ParseContext } from './context';
import { parseUint } from './numbers';
import { isConnectionLine, parseConnectionLine } from './parseConnection';
import { parseRealServerLine, parseServiceLine } from './parseList';
import { parseSaveLine, saveCommandOf } from './parseSave';
import { applyRemovals } from './removals';
import type { IpvsDump, IpvsFormat, IpvsLayout } from './types';
import { splitWords, type Word } from './words';

export interface ParseIpvsOptions {
  /** Language of diagnostic messages (default English). */
  lang?: Lang;
}

const SERVICE_PROTOCOLS = new Set(['TCP', 'UDP', 'SCTP', 'FWM']);
const HEADER = /^IP Virtual Server version (\S+) \(size=(\d+)\)/;
const TIMEOUT = /^Timeout \(tcp tcpfin udp\):/;
const DAEMON = /^(master|backup) sync daemon\b/;
const ELLIPSIS = /^(?:\.{2,}|\u2026+|\[\.\.\.\]|\.\.\.\s.*)$/;
const IPVS_ERROR = /^(?:Can't initialize ipvs:|Are you sure that IP Virtual Server is built in the kernel)/;
/** libipvs' answers to a command it refused (ipvs_strerror), as ipvsadm prints them: an answer, not prose. */
const IPVSADM_ERROR = new RegExp(
  `^(?:${[
    'Service already exists',
    'Scheduler or persistence engine not found',
    'No such service',
    'Service not defined',
    'Destination already exists',
    'No such destination',
    'Daemon has already run',
    'No daemon is running',
    'Permission denied \\(you must be root\\)',
    'Invalid operation\\. +Possibly wrong module version.*',
    'Protocol not available',
    'Memory allocation problem',
    'Operation not supported with IPv6',
    'Operation not supported with specified address family',
    'Module is wrong version',
  ].join('|')})\\s*$`,
);
/** The answers that say the virtual service asked for is not in IPVS. */
const NO_SUCH_SERVICE = /^(?:No such service|Service not defined)\s*$/;

/** The diagnostic an ipvsadm refusal gets (its message takes the line as `text`), or undefined for other lines. */
export function refusalCode(content: string): 'no-such-service' | 'ipvsadm-error' | undefined {
  if (!IPVSADM_ERROR.test(content)) return undefined;
  return NO_SUCH_SERVICE.test(content) ? 'no-such-service' : 'ipvsadm-error';
}

export function parseIpvs(text: string, options: ParseIpvsOptions = {}): IpvsDump {
  const ctx = new ParseContext(options.lang ?? 'en');
  let last: SourceLine | undefined;
  for (const sl of toSourceLines(text)) {
    if (sl.content !== '') last = sl;
    try {
      parseLine(ctx, sl);
    } catch (err) {
      // A bug must not take the editor down: report it on the line and go on.
      ctx.diag('internal-error', 'error', ctx.lineSpan(sl), {
        error: err instanceof Error ? err.message : String(err),
      });
      ctx.setLine(sl, { kind: 'unknown' });
    }
    if (!ctx.dump.lines[sl.line]) ctx.setLine(sl, { kind: 'unknown' });
  }
  if (last) noteCutLine(ctx, last);
  applyRemovals(ctx);
  ctx.dump.format = overallFormat(ctx.layoutsSeen, ctx.dump.header !== undefined);
  ctx.dump.tokens.seal(ctx.dump.lines.length);
  return ctx.dump;
}

/** What a line cut short makes of its last word: an address, a forward method, a counter, or the line itself. */
const CUT_FINDINGS = new Set(['ipvs-bad-address', 'ipvs-unknown-forward', 'ipvs-bad-number', 'ipvs-unrecognized-line']);

/**
 * A service or real-server line that ends the text with a finding on it (`-> 10.24`, `Masq    1      0   Ma`) may be
 * the paste's cut: a note says so beside the finding, as the iptables parser says of a rule the text stops inside.
 * Not when another line has the same finding (the output's own), nor on other lines (prose, a prompt), nor where the
 * line's missing columns already say it ends early.
 */
function noteCutLine(ctx: ParseContext, last: SourceLine): void {
  const first = last.content.split(/\s/, 1)[0];
  if (first !== '->' && !SERVICE_PROTOCOLS.has(first)) return;
  const findings = ctx.dump.diagnostics;
  const atCut = findings.find((d) => d.span.line === last.line && CUT_FINDINGS.has(d.code));
  if (!atCut || findings.some((d) => d.code === atCut.code && d.span.line !== last.line)) return;
  // A line that lacks columns says so itself.
  if (findings.some((d) => d.code === 'ipvs-truncated-line' && d.span.line === last.line)) return;
  ctx.diag('cut-line', 'info', ctx.lineSpan(last));
}

function overallFormat(seen: Set<IpvsLayout>, hasHeader: boolean): IpvsFormat {
  if (seen.size === 1) return [...seen][0];
  if (seen.size > 1) return 'mixed';
  return hasHeader ? 'list' : 'unknown';
}

/** `# ipvsadm -Ln` in docs is a root prompt, not a comment. */
function rootPromptCommand(content: string): string | undefined {
  return readHashPrompt(content, (command) =>
    command
      .split(/\s+/)
      .slice(0, 2)
      .some((w) => /(^|\/)ipvsadm(-save)?$/.test(w)),
  )?.command;
}

function parseLine(ctx: ParseContext, sl: SourceLine): void {
  const content = sl.content;
  const words = splitWords(sl);
  // Other whitespace (a stray CR, form feed, no-break space) leaves no words: nothing to read.
  if (words.length === 0) {
    ctx.setLine(sl, { kind: 'blank' });
    return;
  }
  const prompted = promptCommand(content) ?? rootPromptCommand(content);
  if (prompted !== undefined) return handlePrompt(ctx, sl, words, prompted);
  if (content.startsWith('#') || content === '--') return comment(ctx, sl);
  if (HEADER.test(content)) return header(ctx, sl);
  if (columnHeader(ctx, sl, words)) return;
  if (TIMEOUT.test(content)) return timeouts(ctx, sl);
  if (DAEMON.test(content)) return daemon(ctx, sl);
  if (ELLIPSIS.test(content)) {
    ctx.tokenAt('ellipsis', content, ctx.lineSpan(sl));
    ctx.diag('elided', 'hint', ctx.lineSpan(sl));
    ctx.setLine(sl, { kind: 'ellipsis' });
    return;
  }
  if (IPVS_ERROR.test(content)) {
    ctx.tokenAt('error', content, ctx.lineSpan(sl));
    ctx.diagOnce('module-not-loaded', 'warning', ctx.lineSpan(sl));
    ctx.setLine(sl, { kind: 'error' });
    return;
  }
  const refusal = refusalCode(content);
  if (refusal) {
    ctx.tokenAt('error', content, ctx.lineSpan(sl));
    ctx.diag(refusal, 'warning', ctx.lineSpan(sl), { text: content });
    ctx.setLine(sl, { kind: 'refusal' });
    return;
  }
  if (words[0].text === '->') return parseRealServerLine(ctx, sl, words);
  if (isConnectionLine(words)) return parseConnectionLine(ctx, sl, words);
  if (SERVICE_PROTOCOLS.has(words[0].text)) return parseServiceLine(ctx, sl, words);
  if (saveCommandOf(words[0].text)) return parseSaveLine(ctx, sl, words, 0);
  const bare = findIpvsadm(words);
  if (bare) return handleCommand(ctx, sl, words, bare);
  unknown(ctx, sl);
}

function comment(ctx: ParseContext, sl: SourceLine): void {
  ctx.tokenAt('comment', sl.content, ctx.lineSpan(sl));
  ctx.setLine(sl, { kind: 'comment' });
}

function unknown(ctx: ParseContext, sl: SourceLine): void {
  if (ctx.foreign) {
    ctx.setLine(sl, { kind: 'foreign' });
    return;
  }
  // The paste's own words around the output (`By default we may get result like:`): noted, not warned about.
  if (isProse(sl.content)) {
    ctx.diag('text-line', 'info', ctx.lineSpan(sl));
    ctx.setLine(sl, { kind: 'unknown' });
    return;
  }
  const shown = sl.content.length > 60 ? `${sl.content.slice(0, 57)}...` : sl.content;
  ctx.diag('unrecognized-line', 'warning', ctx.lineSpan(sl), { text: shown });
  ctx.setLine(sl, { kind: 'unknown' });
}

function handlePrompt(ctx: ParseContext, sl: SourceLine, words: Word[], command: string): void {
  const commandColumn = sl.offset + sl.content.length - command.length;
  const promptText = sl.raw.slice(sl.offset, commandColumn).trimEnd();
  if (promptText) ctx.tokenAt('prompt', promptText, { line: sl.line, column: sl.offset, length: promptText.length });
  const commandWords = words.filter((w) => w.column >= commandColumn);
  const ipvsadm = findIpvsadm(commandWords);
  if (ipvsadm) return handleCommand(ctx, sl, commandWords, ipvsadm);
  ctx.tokenAt('command', command, { line: sl.line, column: commandColumn, length: command.length });
  ctx.startSection(undefined);
  ctx.foreign = true;
  ctx.setLine(sl, { kind: 'command' });
}

/** `ipvsadm -Ln --stats`: sets the layout of the output that follows; `ipvsadm -A ...` is a rule. */
function handleCommand(ctx: ParseContext, sl: SourceLine, words: Word[], cmd: IpvsadmCommand): void {
  ctx.foreign = false;
  if (cmd.isRule) {
    const before = words[cmd.argsStart - 1];
    ctx.tokenAt('command', before.text, { line: sl.line, column: before.column, length: before.text.length });
    parseSaveLine(ctx, sl, words, cmd.argsStart);
    return;
  }
  const first = words[0];
  const last = words[words.length - 1];
  const text = sl.raw.slice(first.column, last.column + last.text.length);
  ctx.tokenAt('command', text, { line: sl.line, column: first.column, length: text.length });
  ctx.startSection(cmd.layout);
  if (cmd.exact) ctx.dump.exact = true;
  ctx.setLine(sl, { kind: 'command', layout: cmd.layout });
}

function header(ctx: ParseContext, sl: SourceLine): void {
  const m = HEADER.exec(sl.content)!;
  // Right after `ipvsadm -Ln --stats` the command's layout stays; otherwise a new listing begins.
  ctx.startSection(ctx.sectionHasData ? undefined : ctx.layout);
  ctx.foreign = false;
  const span = ctx.lineSpan(sl);
  ctx.dump.header ??= { version: m[1], size: Number(m[2]), line: sl.line, span };
  ctx.tokenAt('header', sl.content, span);
  ctx.setLine(sl, { kind: 'header', layout: ctx.layout });
}

function setLayout(ctx: ParseContext, layout: IpvsLayout): void {
  if (ctx.sectionHasData) ctx.startSection(layout);
  else ctx.layout = layout;
  ctx.foreign = false;
}

function columnHeader(ctx: ParseContext, sl: SourceLine, words: Word[]): boolean {
  const w0 = words[0].text;
  const w1 = words[1]?.text ?? '';
  let layout: IpvsLayout | undefined;
  if (w0 === 'Prot' && w1.startsWith('LocalAddress')) {
    layout = layoutOfColumnHeader(words.map((w) => w.text));
    setLayout(ctx, layout);
  } else if (w0 === '->' && w1.startsWith('RemoteAddress')) {
    // Second header line: its columns only confirm what the first said.
    layout = words.some((w) => w.text === 'Forward') ? 'list' : ctx.layout;
    if (layout) ctx.layout = layout;
  } else if (sl.content.startsWith('IPVS connection entries') || (w0 === 'pro' && w1 === 'expire')) {
    layout = 'connections';
    if (ctx.layout !== 'connections') setLayout(ctx, layout);
  } else {
    return false;
  }
  ctx.tokenAt('columnHeader', sl.content, ctx.lineSpan(sl));
  ctx.setLine(sl, { kind: 'columnHeader', layout });
  return true;
}

/** `Timeout (tcp tcpfin udp): 900 120 300`. */
function timeouts(ctx: ParseContext, sl: SourceLine): void {
  // The label ends at `):`, with or without a blank before the first value.
  const labelEnd = sl.offset + sl.content.indexOf('):') + 2;
  const valueWords = splitWords({ ...sl, offset: labelEnd, content: sl.raw.slice(labelEnd).trimEnd() });
  ctx.tokenAt('columnHeader', sl.raw.slice(sl.offset, labelEnd), {
    line: sl.line,
    column: sl.offset,
    length: labelEnd - sl.offset,
  });
  const values = TIMEOUT_COLUMNS.map((column, i) => {
    const w = valueWords[i];
    if (!w) return undefined;
    const n = parseUint(w.text);
    if (n === undefined)
      ctx.diag('bad-number', 'warning', { line: sl.line, column: w.column, length: w.text.length }, { text: w.text });
    ctx.token('timeout', sl.line, w, { column });
    return n;
  });
  if (valueWords.length < 3)
    ctx.diag('truncated-line', 'info', ctx.lineSpan(sl), {
      missing: TIMEOUT_COLUMNS.slice(valueWords.length).join(', '),
    });
  const [tcp, tcpFin, udp] = values;
  ctx.dump.timeouts = { line: sl.line, span: ctx.lineSpan(sl) };
  if (tcp !== undefined) ctx.dump.timeouts.tcp = tcp;
  if (tcpFin !== undefined) ctx.dump.timeouts.tcpFin = tcpFin;
  if (udp !== undefined) ctx.dump.timeouts.udp = udp;
  ctx.sawData('timeout');
  ctx.setLine(sl, { kind: 'timeout', layout: 'timeout' });
}

/** `master sync daemon (mcast=eth0, syncid=1)`. */
function daemon(ctx: ParseContext, sl: SourceLine): void {
  const state = sl.content.startsWith('master') ? 'master' : 'backup';
  const mcast = /mcast=([^,)\s]+)/.exec(sl.content)?.[1];
  const syncId = /syncid=(\d+)/.exec(sl.content)?.[1];
  const span = ctx.lineSpan(sl);
  ctx.dump.daemons.push({
    state,
    ...(mcast === undefined ? {} : { mcastInterface: mcast }),
    ...(syncId === undefined ? {} : { syncId: Number(syncId) }),
    line: sl.line,
    span,
  });
  ctx.tokenAt('daemon', sl.content, span);
  ctx.sawData('daemon');
  ctx.setLine(sl, { kind: 'daemon', layout: 'daemon' });
}
