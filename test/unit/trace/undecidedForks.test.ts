import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIptables } from '../../../src/core/iptables/parser';
import { tracePacket } from '../../../src/core/iptables/trace';
import { renderTraceMessage } from '../../../src/core/iptables/trace/message';
import { saveText, TCP } from './helpers';

const NAT = { PREROUTING: 'ACCEPT', INPUT: 'ACCEPT', OUTPUT: 'ACCEPT', POSTROUTING: 'ACCEPT' };
const PKT = TCP('1.2.3.4', '10.96.0.1', 80);

/**
 * A paste with `count` rules whose ipset is not listed (each match undecided) and whose target only sets a mark
 * bit, then a DNAT; `postrouting` rules are added to the nat table's POSTROUTING.
 */
function undecidedMarks(
  count: number,
  postrouting: string[] = [],
  target = (i: number) => `--or-mark 0x${(1 << (i % 30)).toString(16)}`,
): string {
  const rules = Array.from(
    { length: count },
    (_, i) => `-A PREROUTING -m set --match-set S${i} src -j MARK ${target(i)}`,
  );
  return saveText({
    nat: { policies: NAT, rules: [...rules, '-A PREROUTING -j DNAT --to-destination 1.1.1.1:80', ...postrouting] },
  });
}

const codes = (r: ReturnType<typeof tracePacket>) =>
  r.paths.map((p) => p.steps.map((s) => s.noteMessage?.code ?? s.action));

describe('trace: undecided matches that only set marks', () => {
  it('mark bits no rule reads do not fork: 64 undecided rules give one path, with what its mark may lack', () => {
    const r = tracePacket(parseIptables(undecidedMarks(64)), PKT);
    assert.equal(r.truncated, undefined);
    assert.equal(r.paths.length, 1);
    const [path] = r.paths;
    assert.equal(path.verdict, 'ACCEPT');
    assert.deepEqual(path.dnat, { ip: '1.1.1.1', port: 80 });
    assert.equal(path.mark, 0);
    assert.deepEqual(path.given, []);
    assert.equal(path.steps.filter((s) => s.noteMessage?.code === 'note.maybe-mark-unread').length, 64);
    assert.deepEqual(path.steps[0].noteMessage, { code: 'note.maybe-mark-unread', params: { bits: 'mark 0x1' } });
    assert.deepEqual(path.assumptionMessages, [{ code: 'assume.mark-unread', params: { bits: 'mark 0x3fffffff' } }]);
    assert.equal(
      path.assumptions[0],
      "the packet's mark 0x3fffffff may differ: rules it passed change those bits if their undecided matches hold (no rule of this dump reads them)",
    );
  });

  it('a bit a rule reads still forks; the bits no rule reads do not', () => {
    const r = tracePacket(
      parseIptables(undecidedMarks(3, ['-A POSTROUTING -m mark --mark 0x1/0x1 -j MASQUERADE'])),
      PKT,
    );
    assert.deepEqual(
      r.paths.map((p) => [p.verdict, p.masquerade, p.mark, p.givenMessages.map((m) => m.code)]),
      [
        ['ACCEPT', true, 1, ['assume.in-set']],
        ['ACCEPT', false, 0, ['assume.not-in-set']],
      ],
    );
    assert.deepEqual(codes(r)[1].slice(0, 3), [
      'assume.not-in-set',
      'note.maybe-mark-unread',
      'note.maybe-mark-unread',
    ]);
    assert.deepEqual(r.paths[0].assumptionMessages.at(-1), {
      code: 'assume.mark-unread',
      params: { bits: 'mark 0x6' },
    });
  });

  it('marks read through the connection mark count as read (connmark match, CONNMARK --save-mark/--restore-mark)', () => {
    const save = undecidedMarks(2, ['-A POSTROUTING -j CONNMARK --save-mark --nfmask 0x2 --ctmask 0x2']);
    assert.equal(tracePacket(parseIptables(save), PKT).paths.length, 2);
    const ct = undecidedMarks(
      2,
      ['-A POSTROUTING -m connmark --mark 0x1/0x1 -j MASQUERADE'],
      (i) => `--or-mark 0x${i + 1}`,
    );
    // The packet mark's bits are not the connection's: nothing reads them.
    assert.equal(tracePacket(parseIptables(ct), PKT).paths.length, 1);
    const restore = saveText({
      nat: {
        policies: NAT,
        rules: [
          '-A PREROUTING -m set --match-set S0 src -j CONNMARK --set-mark 0x4/0x4',
          '-A PREROUTING -j CONNMARK --restore-mark',
          '-A PREROUTING -m mark --mark 0x4/0x4 -j DNAT --to-destination 1.1.1.1:80',
        ],
      },
    });
    assert.deepEqual(
      tracePacket(parseIptables(restore), PKT).paths.map((p) => p.dnat?.ip ?? null),
      ['1.1.1.1', null],
    );
  });

  it('past 10 undecided facts on one path the trace stops forking, and says how many paths and facts', () => {
    const r = tracePacket(
      parseIptables(undecidedMarks(40, ['-A POSTROUTING -m mark --mark 0x0/0xffffffff -j MASQUERADE'])),
      PKT,
    );
    assert.equal(r.truncated?.reason, 'facts');
    assert.equal(r.truncated?.limit, 10);
    assert.equal(r.paths.length, 1024);
    assert.equal(r.truncated?.paths, 1024);
    assert.ok(r.paths.every((p) => p.verdict === 'UNKNOWN' && p.given.length === 10));
    assert.equal(r.truncated?.messageCode.params.facts, 10);
    assert.equal(
      r.truncated?.message,
      'The trace stopped forking where a path would take sides on more than 10 facts the paste does not decide: 1024 paths are left unfinished there and end as UNKNOWN; they depend on 10 such facts (each path lists its own). Pasting what decides them (an ipset list, the node addresses) lets the trace go on.',
    );
    assert.equal(
      renderTraceMessage(r.truncated!.messageCode, 'zh-CN'),
      '在一条路径需要对超过 10 个粘贴内容未能确定的事实作出假设之处，追踪停止分叉：1024 条路径在此未走完，以 UNKNOWN 结束；它们取决于 10 个这样的事实（每条路径列出各自的条件）。粘贴能确定这些事实的内容（ipset list、节点地址）后即可继续追踪。',
    );
    const few = tracePacket(
      parseIptables(undecidedMarks(40, ['-A POSTROUTING -m mark --mark 0x0/0xffffffff -j MASQUERADE'])),
      PKT,
      { maxFacts: 3 },
    );
    assert.equal(few.paths.length, 8);
  });

  it("the paths limit's message counts the unfinished paths and their facts, and shows no summed probability", () => {
    const r = tracePacket(
      parseIptables(undecidedMarks(8, ['-A POSTROUTING -m mark --mark 0x0/0xffffffff -j MASQUERADE'])),
      PKT,
      { maxPaths: 20 },
    );
    assert.equal(r.truncated?.reason, 'paths');
    const cut = r.paths.filter((p) => p.verdict === 'UNKNOWN').length;
    assert.equal(r.truncated?.paths, cut);
    assert.ok(cut > 1);
    assert.equal(
      r.truncated?.message,
      `The trace stopped forking at 20 paths: ${cut} paths are left unfinished where they would have split and end as UNKNOWN; they depend on ${r.truncated?.messageCode.params.facts} facts the paste does not decide (each path lists its own).`,
    );
    assert.ok(Number(r.truncated?.messageCode.params.facts) >= 4);
    assert.ok(!/probability|概率/.test(r.truncated!.message + renderTraceMessage(r.truncated!.messageCode, 'zh-CN')));
  });
});
