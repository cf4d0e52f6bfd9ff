/**
 * A dual-stack `nft list ruleset` holds an `ip` and an `ip6` table of each name, and a reading of it takes one family
 * (the parser says which it skipped: `nft-table-skipped`). A line of the skipped family's tables is answered from a
 * reading of that family: the editor's hovers and definitions, and `kpp explain`.
 */
import type { Analysis } from './analyze';
import type { IpFamily } from './common/ip';
import { nftSkipsFamily } from './iptables/trace/family';

/** The family whose tables a reading of an nft ruleset skipped; undefined for any other text. */
export function skippedNftFamily(analysis: Analysis): IpFamily | undefined {
  const dump = analysis.iptables?.dump;
  if (dump?.format !== 'nft') return undefined;
  const other = dump.family === 4 ? 6 : 4;
  return nftSkipsFamily(dump, other) ? other : undefined;
}

/**
 * Of two readings of one ruleset, the one whose table holds `line`: the tables of a ruleset are blocks one after
 * another, so the line is in the table that starts last at or before it.
 */
export function readingAt(line: number, read: Analysis, skipped: Analysis): Analysis {
  return lastTableStart(skipped, line) > lastTableStart(read, line) ? skipped : read;
}

function lastTableStart(analysis: Analysis, line: number): number {
  let last = -1;
  for (const t of analysis.iptables?.dump.tables ?? [])
    if (t.line !== undefined && t.line <= line) last = Math.max(last, t.line);
  return last;
}
