/**
 * An output copied out of a mail, a word processor, a chat or a page that holds each line as a paragraph comes back
 * double-spaced: a blank line after every line (a CRLF output converted once more, `\r\r\n`, reads so too). Its
 * engines would see a listing's rows cut from their header and an ipvsadm service from its real servers. When the
 * head of a paste is double-spaced, each run of blank lines is read at half its length (the one blank after every
 * line dropped, a blank line of the output kept); `positions` maps each line the engines read to its line in the
 * text.
 */
import { MappedTextWriter } from './mappedText';
import type { PastePositions } from './pastePositions';
import { headLines } from './text';

/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const HEAD_LINES = 400;
/** Lines of output needed to call a paste double-spaced: two or three lines with a blank between are prose. */
const MIN_LINES = 4;

export interface ReadDoubleSpacing {
  text: string;
  positions: PastePositions;
  /** The first line the engines read (0-based, engine line), where the note points. */
  line: number;
  length: number;
}

export function readDoubleSpacing(text: string): ReadDoubleSpacing | undefined {
  if (!headIsDoubleSpaced(headLines(text, HEAD_LINES))) return undefined;
  const writer = new MappedTextWriter(text);
  let blanks: number[] = [];
  let first: { line: number; length: number } | undefined;
  const keepHalf = () => {
    for (const offset of blanks.slice(0, blanks.length >> 1)) writer.line(offset);
    blanks = [];
  };
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    if (text.slice(at, end).trim() === '') blanks.push(at);
    else {
      keepHalf();
      writer.line(at);
      first ??= { line: writer.position.line, length: end - at };
      writer.copy(at, end);
    }
    at = end + 1;
  }
  keepHalf();
  return first && { ...writer.build(), ...first };
}

/**
 * Double-spaced: the lines with text stand alone (one, or one in twenty, beside another: a caption typed on top), and
 * nine in ten runs of blank lines between them have an odd length (an output's own blank line doubled is three).
 */
function headIsDoubleSpaced(lines: readonly string[]): boolean {
  let withText = 0;
  let besideAnother = 0;
  let runs = 0;
  let oddRuns = 0;
  let run = -1; // blank lines since the last line with text; -1 before the first
  for (const line of lines) {
    if (line.trim() === '') {
      if (run >= 0) run++;
      continue;
    }
    withText++;
    if (run === 0) besideAnother++;
    else if (run > 0) {
      runs++;
      if (run % 2 === 1) oddRuns++;
    }
    run = 0;
  }
  return (
    withText >= MIN_LINES &&
    besideAnother <= Math.max(1, withText / 20) &&
    runs >= MIN_LINES - 1 &&
    oddRuns * 10 >= runs * 9
  );
}
