/**
 * An output gathered from the nodes with Ansible (`ansible nodes -m shell -a 'iptables-save'`, or a playbook's task)
 * comes as Ansible prints it:
 * - an ad-hoc command's result, `node-1 | CHANGED | rc=0 >>` on a line of its own with the output as it was after it;
 * - the same with `-o` (one line per host): `node-1 | CHANGED | rc=0 | (stdout) *nat\n:PREROUTING ...`, the output's
 *   line breaks written as `\n` (and its stderr after ` (stderr) `);
 * - a task's result as JSON (`ok: [node-1] => {`, `debug: var=out`): the output as `"stdout": "*nat\n..."`, one
 *   escaped string, and as `"stdout_lines": [` (or a debug's `"msg": [`) with one string per line of it.
 * The output is read where it is (each JSON string unescaped, a `\n` a line of its own) and everything else of
 * Ansible's (the result headers, JSON's other keys and punctuation, play and task banners, the recap) as blank lines; a result
 * that has both its `stdout` and its `stdout_lines` is read once, from `stdout`. `positions` maps each engine line
 * and column back to the text's.
 */
import { copyPlain, writeJsonEscape } from './jsonString';
import { MappedTextWriter } from './mappedText';
import type { PastePositions } from './pastePositions';
import { headLines } from './text';

/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const HEAD_LINES = 400;
/** An ad-hoc command's result header, plain (`>>`) or one-line (`| (stdout) `). */
const AD_HOC = /^[ \t]*\S+ \| (?:CHANGED|SUCCESS|FAILED!?) \| rc=-?\d+ (?:>>[ \t]*\r?$|\| \(stdout\) )/;
/** A task's result header: `ok: [node-1] => {`, `changed: [node-1] => {"changed": true, ...`. */
const TASK_RESULT = /^[ \t]*(?:ok|changed|failed|fatal): \[[^\]\n]+\](?: => \{|: FAILED! => \{)/;
/** Ansible's own lines around results: a play's or a task's banner, a result without output, the recap. */
const ANSIBLE_LINE =
  /^[ \t]*(?:(?:PLAY(?: RECAP)?|TASK|RUNNING HANDLER)(?: \[[^\n]*\])? \*{3,}|(?:ok|changed|skipping|included): \[[^\]\n]+\]|\S+[ \t]+: ok=\d+[ \t]+changed=\d+\b.*)[ \t]*\r?$/;
/** The keys that hold the output: a string, or an array of lines. */
const OUTPUT_KEY = /"(stdout|msg)":[ \t]*"|"(stdout_lines|msg)":[ \t]*\[/g;
/** A line of an array of strings (its string's quotes excluded). */
const ARRAY_ITEM = /^[ \t]*"((?:[^"\\\n]|\\.)*)",?[ \t]*\r?$/;

export interface ReadAnsibleOutput {
  text: string;
  positions: PastePositions;
  /** The first result header (or output key) read: 0-based line, column and length in the text read. */
  line: number;
  column: number;
  length: number;
}

export function readAnsibleOutput(text: string): ReadAnsibleOutput | undefined {
  const head = headLines(text, HEAD_LINES);
  if (!head.some((line) => AD_HOC.test(line) || TASK_RESULT.test(line) || /^[ \t]*"stdout_lines":[ \t]*\[/.test(line)))
    return undefined;
  return new AnsibleReader(text).read();
}

class AnsibleReader {
  private readonly writer: MappedTextWriter;
  private first: { line: number; column: number; length: number } | undefined;
  /** The result being read had its `stdout` read: its `stdout_lines` repeat it. */
  private stdoutRead = false;
  /** Inside a task's result printed over several lines: its lines are JSON, not the output. */
  private json = false;
  /** The JSON objects and arrays open on the lines read (the result's own brace counts one). */
  private depth = 0;
  /** Inside an array of the output's lines (`"stdout_lines": [` on a line of its own). */
  private inArray: 'read' | 'skip' | undefined;

  constructor(private readonly text: string) {
    this.writer = new MappedTextWriter(text);
  }

  read(): ReadAnsibleOutput | undefined {
    const { text, writer } = this;
    for (let at = 0; at <= text.length;) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      writer.line(at);
      this.readLine(at, end);
      if (nl < 0) break;
      at = nl + 1;
    }
    return this.first && { ...this.writer.build(), ...this.first };
  }

  private readLine(at: number, end: number): void {
    const { text, writer } = this;
    const line = text.slice(at, end);
    if (this.inArray) {
      const item = ARRAY_ITEM.exec(line);
      if (item) {
        if (this.inArray === 'read') {
          const from = at + line.indexOf('"') + 1;
          writer.replace(from - at, '');
          const after = this.readString(from, end);
          writer.replace(end - after, '');
        } else writer.replace(end - at, '');
        return;
      }
      // `]` (or anything else): the array is over.
      this.inArray = undefined;
    }
    const adHoc = AD_HOC.exec(line);
    if (adHoc) {
      this.stdoutRead = false;
      this.json = false;
      if (adHoc[0].trimEnd().endsWith('>>')) {
        // The output follows on the next lines, as it was.
        this.noteAt(adHoc[0].trimEnd().length);
        writer.replace(end - at, '');
        return;
      }
      this.noteAt(1);
      writer.replace(adHoc[0].length, '');
      this.readOneLine(at + adHoc[0].length, end);
      return;
    }
    const task = TASK_RESULT.test(line);
    if (task) {
      this.stdoutRead = false;
      // A result over several lines: its JSON runs until its braces close.
      this.json = !/\}[ \t]*\r?$/.test(line);
      this.depth = 0;
      this.noteAt(line.trimEnd().length);
    }
    // The output's keys on this line (a compact result holds all of them on its one line).
    let copied = at;
    OUTPUT_KEY.lastIndex = 0;
    for (let m = OUTPUT_KEY.exec(line); m; m = OUTPUT_KEY.exec(line)) {
      const keyAt = at + m.index;
      const lines = m[2] !== undefined;
      if (keyAt < copied || (lines && this.stdoutRead)) continue;
      const valueAt = keyAt + m[0].length;
      // A message of one line ("non-zero return code") is Ansible's; a debug's message with the output has lines.
      if (m[1] === 'msg' && !hasLineBreak(text, valueAt, end)) continue;
      this.noteAt(1);
      writer.replace(valueAt - copied, '');
      if (!lines) {
        copied = this.readString(valueAt, end);
        if (m[1] === 'stdout') this.stdoutRead = true;
        continue;
      }
      // An array: its strings on this line (compact JSON), or one per line after it.
      let i = valueAt;
      for (let n = 0; ; n++) {
        const rest = /^[ \t]*(,?)[ \t]*"/.exec(text.slice(i, Math.min(end, i + 16)));
        if (!rest || (n > 0 && !rest[1])) break;
        const from = i + rest[0].length;
        writer.replace(from - i, '');
        if (n > 0) writer.line(from);
        i = this.readString(from, end);
      }
      copied = i;
      if (/^[ \t]*\r?$/.test(text.slice(i, end))) this.inArray = 'read';
    }
    if (copied === at && !task && !this.json) {
      // Not Ansible's: the words around the output, or the output after an ad-hoc header.
      if (ANSIBLE_LINE.test(line)) {
        writer.replace(end - at, '');
        return;
      }
      if (/^[ \t]*"stdout_lines":[ \t]*\[[ \t]*\r?$/.test(line)) this.inArray = 'skip';
      else if (!/^[ \t]*\],?[ \t]*\r?$/.test(line)) {
        writer.copy(at, end);
        return;
      }
    }
    // What is left of the line is Ansible's, not the output's.
    writer.replace(end - copied, '');
    if (this.inArray === undefined && /"stdout_lines":[ \t]*\[[ \t]*\r?$/.test(line)) this.inArray = 'skip';
    if (this.json) {
      if (/^[ \t]*[}\]]/.test(line)) this.depth--;
      if (/[{[][ \t]*\r?$/.test(line)) this.depth++;
      if (this.depth <= 0) this.json = false;
    }
  }

  /**
   * The JSON string from `from` to its closing quote, unescaped (a `\n` starts an engine line); returns where the
   * text after it starts (past the quote, or the line's end when the string is cut).
   */
  private readString(from: number, end: number): number {
    const { text, writer } = this;
    let i = from;
    for (;;) {
      i = copyPlain(text, i, end, writer);
      if (i >= end) return end;
      if (text[i] === '"') {
        writer.replace(1, '');
        return i + 1;
      }
      if (i + 1 >= end) {
        // A line cut right after a backslash: the backslash is itself.
        writer.copy(i, end);
        return end;
      }
      const kind = text[i + 1];
      if (kind === 'n') {
        writer.replace(2, '');
        writer.line(i + 2);
        i += 2;
        continue;
      }
      i = writeJsonEscape(text, i, writer, '');
    }
  }

  /** `-o`'s output: its line breaks are `\n` (and `\r`), nothing else is escaped; its stderr is not read. */
  private readOneLine(from: number, end: number): void {
    const { text, writer } = this;
    const stderr = text.indexOf(' (stderr) ', from);
    const stop = stderr < 0 || stderr > end ? end : stderr;
    let i = from;
    for (let b = text.indexOf('\\', i); b >= 0 && b < stop - 1; b = text.indexOf('\\', i)) {
      const kind = text[b + 1];
      if (kind !== 'n' && kind !== 'r') {
        writer.copy(i, b + 1);
        i = b + 1;
        continue;
      }
      writer.copy(i, b);
      writer.replace(2, '');
      if (kind === 'n') writer.line(b + 2);
      i = b + 2;
    }
    writer.copy(i, stop);
    writer.replace(end - stop, '');
  }

  /** The note goes at the start of the first line Ansible's own words are read on. */
  private noteAt(length: number): void {
    this.first ??= { line: this.writer.position.line, column: 0, length };
  }
}

/** Whether the JSON string from `from` holds a `\n` before its closing quote (or `end`). */
function hasLineBreak(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (c === '"') return false;
    if (c === '\\' && text[++i] === 'n') return true;
  }
  return false;
}
