/** File reading and output helpers for the CLI: the only place the CLI touches the file system. */
import { readFileSync, statSync } from 'node:fs';
import type { Diagnostic } from '../core/common/diagnostics';
import { UsageError } from './args';

export function readInput(path: string | undefined): string {
  if (!path) throw new UsageError('missing FILE argument');
  if (path === '-') return readFileSync(0, 'utf8');
  let size: number;
  try {
    size = statSync(path).size;
  } catch (e) {
    throw new UsageError(
      `cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  if (size > 512 * 1024 * 1024) throw new UsageError(`${path} is larger than 512 MB`);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/** Diagnostics as the CLI prints them: 1-based line and column. */
export function diagnosticJson(d: Diagnostic): {
  line: number;
  column: number;
  severity: string;
  code: string;
  message: string;
} {
  return { line: d.span.line + 1, column: d.span.column + 1, severity: d.severity, code: d.code, message: d.message };
}

export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.span.line + 1}:${d.span.column + 1}: ${d.severity} ${d.code}: ${d.message}`;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
