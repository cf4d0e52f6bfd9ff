/**
 * A long chain is walked through its destination index: only rules whose `-d` can hold for the packet are looked
 * at. Each form of `-d` must be indexed as the compiled rule reads it, or the index hides a rule that matches.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSumsToOne, saveText, TCP, trace } from './helpers';

const PKT = TCP('10.1.1.1', '10.2.2.2', 80);

/** FORWARD holds 40 single-host rules for other addresses (enough for the index), then `rule`. */
function longChain(rule: string): string {
  const fillers = Array.from({ length: 40 }, (_, i) => `-A FORWARD -d 10.9.0.${i + 1}/32 -j ACCEPT`);
  return saveText({
    filter: {
      policies: { INPUT: 'ACCEPT', FORWARD: 'ACCEPT', OUTPUT: 'ACCEPT' },
      chains: [],
      rules: [...fillers, `-A FORWARD ${rule} -j DROP`],
    },
  });
}

function verdicts(rule: string): string[] {
  const r = trace(longChain(rule), PKT);
  assertSumsToOne(r);
  return r.paths.map((p) => p.verdict);
}

describe('trace: the destination index of a long chain', () => {
  it('finds the rule for every form of -d that can hold for the packet', () => {
    assert.deepEqual(verdicts('-d 10.2.2.2'), ['DROP']);
    assert.deepEqual(verdicts('-d 10.2.2.2/32'), ['DROP']);
    assert.deepEqual(verdicts('-d 10.2.2.2/255.255.255.255'), ['DROP']);
    assert.deepEqual(verdicts('-d 10.2.2.0/24'), ['DROP']);
    assert.deepEqual(verdicts('-d 10.9.0.1,10.2.2.2'), ['DROP']);
    assert.deepEqual(verdicts('! -d 10.9.0.1'), ['DROP']);
    assert.deepEqual(verdicts('! -d 10.9.0.1/32'), ['DROP']);
    assert.deepEqual(verdicts('-d 10.2.2.2/032'), ['DROP']);
  });

  it('reads a host the way the compiled rule does: no leading zeros, IPv6 hosts by their value', () => {
    // 010.2.2.2 is no address parseIPv4 reads (a leading zero): the index must answer as a scan of a short chain.
    for (const d of ['010.2.2.2', '10.2.2.02', '10.2.2.2/032', '10.2.2.2 ']) {
      const short = trace(
        saveText({
          filter: {
            policies: { INPUT: 'ACCEPT', FORWARD: 'ACCEPT', OUTPUT: 'ACCEPT' },
            chains: [],
            rules: [`-A FORWARD -d "${d}" -j DROP`],
          },
        }),
        PKT,
      ).paths.map((p) => p.verdict);
      assert.deepEqual(verdicts(`-d "${d}"`), short, d);
    }
    const fillers = Array.from({ length: 40 }, (_, i) => `-A FORWARD -d fd00::${i + 1}/128 -j ACCEPT`);
    const v6 = (rule: string) =>
      trace(
        saveText({
          filter: {
            policies: { INPUT: 'ACCEPT', FORWARD: 'ACCEPT', OUTPUT: 'ACCEPT' },
            chains: [],
            rules: [...fillers, `-A FORWARD ${rule} -j DROP`],
          },
        }),
        TCP('fd00::1:1', 'fd00::2:2', 80),
      ).paths.map((p) => p.verdict);
    assert.deepEqual(v6('-d fd00::2:2'), ['DROP']);
    assert.deepEqual(v6('-d fd00::2:2/128'), ['DROP']);
    assert.deepEqual(v6('-d fd00::2:3'), ['ACCEPT']);
  });

  it('skips the rules for other hosts and reports only the rule that matched', () => {
    const r = trace(longChain('-d 10.2.2.2'), PKT);
    assert.deepEqual(
      r.paths[0].steps.map((s) => `${s.chain}:${s.action}:${s.rule}`),
      ['FORWARD:terminal:-A FORWARD -d 10.2.2.2 -j DROP'],
    );
    assert.deepEqual(verdicts('-d 10.2.2.3'), ['ACCEPT']);
    assert.deepEqual(verdicts('! -d 10.2.2.2'), ['ACCEPT']);
  });
});
