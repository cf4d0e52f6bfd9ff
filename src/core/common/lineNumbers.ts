/**
 * Outputs shown with line numbers: `cat -n` and `nl` write each line's number right-aligned and a tab before it
 * (`     12\t-A KUBE-SERVICES ...`). When most lines of a paste's head carry such a number, in rising order, the
 * numbers are blanked (replaced by spaces, so every column stays where the editor counts it) and each engine reads
 * the output behind them as if it were indented. Numbers followed by blanks are not taken: `iptables -L
 * --line-numbers` writes its own `num` column that way, and the listing reader reads it.
 */
import { headLines } from './text';

const NUMBERED = /^ *(\d+)\t/;

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
  if (!headIsNumbered(text)) return undefined;
  const lines = text.split('\n');
  let firstLine = -1;
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = NUMBERED.exec(lines[i]);
    if (!m) continue;
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
