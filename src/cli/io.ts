/** File reading and output helpers for the CLI: the only place the CLI touches the file system. */
import { isAscii } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import type { Diagnostic } from '../core/common/diagnostics';
import { UsageError } from './args';

export function readInput(path: string | undefined): string {
  if (!path) throw new UsageError('missing FILE argument');
  if (path === '-') return text(readFileSync(0));
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
    return text(readFileSync(path));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

/**
 * The bytes as text: UTF-8, or UTF-16 when a byte order mark says so (Windows PowerShell's `>` writes UTF-16 LE, so
 * `kubectl exec ... -- iptables-save > dump.txt` there gives such a file). The mark stays the text's first character,
 * as a UTF-8 one does. Dumps are mostly plain ASCII, whose text is a copy of the bytes: taken as such it costs half of
 * decoding them as UTF-8 (20 ms of a 23 MB dump), with the same string.
 */
function text(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return utf16be(bytes);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Big-endian UTF-16 (Node reads only little-endian): the byte pairs swapped in a copy; an odd last byte is dropped. */
function utf16be(bytes: Buffer): string {
  const swapped = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return swapped.swap16().toString('utf16le');
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

/** JSON made elsewhere as UTF-8 (the bytes `JSON.stringify(value, null, 2)` would give), printed as `printJson` prints. */
export function printJsonBytes(json: Buffer): void {
  process.stdout.write(json);
  process.stdout.write('\n');
}
