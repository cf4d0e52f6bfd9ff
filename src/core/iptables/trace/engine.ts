/**
 * The walk. Each path is a walker with its own packet, call stack and step list; a rule whose match is uncertain
 * (statistic draws, unknown facts) splits the walker in two, the copy taking the "does not match" side with the
 * complementary probability. A rule that only changes mark bits no rule of the dump reads does not split it: either
 * way the walk goes on the same, and the path says which bits it may lack. Each undecided fact doubles the paths, so
 * one path takes sides on at most `maxFacts` of them. Pending walkers run depth-first so the order of paths is
 * deterministic.
 *
 * Steps are a tree: a walker's list is a linked list towards the first step, and a copy shares its original's
 * list. A run of statistic rules a path did not take is one step (`skipped`), so the path to the k-th endpoint of
 * a load-balancing ladder does not repeat k-1 steps. The result keeps that tree (`sharedSteps`, each path's
 * `prefix` and `ownSteps`): a trace of a Service with n endpoints costs O(n) in time and size. Paths, rule
 * evaluations, steps and wall time are bounded; a trace a limit stopped says so in `truncated`.
 */
import type { Lang } from '../../i18n/catalog';
import { ownEntry } from '../../common/own';
import { dumpIndex, type CompiledChain, type CompiledRule, type DumpIndex } from './compile';
import { localFactKey, type Uncertain } from './conditions';
import {
  FORWARD_STAGES,
  INPUT_STAGES,
  LOOPBACK_STAGES,
  OUTPUT_STAGES,
  PREROUTING_STAGES,
  stagesWithBaseChains,
  type Stage,
} from './hooks';
import { formatProbability } from '../../common/shares';
import { formatMark, givenCode, msg, renderTraceMessage } from './message';
import { addressType, ipText, isForThisNode, preparePacket, type TraceEnv } from './packet';
import type { PacketState } from './state';
import {
  hasNoEffect,
  markChanges,
  verdictMapKey,
  type CompiledTarget,
  type MarkBits,
  type NftVerdict,
} from './targets';
import { changesNothingRead } from './markReaders';
import type {
  Packet,
  TraceAction,
  TraceLimit,
  TraceMessage,
  TraceOptions,
  TracePath,
  TraceResult,
  TraceRoute,
  TraceSharedStep,
  TraceStep,
  TraceVerdict,
} from './types';
import type { IptablesDump } from '../dump';
import { compileSets } from './ipsets';
import { familyProblem } from './family';
import { numgenPathTexts } from '../../nft/objects';
import { loopText } from '../jumpLoops';

interface Frame {
  chain: CompiledChain;
  candidates: readonly number[];
  pos: number;
  /** Jumps and gotos from the hook's chain to this one: the nesting nf_tables counts (see NFT_JUMP_LEVELS). */
  depth: number;
  /** The chains this frame left by goto, last one first: the path is still in them until the frame returns. */
  leftByGoto?: GotoLink;
}

interface GotoLink {
  chain: CompiledChain;
  prev?: GotoLink;
}

/**
 * nf_tables validates a ruleset from each base chain, one level per jump or goto, and refuses it (EMLINK, "Too
 * many links") when a chain sits this many levels down: its jump stack holds 16 (NFT_JUMP_STACK_SIZE).
 * iptables-legacy has no such limit: its jump stack is as deep as the table has chains, and it refuses only loops.
 */
const NFT_JUMP_LEVELS = 16;

interface StepNode {
  step: TraceStep;
  prev: StepNode | null;
  /** While the result is assembled: 0 unseen, 1 on one path, 2 on several; then the index in `sharedSteps`. */
  uses: number;
  index: number;
}

/** The statistic rules a walker has just not taken in a row (its last step stands for all of them). */
interface SkipRun {
  node: StepNode;
  count: number;
  /** Probability of not taking any of them. */
  p: number;
  first: CompiledRule;
}

type Phase = 'prerouting' | 'input' | 'forward' | 'output' | 'loopback';

interface Walker {
  probability: number;
  phase: Phase;
  stageIdx: number;
  stageChain?: CompiledChain;
  stack: Frame[];
  /** The chains of the path from the hook's chain to the current one (those left by goto included). */
  onPath: Set<CompiledChain>;
  pkt: PacketState;
  steps: StepNode | null;
  assumptions: TraceMessage[];
  /** The undecided facts this walker took a side on (a subset of `assumptions`). */
  given: TraceMessage[];
  facts: Map<string, boolean>;
  route?: TraceRoute;
  skipRun?: SkipRun;
  /** Mark bits that rules the walker passed may have set (undecided matches) and no rule reads: not in `pkt`. */
  unreadMarks?: MarkBits;
}

interface Limits {
  maxPaths: number;
  maxFacts: number;
  maxEvaluations: number;
  maxSteps: number;
  maxMillis: number;
}

/** How often (in rule evaluations) the clock is read. */
const CLOCK_EVERY = 256;

/** A path that has ended, with the last node of its step list. */
interface Done {
  path: Omit<TracePath, 'steps' | 'prefix' | 'ownSteps'>;
  tail: StepNode | null;
}

interface Truncation {
  reason: TraceLimit;
  limit: number;
  paths: number;
  probability: number;
}

interface Run {
  env: TraceEnv;
  /** The kernel's rule engine, when the dump says which (its limits differ: see NFT_JUMP_LEVELS). */
  backend: 'nf_tables' | 'legacy' | undefined;
  stages: Readonly<Record<Phase, readonly Stage[]>>;
  index: DumpIndex;
  packet: Packet;
  limits: Limits;
  lang: Lang;
  pending: Walker[];
  done: Done[];
  warnings: TraceMessage[];
  warned: Set<string>;
  evaluations: number;
  steps: number;
  now: () => number;
  deadline: number;
  /** A limit that stops every walker (evaluations, steps, time); the path limit only stops forking. */
  stopped?: TraceLimit;
  truncated?: Truncation;
  /** The undecided facts the cut paths took sides on (their `facts` keys), for the truncation message. */
  cutFacts: Set<string>;
}

const STAGES: Record<Phase, readonly Stage[]> = {
  prerouting: PREROUTING_STAGES,
  input: INPUT_STAGES,
  forward: FORWARD_STAGES,
  output: OUTPUT_STAGES,
  loopback: LOOPBACK_STAGES,
};

/** The stages of each phase, with the dump's nft base chains (kube-proxy's nftables mode) among them. */
function stagesOf(dump: IptablesDump): Readonly<Record<Phase, readonly Stage[]>> {
  const base = dump.nftBaseChains;
  if (!base?.length) return STAGES;
  const out = {} as Record<Phase, readonly Stage[]>;
  for (const phase of Object.keys(STAGES) as Phase[])
    out[phase] = stagesWithBaseChains(STAGES[phase], base, phase === 'loopback');
  return out;
}

export function tracePacket(dump: IptablesDump, packet: Packet, options: TraceOptions = {}): TraceResult {
  const lang = options.lang ?? 'en';
  const prepared = preparePacket(packet);
  if (!prepared.ok) return untraced(packet, prepared.problems, lang);
  const family = familyProblem(dump, prepared.env.family);
  // The other tool's rules: the packet never meets them, so no walk through them is shown.
  if (family?.refuse) return untraced(packet, [family.message], lang);
  const { state } = prepared;
  const sets = compileSets(options.ipsets);
  const env = sets ? { ...prepared.env, sets } : prepared.env;
  const now = options.now ?? Date.now;
  const maxMillis = options.maxMillis ?? 10_000;
  const run: Run = {
    env,
    stages: stagesOf(dump),
    index: dumpIndex(dump, prepared.env.family),
    backend: backendOf(dump),
    packet,
    limits: {
      maxPaths: options.maxPaths ?? 16_384,
      maxFacts: options.maxFacts ?? 10,
      maxEvaluations: options.maxEvaluations ?? 2_000_000,
      maxSteps: options.maxSteps ?? 500_000,
      maxMillis,
    },
    lang,
    pending: [],
    done: [],
    warnings: [],
    warned: new Set(),
    evaluations: 0,
    steps: 0,
    cutFacts: new Set(),
    now,
    deadline: now() + maxMillis,
  };
  if (family) warn(run, family.message);
  for (const t of run.index.duplicateTables) warn(run, msg('warn.duplicate-table', { table: t }));
  if (env.hook === 'output' && state.outIface === undefined && isForThisNode(env, state)) state.outIface = 'lo';
  run.pending.push({
    probability: 1,
    phase: env.hook === 'output' ? 'output' : 'prerouting',
    stageIdx: 0,
    stack: [],
    onPath: new Set(),
    pkt: state,
    steps: null,
    assumptions: [],
    given: [],
    facts: new Map(),
    route: env.hook === 'output' ? 'output' : undefined,
  });
  for (let w = run.pending.pop(); w; w = run.pending.pop()) walk(run, w);
  const { paths, sharedSteps } = assemble(run.done);
  const result: TraceResult = {
    packet,
    paths,
    sharedSteps,
    warnings: run.warnings.map((m) => renderTraceMessage(m, lang)),
    warningMessages: run.warnings,
  };
  const limited = run.truncated;
  if (limited) {
    const messageCode = msg(`truncated.${limited.reason}`, {
      limit: limited.limit,
      paths: limited.paths,
      // Kept for readers of the code's parameters; the text no longer shows it (a sum over paths under different
      // givens is no probability).
      p: formatProbability(limited.probability),
      facts: run.cutFacts.size,
    });
    const message = renderTraceMessage(messageCode, lang);
    result.truncated = { ...limited, message, messageCode };
    // Every face shows the warnings: the early stop is among them.
    result.warnings.push(message);
    result.warningMessages.push(messageCode);
  }
  return result;
}

/** A packet not traced: one UNKNOWN path without steps, and why. */
function untraced(packet: Packet, problems: TraceMessage[], lang: Lang): TraceResult {
  const path: TracePath = {
    probability: 1,
    verdict: 'UNKNOWN',
    dnat: null,
    snat: null,
    masquerade: false,
    mark: 0,
    steps: [],
    prefix: -1,
    ownSteps: [],
    assumptions: [],
    assumptionMessages: [],
    given: [],
    givenMessages: [],
  };
  return {
    packet,
    paths: [path],
    sharedSteps: [],
    warnings: problems.map((m) => renderTraceMessage(m, lang)),
    warningMessages: problems,
  };
}

/**
 * Turns the walkers' step lists into the result's tree: steps on two or more paths go to `sharedSteps` (parents
 * first, in the order of the first path that takes them), each path keeps the steps only it takes. Every step
 * node is visited a bounded number of times, so this is linear in the size of the tree.
 */
function assemble(done: readonly Done[]): { paths: TracePath[]; sharedSteps: TraceSharedStep[] } {
  for (const d of done) {
    for (let n = d.tail; n; n = n.prev) {
      if (n.uses === 0) {
        n.uses = 1;
        continue;
      }
      // Another path came this way: from here to the first step, every node is shared.
      for (let m: StepNode | null = n; m && m.uses < 2; m = m.prev) m.uses = 2;
      break;
    }
  }
  const sharedSteps: TraceSharedStep[] = [];
  const unindexed: StepNode[] = [];
  const paths = done.map((d): TracePath => {
    const own: TraceStep[] = [];
    let n = d.tail;
    for (; n && n.uses === 1; n = n.prev) own.push(n.step);
    own.reverse();
    if (n && n.index < 0) {
      for (let m: StepNode | null = n; m && m.index < 0; m = m.prev) unindexed.push(m);
      for (let m = unindexed.pop(); m; m = unindexed.pop()) {
        m.index = sharedSteps.length;
        sharedSteps.push({ step: m.step, parent: m.prev ? m.prev.index : -1 });
      }
    }
    return withSteps({ ...d.path, prefix: n ? n.index : -1, ownSteps: own }, sharedSteps);
  });
  return { paths, sharedSteps };
}

/** Gives a path its `steps`: built from the shared tree when first read, then kept. */
function withSteps(path: Omit<TracePath, 'steps'>, shared: readonly TraceSharedStep[]): TracePath {
  let steps: TraceStep[] | undefined;
  return Object.defineProperty(path, 'steps', {
    enumerable: false,
    get: () => {
      if (!steps) {
        const head: TraceStep[] = [];
        for (let i = path.prefix; i >= 0; i = shared[i].parent) head.push(shared[i].step);
        steps = head.reverse().concat(path.ownSteps);
      }
      return steps;
    },
  }) as TracePath;
}

function warn(run: Run, m: TraceMessage): void {
  const key = `${m.code}\u0000${JSON.stringify(m.params)}`;
  if (run.warned.has(key)) return;
  run.warned.add(key);
  run.warnings.push(m);
}

function assume(w: Walker, m: TraceMessage): void {
  const key = JSON.stringify(m);
  if (!w.assumptions.some((a) => JSON.stringify(a) === key)) w.assumptions.push(m);
}

function addStep(
  run: Run,
  w: Walker,
  at: { table: string; chain: string; line: number; ruleId?: number; text: string },
  action: TraceAction,
  note?: TraceMessage,
): void {
  w.steps = { step: makeStep(run, at, action, note), prev: w.steps, uses: 0, index: -1 };
  run.steps++;
}

function makeStep(
  run: Run,
  at: { table: string; chain: string; line: number; ruleId?: number; text: string },
  action: TraceAction,
  note?: TraceMessage,
): TraceStep {
  const step: TraceStep = { table: at.table, chain: at.chain, line: at.line, rule: at.text, action };
  if (at.ruleId !== undefined) step.ruleId = at.ruleId;
  if (note) {
    step.note = renderTraceMessage(note, run.lang);
    step.noteMessage = note;
  }
  return step;
}

/**
 * The walker did not take a statistic rule. Right after another one of the same chain (nothing else happened in
 * between) the two become one step: a ladder's k-th endpoint is reached through one "not taken" step, not k-1.
 */
function skipRandom(run: Run, w: Walker, rule: CompiledRule, pNot: number, note: TraceMessage): void {
  const last = w.skipRun;
  if (!last || last.node !== w.steps || last.first.table !== rule.table || last.first.chain !== rule.chain) {
    addStep(run, w, rule, 'fork', note);
    w.skipRun = { node: w.steps!, count: 1, p: pNot, first: rule };
    return;
  }
  const count = last.count + 1;
  const p = last.p * pNot;
  const first = last.first;
  const step = makeStep(
    run,
    first,
    'fork',
    msg('note.random-not-taken-run', { count, from: first.line + 1, to: rule.line + 1, p: formatProbability(p) }),
  );
  step.skipped = { count, lastLine: rule.line };
  w.steps = { step, prev: last.node.prev, uses: 0, index: -1 };
  run.steps++;
  w.skipRun = { node: w.steps, count, p, first };
}

function finish(run: Run, w: Walker, verdict: TraceVerdict): void {
  if (w.unreadMarks) assume(w, msg('assume.mark-unread', { bits: describeBits(w.unreadMarks) }));
  const path: Done['path'] = {
    probability: w.probability,
    verdict,
    dnat: w.pkt.dnat,
    snat: w.pkt.snat,
    masquerade: w.pkt.masquerade,
    mark: w.pkt.mark,
    assumptions: w.assumptions.map((m) => renderTraceMessage(m, run.lang)),
    assumptionMessages: w.assumptions,
    given: w.given.map((m) => renderTraceMessage(givenCode(m), run.lang)),
    givenMessages: w.given,
  };
  if (w.route) path.route = w.route;
  run.done.push({ path, tail: w.steps });
}

/** A limit ends the walker's path as UNKNOWN; the trace records what the limit cut. */
function cut(run: Run, w: Walker, reason: TraceLimit, limit: number): void {
  const t = (run.truncated ??= { reason, limit, paths: 0, probability: 0 });
  t.paths++;
  t.probability += w.probability;
  for (const key of w.facts.keys()) run.cutFacts.add(key);
  finish(run, w, 'UNKNOWN');
}

/** The limit that stops every walker now, if one was reached (the clock is read every CLOCK_EVERY evaluations). */
function globalLimit(run: Run): { reason: TraceLimit; limit: number } | undefined {
  if (!run.stopped) {
    if (run.evaluations >= run.limits.maxEvaluations) run.stopped = 'evaluations';
    else if (run.steps >= run.limits.maxSteps) run.stopped = 'steps';
    else if (run.evaluations % CLOCK_EVERY === 0 && run.now() > run.deadline) run.stopped = 'time';
    else return undefined;
  }
  const limit = {
    evaluations: run.limits.maxEvaluations,
    steps: run.limits.maxSteps,
    time: run.limits.maxMillis,
    paths: run.limits.maxPaths,
    facts: run.limits.maxFacts,
  }[run.stopped];
  return { reason: run.stopped, limit };
}

/** `# Generated by iptables-nft-save v1.8.7 (nf_tables)`, or nft's own listing of iptables-nft's rules. */
function backendOf(dump: IptablesDump): Run['backend'] {
  if (dump.format === 'nft') return 'nf_tables';
  for (const h of dump.headers) {
    if (h.backend === 'nf_tables' || /-nft\b/.test(h.tool)) return 'nf_tables';
    if (h.backend === 'legacy' || /-legacy\b/.test(h.tool)) return 'legacy';
  }
  return undefined;
}

function clone(w: Walker): Walker {
  return {
    ...w,
    stack: w.stack.map((f) => ({ ...f })),
    onPath: new Set(w.onPath),
    pkt: { ...w.pkt },
    assumptions: [...w.assumptions],
    given: [...w.given],
    facts: new Map(w.facts),
  };
}

/** Runs one walker to its end; forks go to `run.pending`. */
function walk(run: Run, w: Walker): void {
  for (;;) {
    if (w.stack.length === 0) {
      if (!startNextStage(run, w)) {
        finish(run, w, 'ACCEPT');
        return;
      }
      continue;
    }
    const frame = w.stack[w.stack.length - 1];
    if (frame.pos >= frame.candidates.length) {
      if (!endOfChain(run, w)) return;
      continue;
    }
    const stop = globalLimit(run);
    if (stop) {
      cut(run, w, stop.reason, stop.limit);
      return;
    }
    const rule = frame.chain.rule(frame.candidates[frame.pos++]);
    run.evaluations++;
    const outcome = evaluate(run, w, rule);
    if (outcome === 'no-match') continue;
    if (outcome === 'stopped') return;
    if (!applyTarget(run, w, rule)) return;
  }
}

/** Moves to the next table/chain of the hook; false when the packet has passed them all. */
function startNextStage(run: Run, w: Walker): boolean {
  for (;;) {
    const stages = run.stages[w.phase];
    if (w.stageIdx >= stages.length) {
      if (!routeAfter(run, w)) return false;
      continue;
    }
    const stage = stages[w.stageIdx++];
    if (!run.index.hasTable(stage.table)) continue; // absent table: its chains accept untouched
    const chain = run.index.chain(stage.table, stage.chain);
    if (!chain) continue;
    if ((stage.table === 'nat' || stage.nat) && w.pkt.untracked) {
      addStep(
        run,
        w,
        { table: stage.table, chain: stage.chain, line: chain.line, text: '' },
        'continue',
        msg('note.nat-skipped'),
      );
      continue;
    }
    w.stageChain = chain;
    if (chain.impliedAssumption) assume(w, chain.impliedAssumption);
    w.stack.push({ chain, candidates: chain.candidates(w.pkt.dst), pos: 0, depth: 0 });
    w.onPath.clear();
    w.onPath.add(chain);
    return true;
  }
}

/** The routing decision between phases; false when the path is complete. */
function routeAfter(run: Run, w: Walker): boolean {
  const { env, packet } = run;
  if (w.phase === 'prerouting') {
    if (
      !env.local &&
      addressType(env, w.pkt.dst) === undefined &&
      !w.pkt.redirectedLocal &&
      !w.facts.has(localFactKey(ipText(env, w.pkt.dst)))
    ) {
      warn(run, msg('warn.no-local-addresses'));
    }
    // Without the node's addresses, a path that already assumed the destination local (addrtype) stays consistent.
    const assumed = env.local ? undefined : w.facts.get(localFactKey(ipText(env, w.pkt.dst)));
    const local = assumed ?? isForThisNode(env, w.pkt);
    w.phase = local ? 'input' : 'forward';
    w.route = local ? 'input' : 'forward';
    w.pkt.outIface = local ? '' : packet.outIface;
    w.stageIdx = 0;
    return true;
  }
  if (w.phase === 'output' && isForThisNode(env, w.pkt)) {
    w.phase = 'loopback';
    w.route = 'input';
    w.pkt.inIface = 'lo';
    w.pkt.outIface = '';
    w.stageIdx = 0;
    return true;
  }
  return false;
}

/** A chain ran out of rules: user chains return to the caller, builtin chains apply their policy. */
function endOfChain(run: Run, w: Walker): boolean {
  const frame = w.stack[w.stack.length - 1];
  if (w.stack.length === 1 && frame.chain === w.stageChain) return applyPolicy(run, w, undefined);
  addStep(
    run,
    w,
    { table: frame.chain.table, chain: frame.chain.name, line: frame.chain.line, text: '' },
    'return',
    msg('note.chain-end'),
  );
  return popFrame(run, w);
}

/** Back to the caller; when there is none (a goto from the builtin chain) the builtin's policy decides. */
function popFrame(run: Run, w: Walker): boolean {
  const frame = w.stack.pop()!;
  w.onPath.delete(frame.chain);
  for (let left = frame.leftByGoto; left; left = left.prev) w.onPath.delete(left.chain);
  if (w.stack.length === 0) return applyPolicy(run, w, msg('note.return-to-policy'));
  return true;
}

function applyPolicy(run: Run, w: Walker, note: TraceMessage | undefined): boolean {
  const chain = w.stageChain;
  w.stack = [];
  if (!chain) return true;
  let policy = chain.policy?.toUpperCase();
  if (policy !== 'ACCEPT' && policy !== 'DROP') {
    assume(w, msg('assume.policy-accept', { table: chain.table, chain: chain.name }));
    policy = 'ACCEPT';
  }
  addStep(
    run,
    w,
    { table: chain.table, chain: chain.name, line: chain.policyLine, text: `-P ${chain.name} ${policy}` },
    'policy',
    chain.implied ? msg('note.policy-implied') : note,
  );
  if (policy === 'DROP') {
    finish(run, w, 'DROP');
    return false;
  }
  return true;
}

/**
 * Decides whether the rule matches. Uncertain conditions fork: the copy that does not match continues with the
 * next rule later; this walker goes on as the matching side.
 */
function evaluate(run: Run, w: Walker, rule: CompiledRule): 'match' | 'no-match' | 'stopped' {
  let uncertain: Uncertain[] | undefined;
  for (const cond of rule.conds) {
    const r = cond(w.pkt, run.env);
    if (r === true) continue;
    if (r === false) return 'no-match';
    if (r.key !== undefined) {
      const known = w.facts.get(r.key);
      if (known !== undefined) {
        if (known !== r.holdsIfTrue) return 'no-match';
        continue;
      }
    }
    (uncertain ??= []).push(r);
  }
  for (const p of rule.problems) warn(run, p.message);
  if (!uncertain) return 'match';
  if (hasNoEffect(rule.target)) {
    addStep(run, w, rule, 'continue', msg('note.maybe-match'));
    return 'no-match';
  }
  for (const u of uncertain) {
    if (u.key !== undefined && w.facts.has(u.key)) {
      if (w.facts.get(u.key) !== u.holdsIfTrue) return 'no-match';
      continue;
    }
    const pHolds = u.holdsIfTrue ? u.p : 1 - u.p;
    if (pHolds >= 1) continue;
    if (pHolds <= 0) return 'no-match';
    const unread = unreadMarkChange(run, rule.target);
    if (unread) {
      // Matching or not, the walk goes on the same: one path, which says what its mark may lack.
      addStep(run, w, rule, 'continue', msg('note.maybe-mark-unread', { bits: describeBits(unread) }));
      const before = w.unreadMarks;
      w.unreadMarks = before
        ? { mark: (before.mark | unread.mark) >>> 0, ctmark: (before.ctmark | unread.ctmark) >>> 0 }
        : unread;
      return 'no-match';
    }
    if (run.done.length + run.pending.length + 1 >= run.limits.maxPaths) {
      cut(run, w, 'paths', run.limits.maxPaths);
      return 'stopped';
    }
    // A fact of the node (a key: decided once per path) is not a draw: each side is an alternative that holds or
    // not as a whole, with the probabilities of its own draws. Only draws (statistic, nth) share out probability.
    const draw = u.key === undefined;
    // Each fact doubles the paths: a dump with many undecided tests would fork into millions of them.
    if (!draw && w.given.length >= run.limits.maxFacts) {
      cut(run, w, 'facts', run.limits.maxFacts);
      return 'stopped';
    }
    const other = clone(w);
    if (draw) other.probability *= 1 - pHolds;
    if (u.random) skipRandom(run, other, rule, 1 - pHolds, u.holdsIfTrue ? u.whenFalse : u.whenTrue);
    else decide(run, other, rule, u, !u.holdsIfTrue);
    run.pending.push(other);
    if (draw) w.probability *= pHolds;
    decide(run, w, rule, u, u.holdsIfTrue);
  }
  return 'match';
}

/** The mark bits the target changes when that is all it does and no rule of the dump reads them. */
function unreadMarkChange(run: Run, target: CompiledTarget): MarkBits | undefined {
  const changes = markChanges(target);
  return changes && changesNothingRead(changes, run.index.marksRead()) ? changes : undefined;
}

/** `mark 0x4`, `ctmark 0x10`, or both. */
function describeBits(bits: MarkBits): string {
  const parts: string[] = [];
  if (bits.mark) parts.push(`mark ${formatMark(bits.mark)}`);
  if (bits.ctmark) parts.push(`ctmark ${formatMark(bits.ctmark)}`);
  return parts.join(', ') || `mark ${formatMark(0)}`;
}

function decide(run: Run, w: Walker, rule: CompiledRule, u: Uncertain, factValue: boolean): void {
  const m = factValue ? u.whenTrue : u.whenFalse;
  if (u.key !== undefined) {
    w.facts.set(u.key, factValue);
    w.given.push(m);
  }
  if (!u.random) assume(w, m);
  addStep(run, w, rule, 'fork', m);
}

function where(rule: CompiledRule): string {
  return `${rule.table}/${rule.chain}:${rule.line + 1}`;
}

/** Applies a matched rule's target; false when the path ended. */
function applyTarget(run: Run, w: Walker, rule: CompiledRule): boolean {
  const t = rule.target;
  const pkt = w.pkt;
  switch (t.kind) {
    case 'none':
      addStep(run, w, rule, 'match');
      return true;
    case 'accept':
      addStep(run, w, rule, 'terminal');
      w.stack = [];
      return true;
    case 'tproxy':
      addStep(run, w, rule, 'terminal', msg('note.tproxy'));
      pkt.redirectedLocal = true;
      w.stack = [];
      return true;
    case 'drop':
      addStep(run, w, rule, 'terminal');
      finish(run, w, 'DROP');
      return false;
    case 'reject':
      addStep(run, w, rule, 'terminal', t.with ? msg('note.reject', { with: t.with }) : undefined);
      finish(run, w, 'REJECT');
      return false;
    case 'queue':
      addStep(run, w, rule, 'terminal', msg('note.queue'));
      finish(run, w, 'QUEUE');
      return false;
    case 'return': {
      addStep(run, w, rule, 'return');
      return popFrame(run, w);
    }
    case 'chain':
      return enterChain(run, w, rule, t.name, t.goto);
    case 'dnat':
    case 'redirect':
      applyDnat(run, w, rule);
      w.stack = [];
      return true;
    case 'snat': {
      pkt.snatDone = true;
      if (t.to) {
        const ip = t.to.ip ?? ipText(run.env, pkt.src);
        pkt.snat = t.to.port === undefined ? { ip } : { ip, port: t.to.port };
        if (t.to.ipValue !== undefined) pkt.src = t.to.ipValue;
        addStep(run, w, rule, 'nat', msg(t.to.ranged ? 'note.snat-range' : 'note.snat', { to: t.text }));
      } else {
        warn(run, msg('warn.bad-target-value', { target: 'SNAT', value: t.text, where: where(rule) }));
        addStep(run, w, rule, 'nat', msg('note.snat', { to: t.text }));
      }
      w.stack = [];
      return true;
    }
    case 'masquerade':
      pkt.snatDone = true;
      pkt.masquerade = true;
      addStep(run, w, rule, 'nat', msg('note.masquerade'));
      w.stack = [];
      return true;
    case 'mark': {
      const from = pkt.mark;
      pkt.mark = t.apply(from);
      addStep(run, w, rule, 'mark', msg('note.mark', { from: formatMark(from), to: formatMark(pkt.mark) }));
      return true;
    }
    case 'connmark': {
      const before = { mark: pkt.mark, ctmark: pkt.ctmark };
      const after = t.apply(before);
      pkt.mark = after.mark;
      pkt.ctmark = after.ctmark;
      addStep(
        run,
        w,
        rule,
        'mark',
        msg('note.connmark', {
          mark: formatMark(after.mark),
          ctmark: formatMark(after.ctmark),
        }),
      );
      return true;
    }
    case 'notrack':
      pkt.untracked = true;
      addStep(run, w, rule, 'continue', msg('note.notrack'));
      return true;
    case 'noop':
      addStep(run, w, rule, 'continue', msg('note.no-effect', { target: t.name }));
      return true;
    case 'unknown-target':
      warn(run, msg('warn.unknown-target', { target: t.name, where: where(rule) }));
      addStep(run, w, rule, 'continue', msg('note.unknown-target', { target: t.name }));
      return true;
    case 'undefined-chain':
      return jumpToMissingChain(run, w, rule, t.name);
    case 'vmap':
      return applyVerdictMap(run, w, rule, t);
    case 'numgen':
      return applyNumgen(run, w, rule, t);
    case 'bad-option':
      warn(run, msg('warn.bad-target-value', { target: t.name, value: t.option, where: where(rule) }));
      addStep(run, w, rule, 'continue', msg('note.unknown-target', { target: t.name }));
      return true;
  }
}

/** kube-proxy's mark chains do one known thing, so a paste that left them out can still be followed. */
const KNOWN_MARK_CHAINS: Record<string, number> = { 'KUBE-MARK-MASQ': 0x4000, 'KUBE-MARK-DROP': 0x8000 };

/**
 * A jump to a chain the dump does not contain (a partial paste): what that chain does is unknown, so the path
 * ends as UNKNOWN rather than pretending the jump returned. kube-proxy's mark chains are the exception.
 */
function jumpToMissingChain(run: Run, w: Walker, rule: CompiledRule, name: string): boolean {
  const bit = ownEntry(KNOWN_MARK_CHAINS, name);
  if (bit !== undefined) {
    w.pkt.mark = (w.pkt.mark | bit) >>> 0;
    addStep(run, w, rule, 'mark', msg('note.known-mark-chain', { target: name, mark: formatMark(bit) }));
    return true;
  }
  warn(run, msg('warn.undefined-chain', { target: name, where: where(rule) }));
  addStep(run, w, rule, 'jump', msg('note.undefined-chain', { target: name }));
  finish(run, w, 'UNKNOWN');
  return false;
}

function enterChain(
  run: Run,
  w: Walker,
  rule: CompiledRule,
  name: string,
  isGoto: boolean,
  note?: TraceMessage,
): boolean {
  const chain = run.index.chain(rule.table, name);
  const top = w.stack[w.stack.length - 1];
  if (!chain) return jumpToMissingChain(run, w, rule, name);
  addStep(run, w, rule, isGoto ? 'goto' : 'jump', note ?? rule.impliedNote);
  if (w.onPath.has(chain)) {
    const loop = pathFrom(w, chain);
    warn(run, msg('warn.loop', { where: where(rule), cycle: loopText(loop), count: loop.length }));
    finish(run, w, 'UNKNOWN');
    return false;
  }
  const depth = top.depth + 1;
  if (depth === NFT_JUMP_LEVELS && run.backend !== 'legacy') {
    const params = { chain: name, base: w.stageChain?.name ?? '?', depth, where: where(rule) };
    if (run.backend === 'nf_tables') {
      warn(run, msg('warn.nft-too-deep', params));
      finish(run, w, 'UNKNOWN');
      return false;
    }
    warn(run, msg('warn.nft-would-refuse', params));
  }
  const frame: Frame = { chain, candidates: chain.candidates(w.pkt.dst), pos: 0, depth };
  if (isGoto) {
    frame.leftByGoto = { chain: top.chain, prev: top.leftByGoto };
    w.stack[w.stack.length - 1] = frame;
  } else w.stack.push(frame);
  w.onPath.add(chain);
  return true;
}

/** The chains of the walker's path from `chain` on, in the order it entered them. */
function pathFrom(w: Walker, chain: CompiledChain): string[] {
  const path: CompiledChain[] = [];
  for (const frame of w.stack) {
    const left: CompiledChain[] = [];
    for (let l = frame.leftByGoto; l; l = l.prev) left.push(l.chain);
    for (let i = left.length - 1; i >= 0; i--) path.push(left[i]);
    path.push(frame.chain);
  }
  return path.slice(path.indexOf(chain)).map((c) => c.name);
}

function applyDnat(run: Run, w: Walker, rule: CompiledRule): void {
  const t = rule.target;
  const { env, packet } = run;
  const pkt = w.pkt;
  pkt.dnatDone = true;
  if (t.kind === 'redirect') {
    const loopback = env.family === 4 ? '127.0.0.1' : '::1';
    const ip = env.hook === 'output' ? loopback : env.firstLocalAddress;
    if (ip === undefined) assume(w, msg('assume.redirect-address'));
    pkt.redirectedLocal = true;
    if (t.port !== undefined) pkt.dport = t.port;
    const shown = ip ?? ipText(env, pkt.dst);
    // Without --to-ports (or a port in --to-destination) the kernel keeps the packet's destination port.
    const port = t.port ?? pkt.dport;
    pkt.dnat = port === undefined ? { ip: shown } : { ip: shown, port };
    addStep(run, w, rule, 'nat', msg('note.redirect', { to: t.text || '-' }));
  } else if (t.kind === 'dnat') {
    if (!t.to) {
      warn(run, msg('warn.bad-target-value', { target: 'DNAT', value: t.text, where: where(rule) }));
      addStep(run, w, rule, 'nat', msg('note.dnat', { to: t.text }));
    } else {
      if (t.to.ipValue !== undefined) pkt.dst = t.to.ipValue;
      if (t.to.port !== undefined) pkt.dport = t.to.port;
      const ip = ipText(env, pkt.dst);
      const port = t.to.port ?? pkt.dport;
      pkt.dnat = port === undefined ? { ip } : { ip, port };
      const to = t.to.port === undefined ? ip : env.family === 6 ? `[${ip}]:${t.to.port}` : `${ip}:${t.to.port}`;
      addStep(run, w, rule, 'nat', msg(t.to.ranged ? 'note.dnat-range' : 'note.dnat', { to, range: t.text }));
    }
  }
  // A rewritten destination is routed again.
  if (env.hook === 'output' && packet.outIface === undefined) pkt.outIface = isForThisNode(env, pkt) ? 'lo' : undefined;
}

/** The packet's value of a verdict map's selector (`ip daddr`, `meta l4proto`, `th dport`); undefined when unknown. */
function selectorValue(run: Run, w: Walker, selector: string): string | undefined {
  const pkt = w.pkt;
  const [head, field] = selector.split(' ');
  if (field === 'daddr' || field === 'saddr') return ipText(run.env, field === 'daddr' ? pkt.dst : pkt.src);
  if (field === 'l4proto' || field === 'protocol') return pkt.proto;
  if (field === 'dport' || field === 'sport') {
    // `tcp dport` holds only for TCP packets; `th` (transport header) for any protocol with ports.
    if (head !== 'th' && head !== pkt.proto) return '';
    const port = field === 'dport' ? pkt.dport : pkt.sport;
    return port === undefined ? undefined : String(port);
  }
  return undefined;
}

/** An element's verdict: into a chain, or the end of the path or of the chain. */
function applyNftVerdict(run: Run, w: Walker, rule: CompiledRule, v: NftVerdict, note?: TraceMessage): boolean {
  switch (v.verdict) {
    case 'goto':
    case 'jump':
      return v.chain ? enterChain(run, w, rule, v.chain, v.verdict === 'goto', note) : true;
    case 'accept':
      addStep(run, w, rule, 'terminal', note);
      w.stack = [];
      return true;
    case 'drop':
      addStep(run, w, rule, 'terminal', note);
      finish(run, w, 'DROP');
      return false;
    case 'return':
      addStep(run, w, rule, 'return', note);
      return popFrame(run, w);
    default:
      addStep(run, w, rule, 'continue', note);
      return true;
  }
}

/** `KEY vmap @map`: the packet's key looked up among the map's elements (kube-proxy's `service-ips`). */
function applyVerdictMap(
  run: Run,
  w: Walker,
  rule: CompiledRule,
  t: Extract<CompiledTarget, { kind: 'vmap' }>,
): boolean {
  const parts = t.selectors.map((s) => selectorValue(run, w, s));
  if (!t.lookup || parts.some((p) => p === undefined)) {
    // Without the map's elements (or a value the packet does not give) the lookup cannot be decided.
    assume(w, msg('assume.vmap-unknown', { map: t.map }));
    addStep(run, w, rule, 'continue', msg('note.vmap-unknown', { map: t.map }));
    return true;
  }
  const key = parts.join(' . ');
  const v = t.lookup.get(verdictMapKey(parts as string[]));
  if (!v) {
    addStep(run, w, rule, 'continue', msg('note.vmap-miss', { map: t.map, key }));
    return true;
  }
  return applyNftVerdict(
    run,
    w,
    rule,
    v,
    msg('note.vmap-hit', { map: t.map, key, verdict: v.chain ? `${v.verdict} ${v.chain}` : v.verdict }),
  );
}

/** `numgen random mod N vmap { ... }`: each of the N values with probability 1/N (kube-proxy's endpoint ladder). */
function applyNumgen(run: Run, w: Walker, rule: CompiledRule, t: Extract<CompiledTarget, { kind: 'numgen' }>): boolean {
  const n = t.modulus;
  if (!(n >= 1)) {
    addStep(run, w, rule, 'continue');
    return true;
  }
  if (run.done.length + run.pending.length + n > run.limits.maxPaths) {
    cut(run, w, 'paths', run.limits.maxPaths);
    return false;
  }
  const share = w.probability / n;
  const pathText = numgenPathTexts(rule.text);
  const pick = (walker: Walker, k: number): boolean => {
    walker.probability = share;
    const v = t.verdicts.get(k);
    const note = msg('note.numgen', { value: k, modulus: n, mode: t.mode, to: v ? (v.chain ?? v.verdict) : '-' });
    const text = pathText(k);
    const shown = text === rule.text ? rule : { ...rule, text };
    addStep(run, walker, shown, 'fork', note);
    // A value with no element leaves the rule without a verdict: the chain goes on.
    return v ? applyNftVerdict(run, walker, shown, v) : true;
  };
  // Pending walkers run last-in first-out: pushed from the last value, they finish in value order.
  for (let k = n - 1; k >= 1; k--) {
    const other = clone(w);
    if (pick(other, k)) run.pending.push(other);
  }
  return pick(w, 0);
}
