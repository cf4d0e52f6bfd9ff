import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  explainIpvsAt,
  explainIpvsLine,
  ipvsSemanticTokens,
  ipvsToJson,
  lintIpvs,
  looksLikeIpvs,
  parseIpvs,
  resolveVirtual,
} from '../../../src/core/ipvs';
import {
  CONNECTIONS,
  EXACT,
  LIST,
  MESSY,
  PERSISTENT_CONN,
  RATE,
  SAVE,
  SAVE_EDITS,
  STATS,
  THRESHOLDS,
  TIMEOUT,
} from './samples';
import { corpusDir, repoRoot } from '../../helpers/corpus';

const CORPUS = path.join(corpusDir() ?? path.resolve(repoRoot(__dirname), '..', 'shared', 'corpus'), 'ipvs');

function seedLines(): string[] {
  const texts = [LIST, STATS, RATE, THRESHOLDS, PERSISTENT_CONN, EXACT, CONNECTIONS, TIMEOUT, SAVE, SAVE_EDITS, MESSY];
  if (existsSync(CORPUS)) {
    for (const f of readdirSync(CORPUS)) texts.push(readFileSync(path.join(CORPUS, f), 'utf8'));
  }
  return texts.flatMap((t) => t.split('\n'));
}

const LINES = seedLines();
const NOISE = fc.constantFrom(
  ' ',
  '\t',
  '[',
  ']',
  ':',
  '(',
  ')',
  ',',
  '-',
  '->',
  '0',
  '9',
  'K',
  'G',
  '.',
  '#',
  '$',
  '…',
  '中',
  '\r',
  '::',
  '65536',
  '-1',
);

/** One edit of a line: cut it, insert noise, drop a character, or swap two words. */
const mutation = fc.oneof(
  fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: NOISE }),
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
);

function mutate(line: string, m: { op: string; at: number; text?: string; with?: number }): string {
  const i = line.length === 0 ? 0 : m.at % (line.length + 1);
  switch (m.op) {
    case 'cut':
      return line.slice(0, i);
    case 'insert':
      return line.slice(0, i) + (m.text ?? '') + line.slice(i);
    case 'drop':
      return line.slice(0, i) + line.slice(i + 1);
    default: {
      const words = line.split(' ');
      const a = m.at % words.length;
      const b = (m.with ?? 0) % words.length;
      [words[a], words[b]] = [words[b], words[a]];
      return words.join(' ');
    }
  }
}

const mutatedText = fc
  .array(fc.record({ line: fc.constantFrom(...LINES), edits: fc.array(mutation, { maxLength: 3 }) }), {
    minLength: 1,
    maxLength: 25,
  })
  .map((rows) => rows.map((r) => r.edits.reduce((l, m) => mutate(l, m), r.line)).join('\n'));

function checkEverything(text: string): void {
  const dump = parseIpvs(text);
  assert.ok(!dump.diagnostics.some((d) => d.code === 'ipvs-internal-error'), JSON.stringify(dump.diagnostics));
  const lines = text.split(/\r\n|\r|\n/);
  assert.equal(dump.lines.length, lines.length);
  for (const tok of dump.tokens) {
    const raw = lines[tok.span.line].replace(/\r$/, '');
    assert.ok(tok.span.column >= 0 && tok.span.column + tok.span.length <= raw.length, `${tok.kind} out of line`);
  }
  // After -d/-D/-C are applied, every index a line or token holds names an entry of the final table.
  for (const ref of [...dump.tokens, ...dump.lines]) {
    if (ref.service === undefined) continue;
    const svc = dump.services[ref.service];
    assert.ok(svc, `service index ${ref.service} on line ${ref.span.line}`);
    if (ref.realServer !== undefined)
      assert.ok(svc.realServers[ref.realServer], `real server index ${ref.realServer} on line ${ref.span.line}`);
  }
  for (const line of dump.lines)
    if (line.removal !== undefined) assert.ok(dump.removals[line.removal], `removal ${line.removal}`);
  for (const lang of ['en', 'zh-CN'] as const) {
    lintIpvs(dump, lang);
    for (let l = 0; l < lines.length; l++) {
      explainIpvsLine(dump, l, lang);
      explainIpvsAt(dump, l, l % 40, lang);
    }
    for (const tok of dump.tokens) explainIpvsAt(dump, tok.span.line, tok.span.column, lang);
  }
  ipvsToJson(dump);
  ipvsSemanticTokens(dump);
  const score = looksLikeIpvs(text);
  assert.ok(score >= 0 && score <= 1);
  for (const s of dump.services) resolveVirtual(dump, { ip: s.address, port: s.port, fwmark: s.fwmark });
}

describe('fuzz: mutated ipvsadm lines', () => {
  it('never throw and keep spans inside their lines', () => {
    fc.assert(
      fc.property(mutatedText, (text) => checkEverything(text)),
      { numRuns: 400 },
    );
  });

  it('random text never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => checkEverything(text)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => checkEverything(text)),
      { numRuns: 200 },
    );
  });

  it('cases fast-check found earlier', () => {
    checkEverything('Timeout (tcp tcpfin udp):900 120 300\n[root@node1 ~]# ipvsadm -Ln');
    checkEverything('\r \n[root@node1 ~]# ipvsadm -Ln');
    assert.deepEqual(parseIpvs('Timeout (tcp tcpfin udp):900 120 300').timeouts?.udp, 300);
  });
});
