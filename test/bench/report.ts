/** The closing table of figures with their targets, and the JSON written beside the test results. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type Status = 'PASS' | 'MISS' | 'n/a' | 'info';

export interface Figure {
  name: string;
  value: string;
  target: string;
  status: Status;
}

/** A figure with a numeric target: PASS when `value` is below `limit`, n/a when it could not be measured. */
export function against(
  name: string,
  value: number | undefined,
  limit: number,
  show: (v: number) => string,
  targetText: string,
): Figure {
  if (value === undefined || !Number.isFinite(value)) return { name, value: '-', target: targetText, status: 'n/a' };
  return { name, value: show(value), target: targetText, status: value < limit ? 'PASS' : 'MISS' };
}

export function info(name: string, value: string): Figure {
  return { name, value, target: '', status: 'info' };
}

export function renderTable(figures: Figure[]): string {
  const head = ['figure', 'value', 'target', 'result'];
  const rows = figures.map((f) => [f.name, f.value, f.target, f.status === 'info' ? '' : f.status]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function writeJson(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
}
