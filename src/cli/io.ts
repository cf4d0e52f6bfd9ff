/** File reading and output helpers for the CLI: the only place the CLI touches the file system. */
import { isAscii } from 'node:buffer';
import { readFileSync, readSync, statSync, type Stats } from 'node:fs';
import type { Diagnostic } from '../core/common/diagnostics';
import { memoryCheckpoint } from '../core/common/memoryCheck';
import type { Lang } from '../core/i18n/catalog';
import { UsageError } from './args';
import { watchMemory } from './memoryBackstop';

/**
 * The largest input read, also once unpacked from gzip. The engine holds about 16 times a dump's size (its rules,
 * indexes and answers): a cluster of 20,000 Services dumps 45 MB; at 200 MB Node ran out of heap after minutes.
 */
const MAX_INPUT_BYTES = 128 * 1024 * 1024;
const MAX_INPUT_TEXT = '128 MB';
const TOO_LARGE_ADVICE = `kpp reads one saved output up to ${MAX_INPUT_TEXT}; save only the table you need (iptables-save -t nat > FILE)`;

/**
 * The text of FILE (`-`: standard input). From here on the memory backstop watches the work on it: a text too large
 * for this Node's heap stops with a message in `lang` (memoryBackstop.ts).
 */
export function readInput(path: string | undefined, lang: Lang = 'en'): string {
  const read = readText(path);
  watchMemory(path === '-' ? 'standard input' : path!, lang);
  memoryCheckpoint();
  return read;
}

function readText(path: string | undefined): string {
  if (!path) throw new UsageError('missing FILE argument');
  if (path === '-') return text(unpacked(readStandardInput(), 'standard input'), 'standard input');
  let stat: Stats;
  try {
    stat = statSync(path);
  } catch (e) {
    throw new UsageError(
      `cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  if (stat.isDirectory()) throw new UsageError(`cannot read ${path}: it is a folder; give kpp one saved output`);
  if (stat.size > MAX_INPUT_BYTES)
    throw new UsageError(`${path} is larger than ${MAX_INPUT_TEXT}: ${TOO_LARGE_ADVICE}`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  return text(unpacked(bytes, path), path);
}

/**
 * Standard input to its end, read in pieces so that a stream without one (`kubectl logs -f ... | kpp lint -`) stops
 * at the input limit with a message, where reading it whole grew without bound in silence.
 */
function readStandardInput(): Buffer {
  if (process.stdin.isTTY)
    process.stderr.write(
      'kpp: reading the output from standard input; end it with Ctrl-D (on Windows: Ctrl-Z, then Enter)\n',
    );
  const piece = Buffer.allocUnsafe(1024 * 1024);
  const pieces: Buffer[] = [];
  let total = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(0, piece, 0, piece.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      // A non-blocking descriptor (some terminals and pipes): wait a moment for more.
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw new UsageError(`cannot read standard input: ${(e as Error).message}`);
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_INPUT_BYTES)
      throw new UsageError(
        `standard input is larger than ${MAX_INPUT_TEXT} (a stream that does not end, such as kubectl logs -f?): ${TOO_LARGE_ADVICE}`,
      );
    pieces.push(Buffer.from(piece.subarray(0, n)));
  }
  return Buffer.concat(pieces, total);
}

/** A gzip file's content (`iptables-save | gzip`, as support bundles keep outputs), else the bytes as they are. */
function unpacked(bytes: Buffer, name: string): Buffer {
  if (bytes.length < 3 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 0x08) return bytes;
  // Loaded for a gzip file only: node:zlib takes milliseconds to load, a part of every small dump's answer.
  const { gunzipSync } = require('node:zlib') as typeof import('node:zlib');
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_INPUT_BYTES });
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE'
        ? `unpacks to more than ${MAX_INPUT_TEXT}: ${TOO_LARGE_ADVICE}`
        : `is cut off or damaged (${(e as Error).message})`;
    throw new UsageError(`cannot read ${name}: its gzip data ${reason}`);
  }
}

/**
 * The bytes as text: UTF-8, or UTF-16 when a byte order mark says so (Windows PowerShell's `>` writes UTF-16 LE, so
 * `kubectl exec ... -- iptables-save > dump.txt` there gives such a file). The mark stays the text's first character,
 * as a UTF-8 one does. Dumps are mostly plain ASCII, whose text is a copy of the bytes: taken as such it costs half of
 * decoding them as UTF-8 (20 ms of a 23 MB dump), with the same string.
 */
function text(bytes: Buffer, name: string): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return utf16be(bytes);
  const unmarked = utf16WithoutMark(bytes);
  if (unmarked) return unmarked === 'le' ? bytes.toString('utf16le') : utf16be(bytes);
  const binary = binaryKind(bytes);
  if (binary) throw new UsageError(`cannot read ${name}: it is ${binary}, not a text output; ${BINARY_ADVICE}`);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * UTF-16 without a byte order mark (`Out-File -Encoding unicode` of some tools, a copy through a Windows clipboard):
 * ASCII text so written has a NUL in every other byte, the high one of each pair.
 */
function utf16WithoutMark(bytes: Buffer): 'le' | 'be' | undefined {
  const sample = bytes.subarray(0, BINARY_SAMPLE - (BINARY_SAMPLE % 2));
  // A text output has no NUL at all: found natively, without a loop over the sample.
  if (sample.length < 8 || sample.indexOf(0) < 0) return undefined;
  const nuls = [0, 0];
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) nuls[i % 2]++;
  // Most pairs are ASCII; a character such as 一 (U+4E00) or the ideographic space (U+3000) puts its NUL in the
  // other byte, a rare one. A binary file has its NULs in both.
  const pairs = Math.floor(sample.length / 2);
  if (nuls[1] * 2 >= pairs && nuls[0] * 8 <= nuls[1]) return 'le';
  if (nuls[0] * 2 >= pairs && nuls[1] * 8 <= nuls[0]) return 'be';
  return undefined;
}

const BINARY_ADVICE = 'give kpp the saved output itself (iptables-save > FILE, ipvsadm -Ln > FILE)';
/** The head of the bytes looked at for a binary file's signs: as much as git looks at. */
const BINARY_SAMPLE = 8000;

/**
 * What a binary file is, when the bytes are one: an archive (a support bundle not unpacked) or a file of many NUL
 * bytes (a program, an image). A text output with a stray NUL or invalid UTF-8 is still read as text.
 */
function binaryKind(bytes: Buffer): string | undefined {
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x504b0304) return 'a zip archive (unpack it first)';
  if (bytes.length >= 262 && bytes.toString('latin1', 257, 262) === 'ustar') return 'a tar archive (unpack it first)';
  // A log that logrotate's copytruncate cut while its writer kept its offset starts with a run of NULs: text after it.
  let head = 0;
  while (head < bytes.length && bytes[head] === 0) head++;
  // Nothing after the NULs: no text at all (a preallocated or wiped file).
  if (head > 0 && head === bytes.length) return 'a file of NUL bytes only';
  const sample = bytes.subarray(head, head + BINARY_SAMPLE);
  let nuls = 0;
  for (let at = sample.indexOf(0); at >= 0; at = sample.indexOf(0, at + 1)) nuls++;
  // One byte in 64: a program or an image has far more; a text output, at most a stray one.
  return nuls * 64 > sample.length ? 'a binary file' : undefined;
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
