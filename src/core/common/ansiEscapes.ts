/**
 * An output captured from a terminal keeps the terminal's escape sequences: `kubectl exec -it ... -- ip addr > f`
 * (the pod's `ip` sees a terminal and colours its addresses; Fedora 40's does by default), `grep --color=always`,
 * `script` and `tmux capture-pane -e`. The editor shows each sequence as characters (`␛[32m`) inside the words, and
 * read as they are they make every address and rule a word no tool wrote. The sequences are read as nothing; every
 * line stays a line of the text, and `positions` maps each engine column back to the text's (a character after a
 * sequence stands for the sequence and itself).
 */
import { replaceMapped, type MappedReplacement } from './mappedText';

/** CSI (`ESC [ ... m`, colours, erase line), OSC (`ESC ] ... BEL`, a title or a link), and two-character escapes. */
const SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\^_=>78])/g;

export type ReadAnsiEscapes = MappedReplacement;

export function readAnsiEscapes(text: string): ReadAnsiEscapes | undefined {
  // Most pastes have none: one search of the text decides.
  if (!text.includes('\x1b')) return undefined;
  return replaceMapped(text, SEQUENCE, () => '');
}
