/** `kpp explain FILE --line N [--column C] [--lang en|zh-CN]`: the hover text for a position, as Markdown. */
import { analyzeText, explainLine } from '../../core/analyze';
import { normalizeLineBreaks } from '../../core/common/lines';
import { enginePosition } from '../../core/documentPositions';
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

export function runExplain(argv: string[]): number {
  const args = parseArgs(argv, ['line', 'column', 'lang'], []);
  const lang = langOption(args);
  const text = normalizeLineBreaks(readInput(args.positionals[0]));
  const line = positiveInt('line', args.options.get('line')) - 1;
  const lines = text.split('\n');
  // A final line break ends the last line; it does not start one more (`wc -l` and editors' line count agree).
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  if (line >= count) throw new UsageError(`--line ${line + 1} is past the end of the file (${count} lines)`);
  const a = analyzeText(text);
  // Without --column: the whole rule (its sentence) on a rule line, otherwise the line's first token.
  const firstCol = lines[line].length - lines[line].trimStart().length + 1;
  const asked = positiveInt('column', args.options.get('column'), firstCol) - 1;
  // The engines' position of the one asked (a kube-proxy log carries the dump's lines on one line of its own).
  const at = enginePosition(a, line, asked);
  const wholeRule = !args.options.has('column') && !!a.iptables?.ruleAtLine(at.line);
  const result = explainLine(a, at.line, wholeRule ? -1 : at.column, lang);
  process.stdout.write(
    `${result?.markdown ?? (lang === 'zh-CN' ? '这一行没有可解释的内容。' : 'Nothing to explain on this line.')}\n`,
  );
  return 0;
}
