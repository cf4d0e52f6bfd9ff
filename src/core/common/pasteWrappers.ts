/**
 * What people wrap around an output when they paste it, unwrapped in the order the wrappers were put on: a
 * terminal's escape sequences (colours) first, then a mail's or a chat's double spacing (a blank line after every line) and the no-break and zero-width spaces it made of the
 * blanks first (the marks below are found by their blanks), then a quote of a chat or a mail, then the file names
 * a grep over files put before each line, then line numbers
 * (`cat -n`), then Markdown's code fences, then a log collector's prefixes, then HTML character references (a
 * page's source), then kube-proxy's own log of its iptables-restore input. Typographic quotes on rule lines (a word
 * processor's) are read as straight ones. Every face (the detector, the engines) reads the same unwrapped text.
 */
import { readAnsiEscapes } from './ansiEscapes';
import { blankCodeFences } from './codeFences';
import { blankGrepFileNames, type BlankedFileNames } from './grepFileNames';
import { readDoubleSpacing } from './doubleSpacing';
import { mayHoldHtmlReferences, readHtmlReferences } from './htmlReferences';
import { mayCarryRestoreInput, readKubeProxyLog, type LoggedRestoreInput } from './kubeProxyLog';
import { blankLineNumbers, type BlankedLineNumbers } from './lineNumbers';
import { blankLogPrefixes } from './logPrefix';
import { blankLogfmtCommands } from './logfmtCommands';
import type { PastePositions } from './pastePositions';
import { blankQuoteMarks, type BlankedQuoteMarks } from './quoteMarks';
import { straightenRuleQuotes } from './typographicQuotes';
import { readUnicodeSpaces } from './unicodeSpaces';

export interface UnwrappedPaste {
  /** The text the engines read. */
  text: string;
  quote?: BlankedQuoteMarks;
  numbers?: Omit<BlankedLineNumbers, 'text'>;
  /** The first file name a grep put before a line. */
  fileNames?: Omit<BlankedFileNames, 'text'>;
  /** The first line with a log prefix and where the prefix is on it. */
  log?: { line: number; column: number; length: number };
  /** An agent's logfmt log of the iptables commands it ran: the first command read. */
  logfmt?: { line: number; column: number; length: number };
  /** Its ip6tables commands beside iptables ones, not read: the first and how many. */
  logfmtOtherFamily?: { line: number; column: number; length: number; count: number };
  kubeProxy?: LoggedRestoreInput;
  /** Where the engines' lines and columns are in the text, when they are not the text's own. */
  positions?: PastePositions;
  /** The first HTML character reference read as its character (engine line and column). */
  html?: { line: number; column: number };
  /** The first typographic quote read as a straight one. */
  typographic?: { line: number; column: number };
  /** The first terminal escape sequence read as nothing. */
  terminalEscapes?: { line: number; column: number };
  /** The first line of a double-spaced paste, read without the blank line after each line. */
  doubleSpaced?: { line: number; length: number };
  /** The first no-break or zero-width space read as a blank. */
  spaces?: { line: number; column: number };
}

/** The paste unwrapped, or undefined when nothing was wrapped around it. */
export function unwrapPaste(pasted: string): UnwrappedPaste | undefined {
  // One map of positions at a time. A page's source or a kube-proxy log keep theirs, as before the colour and
  // double-spacing readers came: their readers read them through colours and blank lines, which cost little there.
  const ownMap = mayHoldHtmlReferences(pasted) || mayCarryRestoreInput(pasted);
  const ansi = ownMap ? undefined : readAnsiEscapes(pasted);
  const uncoloured = ansi?.text ?? pasted;
  const doubled = ansi || ownMap ? undefined : readDoubleSpacing(uncoloured);
  const single = doubled?.text ?? uncoloured;
  const spaces = readUnicodeSpaces(single);
  const text = spaces?.text ?? single;
  const quote = blankQuoteMarks(text);
  const quoted = quote?.text ?? text;
  // A grep's file names start the lines: a quoted grep is left as it is.
  const grepped = quote ? undefined : blankGrepFileNames(text);
  const named = grepped?.text ?? quoted;
  const numbered = blankLineNumbers(named);
  const unnumbered = numbered?.text ?? named;
  // The fences need no note: whoever pasted them knows, and the lines between read as they would without them.
  const unfenced = blankCodeFences(unnumbered)?.text;
  const inside = unfenced ?? unnumbered;
  // A log quoted in a chat, grepped or numbered: its prefixes follow the blanks.
  const blanked = blankLogPrefixes(inside, !!quote || !!grepped || !!numbered);
  // An agent's logfmt log (behind a log prefix or not): the iptables commands it says it ran.
  const agent = blankLogfmtCommands(blanked?.text ?? inside);
  const unprefixed = agent?.text ?? blanked?.text ?? inside;
  const html = ansi || doubled ? undefined : readHtmlReferences(unprefixed);
  const straightened = straightenRuleQuotes(html?.text ?? unprefixed);
  const logged = straightened?.text ?? html?.text ?? unprefixed;
  // Its positions would be those of the decoded page, not of the text: a page's source is read as it is.
  const kubeProxy = html || ansi || doubled ? undefined : readKubeProxyLog(logged);
  const wrappers = [ansi, doubled, spaces, quote, grepped, numbered, blanked, agent, html, straightened, kubeProxy];
  if (unfenced === undefined && wrappers.every((wrapper) => !wrapper)) return undefined;
  const log = blanked && { line: blanked.firstLine, column: blanked.column, length: blanked.length };
  return {
    text: kubeProxy?.text ?? logged,
    ...(quote ? { quote } : {}),
    ...(grepped ? { fileNames: { firstLine: grepped.firstLine, length: grepped.length } } : {}),
    ...(numbered ? { numbers: { firstLine: numbered.firstLine, length: numbered.length } } : {}),
    ...(log ? { log } : {}),
    ...(agent ? { logfmt: { line: agent.line, column: agent.column, length: agent.length } } : {}),
    ...(agent?.otherFamily ? { logfmtOtherFamily: agent.otherFamily } : {}),
    ...(html ? { html: { line: html.line, column: html.column } } : {}),
    ...(straightened ? { typographic: { line: straightened.line, column: straightened.column } } : {}),
    ...(ansi ? { terminalEscapes: { line: ansi.line, column: ansi.column } } : {}),
    ...(doubled ? { doubleSpaced: { line: doubled.line, length: doubled.length } } : {}),
    ...(spaces ? { spaces: { line: spaces.line, column: spaces.column } } : {}),
    ...(kubeProxy ? { kubeProxy } : {}),
    ...(kubeProxy?.positions || html || doubled || ansi
      ? { positions: kubeProxy?.positions ?? html?.positions ?? doubled?.positions ?? ansi?.positions }
      : {}),
  };
}
