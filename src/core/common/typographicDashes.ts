/**
 * A rule pasted through a word processor, a mail client, a wiki or a Markdown page comes back with its `--` made a
 * typographic dash: `-p tcp \u2013dport 443` (Confluence, Markdown's smart punctuation and Word make `--` an en
 * dash, Word also an em dash: `\u2014to-destination`), and some pages write hyphens as non-breaking hyphens or minus
 * signs. No tool writes them, and read as they are the option is a stray word and the rule reads broader than it
 * is. On the lines of rules and of iptables and ipvsadm commands, such a dash at a word's start before a long
 * option's name is read as `--`, before a one-letter option as `-`; other lines (prose) and quoted words (comments)
 * keep theirs. A listing's `opt` column made a dash (`tcp \u2013 0.0.0.0/0`) reads as `--` too. `--` is one
 * character more than the dash: `positions` maps the two to the one.
 */
import { replaceMapped, type MappedReplacement } from './mappedText';

/** En and em dash (what `--` becomes), and the hyphens a page may write for `-`: U+2010, U+2011, minus U+2212. */
const DASHES = '\u2013\u2014\u2010\u2011\u2212';
/** Where a dash is looked at: one or two (two non-breaking hyphens, two en dashes); the context decides. */
const DASH_RUN = new RegExp(`[${DASHES}]{1,2}`, 'g');
/** An `iptables -L` row's protocol column, before its `opt` column (`--`, made one dash between blanks). */
const PROTOCOL_BEFORE = /(?:^|[ \t])(?:all|tcp|udp|udplite|icmp|icmpv6|ipv6-icmp|sctp|esp|ah|gre|\d{1,3})[ \t]+$/;
/** A listing's column header, whose rows have the `opt` column. */
const LISTING_HEADER = /\btarget +prot +opt\b/;
/** The option's name: a long one (`dport`, `to-destination`) or one letter (`j`, `A`). */
const NAME = /^[A-Za-z][\w-]*/;
/** A line of a rule or a command: an option first (`-A KUBE-SERVICES`, `-a -t ...`), or the tool's name. */
const OPTION_FIRST = new RegExp(`^[ \\t]*[${DASHES}-]{1,2}[A-Za-z]`);
const TOOL = /\b(?:ip6?tables(?:-legacy|-nft)?|ipvsadm)[ \t]/;
const ANY_DASH = new RegExp(`[${DASHES}]`);

export type ReadTypographicDashes = MappedReplacement;

export function readTypographicDashes(text: string): ReadTypographicDashes | undefined {
  // Most pastes have none: one search of the text decides.
  if (!ANY_DASH.test(text)) return undefined;
  let verdictLine = -1;
  let ruleLine = false;
  let listing: boolean | undefined;
  return replaceMapped(text, DASH_RUN, (dashes, lineStart, lineEnd) => {
    const at = dashes.index;
    const after = text.charCodeAt(at + dashes[0].length);
    const hyphenBefore = text.charCodeAt(at - 1) === 45 && at - 1 >= lineStart;
    const wordStart = hyphenBefore ? at - 1 : at;
    const blankBefore = wordStart === lineStart || isBlank(text.charCodeAt(wordStart - 1));
    if (isBlank(after) && dashes[0].length === 1 && !hyphenBefore && blankBefore) {
      // A listing's opt column.
      listing ??= LISTING_HEADER.test(text);
      return listing && PROTOCOL_BEFORE.test(text.slice(lineStart, at)) ? '--' : undefined;
    }
    if (!blankBefore || !isLetter(after)) return undefined;
    if (verdictLine !== lineStart) {
      const line = text.slice(lineStart, lineEnd);
      ruleLine = OPTION_FIRST.test(line) || TOOL.test(line);
      verdictLine = lineStart;
    }
    if (!ruleLine || insideQuotes(text, lineStart, at)) return undefined;
    const name = NAME.exec(text.slice(at + dashes[0].length, lineEnd))![0];
    // With a hyphen before the dash, the dash is the option's second hyphen.
    if (hyphenBefore) return '-'.repeat(dashes[0].length);
    return name.length > 1 ? '--' : '-';
  });
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Whether `at` is inside a double-quoted word of its line (a comment keeps its dashes). */
function insideQuotes(text: string, lineStart: number, at: number): boolean {
  let quotes = 0;
  for (let q = text.indexOf('"', lineStart); q >= 0 && q < at; q = text.indexOf('"', q + 1)) quotes++;
  return quotes % 2 === 1;
}
