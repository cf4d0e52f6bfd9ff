/** `kpp parse FILE [--json]`: what the dump is, its counts, its Services and endpoints, and parse diagnostics. */
import { analyzeText, localizeDiagnostic } from '../../core/analyze';
import { documentDiagnostic } from '../../core/documentPositions';
import { ownDiagnostics, skippedFamilyReading } from '../../core/nftFamilies';
import { parseArgs } from '../args';
import { formatDiagnostic, printJsonBytes, readInput } from '../io';
import { langOption } from '../lang';
import { parseResultJson, parseTextJsonBytes } from './parseJson';
import { parseReport } from './parseReport';

export function runParse(argv: string[]): number {
  const args = parseArgs(argv, ['lang'], ['json']);
  const file = args.positionals[0];
  const lang = langOption(args);
  const text = readInput(file, lang);
  if (args.flags.has('json')) {
    printJsonBytes(parseTextJsonBytes(text, lang));
    return 0;
  }
  const a = analyzeText(text);
  // A dual-stack nft ruleset: the tables of the family the reading skipped are read in their own reading.
  const skipped = skippedFamilyReading(a, text);
  process.stdout.write(parseReport(parseResultJson(a, lang, skipped), a));
  const skippedOwn = skipped?.iptables && ownDiagnostics(a, skipped, skipped.iptables.dump.diagnostics);
  for (const list of [a.iptables?.dump.diagnostics, skippedOwn, a.ipvs?.diagnostics, a.network?.diagnostics]) {
    for (const d of list ?? [])
      process.stderr.write(`${formatDiagnostic(file ?? '-', localizeDiagnostic(documentDiagnostic(a, d), lang))}\n`);
  }
  return 0;
}
