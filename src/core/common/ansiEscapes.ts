/**
 * An output captured from a terminal keeps the terminal's escape sequences: `kubectl exec -it ... -- ip addr > f`
 * (the pod's `ip` sees a terminal and colours its addresses; Fedora 40's does by default), `grep --color=always`,
 * `script` and `tmux capture-pane -e`. The editor shows each sequence as characters (`␛[32m`) inside the words, and
 * read as they are they make every address and rule a word no tool wrote. The sequences are read as nothing; every
 * line stays a line of the text, and `positions` maps each engine column back to the text's (a character after a
 * sequence stands for the sequence and itself).
 */
import { PastePositionsBuilder, type PastePositions } from './pastePositions';

/** CSI (`ESC [ ... m`, colours, erase line), OSC (`ESC ] ... BEL`, a title or a link), and two-character escapes. */
const SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\^_=>78])/g;

export interface ReadAnsiEscapes {
  text: string;
  positions: PastePositions;
  /** The first sequence (0-based line and column of the engine text). */
  line: number;
  column: number;
}

export function readAnsiEscapes(text: string): ReadAnsiEscapes | undefined {
  // Most pastes have none: one search of the text decides.
  if (!text.includes('\x1b')) return undefined;
  const map = new PastePositionsBuilder();
  const out: string[] = [];
  let first: { line: number; column: number } | undefined;
  SEQUENCE.lastIndex = 0;
  let next = SEQUENCE.exec(text);
  for (let at = 0, line = 0; at <= text.length; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    map.line(at);
    let copied = at;
    let column = 0;
    // Characters of sequences before the next character copied; a line's last ones go to its last character.
    let pending = 0;
    for (; next && next.index < end; next = SEQUENCE.exec(text)) {
      const kept = text.slice(copied, next.index);
      if (kept) {
        if (pending) map.escape(column, pending);
        out.push(kept);
        column += kept.length;
        pending = 0;
      }
      first ??= { line, column };
      pending += next[0].length;
      copied = next.index + next[0].length;
    }
    const rest = text.slice(copied, end);
    if (rest && pending) map.escape(column, pending);
    else if (pending && column > 0) map.escape(column - 1, pending);
    out.push(rest);
    if (nl < 0) break;
    out.push('\n');
    at = nl + 1;
  }
  if (!first) return undefined;
  const read = out.join('');
  return { text: read, positions: map.build(text, read), ...first };
}
