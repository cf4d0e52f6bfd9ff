/**
 * Harnesses run the CLI in their own process and take its answers from `process.stdout.write` (the output
 * comparison of scripts/compare-outputs.mjs, which every change to outputs is proved with; the chain-name test of
 * `kpp generate`). Every command must write its answer through the stream, never past it to the descriptor: a write
 * to fd 1 escapes the capture and, in compare-outputs' worker, lands in the harness's own protocol pipe (aa7359b
 * did that for trace and every --json answer; the comparison then died on a JSON parse).
 */
import assert from 'node:assert/strict';
// The module object itself (a namespace import may be a copy): its writeSync is the one every caller reads.
import fs, { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { seedDump } from '../../helpers/dumps';

const dir = mkdtempSync(join(tmpdir(), 'kpp-inprocess-'));
const dumpFile = join(dir, 'seed.iptables');
writeFileSync(dumpFile, seedDump().text);
const ipvsFile = join(dir, 'node.ipvs');
writeFileSync(
  ipvsFile,
  [
    'IP Virtual Server version 1.2.1 (size=4096)',
    'Prot LocalAddress:Port Scheduler Flags',
    '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
    'TCP  10.96.0.1:443 rr',
    '  -> 192.168.10.11:6443           Masq    1      4          0',
    '',
  ].join('\n'),
);

/**
 * `kpp ARGS` in this process: what it wrote through process.stdout, and the bytes any code wrote to fd 1 or 2
 * with fs.writeSync meanwhile (those are not written: the test's own output stays clean).
 */
async function inProcess(args: string[]): Promise<{ code: unknown; stdout: string; pastStream: string }> {
  let stdout = '';
  let pastStream = '';
  const write = process.stdout.write;
  const writeErr = process.stderr.write;
  const writeSync = fs.writeSync;
  process.stdout.write = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const cb = typeof encoding === 'function' ? encoding : done;
    if (typeof cb === 'function') process.nextTick(cb as () => void);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  (fs as { writeSync: unknown }).writeSync = (fd: number, data: unknown, ...rest: unknown[]) => {
    if (fd === 1 || fd === 2) {
      pastStream += typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8');
      return typeof data === 'string' ? Buffer.byteLength(data) : (data as Uint8Array).length;
    }
    return (writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
  };
  try {
    const code = await main(args);
    return { code, stdout, pastStream };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    (fs as { writeSync: unknown }).writeSync = writeSync;
  }
}

const COMMANDS: [label: string, args: string[], json: boolean][] = [
  ['parse', ['parse', dumpFile], false],
  ['parse --json', ['parse', dumpFile, '--json'], true],
  ['lint --json', ['lint', dumpFile, '--json'], true],
  ['lint (zh-CN)', ['lint', dumpFile, '--lang', 'zh-CN'], false],
  ['trace', ['trace', dumpFile, '--src', '10.244.1.5', '--dst', '10.96.0.1:443'], false],
  ['trace --json', ['trace', dumpFile, '--src', '10.244.1.5', '--dst', '10.96.0.1:443', '--json'], true],
  ['trace of an ipvsadm output', ['trace', ipvsFile, '--src', '10.244.1.5', '--dst', '10.96.0.1:443'], false],
  [
    'trace --json of an ipvsadm output',
    ['trace', ipvsFile, '--src', '10.244.1.5', '--dst', '10.96.0.1:443', '--json'],
    true,
  ],
  ['explain', ['explain', dumpFile, '--line', '2'], false],
  ['--help', ['--help'], false],
];

for (const [label, args, json] of COMMANDS) {
  test(`kpp ${label} writes its answer through process.stdout, nothing past it to the descriptor`, async () => {
    const { code, stdout, pastStream } = await inProcess(args);
    assert.equal(pastStream, '', `written past process.stdout: ${pastStream.slice(0, 200)}`);
    assert.equal(code, 0);
    assert.ok(stdout.length > 0, 'an answer was captured');
    if (json) assert.doesNotThrow(() => JSON.parse(stdout));
  });
}
