/**
 * The mark bits a dump's rules read: `-m mark --mark V/M` (nft `meta mark`) reads the packet mark's bits M,
 * `-m connmark --mark V/M` the connection's, CONNMARK --save-mark copies packet mark bits into the connection's
 * and --restore-mark the reverse. A bit no rule reads cannot change any later rule's outcome, so a rule that only
 * changes such bits leads to the same walk whether it matches or not (the engine need not fork on it).
 */
import { forEachModuleName, ruleTargetName, targetOption, type Rule, type Table } from '../dump';
import type { MarkBits } from './targets';
import { parseU32, parseValueMask } from './values';

const ALL_BITS = 0xffffffff;

export function marksReadBy(tables: Iterable<Table>): MarkBits {
  const read: MarkBits = { mark: 0, ctmark: 0 };
  for (const table of tables)
    for (const chain of table.chains.values()) for (const rule of chain.rules) addReads(rule, read);
  return read;
}

function addReads(rule: Rule, read: MarkBits): void {
  let testsMarks = false;
  forEachModuleName(rule, (module) => {
    if (module === 'mark' || module === 'connmark') testsMarks = true;
  });
  if (testsMarks) {
    for (const m of rule.matches) {
      if (m.module !== 'mark' && m.module !== 'connmark') continue;
      for (const o of m.options) {
        // An option the trace cannot read: count every bit as read, so nothing is left out on its account.
        const mask = o.name === 'mark' ? (parseValueMask(o.values[0] ?? '')?.mask ?? ALL_BITS) : ALL_BITS;
        if (m.module === 'mark') read.mark = (read.mark | mask) >>> 0;
        else read.ctmark = (read.ctmark | mask) >>> 0;
      }
    }
  }
  if (ruleTargetName(rule) !== 'CONNMARK') return;
  const mask = (...names: string[]): number => {
    for (const name of names) {
      const o = targetOption(rule, name);
      if (o) return parseU32(o.values[0] ?? '') ?? ALL_BITS;
    }
    return ALL_BITS;
  };
  if (targetOption(rule, 'save-mark')) read.mark = (read.mark | mask('nfmask', 'mask')) >>> 0;
  if (targetOption(rule, 'restore-mark')) read.ctmark = (read.ctmark | mask('ctmask', 'mask')) >>> 0;
}

/** Whether a change of these bits is seen by no rule. */
export function changesNothingRead(changes: MarkBits, read: MarkBits): boolean {
  return (changes.mark & read.mark) === 0 && (changes.ctmark & read.ctmark) === 0;
}
