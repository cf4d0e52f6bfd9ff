/**
 * `grep -r`, `grep -H` or a grep over several files puts the file's name and a colon before every line it prints
 * (`nodes/node-a/iptables-save.txt:-A KUBE-SERVICES ...`; with `-n` a line number after it, which the engines read
 * as grep -n's). When most lines of a paste's head carry the same one or few file names, the names are blanked
 * (replaced by spaces, so every column stays where the editor shows it) and each engine reads the output behind
 * them as if it were indented.
 */
import { headLines } from './text';

/** A file's name: no blank, no colon, and a `/`, `.` or `_` in it (an IPv6 address has none; a field name neither). */
const FILE_NAME = /^([^\s:]*[/._][^\s:]*):/;
/** Lines looked at to decide; the rest of a big paste follows what its head does. */
const SAMPLE_LINES = 400;
/** A grep over a few files: more names than this at the start of lines are not one grep's. */
const MAX_FILES = 4;

export interface BlankedFileNames {
  text: string;
  /** 0-based line of the first name blanked, and the length of the name and its colon. */
  firstLine: number;
  length: number;
}

export function blankGrepFileNames(text: string): BlankedFileNames | undefined {
  const names = namesOfHead(text);
  if (!names) return undefined;
  const lines = text.split('\n');
  let firstLine = -1;
  let length = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = FILE_NAME.exec(lines[i]);
    if (!m || !names.has(m[1])) continue;
    if (firstLine < 0) [firstLine, length] = [i, m[0].length];
    lines[i] = ' '.repeat(m[0].length) + lines[i].slice(m[0].length);
  }
  return { text: lines.join('\n'), firstLine, length };
}

/** The file names that start at least 60% of the head's non-blank lines (three or more), or undefined. */
function namesOfHead(text: string): Set<string> | undefined {
  let nonBlank = 0;
  const counts = new Map<string, number>();
  for (const line of headLines(text, SAMPLE_LINES)) {
    if (line.trim() === '') continue;
    nonBlank++;
    const m = FILE_NAME.exec(line);
    if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    // Ten lines without a name: not a grep's.
    else if (nonBlank >= 10 && counts.size === 0) return undefined;
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_FILES);
  const named = top.reduce((n, [, count]) => n + count, 0);
  return named >= 3 && named / nonBlank >= 0.6 ? new Set(top.map(([name]) => name)) : undefined;
}
