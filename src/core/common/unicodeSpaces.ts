/**
 * A dump copied out of a chat, a mail client, a wiki or a web page (Teams, Outlook, Confluence, a page that renders
 * its code with `&nbsp;`) comes back with its blanks made no-break spaces (U+00A0, U+202F, U+2007, ...), and some
 * editors add zero-width spaces (U+200B, U+2060, U+FEFF) at the starts and ends of lines. No tool writes them, and
 * read as they are they glue every rule into one word. Each is read as a blank, one character for one (every column
 * stays where it is). A zero-width space inside a word is left: read as a blank it would cut the word in two.
 * A Chinese or Japanese input method types the ideographic space (U+3000) for a blank in full-width mode, and
 * documents written with one indent their code by it: no tool writes it either, and it is read as a blank too.
 */

/** The no-break space, and the other fixed-width spaces a copy (or an input method: U+3000) makes of the blanks. */
const NO_BREAK = '\u00a0';
const FIXED_WIDTH = '\u2000-\u200a\u202f\u205f\u3000';
const WIDE_SPACES = NO_BREAK + FIXED_WIDTH;
/** Zero-width spaces and the word joiner (a byte order mark inside the text reads as one). */
const ZERO_WIDTH = '\u200b\u2060\ufeff';
/** The ones above U+00FF: V8 answers at once for a text of one-byte characters (most dumps), without a scan. */
const ANY_WIDE = new RegExp(`[${FIXED_WIDTH}${ZERO_WIDTH}]`);
/** A zero-width space where a blank changes no word: beside a blank (or another), or at a line's start or end. */
const SPACES = new RegExp(
  `[${WIDE_SPACES}]|(?<=^|[\\s${WIDE_SPACES}${ZERO_WIDTH}])[${ZERO_WIDTH}]|[${ZERO_WIDTH}](?=$|[\\s${WIDE_SPACES}${ZERO_WIDTH}])`,
  'gm',
);

export interface ReadUnicodeSpaces {
  text: string;
  /** The first such space read as a blank (0-based line and column). */
  line: number;
  column: number;
}

export function readUnicodeSpaces(text: string): ReadUnicodeSpaces | undefined {
  // Most pastes have none: one search of the text decides.
  if (!text.includes(NO_BREAK) && !ANY_WIDE.test(text)) return undefined;
  let first = -1;
  const read = text.replace(SPACES, (space: string, offset: number) => {
    // A file's byte order mark, before its first line: the readers' as before, no copy's.
    if (offset === 0 && space === '\ufeff') return space;
    if (first < 0) first = offset;
    return ' ';
  });
  if (first < 0) return undefined;
  const lineStart = text.lastIndexOf('\n', first - 1) + 1;
  let line = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < first; i = text.indexOf('\n', i + 1)) line++;
  return { text: read, line, column: first - lineStart };
}
