/**
 * An output pasted into a GitHub issue, a wiki or a chat that renders Markdown comes inside code fences: a line of
 * three or more backticks or tildes, often with a language after it (```` ```bash ````, `~~~text`), or Jira's
 * `{code}` and `{noformat}` macros, and a GitHub issue folds a long one into HTML (`<details>`, `<summary>...</summary>`,
 * `<pre>` each on a line of its own). No dump has such a line, so every fence line is blanked (replaced by spaces: the
 * other lines keep their columns) and each engine reads the output between the fences as if the paste had none.
 * A chat (Slack, Discord) glues its fences to the output's first and last lines (```` ```*nat ```` ... ```` COMMIT``` ````):
 * there only the backticks are blanked, and what follows the opening ones is the output's first line, not a language.
 */

import { headLines } from './text';

/** Lines in which a fenced paste opens its first fence. */
const HEAD_LINES = 400;
/** A whole line that opens or closes a fence; a backtick fence's info string has no backtick (CommonMark). */
const FENCE_LINE = /^[ \t]*(?:`{3,}[^`\n]*|~{3,}[^\n]*|\{(?:code|noformat)(?::[^}\n]*)?\}[ \t\r]*)$/;
/** A line of HTML block tags only (a summary's words with it): the markup a GitHub issue folds an output in. */
const MARKUP_LINE =
  /^[ \t]*(?:<\/?(?:details|summary|pre|code|div|p)\b[^<>]*>[ \t]*|<summary\b[^<>]*>[^<]*<\/summary>[ \t]*)+\r?$/i;
/** An opening backtick fence and what follows it on its line. */
const OPENING = /^([ \t]*`{3,})(.*?)\r?$/;
/** Output on the line before a closing fence glued to its end. */
const GLUED_CLOSE = /[^`\s][ \t]*(`{3,})[ \t]*\r?$/;
/** Output glued to both fences, on one line. */
const GLUED_LINE = /^([ \t]*`{3,})[^`]*[^`\s]([ \t]*`{3,})[ \t]*\r?$/;
/** What no language name starts with, but the lines of a dump do (`-A`, `*nat`, `:KUBE-`, `# Generated`, `[0:0]`). */
const OUTPUT_START = /^[-*:#[]/;

export interface BlankedCodeFences {
  text: string;
  /** 0-based lines blanked. */
  lines: number[];
}

export function blankCodeFences(text: string): BlankedCodeFences | undefined {
  // A fenced paste opens a fence in its head (its first line, or after a few lines of prose): most pastes are
  // decided there, without a search of a big dump's whole text.
  if (
    !headLines(text, HEAD_LINES).some(
      (line) => FENCE_LINE.test(line) || GLUED_LINE.test(line) || MARKUP_LINE.test(line),
    )
  )
    return undefined;
  const lines = text.split('\n');
  const blanked: number[] = [];
  /** The fence opened last, while it is open: its line, and the output glued after its backticks (if any). */
  let open = -1;
  let openTicks = 0;
  let openInfo = '';
  const blankTicks = (i: number, from: number, to: number) => {
    lines[i] = lines[i].slice(0, from) + ' '.repeat(to - from) + lines[i].slice(to);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE_LINE.test(line)) {
      blanked.push(i);
      if (open >= 0) open = -1;
      else {
        const opening = OPENING.exec(line);
        open = i;
        [openTicks, openInfo] = opening ? [opening[1].length, opening[2]] : [0, ''];
        if (opening && OUTPUT_START.test(openInfo)) {
          // The output's first line, glued to the fence: only the backticks go.
          blankTicks(i, 0, openTicks);
          continue;
        }
      }
      lines[i] = line.replace(/[^\r]/g, ' ');
      continue;
    }
    if (MARKUP_LINE.test(line)) {
      blanked.push(i);
      lines[i] = line.replace(/[^\r]/g, ' ');
      continue;
    }
    const both = open < 0 ? GLUED_LINE.exec(line) : null;
    if (both) {
      blanked.push(i);
      blankTicks(i, 0, both[1].length);
      const close = line.lastIndexOf(both[2]);
      blankTicks(i, close, close + both[2].length);
      continue;
    }
    const close = open >= 0 && openTicks > 0 ? GLUED_CLOSE.exec(line) : null;
    if (close) {
      // A chat's closing fence: the output before it, and the opening's words were the output's too.
      const at = close.index + close[0].length - close[0].replace(/^[^`]*/, '').length;
      blanked.push(i);
      blankTicks(i, at, at + close[1].length);
      if (openInfo.trim().includes(' ')) lines[open] = ' '.repeat(openTicks) + openInfo;
      open = -1;
    }
  }
  return blanked.length ? { text: lines.join('\n'), lines: blanked } : undefined;
}
