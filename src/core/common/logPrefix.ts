/**
 * Log collectors put a prefix before every line of a command's output: `kubectl logs --timestamps` an RFC 3339
 * time, journalctl and syslog `Dec  4 10:00:01 host program[123]: `, `kubectl logs --prefix` `[pod/name/c] `.
 * When most lines of a paste carry one, the prefixes are blanked (replaced by spaces, so every column stays where
 * the editor shows it) and each engine reads the output behind them as if it were indented.
 */
import { headLines } from './text';

const TIME = String.raw`(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?: ?(?:Z|[+-]\d{2}:?\d{2}))?)`;
// `Dec  4 10:00:01`, journalctl's `-o short-precise` fraction, `-o short-full` weekday, year and zone.
const SYSLOG_TIME = String.raw`(?:(?:[A-Z][a-z]{2} )?[A-Z][a-z]{2} [ \d]\d(?: \d{4})? \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?: \d{4})?(?: [A-Z]{2,5})?)`;
// journalctl `-o short-full`: `Fri 2026-12-04 10:00:01 UTC`.
const FULL_TIME = String.raw`(?:[A-Z][a-z]{2} \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})? [A-Z]{2,5})`;
const PREFIXES: readonly RegExp[] = [
  // journalctl / syslog: the time, the host, the program, a colon. After an ISO time (journalctl -o short-iso)
  // the program must show its pid: `2026-... Prot LocalAddress:Port` is a stamped ipvsadm header, not a host.
  new RegExp(
    String.raw`^(?:(?:${SYSLOG_TIME}|${FULL_TIME}) \S+ [^\s:[\]]+(?:\[\d+\])?|${TIME} \S+ [^\s:[\]]+\[\d+\]): ?`,
  ),
  // A container runtime's log file (CRI): the time, the stream, F for a full line or P for a part.
  new RegExp(String.raw`^${TIME} (?:stdout|stderr) [FP] `),
  // `kubectl logs --timestamps` (and most CI logs): an RFC 3339 time and a blank.
  new RegExp(String.raw`^${TIME}[ \t]`),
  // `kubectl logs --prefix` (`[pod/name/container]`) or with a selector (`[name/container]`).
  /^\[[^\]\s/]+(?:\/[^\]\s/]+)+\] /,
];

/** journalctl's own lines between entries: `-- Logs begin at ..., end at ... --`, `-- Boot 3f2a... --`, `-- Reboot --`. */
const JOURNAL_MARKER = /^-- (?:(?:Logs begin at|Journal begins at) .*|Boot [0-9a-f]+|Reboot|No entries) --$/;

/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const SAMPLE_LINES = 400;

/** Length of the log prefixes at the start of a line (`kubectl logs --prefix --timestamps` has two), 0 without. */
export function logPrefixLength(line: string): number {
  let at = 0;
  for (let round = 0; round < 3; round++) {
    const rest = at === 0 ? line : line.slice(at);
    const m = PREFIXES.map((p) => p.exec(rest)).find((x) => x !== null);
    if (!m) break;
    at += m[0].length;
  }
  return at;
}

export interface BlankedLogPrefixes {
  text: string;
  /** 0-based line of the first prefix blanked, and where the prefix is on it. */
  firstLine: number;
  column: number;
  length: number;
}

/**
 * The text with its log prefixes blanked, when most non-blank lines of its head carry one; else undefined.
 * `afterBlanks`: a prefix may follow blanks (quote marks blanked before it: a log quoted in a chat).
 */
export function blankLogPrefixes(text: string, afterBlanks = false): BlankedLogPrefixes | undefined {
  if (!headIsLogged(text, afterBlanks)) return undefined;
  const lines = text.split('\n');
  let firstLine = -1;
  let column = 0;
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    const at = afterBlanks ? leadingBlanks(lines[i]) : 0;
    const n = logPrefixLength(at ? lines[i].slice(at) : lines[i]);
    if (n === 0) {
      // In a journal, its markers are the log's as much as the prefixes: no line of the output.
      if (JOURNAL_MARKER.test(lines[i].slice(at).trimEnd())) lines[i] = ' '.repeat(lines[i].length);
      continue;
    }
    if (firstLine < 0) [firstLine, column, length] = [i, at, n];
    lines[i] = lines[i].slice(0, at) + ' '.repeat(n) + lines[i].slice(at + n);
  }
  return { text: lines.join('\n'), firstLine, column, length };
}

function leadingBlanks(line: string): number {
  let at = 0;
  while (line.charCodeAt(at) === 32) at++;
  return at;
}

/** Whether at least 60% of the non-blank lines of the text's head (and two or more) carry a log prefix. */
function headIsLogged(text: string, afterBlanks: boolean): boolean {
  let nonBlank = 0;
  let prefixed = 0;
  for (const line of headLines(text, SAMPLE_LINES)) {
    if (line.trim() === '' || JOURNAL_MARKER.test(line.trim())) continue;
    nonBlank++;
    if (logPrefixLength(afterBlanks ? line.slice(leadingBlanks(line)) : line) > 0) prefixed++;
    // Ten lines without a prefix: not a log (a dump is decided without reading its 400 lines).
    else if (nonBlank >= 10 && prefixed === 0) return false;
  }
  return prefixed >= 2 && prefixed / nonBlank >= 0.6;
}
