/** `kpp lint FILE [--json] [--lang en|zh-CN]`: parse diagnostics plus lint findings; exit 1 when any is an error. */
import { analyzeText, diagnosticsOf } from '../../core/analyze';
import { parseArgs } from '../args';
import { diagnosticJson, formatDiagnostic, printJson, readInput } from '../io';
import { langOption } from '../lang';

export function runLint(argv: string[]): number {
  const args = parseArgs(argv, ['lang'], ['json']);
  const file = args.positionals[0];
  const findings = diagnosticsOf(analyzeText(readInput(file)), langOption(args));
  if (args.flags.has('json')) printJson({ diagnostics: findings.map(diagnosticJson) });
  else {
    for (const d of findings) process.stdout.write(`${formatDiagnostic(file ?? '-', d)}\n`);
    const errors = findings.filter((d) => d.severity === 'error').length;
    const warnings = findings.filter((d) => d.severity === 'warning').length;
    process.stdout.write(
      `${errors} error(s), ${warnings} warning(s), ${findings.length - errors - warnings} note(s)\n`,
    );
  }
  return findings.some((d) => d.severity === 'error') ? 1 : 0;
}
