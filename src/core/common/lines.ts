/**
 * Splits pasted text into lines, keeping original offsets, and strips what people paste around a dump:
 * CR, leading indentation, shell prompts, log-style prefixes. Parsers work on `content` and add `offset`
 * to every column so positions still point into the original line.
 */
export interface SourceLine {
  /** 0-based line number in the original text. */
  line: number;
  /** The original line without its line terminator. */
  raw: string;
  /** Column in `raw` where `content` starts. */
  offset: number;
  /** The meaningful part of the line (prefixes and trailing whitespace removed). */
  content: string;
}

export function splitLines(text: string): string[] {
  // A file saved with a UTF-8 byte order mark (Windows editors) must not lose its first line to it.
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.endsWith('\r')) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** Matches a shell prompt ending in `#` or `$` followed by a command, e.g. `root@node:~# iptables-save`. */
const PROMPT = /^(?:\[[^\]]*\]|[\w.@:~/-]*[\w~\]/)])\s*[#$](?:\s+(?=\S)|$)/;

/** A shell prompt line: `user@host:~$ cmd`, `[root@h ~]# cmd`, `$ cmd`. Returns the command or undefined. */
export function promptCommand(content: string): string | undefined {
  const bare = /^[$]\s+(\S.*)$/.exec(content);
  if (bare) return bare[1];
  if (content === '$') return '';
  const m = PROMPT.exec(content);
  // user@host, [user@host dir], host:dir, or a bare path prompt (`/ #` in busybox, `~ $`).
  if (m && /[@\]]|^[\w.-]+:|^[/~]/.test(content.slice(0, m[0].length))) return content.slice(m[0].length).trim();
  return undefined;
}

export function toSourceLines(text: string): SourceLine[] {
  return splitLines(text).map((raw, line) => {
    let start = 0;
    while (start < raw.length && (raw[start] === ' ' || raw[start] === '\t')) start++;
    let end = raw.length;
    while (end > start && (raw[end - 1] === ' ' || raw[end - 1] === '\t')) end--;
    return { line, raw, offset: start, content: raw.slice(start, end) };
  });
}
