/**
 * A container's log read from the node's disk is the runtime's file: Docker's JSON entries
 * (`{"log":"...\n","stream":...,"time":...}`) and a CRI runtime's parts of a long line (`P` ... `F`). The output
 * they hold must read as it would pasted bare, every position pointing into the file.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { readContainerLog } from '../../../src/core/common/containerLogs';
import { detectDump } from '../../../src/core/detect';
import { documentDiagnostic } from '../../../src/core/documentPositions';
import { seedDump } from '../../helpers/dumps';
import { klogRestoreLine, klogSync } from '../../helpers/kubeProxyLogs';
import { readingOf } from '../../helpers/reading';

const SAVE = seedDump(['10.244.5.21:8443', '10.244.6.30:8443'], 'billing/ledger:https', '10.96.40.7').text;
/** A rule no iptables knows the option of, to see where its finding points. */
const BOGUS_RULE = '-A KUBE-SERVICES -p tcp --bogus 7 -j ACCEPT';
const WITH_BOGUS = SAVE.replace('\nCOMMIT', `\n${BOGUS_RULE}\nCOMMIT`);

/** As Docker's json-file driver writes each line: Go's JSON, which also escapes <, > and &. */
function dockerEntry(log: string, second: number, stream = 'stdout'): string {
  const escaped = JSON.stringify(log).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  return `{"log":${escaped},"stream":"${stream}","time":"2026-12-07T09:14:${String(second).padStart(2, '0')}.5170231Z"}`;
}
function dockerLog(output: string, partAt = 16384): string {
  const entries: string[] = [];
  for (const [i, line] of output.trimEnd().split('\n').entries()) {
    const whole = `${line}\n`;
    for (let at = 0; at < whole.length; at += partAt) entries.push(dockerEntry(whole.slice(at, at + partAt), i % 60));
  }
  return `${entries.join('\n')}\n`;
}
/** As containerd writes a container's lines: time, stream, P for each part of a long line but the last (F). */
function criLog(output: string, partAt = 16384): string {
  const lines: string[] = [];
  for (const [i, line] of output.trimEnd().split('\n').entries()) {
    const time = `2026-12-07T09:14:${String(i % 60).padStart(2, '0')}.517023188Z stdout`;
    for (let at = 0; at < line.length || at === 0; at += partAt)
      lines.push(`${time} ${at + partAt < line.length ? 'P' : 'F'} ${line.slice(at, at + partAt)}`);
  }
  return `${lines.join('\n')}\n`;
}

test("Docker's JSON log of an output reads as the output, the finding on its word in the file", () => {
  const file = dockerLog(WITH_BOGUS);
  assert.equal(readingOf(file), readingOf(WITH_BOGUS));
  const a = analyzeText(file);
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'docker-json-log');
  assert.equal(notes.length, 1);
  const bogus = diagnosticsOf(a, 'en').find((d) => d.code === 'unknown-option')!;
  const { span } = documentDiagnostic(a, bogus);
  assert.equal(file.split('\n')[span.line].slice(span.column, span.column + span.length), '--bogus');
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'docker-json-log')!.message, /Docker 的 JSON 日志/);
});

test('a line split into parts reads as the one line it was, in both files', () => {
  // Parts of 40 characters: every rule is split, most more than once.
  for (const file of [dockerLog(WITH_BOGUS, 40), criLog(WITH_BOGUS, 40)]) {
    assert.equal(readingOf(file), readingOf(WITH_BOGUS), file.slice(0, 60));
    const a = analyzeText(file);
    const { span } = documentDiagnostic(
      a,
      diagnosticsOf(a, 'en').find((d) => d.code === 'unknown-option')!,
    );
    assert.equal(file.split('\n')[span.line].slice(span.column, span.column + span.length), '--bogus');
  }
});

test("kube-proxy's log in Docker's file: the restore input it logged, positions through both unescapings", () => {
  const log = klogSync(klogRestoreLine(WITH_BOGUS));
  const file = dockerLog(log);
  const a = analyzeText(file);
  assert.equal(a.detection.kind, 'iptables');
  assert.deepEqual(
    a.iptables!.kube.services.map((s) => [s.name, s.clusterIP, s.endpoints.length]),
    [['billing/ledger:https', '10.96.40.7', 2]],
  );
  const codes = diagnosticsOf(a, 'en').map((d) => d.code);
  assert.ok(codes.includes('docker-json-log') && codes.includes('kube-proxy-log'), codes.join());
  const { span } = documentDiagnostic(
    a,
    diagnosticsOf(a, 'en').find((d) => d.code === 'unknown-option')!,
  );
  // In the file the option is on the second entry's line, inside two layers of quoting.
  assert.equal(span.line, 1);
  assert.equal(file.split('\n')[1].slice(span.column, span.column + span.length), '--bogus');
  // And a CRI runtime's parts of the same long line.
  const parted = criLog(log, 300);
  const b = analyzeText(parted);
  assert.equal(b.iptables?.kube.services.length, 1);
  const moved = documentDiagnostic(
    b,
    diagnosticsOf(b, 'en').find((d) => d.code === 'unknown-option')!,
  ).span;
  assert.equal(parted.split('\n')[moved.line].slice(moved.column, moved.column + moved.length), '--bogus');
});

test('every engine position maps into the file and back', () => {
  const file = dockerLog('-A X -m comment --comment "a <b> & c\\d" -j ACCEPT\n\tindented\nlast', 12);
  const read = readContainerLog(file)!;
  assert.equal(read.text, '-A X -m comment --comment "a <b> & c\\d" -j ACCEPT\n\tindented\nlast\n');
  const lines = read.text.split('\n');
  for (let line = 0; line < lines.length; line++)
    for (let column = 0; column < lines[line].length; column++) {
      const there = read.positions.toOriginal(line, column);
      assert.deepEqual(read.positions.toEngine(there.line, there.column), { line, column }, `${line}:${column}`);
    }
});

test('a log of whole CRI lines, JSON that is no Docker entry, and prose are left to the other readers', () => {
  assert.equal(readContainerLog(criLog(SAVE)), undefined);
  assert.equal(readContainerLog('{"level":"info","msg":"synced"}\n{"log":"x"}\n'), undefined);
  assert.equal(readContainerLog(SAVE), undefined);
});

test("the detector finds kube-proxy's restore input deep in Docker's file", () => {
  const chatter = Array.from(
    { length: 500 },
    (_, i) =>
      `I1207 09:14:00.${String(i).padStart(6, '0')}       1 config.go:${100 + i}] "Calling handler.OnEndpointSliceUpdate"`,
  );
  const file = dockerLog([...chatter, klogSync(klogRestoreLine(SAVE))].join('\n'));
  assert.equal(detectDump(file).kind, 'iptables');
});

test("a file of one Docker entry (a kube-proxy log of one sync on one line) is Docker's too", () => {
  const line = klogRestoreLine(SAVE);
  const a = analyzeText(dockerLog(line));
  assert.deepEqual(
    a.iptables?.kube.services.map((s) => s.name),
    ['billing/ledger:https'],
  );
});
