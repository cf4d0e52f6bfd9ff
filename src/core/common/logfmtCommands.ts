/**
 * An agent's logfmt log of the iptables commands it ran (Cilium's agent: `level=debug msg="Running 'iptables -t nat
 * -A CILIUM_POST_nat ...' command" subsys=iptables`): each command is read as typed, the rest of its line and the
 * log's other lines are blanked (replaced by spaces, so every column stays where the editor shows it). Inside the
 * message, logfmt writes a double quote as `\"`: the backslash is blanked, on the side of the quote away from the
 * quoted words (` "cilium: any"` and `"cilium: any" `), so the words read as iptables reads them.
 */
import { headLines } from './text';

/** A logfmt line: an optional time, then `level=` and `msg=` (Cilium, logrus' text format, Go's slog). */
const LOGFMT = /^\s*(?:time="[^"]*"\s+|time=\S+\s+|ts=\S+\s+)?level=\w+\s+msg=/;
/** The command a message quotes between single quotes (`"Running 'iptables ...' command"`). */
const QUOTED_COMMAND = /msg="[^"'\\]*'((?:sudo\s+)?(?:\S*\/)?ip6?tables(?:-legacy|-nft)?\s[^']*)'/;

/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const SAMPLE_LINES = 400;

export interface BlankedLogfmtCommands {
  text: string;
  /** The first command read: its line and where on it. */
  line: number;
  column: number;
  length: number;
  /**
   * A dual-stack agent's log runs each rule through iptables and ip6tables: the IPv4 commands are read (as in a
   * script of both), the ip6tables ones blanked; the first of those and how many.
   */
  otherFamily?: { line: number; column: number; length: number; count: number };
}

/** The tool of a quoted command is ip6tables'. */
const IP6TABLES = /^(?:sudo\s+)?(?:\S*\/)?ip6tables/;
/** A command that changes the rules (not a listing such as `iptables -t nat -S`). */
const CHANGES_RULES =
  /\s(?:-[AIDRNXFPEZ]|--(?:append|insert|delete|replace|new-chain|delete-chain|flush|policy|zero))\s/;

/** The commands of a logfmt log read as typed, or undefined when the text is no such log. */
export function blankLogfmtCommands(text: string): BlankedLogfmtCommands | undefined {
  if (!headIsLogfmt(text)) return undefined;
  const lines = text.split('\n');
  let first: Omit<BlankedLogfmtCommands, 'text' | 'otherFamily'> | undefined;
  let otherFamily: BlankedLogfmtCommands['otherFamily'];
  const ipv4 = lines.some((line) => {
    const command = LOGFMT.test(line) ? QUOTED_COMMAND.exec(line)?.[1] : undefined;
    return command !== undefined && !IP6TABLES.test(command) && CHANGES_RULES.test(command);
  });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!LOGFMT.test(line)) continue;
    const m = QUOTED_COMMAND.exec(line);
    if (!m) {
      lines[i] = ' '.repeat(line.length);
      continue;
    }
    const at = m.index + m[0].length - 1 - m[1].length;
    if (ipv4 && IP6TABLES.test(m[1])) {
      lines[i] = ' '.repeat(line.length);
      if (otherFamily) otherFamily.count++;
      else otherFamily = { line: i, column: at, length: m[1].length, count: 1 };
      continue;
    }
    first ??= { line: i, column: at, length: m[1].length };
    lines[i] = ' '.repeat(at) + unescapedQuotes(m[1]) + ' '.repeat(line.length - at - m[1].length);
  }
  return first && { text: lines.join('\n'), ...first, ...(otherFamily ? { otherFamily } : {}) };
}

/** `\"` as a quote and a blank: the blank before an opening quote, after a closing one. */
function unescapedQuotes(command: string): string {
  let open = false;
  return command.replace(/\\"/g, () => {
    open = !open;
    return open ? ' "' : '" ';
  });
}

/** Whether most non-blank lines of the head (two or more) are logfmt, and one of them quotes an iptables command. */
function headIsLogfmt(text: string): boolean {
  let nonBlank = 0;
  let logfmt = 0;
  let commands = 0;
  for (const line of headLines(text, SAMPLE_LINES)) {
    if (line.trim() === '') continue;
    nonBlank++;
    if (!LOGFMT.test(line)) {
      // Ten lines without one: not such a log (a dump is decided without reading its 400 lines).
      if (nonBlank >= 10 && logfmt === 0) return false;
      continue;
    }
    logfmt++;
    if (QUOTED_COMMAND.test(line)) commands++;
  }
  return commands > 0 && logfmt >= 2 && logfmt / nonBlank >= 0.6;
}
