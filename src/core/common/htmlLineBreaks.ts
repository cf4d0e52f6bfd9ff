/**
 * An output pasted into a web form or copied from a page's source that kept its line breaks as HTML: a `<br>` (or
 * `<br/>`, `<br />`) ends every line, at the end of a line of the text or between lines that the form joined into
 * one. When the head of a paste has such breaks, each is read as the line break it stands for (a `<br>` before the
 * text's own line break is nothing), and the block tags the page wrapped the output in (`<pre>`, `<code>`, `<p>`,
 * `<div>` and their closing tags) are read as nothing; `positions` maps each engine line and column back to the
 * text's. No dump writes a `<br>` of its own.
 */
import { MappedTextWriter } from './mappedText';
import type { PastePositions } from './pastePositions';
import { headLines } from './text';

/** Lines looked at to decide (a paste joined into one line is decided by that line). */
const HEAD_LINES = 400;
/** The break, or a block tag glued to the output. */
const MARKUP = /<br[ \t]*\/?>|<\/?(?:pre|code|p|div)(?:[ \t][^<>\n]*)?>/gi;
const BREAK = /<br[ \t]*\/?>/i;

export interface ReadHtmlLineBreaks {
  text: string;
  positions: PastePositions;
  /** The line the first break read ends (0-based line of the text read, and column 0). */
  line: number;
  column: number;
}

export function readHtmlLineBreaks(text: string): ReadHtmlLineBreaks | undefined {
  // Most pastes have none: their head decides, without a search of a big dump's whole text.
  if (!headLines(text, HEAD_LINES).some((line) => BREAK.test(line))) return undefined;
  const writer = new MappedTextWriter(text);
  let first: { line: number; column: number } | undefined;
  for (let at = 0; at <= text.length;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    // The line's own end (a CR before its LF stays the line's).
    const close = end > at && text[end - 1] === '\r' ? end - 1 : end;
    writer.line(at);
    let copied = at;
    // Matched within the line: a search of the rest of the text would cost the whole text for every line.
    const line = text.slice(at, close);
    MARKUP.lastIndex = 0;
    for (let m = MARKUP.exec(line); m; m = MARKUP.exec(line)) {
      writer.copy(copied, at + m.index);
      copied = at + m.index + m[0].length;
      writer.replace(m[0].length, '');
      if (!BREAK.test(m[0])) continue;
      // The note goes on the line the first break ends.
      first ??= { line: writer.position.line, column: 0 };
      // A break with nothing but blanks after it on the line: the text's own line break follows.
      if (/^[ \t]*$/.test(line.slice(copied - at))) continue;
      // The blanks a form or a page put after a break are the next line's indentation, as they are in the text.
      writer.line(copied);
    }
    writer.copy(copied, end);
    if (nl < 0) break;
    at = nl + 1;
  }
  return first && { ...writer.build(), ...first };
}
