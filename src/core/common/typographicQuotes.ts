/**
 * A dump pasted through a word processor, a mail client or a wiki comes back with its quotes made typographic:
 * `--comment “default/kubernetes:https cluster IP”`. iptables writes only straight quotes, so on rule lines
 * (`-A`, `-I`, `-R`, `-D`) “ and ” are read as `"`, one character for one (every column stays where it is). Other
 * lines keep theirs: a ticket's prose, in Chinese above all, quotes with them.
 */

const RULE_LINE = /^[ \t]*-[AIRD] /;

export interface StraightenedQuotes {
  text: string;
  /** The first typographic quote read as a straight one (0-based line and column). */
  line: number;
  column: number;
}

export function straightenRuleQuotes(text: string): StraightenedQuotes | undefined {
  // Most pastes have none: one search of the text decides.
  if (!/[\u201c\u201d]/.test(text)) return undefined;
  const lines = text.split('\n');
  let first: { line: number; column: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const at = lines[i].search(/[\u201c\u201d]/);
    if (at < 0 || !RULE_LINE.test(lines[i])) continue;
    first ??= { line: i, column: at };
    lines[i] = lines[i].replace(/[\u201c\u201d]/g, '"');
  }
  return first && { text: lines.join('\n'), ...first };
}
