/** `kpp lint FILE [--json] [--lang en|zh-CN]`: parse diagnostics plus lint findings; exit 1 when any is an error. */
import { analyzeText } from '../../core/analyze';
import { diagnosticsOfBoth, skippedFamilyReading } from '../../core/nftFamilies';
import { documentDiagnostic } from '../../core/documentPositions';
import { parseArgs } from '../args';
import { diagnosticJson, formatDiagnostic, printJson, readInput } from '../io';
import { tn, t } from '../../core/i18n/catalog';
import { langOption } from '../lang';

export function runLint(argv: string[]): number {
  const args = parseArgs(argv, ['lang'], ['json']);
  const file = args.positionals[0];
  const lang = langOption(args);
  const text = readInput(file, lang);
  const a = analyzeText(text);
  // A dual-stack nft ruleset: the tables of the family the reading skipped are linted in their own reading.
  const findings = diagnosticsOfBoth(a, skippedFamilyReading(a, text), lang).map((d) => documentDiagnostic(a, d));
  if (args.flags.has('json')) printJson({ diagnostics: findings.map(diagnosticJson) });
  else {
    for (const d of findings) process.stdout.write(`${formatDiagnostic(file ?? '-', d)}\n`);
    const errors = findings.filter((d) => d.severity === 'error').length;
    const warnings = findings.filter((d) => d.severity === 'warning').length;
    const summary = t(lang, 'lint.summary', {
      errors: tn(lang, 'lint.summary.errors', errors),
      warnings: tn(lang, 'lint.summary.warnings', warnings),
      notes: tn(lang, 'lint.summary.notes', findings.length - errors - warnings),
    });
    process.stdout.write(`${summary}\n`);
  }
  return findings.some((d) => d.severity === 'error') ? 1 : 0;
}
