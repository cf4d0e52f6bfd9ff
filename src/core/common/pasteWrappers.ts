/**
 * What people wrap around an output when they paste it, unwrapped in the order the wrappers were put on: a
 * container runtime's log file (Docker's JSON entries, a long line's parts) first, then a terminal's escape
 * sequences (colours), then the HTML line breaks a web form kept (`<br>`), then a mail's or a chat's double spacing (a blank line after every line) and the no-break and
 * zero-width spaces it made of the blanks (the marks below are found by their blanks), then a quote of a chat or a
 * mail, then the file names a grep over files put before each line, then line numbers (`cat -n`), then Markdown's
 * code fences, then Ansible's report of the command that printed the output, then a log collector's prefixes (and the iptables commands an agent or kube-proxy logged), then HTML
 * character references (a page's source), then kube-proxy's own log of its iptables-restore input. Typographic
 * quotes and dashes on rule lines (a word processor's) are read as straight quotes and `--`. The readers that move
 * lines or columns chain their maps of positions. Every face (the detector, the engines) reads the same unwrapped
 * text.
 */
import { readAnsibleOutput } from './ansibleOutput';
import { readAnsiEscapes } from './ansiEscapes';
import { blankCodeFences } from './codeFences';
import { readContainerLog } from './containerLogs';
import { blankGrepFileNames, type BlankedFileNames } from './grepFileNames';
import { readDoubleSpacing } from './doubleSpacing';
import { readHtmlLineBreaks } from './htmlLineBreaks';
import { readHtmlReferences } from './htmlReferences';
import { readKlogCommands } from './klogCommands';
import { readKubeProxyLog, type LoggedRestoreInput } from './kubeProxyLog';
import { blankLineNumbers, type BlankedLineNumbers } from './lineNumbers';
import { blankLogPrefixes } from './logPrefix';
import { blankLogfmtCommands } from './logfmtCommands';
import { chainPositions, type PastePositions } from './pastePositions';
import { blankQuoteMarks, type BlankedQuoteMarks } from './quoteMarks';
import { readTypographicDashes } from './typographicDashes';
import { straightenRuleQuotes } from './typographicQuotes';
import { readUnicodeSpaces } from './unicodeSpaces';

export interface UnwrappedPaste {
  /** The text the engines read. */
  text: string;
  quote?: BlankedQuoteMarks;
  numbers?: Omit<BlankedLineNumbers, 'text'>;
  /** The first file name a grep put before a line. */
  fileNames?: Omit<BlankedFileNames, 'text'>;
  /** Ansible's report of the command that printed the output: its first result header (or output key). */
  ansible?: { line: number; column: number; length: number };
  /** The first line with a log prefix and where the prefix is on it. */
  log?: { line: number; column: number; length: number };
  /** An agent's logfmt log of the iptables commands it ran: the first command read. */
  logfmt?: { line: number; column: number; length: number };
  /** Its ip6tables commands beside iptables ones, not read: the first and how many. */
  logfmtOtherFamily?: { line: number; column: number; length: number; count: number };
  /** kube-proxy's or the kubelet's klog of the iptables commands they ran: the first command read. */
  klogCommands?: { line: number; column: number; length: number };
  kubeProxy?: LoggedRestoreInput;
  /** Where the engines' lines and columns are in the text, when they are not the text's own. */
  positions?: PastePositions;
  /** The first HTML line break (`<br>`) read as a line break (engine line and column). */
  htmlBreaks?: { line: number; column: number };
  /** The first HTML character reference read as its character (engine line and column). */
  html?: { line: number; column: number };
  /** The first typographic quote read as a straight one. */
  typographic?: { line: number; column: number };
  /** The first typographic dash read as `--` (or `-`). */
  dashes?: { line: number; column: number };
  /** The first terminal escape sequence read as nothing. */
  terminalEscapes?: { line: number; column: number };
  /** The first line of a double-spaced paste, read without the blank line after each line. */
  doubleSpaced?: { line: number; length: number };
  /** A container runtime's log file read as the output it holds: Docker's JSON entries, or parts of a long line. */
  containerLog?: { form: 'docker-json' | 'cri'; line: number; column: number; joined: number };
  /** The first no-break or zero-width space read as a blank. */
  spaces?: { line: number; column: number };
}

/** The paste unwrapped, or undefined when nothing was wrapped around it. */
export function unwrapPaste(pasted: string): UnwrappedPaste | undefined {
  const container = readContainerLog(pasted);
  const contained = container?.text ?? pasted;
  const ansi = readAnsiEscapes(contained);
  const uncoloured = ansi?.text ?? contained;
  const breaks = readHtmlLineBreaks(uncoloured);
  const broken = breaks?.text ?? uncoloured;
  const doubled = readDoubleSpacing(broken);
  const single = doubled?.text ?? broken;
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
  const fenced = unfenced ?? unnumbered;
  // Gathered with Ansible: the output is where Ansible printed it (a JSON string, or after a result header).
  const ansible = readAnsibleOutput(fenced);
  const inside = ansible?.text ?? fenced;
  // A log quoted in a chat, grepped or numbered: its prefixes follow the blanks.
  const blanked = blankLogPrefixes(inside, !!quote || !!grepped || !!numbered);
  // An agent's logfmt log (behind a log prefix or not): the iptables commands it says it ran.
  const agent = blankLogfmtCommands(blanked?.text ?? inside);
  const logfmtRead = agent?.text ?? blanked?.text ?? inside;
  // kube-proxy's or the kubelet's klog of the iptables commands they ran (behind a log prefix or not).
  const klogCommands = readKlogCommands(logfmtRead);
  const unprefixed = klogCommands?.text ?? logfmtRead;
  const html = readHtmlReferences(unprefixed);
  const decoded = html?.text ?? unprefixed;
  const straightened = straightenRuleQuotes(decoded);
  const dashes = readTypographicDashes(straightened?.text ?? decoded);
  const logged = dashes?.text ?? straightened?.text ?? decoded;
  const kubeProxy = readKubeProxyLog(logged);
  const wrappers = [
    container,
    ansi,
    breaks,
    doubled,
    spaces,
    quote,
    grepped,
    numbered,
    ansible,
    blanked,
    agent,
    klogCommands,
    html,
    straightened,
    dashes,
    kubeProxy,
  ];
  if (unfenced === undefined && wrappers.every((wrapper) => !wrapper)) return undefined;
  // The readers that move lines or columns, in the order they read: a note found by one is at its text's position,
  // which the ones after it move.
  const maps = [
    container?.positions,
    ansi?.positions,
    breaks?.positions,
    doubled?.positions,
    ansible?.positions,
    klogCommands?.positions,
    html?.positions,
    dashes?.positions,
    kubeProxy?.positions,
  ];
  const after = (reader: number) => {
    const later = maps.slice(reader + 1);
    return (line: number, column: number) =>
      later.reduce((at, map) => (map ? map.toEngine(at.line, at.column) : at), { line, column });
  };
  const [
    afterContainer,
    afterAnsi,
    afterBreaks,
    afterDoubling,
    afterQuoting,
    afterAnsible,
    afterBlanking,
    afterKlog,
    afterHtml,
    afterDashes,
  ] = [0, 1, 2, 3, 3, 4, 4, 5, 6, 7].map(after);
  const positions = chainPositions(maps);
  const log = blanked && { ...afterBlanking(blanked.firstLine, blanked.column), length: blanked.length };
  const lineAfterQuoting = (line: number) => afterQuoting(line, 0).line;
  return {
    text: kubeProxy?.text ?? logged,
    ...(quote ? { quote: { ...quote, firstLine: lineAfterQuoting(quote.firstLine) } } : {}),
    ...(grepped ? { fileNames: { firstLine: lineAfterQuoting(grepped.firstLine), length: grepped.length } } : {}),
    ...(numbered ? { numbers: { firstLine: lineAfterQuoting(numbered.firstLine), length: numbered.length } } : {}),
    ...(ansible ? { ansible: { ...afterAnsible(ansible.line, ansible.column), length: ansible.length } } : {}),
    ...(log ? { log } : {}),
    ...(agent ? { logfmt: { ...afterBlanking(agent.line, agent.column), length: agent.length } } : {}),
    ...(agent?.otherFamily
      ? {
          logfmtOtherFamily: {
            ...agent.otherFamily,
            ...afterBlanking(agent.otherFamily.line, agent.otherFamily.column),
          },
        }
      : {}),
    ...(klogCommands
      ? { klogCommands: { ...afterKlog(klogCommands.line, klogCommands.column), length: klogCommands.length } }
      : {}),
    ...(breaks ? { htmlBreaks: afterBreaks(breaks.line, breaks.column) } : {}),
    ...(html ? { html: afterHtml(html.line, html.column) } : {}),
    ...(straightened ? { typographic: afterHtml(straightened.line, straightened.column) } : {}),
    ...(dashes ? { dashes: afterDashes(dashes.line, dashes.column) } : {}),
    ...(ansi ? { terminalEscapes: afterAnsi(ansi.line, ansi.column) } : {}),
    ...(doubled ? { doubleSpaced: { line: afterDoubling(doubled.line, 0).line, length: doubled.length } } : {}),
    ...(spaces ? { spaces: afterQuoting(spaces.line, spaces.column) } : {}),
    ...(container
      ? {
          containerLog: {
            form: container.form,
            ...afterContainer(container.line, container.column),
            joined: container.joined,
          },
        }
      : {}),
    ...(kubeProxy ? { kubeProxy } : {}),
    ...(positions ? { positions } : {}),
  };
}
