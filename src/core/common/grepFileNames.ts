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
    // grep -A/-B/-C marks the lines around a match with `name-` (`name-12-` with -n) where a match has `name:`.
    const prefix = m && names.has(m[1]) ? m[0].length : contextPrefix(lines[i], names);
    if (prefix === 0) continue;
    if (firstLine < 0) [firstLine, length] = [i, prefix];
    lines[i] = ' '.repeat(prefix) + lines[i].slice(prefix);
  }
  return { text: lines.join('\n'), firstLine, length };
}

/** The length of `name-` when the line starts so with one of the names, else 0. */
function contextPrefix(line: string, names: ReadonlySet<string>): number {
  for (const name of names) if (line.startsWith(name) && line.charCodeAt(name.length) === 45) return name.length + 1;
  return 0;
}

/** The file names that start at least 60% of the head's non-blank lines (three or more), or undefined. */
function namesOfHead(text: string): Set<string> | undefined {
  let nonBlank = 0;
  const counts = new Map<string, number>();
  const head = headLines(text, SAMPLE_LINES);
  for (const line of head) {
    if (line.trim() === '') continue;
    nonBlank++;
    const m = FILE_NAME.exec(line);
    // `name-:CHAIN ...` is grep's context mark before a declaration's own colon, not a name.
    if (m && !m[1].endsWith('-')) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    // Ten lines without a name: not a grep's.
    else if (nonBlank >= 10 && counts.size === 0) return undefined;
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_FILES);
  const names = new Set(top.map(([name]) => name));
  const matches = top.reduce((n, [, count]) => n + count, 0);
  // The context lines around the matches carry the names too.
  const named = matches + head.filter((line) => contextPrefix(line, names) > 0).length;
  return matches >= 3 && named / nonBlank >= 0.6 ? names : undefined;
}
