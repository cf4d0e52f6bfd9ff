/**
 * Outputs shown with line numbers: `cat -n` and `nl` write each line's number right-aligned and a tab before it
 * (`     12\t-A KUBE-SERVICES ...`). When most lines of a paste's head carry such a number, in rising order, the
 * numbers are blanked (replaced by spaces, so every column stays where the editor counts it) and each engine reads
 * the output behind them as if it were indented. An editor or a pager shows them right-aligned with one blank after
 * (vim's `:set number`, `less -N`: `  9 *nat`, ` 10 :INPUT ...`), every line numbered, the empty ones too: taken
 * when the numbers rise by one from line to line at one width. Other numbers followed by blanks are not taken:
 * `iptables -L --line-numbers` writes its own `num` column left-aligned, and the listing reader reads it.
 */
import { headLines } from './text';

const NUMBERED = /^ *(\d+)\t/;
/** An editor's or a pager's number: right-aligned, then one blank (or nothing, on an empty line). */
const ALIGNED = /^ *(\d+)(?: |$)/;

/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const SAMPLE_LINES = 400;

export interface BlankedLineNumbers {
  text: string;
  /** 0-based line of the first number blanked, and the length of its number and tab. */
  firstLine: number;
  length: number;
}

/** The text with its line numbers blanked, when at least 60% (and three or more) of its head's lines carry one. */
export function blankLineNumbers(text: string): BlankedLineNumbers | undefined {
  const width = headIsNumbered(text) ? 0 : alignedWidth(text);
  if (width < 0) return undefined;
  const lines = text.split('\n');
  let firstLine = -1;
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = width ? ALIGNED.exec(lines[i]) : NUMBERED.exec(lines[i]);
    if (!m || (width && m[0].replace(/ $/, '').length !== width)) continue;
    if (firstLine < 0) [firstLine, length] = [i, m[0].length];
    lines[i] = ' '.repeat(m[0].length) + lines[i].slice(m[0].length);
  }
  return { text: lines.join('\n'), firstLine, length };
}

function headIsNumbered(text: string): boolean {
  let nonBlank = 0;
  let numbered = 0;
  let last = -1;
  for (const line of headLines(text, SAMPLE_LINES)) {
    if (line.trim() === '') continue;
    nonBlank++;
    const m = NUMBERED.exec(line);
    if (m) {
      const n = Number(m[1]);
      // Numbers of one listing rise; a column of counts or sizes does not.
      if (n <= last) return false;
      last = n;
      numbered++;
    } else if (nonBlank >= 10 && numbered === 0) return false;
  }
  return numbered >= 3 && numbered / nonBlank >= 0.6;
}

/**
 * The width of an editor's or a pager's numbers (`  9 `: 3) when every line of the head up to its last but one
 * (a paste may end on an unnumbered line) carries one, rising by one at that width; -1 otherwise.
 */
function alignedWidth(text: string): number {
  // Every line is numbered, the first too: most texts are decided by it.
  if (!ALIGNED.test(text.slice(0, text.indexOf('\n') >>> 0))) return -1;
  const head = headLines(text, SAMPLE_LINES).map((l) => l.replace(/\r$/, ''));
  while (head.length > 0 && head[head.length - 1] === '') head.pop();
  if (head.length < 3) return -1;
  let width = -1;
  let last = -1;
  for (let i = 0; i < head.length; i++) {
    const m = ALIGNED.exec(head[i]);
    if (!m) {
      // One unnumbered line at the end (the shell's prompt after the pager).
      if (i === head.length - 1 && i >= 3) break;
      return -1;
    }
    const n = Number(m[1]);
    const w = m[0].replace(/ $/, '').length;
    if (i === 0) [width, last] = [w, n];
    else if (w !== width || n !== last + 1) return -1;
    else last = n;
  }
  return width;
}
