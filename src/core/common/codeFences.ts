/**
 * An output pasted into a GitHub issue, a wiki or a chat that renders Markdown comes inside code fences: a line of
 * three or more backticks or tildes, often with a language after it (```` ```bash ````, `~~~text`). No dump has such
 * a line, so every fence line is blanked (replaced by spaces: the other lines keep their columns) and each engine
 * reads the output between the fences as if the paste had none.
 */

import { headLines } from './text';

/** Lines in which a fenced paste opens its first fence. */
const HEAD_LINES = 400;
/** A whole line that opens or closes a fence; a backtick fence's info string has no backtick (CommonMark). */
const FENCE_LINE = /^[ \t]*(?:`{3,}[^`\n]*|~{3,}[^\n]*)$/;

export interface BlankedCodeFences {
  text: string;
  /** 0-based lines blanked. */
  lines: number[];
}

export function blankCodeFences(text: string): BlankedCodeFences | undefined {
  // A fenced paste opens a fence in its head (its first line, or after a few lines of prose): most pastes are
  // decided there, without a search of a big dump's whole text.
  if (!headLines(text, HEAD_LINES).some((line) => FENCE_LINE.test(line))) return undefined;
  const lines = text.split('\n');
  const blanked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE_LINE.test(lines[i])) continue;
    blanked.push(i);
    lines[i] = lines[i].replace(/[^\r]/g, ' ');
  }
  return blanked.length ? { text: lines.join('\n'), lines: blanked } : undefined;
}
