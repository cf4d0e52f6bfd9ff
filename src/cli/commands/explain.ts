/** `kpp explain FILE --line N [--column C] [--lang en|zh-CN]`: the hover text for a position, as Markdown. */
import { analyzeText, explainLine, type Analysis } from '../../core/analyze';
import { normalizeLineBreaks } from '../../core/common/lines';
import type { TextPosition } from '../../core/common/pastePositions';
import { unwrapPaste } from '../../core/common/pasteWrappers';
import { enginePosition } from '../../core/documentPositions';
import { inSkippedTable, skippedFamilyReading } from '../../core/nftFamilies';
import { parseArgs, UsageError } from '../args';
import { readInput } from '../io';
import { langOption } from '../lang';

function positiveInt(name: string, v: string | undefined, fallback?: number): number {
  if (v === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`--${name} N is required`);
  }
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--${name} must be a positive whole number (1-based)`);
  return Number(v);
}

/**
 * Without --column: the first thing the engines read on the line, past quote marks and log text they blank: a rule
 * (explained whole), else the first token. A kube-proxy log line holds several of the engines' lines: the first of
 * them with a rule, else with anything.
 */
function firstThingOn(a: Analysis, text: string, line: number): TextPosition {
  const engineText = a.positions?.engineText ?? unwrapPaste(text)?.text ?? text;
  const engineLines = engineText.split('\n');
  const first = enginePosition(a, line, 0).line;
  let last = first;
  while (a.positions && last + 1 < engineLines.length && a.positions.toOriginal(last + 1, 0).line === line) last++;
  // A line the engines did not read (a double-spaced paste's added blank) maps to the engine line before it.
  const candidates = Array.from({ length: last - first + 1 }, (_, i) => first + i).filter(
    (l) => !a.positions || a.positions.toOriginal(l, 0).line === line,
  );
  if (!candidates.length) return { line: -1, column: 0 };
  const chosen =
    candidates.find((l) => a.iptables?.ruleAtLine(l)) ?? candidates.find((l) => engineLines[l]?.trim()) ?? first;
  const content = engineLines[chosen] ?? '';
  // Past a declaration's `:` or a table's `*`: the chain or table they name is what the line is about.
  const word = content.search(/[\w-]/);
  return { line: chosen, column: word >= 0 ? word : content.length - content.trimStart().length };
}

export function runExplain(argv: string[]): number {
  const args = parseArgs(argv, ['line', 'column', 'lang'], []);
  const lang = langOption(args);
  const text = normalizeLineBreaks(readInput(args.positionals[0], lang));
  const line = positiveInt('line', args.options.get('line')) - 1;
  const lines = text.split('\n');
  // A final line break ends the last line; it does not start one more (`wc -l` and editors' line count agree).
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (line >= count) throw new UsageError(`--line ${line + 1} is past the end of the file (${count} lines)`);
  const a = analyzeText(text);
  const at = args.options.has('column')
    ? // The engines' position of the one asked (a kube-proxy log carries the dump's lines on one line of its own).
      enginePosition(a, line, positiveInt('column', args.options.get('column')) - 1)
    : firstThingOn(a, text, line);
  // A line of the tables a dual-stack nft ruleset's reading skipped is explained from that family's reading.
  const reading = (inSkippedTable(a, at.line) && skippedFamilyReading(a, text)) || a;
  const wholeRule = !args.options.has('column') && !!reading.iptables?.ruleAtLine(at.line);
  const result = explainLine(reading, at.line, wholeRule ? -1 : at.column, lang);
  process.stdout.write(
    `${result?.markdown ?? (lang === 'zh-CN' ? '这一行没有可解释的内容。' : 'Nothing to explain on this line.')}\n`,
  );
  return 0;
}
