/**
 * An output pasted into a GitHub issue, a wiki or a chat that renders Markdown comes inside code fences: a line of
 * three or more backticks or tildes, often with a language after it (```` ```bash ````, `~~~text`). No dump has such
 * a line, so every fence line is blanked (replaced by spaces: the other lines keep their columns) and each engine
 * reads the output between the fences as if the paste had none.
 */

/** A whole line that opens or closes a fence; a backtick fence's info string has no backtick (CommonMark). */
const FENCE_LINE = /^[ \t]*(?:`{3,}[^`\n]*|~{3,}[^\n]*)$/;

export interface BlankedCodeFences {
  text: string;
  /** 0-based lines blanked. */
  lines: number[];
}

export function blankCodeFences(text: string): BlankedCodeFences | undefined {
  // Most pastes have none: two searches of the text decide.
  if (!text.includes('```') && !text.includes('~~~')) return undefined;
  const lines = text.split('\n');
  const blanked: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE_LINE.test(lines[i])) continue;
    blanked.push(i);
    lines[i] = lines[i].replace(/[^\r]/g, ' ');
  }
  return blanked.length ? { text: lines.join('\n'), lines: blanked } : undefined;
}
