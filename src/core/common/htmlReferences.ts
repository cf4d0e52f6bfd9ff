/**
 * An output copied from a web page's source, or exported by a ticket system, has its quotes, brackets and
 * ampersands written as HTML character references: `--comment &quot;default/kubernetes:https cluster IP&quot;`,
 * ipvsadm's `-&gt; 10.244.1.5:8080`. When the head of a paste has such references, every reference is read as the
 * character it stands for; the lines stay the lines of the text, and `positions` maps each engine column back to the
 * text's (a reference is several characters for one).
 */
import { replaceMapped, type MappedReplacement } from './mappedText';
import { headLines } from './text';

/** Lines looked at to decide. */
const HEAD_LINES = 400;
/** The references an escaped output has: the five HTML escapes, their numeric forms, a no-break space. */
const REFERENCE = /&(?:quot|amp|lt|gt|apos|nbsp|ldquo|rdquo|#(?:\d{1,7}|[xX][0-9a-fA-F]{1,6}));/g;
/** What makes a paste escaped: a reference no dump writes for itself. */
const ESCAPED = /&(?:quot|lt|gt|amp|#34|#x22);/;
const NAMED: Record<string, string> = {
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
  nbsp: ' ',
  ldquo: '\u201c',
  rdquo: '\u201d',
};

export type ReadHtmlReferences = MappedReplacement;

/** Whether the text's head has HTML character references (what `readHtmlReferences` looks at first). */
export function mayHoldHtmlReferences(text: string): boolean {
  return headLines(text, HEAD_LINES).some((line) => ESCAPED.test(line));
}

export function readHtmlReferences(text: string): ReadHtmlReferences | undefined {
  if (!mayHoldHtmlReferences(text)) return undefined;
  return replaceMapped(text, REFERENCE, (reference) => characterOf(reference[0]));
}

/** One character for one reference: a code point beyond 16 bits, or a control character, is held by a blank. */
function characterOf(reference: string): string {
  const name = reference.slice(1, -1);
  if (name[0] !== '#') return NAMED[name];
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0xffff || code < 32 || (code >= 0xd800 && code < 0xe000) ? ' ' : String.fromCharCode(code);
}
