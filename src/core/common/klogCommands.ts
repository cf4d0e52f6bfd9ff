/**
 * kube-proxy and the kubelet log each iptables command they run (`-v=5`), and people paste that log when the jumps
 * from the built-in chains are missing. klog prints the arguments as a Go slice, in two forms by version:
 * - `running iptables: iptables [-w 5 -W 100000 -I INPUT -t filter ... -j KUBE-FIREWALL]` (1.1x-1.2x);
 * - `running iptables -N [KUBE-POSTROUTING -t nat]` (the oldest: the operation outside the brackets).
 * Each command that changes the rules is read as typed (`iptables -w 5 -W 100000 -I INPUT ...`; a dual-stack
 * proxy's ip6tables ones, beside them, are not); a check (`-C`), a listing (`iptables-save [-t nat]`) and the log's
 * other lines are nothing. A slice loses the quotes of a comment of several words (`--comment kubernetes forwarding
 * rules -j ...`): they are put back around the words up to the next option, and `positions` maps the added quotes to
 * the words they stand beside.
 */
import { mayCarryRestoreInput } from './kubeProxyLog';
import { MappedTextWriter } from './mappedText';
import type { PastePositions } from './pastePositions';
import { headLines } from './text';

const KLOG_HEADER = /^[ \t]*[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ [^\s:\]]+:\d+\] /;
/** The two forms: the tool and the slice, the operation and the slice. */
const COMMAND = [
  /^running iptables: ((?:\S*\/)?ip6?tables(?:-legacy|-nft)?) \[([^\]]*)\]\s*$/,
  /^running (ip6?tables) (-[A-Z]) \[([^\]]*)\]\s*$/,
];
/** An iptables (IPv4) command in either form. */
const IPV4_COMMAND = /\] running iptables(?:: (?:\S*\/)?iptables(?:-legacy|-nft)? \[| -[A-Z] \[)/;
const IP6TABLES = /(?:^|\/)ip6tables/;
/** An option word: what ends a comment's words. */
const OPTION = /^--?[A-Za-z]/;
/** A check changes nothing. */
const CHECK = /(?:^| )(?:-C|--check) /;
/** Lines looked at to decide. */
const HEAD_LINES = 400;

export interface ReadKlogCommands {
  text: string;
  positions: PastePositions;
  /** The first command read (0-based, engine line and column). */
  line: number;
  column: number;
  length: number;
}

interface Command {
  /** Offsets in the text: the tool's name, and each argument word. */
  tool: [number, number];
  words: [number, number][];
}

export function readKlogCommands(text: string): ReadKlogCommands | undefined {
  // A log that also carries a restore input is read for that input (kube-proxy's reader).
  if (!headHasCommands(headLines(text, HEAD_LINES)) || mayCarryRestoreInput(text)) return undefined;
  // A dual-stack proxy runs each rule through both tools: the IPv4 ones are read, as in a script of both.
  const ipv4 = IPV4_COMMAND.test(text);
  const writer = new MappedTextWriter(text);
  let first: { line: number; column: number; length: number } | undefined;
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    writer.line(at);
    const header = KLOG_HEADER.exec(text.slice(at, Math.min(end, at + 120)));
    const command = header && commandOn(text, at + header[0].length, end);
    if (!header) writer.copy(at, end);
    else if (!command || (ipv4 && IP6TABLES.test(text.slice(command.tool[0], command.tool[1]))))
      writer.replace(end - at, blanks(end - at));
    else {
      const column = command.tool[0] - at;
      const after = writeCommand(text, at, end, command, writer);
      first ??= { line: writer.position.line, column, length: after - column };
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return first && { ...writer.build(), ...first };
}

function blanks(n: number): string {
  return ' '.repeat(n);
}

/** The command a klog message says was run, when it changes the rules. */
function commandOn(text: string, from: number, end: number): Command | undefined {
  const message = text.slice(from, end);
  for (const [form, pattern] of COMMAND.entries()) {
    const m = pattern.exec(message);
    if (!m) continue;
    // The tool word itself: in `running iptables: iptables [...]` the first `iptables` is the message's own.
    const tool = from + m.index + m[0].indexOf(m[1], form === 0 ? m[0].indexOf(': ') + 2 : 0);
    const slice = from + m.index + m[0].lastIndexOf('[') + 1;
    const words = wordsOf(text, slice, slice + m[form === 1 ? 3 : 2].length);
    if (form === 1) {
      // The operation outside the brackets goes first.
      const op = from + message.indexOf(` ${m[2]} [`) + 1;
      words.unshift([op, op + m[2].length]);
    }
    const args = words.map(([a, b]) => text.slice(a, b)).join(' ');
    if (CHECK.test(` ${args} `) || !/ -[AIDRNXFPEZ] /.test(` ${args} `)) return undefined;
    return { tool: [tool, tool + m[1].length], words };
  }
  return undefined;
}

function wordsOf(text: string, from: number, to: number): [number, number][] {
  const words: [number, number][] = [];
  const re = /\S+/g;
  const slice = text.slice(from, to);
  for (let m = re.exec(slice); m; m = re.exec(slice)) words.push([from + m.index, from + m.index + m[0].length]);
  return words;
}

/** The line as `tool args`, everything else blanked, a comment's words quoted; the engine column after the args. */
function writeCommand(text: string, at: number, end: number, command: Command, writer: MappedTextWriter): number {
  let copied = at;
  const skipTo = (offset: number) => {
    if (offset > copied) writer.replace(offset - copied, blanks(offset - copied));
    copied = offset;
  };
  const copyTo = (offset: number) => {
    writer.copy(copied, offset);
    copied = offset;
  };
  skipTo(command.tool[0]);
  copyTo(command.tool[1]);
  const { words } = command;
  for (let w = 0; w < words.length; w++) {
    skipTo(words[w][0]);
    copyTo(words[w][1]);
    if (text.slice(words[w][0], words[w][1]) !== '--comment' || w + 1 >= words.length) continue;
    let last = w + 1;
    while (last + 1 < words.length && !OPTION.test(text.slice(words[last + 1][0], words[last + 1][1]))) last++;
    const quote = last > w + 1 && !text.slice(words[w + 1][0], words[last][1]).includes('"');
    skipTo(words[w + 1][0]);
    if (quote) writer.replace(0, '"');
    copyTo(words[last][1]);
    if (quote) writer.replace(0, '"');
    w = last;
  }
  const after = writer.position.column;
  skipTo(end);
  return after;
}

/** Whether the head is a klog log (most of its non-blank lines) that says it ran an iptables command. */
function headHasCommands(lines: readonly string[]): boolean {
  let nonBlank = 0;
  let klog = 0;
  let commands = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    nonBlank++;
    const header = KLOG_HEADER.exec(line);
    if (!header) {
      if (nonBlank >= 10 && klog === 0) return false;
      continue;
    }
    klog++;
    if (COMMAND.some((pattern) => pattern.test(line.slice(header[0].length)))) commands++;
  }
  return commands > 0 && klog * 10 >= nonBlank * 6;
}
