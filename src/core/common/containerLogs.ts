/**
 * A container's log read from the node's disk (`cat /var/lib/docker/containers/<id>/<id>-json.log`, `tail
 * /var/log/containers/kube-proxy-*.log`) is the runtime's file, not the output:
 * - Docker's json-file driver writes each line as `{"log":"-A KUBE-SERVICES ...\n","stream":"stdout","time":"..."}`:
 *   the output is the JSON string, escaped (`\"`, `\\`, `\t`, and `<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`);
 * - a CRI runtime (containerd, CRI-O) writes `2026-12-07T09:00:01.123456789Z stdout F ...` (the prefix is read
 *   as a log prefix: `logPrefix.ts`).
 * Both split a line longer than 16 KiB into parts (a kube-proxy log of a whole restore input on one line): Docker's
 * parts lack the closing `\n`, CRI's are tagged `P` until the `F` of the last. Docker's lines are read as their
 * strings unescaped, and the parts of a split line of either as the one line they were; `positions` maps each engine
 * column back to the file's.
 */
import { copyPlain, writeJsonEscape } from './jsonString';
import { MappedTextWriter } from './mappedText';
import type { PastePositions } from './pastePositions';
import { headLines } from './text';

/** Lines looked at to decide; the rest of a big file follows what its head does. */
const HEAD_LINES = 400;
const DOCKER_HEAD = '{"log":"';
const DOCKER_LINE = /^[ \t]*\{"log":"/;
const CRI_PREFIX =
  /^[ \t]*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}) (?:stdout|stderr) ([FP]) /;

export interface ReadContainerLog {
  text: string;
  positions: PastePositions;
  form: 'docker-json' | 'cri';
  /** Where the note goes (0-based, engine line and column): the first entry's start, or the first part's `P`. */
  line: number;
  column: number;
  /** Lines joined from parts. */
  joined: number;
}

export function readContainerLog(text: string): ReadContainerLog | undefined {
  // Most pastes are neither: a search of the text and a look at its head decide.
  const form = headForm(headLines(text, HEAD_LINES), text.includes(DOCKER_HEAD));
  if (!form) return undefined;
  const reader = new LogReader(text);
  return form === 'docker-json' ? reader.readDocker() : reader.joinCriParts();
}

/** Docker's when most non-blank lines of the head are its entries; CRI's when most (two or more) are its lines. */
function headForm(lines: readonly string[], docker: boolean): ReadContainerLog['form'] | undefined {
  let nonBlank = 0;
  let entries = 0;
  let cri = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    nonBlank++;
    if (docker && DOCKER_LINE.test(line)) entries++;
    else if (CRI_PREFIX.test(line)) cri++;
    // Ten lines of neither: no such log (a dump is decided without reading its 400 lines).
    else if (nonBlank >= 10 && entries + cri === 0) return undefined;
  }
  // One entry may be the whole file: a kube-proxy log of one sync, or a tail of one line.
  if (entries >= 1 && entries * 10 >= nonBlank * 6) return 'docker-json';
  return cri >= 2 && cri * 10 >= nonBlank * 6 ? 'cri' : undefined;
}

class LogReader {
  private readonly writer: MappedTextWriter;
  private first: { line: number; column: number } | undefined;
  private joined = 0;

  constructor(private readonly text: string) {
    this.writer = new MappedTextWriter(text);
  }

  readDocker(): ReadContainerLog | undefined {
    const { text, writer } = this;
    let continuing = false; // the last entry was a part: this one goes on its line
    for (let at = 0; at <= text.length;) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      const head = DOCKER_LINE.exec(text.slice(at, Math.min(end, at + 64)));
      if (!head) {
        continuing = false;
        writer.line(at);
        writer.copy(at, end);
      } else {
        const value = at + head[0].length;
        if (continuing) {
          // The file between the two parts (the last one's other fields, the line break, this one's head) is nothing.
          writer.replace(value - at + 1, '');
          this.joined++;
        } else {
          writer.line(at);
          writer.replace(head[0].length, '');
        }
        this.first ??= { line: writer.position.line, column: 0 };
        continuing = this.unescapeValue(value, end);
      }
      if (nl < 0) break;
      at = nl + 1;
    }
    return this.finish('docker-json');
  }

  /**
   * The JSON string from `from` to its closing quote, unescaped onto the engine line, and the rest of the file's
   * line read as nothing. Whether the entry is a part (its string does not end in `\n`).
   */
  private unescapeValue(from: number, end: number): boolean {
    const { text, writer } = this;
    let i = from;
    for (;;) {
      i = copyPlain(text, i, end, writer);
      if (i >= end || text[i] === '"') break;
      if (i + 1 >= end) {
        // A line cut right after a backslash: the backslash is itself.
        writer.copy(i, end);
        i = end;
        break;
      }
      const kind = text[i + 1];
      if ((kind === 'n' && text[i + 2] === '"') || (kind === 'r' && text.startsWith('\\n"', i + 2))) {
        // The line's own end: the entry is whole; the rest of the file's line is nothing.
        writer.replace(end - i, '');
        return false;
      }
      if (kind === 'n') {
        // A line break inside an entry: a line of its own.
        writer.replace(2, '');
        writer.line(i + 2);
        i += 2;
        continue;
      }
      i = writeJsonEscape(text, i, writer, ' ');
    }
    // A string without its `\n`: a part, whose line the next entry goes on (a cut line: the rest is nothing).
    writer.replace(end - i, '');
    return true;
  }

  joinCriParts(): ReadContainerLog | undefined {
    const { text, writer } = this;
    let continuing = false;
    let part: { line: number; column: number } | null = null;
    for (let at = 0; at <= text.length;) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      const prefix = CRI_PREFIX.exec(text.slice(at, Math.min(end, at + 80)));
      if (continuing && prefix) {
        // The part's line break and this line's prefix are nothing: its text goes on the part's line.
        writer.replace(prefix[0].length + 1, '');
        this.joined++;
        this.first ??= part ?? undefined;
        writer.copy(at + prefix[0].length, end);
      } else {
        writer.line(at);
        // The tag of a line that may be a part, where the note goes.
        part = prefix && { line: writer.position.line, column: prefix[0].length - 2 };
        writer.copy(at, end);
      }
      continuing = prefix?.[1] === 'P';
      if (nl < 0) break;
      at = nl + 1;
    }
    return this.joined ? this.finish('cri') : undefined;
  }

  private finish(form: ReadContainerLog['form']): ReadContainerLog | undefined {
    if (!this.first) return undefined;
    return { ...this.writer.build(), form, ...this.first, joined: this.joined };
  }
}
