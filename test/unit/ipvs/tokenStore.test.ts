import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IpvsTokens } from '../../../src/core/ipvs/tokenStore';

const span = (line: number, column: number, length = 1) => ({ line, column, length });

describe('IpvsTokens', () => {
  it('gives back what was pushed, with only the fields that were set', () => {
    const tokens = new IpvsTokens();
    tokens.push('address', '10.0.0.1', span(2, 5, 8), { role: 'real', service: 3, realServer: 0 });
    tokens.push('counter', '12K', span(2, 20, 3), { column: 'InPkts', service: 3 });
    tokens.push('arrow', '->', span(2, 2, 2));
    tokens.seal(3);
    assert.deepEqual(tokens.all(), [
      { kind: 'arrow', text: '->', span: span(2, 2, 2) },
      { kind: 'address', text: '10.0.0.1', span: span(2, 5, 8), role: 'real', service: 3, realServer: 0 },
      { kind: 'counter', text: '12K', span: span(2, 20, 3), column: 'InPkts', service: 3 },
    ]);
  });

  it('orders by line then column, keeping the order of tokens at the same place, past its first block', () => {
    const tokens = new IpvsTokens();
    // More than the first block (256) and in reverse, so growing and sorting both run.
    for (let i = 599; i >= 0; i--) tokens.push('weight', `w${i}`, span(i >> 1, (i & 1) * 4), { service: i });
    tokens.push('flag', 'second', span(0, 0));
    tokens.seal(300);
    const all = tokens.all();
    assert.equal(all.length, 601);
    assert.deepEqual(
      all.slice(0, 4).map((t) => t.text),
      ['w0', 'second', 'w1', 'w2'],
    );
    for (let k = 1; k < all.length; k++) {
      const [a, b] = [all[k - 1].span, all[k].span];
      assert.ok(a.line < b.line || (a.line === b.line && a.column <= b.column), `token ${k} out of order`);
    }
    // The columns moved together: each token still carries its own service.
    for (const t of all) if (t.text !== 'second') assert.equal(t.service, Number(t.text.slice(1)));
  });

  it("finds a line's tokens without a search, and nothing beyond the last line", () => {
    const tokens = new IpvsTokens();
    tokens.push('protocol', 'TCP', span(1, 0, 3));
    tokens.push('address', '10.0.0.1', span(1, 5, 8));
    tokens.push('arrow', '->', span(3, 2, 2));
    tokens.seal(5);
    assert.deepEqual(
      tokens.onLine(1).map((t) => t.text),
      ['TCP', '10.0.0.1'],
    );
    assert.deepEqual(tokens.onLine(0), []);
    assert.deepEqual(tokens.onLine(2), []);
    assert.deepEqual(
      tokens.onLine(3).map((t) => t.text),
      ['->'],
    );
    assert.deepEqual(tokens.onLine(99), []);
    assert.deepEqual(tokens.lineRange(0, 99), [0, 3]);
  });

  it('changes and clears the entry a token refers to', () => {
    const tokens = new IpvsTokens();
    tokens.push('address', '10.0.0.1', span(0, 0, 8), { service: 4, realServer: 2 });
    tokens.push('port', '80', span(0, 9, 2), { service: 4 });
    tokens.setOwner(0, 1, 0);
    tokens.setOwner(1, undefined, undefined);
    tokens.seal(1);
    assert.deepEqual(tokens.ownerOf(0), { service: 1, realServer: 0 });
    assert.deepEqual(tokens.ownerOf(1), {});
    assert.equal('service' in tokens.at(1), false);
  });
});
