/**
 * `kpp trace` reads only the lines a trace needs (traceSlice.ts) and leaves out the rules of long chains filed
 * under destinations no walker has: its answer must still be the whole text's. Checked here on generated
 * kube-proxy dumps reshaped as real ones are: an endpoint DNATed to another Service's cluster IP (a second
 * walker destination), Service rules that go to their chain (-g), KUBE-SERVICES' rules spread over the table
 * (restore order) or cut to exactly 31, 32 or 33 rules, CRLF line ends; for packets from inside and outside the
 * cluster, of another protocol, to another port, and from the node itself (--hook output).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { traceJson } from '../../../src/cli/commands/trace';
import { analyzeText } from '../../../src/core/analyze';
import { documentTrace } from '../../../src/core/documentPositions';
import { generateIptablesRestore } from '../../../src/core/iptables/generate';
import { formatTraceTree } from '../../../src/core/iptables/trace';
import { isTraceSlice } from '../../../src/core/iptables/traceSlice';
import { normaliseCluster } from '../../../src/core/kube/objects';
import { syntheticCluster } from '../../../src/core/kube/synthetic';
import { traceAnalysis, traceText, type TraceAnswer } from '../../../src/core/traceAnalysis';
import { checkTracePacket } from '../../../src/core/tracePacketInput';

const NAMES = { src: '--src', dst: '--dst', proto: '--proto', hook: '--hook', localAddresses: '--local-ip' };

function generated(services: number, seed: number): string {
  const cluster = syntheticCluster({
    services,
    endpointsPerService: 3,
    seed,
    nodePortEvery: 3,
    loadBalancerEvery: 4,
    externalIPEvery: 5,
    affinityEvery: 3,
  });
  return generateIptablesRestore(normaliseCluster(cluster), { clusterCidr: '10.128.0.0/9' }).text;
}

/** What `kpp trace` prints of an answer: --json, and the tree in English and Chinese. */
function shown(analysis: ReturnType<typeof analyzeText>, answer: TraceAnswer): unknown {
  if (answer.engine !== 'iptables') return answer;
  documentTrace(analysis, answer.result);
  return {
    json: traceJson(answer.result),
    en: formatTraceTree(answer.result, 'en'),
    zh: formatTraceTree(answer.result, 'zh-CN'),
    nodeAddresses: answer.nodeAddresses,
  };
}

interface Service {
  ip: string;
  port: number;
  line: number;
}

/** KUBE-SERVICES' rules of cluster IPs, in the nat table. */
function services(lines: string[]): Service[] {
  const out: Service[] = [];
  lines.forEach((l, line) => {
    const m = /^-A KUBE-SERVICES .*-d (\d+\.\d+\.\d+\.\d+) --dport (\d+) -[jg] KUBE-SVC-/.exec(l);
    if (m) out.push({ ip: m[1], port: Number(m[2]), line });
  });
  return out;
}

/** Whether every packet to the first, last and middle Service traces as on the whole text; how many were sliced. */
function sameAnswers(name: string, text: string): number {
  const whole = analyzeText(text);
  const list = services(text.split(/\r?\n/));
  let sliced = 0;
  for (const s of [list[0], list[list.length >> 1], list[list.length - 1]])
    for (const [dst, proto, src, hook] of [
      [`${s.ip}:${s.port}`, 'tcp', '10.128.0.5', 'prerouting'],
      [`${s.ip}:${s.port}`, 'tcp', '192.168.1.50', 'prerouting'],
      [`${s.ip}:${s.port}`, 'udp', '10.128.0.5', 'prerouting'],
      [`${s.ip}:${s.port + 1}`, 'tcp', '10.128.0.5', 'prerouting'],
      [`${s.ip}:${s.port}`, 'tcp', '192.168.1.10', 'output'],
    ]) {
      const checked = checkTracePacket({ src, dst, proto, hook }, NAMES);
      assert.ok(checked.ok);
      const packet = checked.packet;
      const fast = traceText(text, packet, 'en');
      if (fast.analysis.iptables && isTraceSlice(fast.analysis.iptables.dump)) sliced++;
      assert.deepEqual(
        shown(fast.analysis, fast.answer),
        shown(whole, traceAnalysis(whole, packet, 'en')),
        `${name}: ${proto} ${src} -> ${dst} (${hook})`,
      );
    }
  return sliced;
}

/** The nat table's KUBE-SERVICES rules, in the line order of `lines`. */
function natServiceRules(lines: string[]): number[] {
  const nat = lines.indexOf('*nat');
  return lines.map((l, i) => (i > nat && l.startsWith('-A KUBE-SERVICES ') ? i : -1)).filter((i) => i >= 0);
}

test('an endpoint DNATed to another Service cluster IP: the trace is the whole text one', () => {
  const lines = generated(40, 3).split('\n');
  const list = services(lines);
  const other = list[7];
  // Every third endpoint goes to Service 7 (hairpin through a second cluster IP).
  let k = 0;
  const hairpin = lines.map((l) =>
    l.includes('-j DNAT --to-destination') && k++ % 3 === 0
      ? l.replace(/--to-destination \S+/, `--to-destination ${other.ip}:${other.port}`)
      : l,
  );
  // filter KUBE-SERVICES long enough to be looked up by destination, with a REJECT for the second address: the
  // hairpinned paths meet it, the others do not.
  const reject = (ip: string, port: number, name: string) =>
    `-A KUBE-SERVICES -m comment --comment "${name} has no endpoints" -m tcp -p tcp -d ${ip} --dport ${port} -j REJECT --reject-with icmp-port-unreachable`;
  const empty = Array.from({ length: 34 }, (_, i) => reject(`10.9.${i}.1`, 80, `ns/empty-${i}:p0`));
  hairpin.splice(hairpin.indexOf('COMMIT'), 0, ...empty.slice(0, 17), reject(other.ip, other.port, 'ns/other:p0'));
  hairpin.splice(hairpin.indexOf('COMMIT'), 0, ...empty.slice(17));
  const text = hairpin.join('\n');
  assert.ok(sameAnswers('hairpin', text) > 0);
  const packet = checkTracePacket({ src: '10.128.0.5', dst: `${list[0].ip}:${list[0].port}` }, NAMES);
  assert.ok(packet.ok);
  const answer = traceText(text, packet.packet, 'en').answer;
  assert.ok(answer.engine === 'iptables' && answer.result.paths.some((p) => p.verdict === 'REJECT'));
});

test('Service rules that go to their chain (-g), and KUBE-SERVICES spread over the table: whole text answers', () => {
  const lines = generated(40, 4).split('\n');
  const gone = lines.map((l) => (l.startsWith('-A KUBE-SERVICES ') ? l.replace(/ -j (KUBE-SVC-\S+)$/, ' -g $1') : l));
  assert.ok(sameAnswers('goto', gone.join('\n')) > 0);
  // Every other KUBE-SERVICES rule of nat moved to the table's end, in its order: still one chain, read in order.
  const rules = natServiceRules(lines).filter((_, i) => i % 2 === 1);
  const moved = rules.map((i) => lines[i]);
  const spread = lines.filter((_, i) => !rules.includes(i));
  spread.splice(spread.indexOf('COMMIT', spread.indexOf('*nat')), 0, ...moved);
  assert.ok(sameAnswers('spread', spread.join('\n')) > 0);
});

test('KUBE-SERVICES of exactly 31, 32 and 33 rules (the tracer indexes chains from 32), and CRLF', () => {
  for (const total of [31, 32, 33]) {
    const lines = generated(40, total).split('\n');
    // Drop Service rules (not the last, NodePort one) until the chain has `total` rules.
    for (let rules = natServiceRules(lines); rules.length > total; rules = natServiceRules(lines))
      lines.splice(rules[0], 1);
    assert.equal(natServiceRules(lines).length, total);
    sameAnswers(`${total} rules`, lines.join('\n'));
    sameAnswers(`${total} rules, CRLF`, lines.join('\r\n'));
  }
});
