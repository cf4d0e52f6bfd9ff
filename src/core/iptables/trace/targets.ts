/** What a rule's target does to the walk, decided once per rule when its chain is compiled. */
import { formatIp, parseIp, type IpFamily } from '../../common/ip';
import { bracedElements, type NftObject } from '../../nft/objects';
import type { OptionArg, Target } from '../dump';
import { parseNatTo, parseU32, parseValueMask, type NatTo } from './values';

export type CompiledTarget =
  | { kind: 'none' }
  | { kind: 'accept' | 'drop' | 'queue' | 'return' | 'tproxy'; name: string }
  | { kind: 'reject'; with?: string }
  | { kind: 'chain'; name: string; goto: boolean }
  | { kind: 'dnat'; to?: NatTo; text: string }
  | { kind: 'redirect'; port?: number; text: string }
  | { kind: 'snat'; to?: NatTo; text: string }
  | { kind: 'masquerade' }
  | { kind: 'mark'; apply: (mark: number) => number; changes: MarkBits }
  | {
      kind: 'connmark';
      apply: (marks: { mark: number; ctmark: number }) => { mark: number; ctmark: number };
      changes: MarkBits;
    }
  | { kind: 'notrack'; name: string }
  | { kind: 'noop'; name: string }
  | { kind: 'vmap'; map: string; selectors: string[]; lookup?: ReadonlyMap<string, NftVerdict> }
  | { kind: 'numgen'; modulus: number; mode: string; verdicts: ReadonlyMap<number, NftVerdict> }
  | { kind: 'unknown-target'; name: string }
  | { kind: 'undefined-chain'; name: string }
  | { kind: 'bad-option'; name: string; option: string };

/** Bits of the packet mark and of the connection's mark (ctmark): those a target may change, or those rules read. */
export interface MarkBits {
  mark: number;
  ctmark: number;
}

/** What an element of an nft verdict map does: `goto CHAIN`, `jump CHAIN`, `accept`, `drop`, `return`, ... */
export interface NftVerdict {
  verdict: string;
  chain?: string;
}

/** A verdict map's key as the tracer builds it from the packet: parts joined, addresses in canonical form. */
export function verdictMapKey(parts: readonly string[]): string {
  return parts
    .map((p) => {
      const ip = parseIp(p);
      return ip ? formatIp(ip) : p.toLowerCase();
    })
    .join('\u0000');
}

/** The nft reader's VMAP / NUMGEN targets (`... vmap @name`, `numgen random mod N vmap { ... }`). */
function compileVerdictMap(target: Target, objectNamed: (name: string) => NftObject | undefined): CompiledTarget {
  const named = opt(target, 'map')?.values[0];
  const elements =
    named !== undefined ? objectNamed(named)?.elements : bracedElements(opt(target, 'elements')?.values[0] ?? '');
  if (target.name === 'NUMGEN') {
    const modulus = Number(opt(target, 'mod')?.values[0]);
    // By the elements, once each, not by the values: `mod 400000000` with two elements is a paste too.
    const verdicts = new Map<number, NftVerdict>();
    const seen = new Set<number>();
    for (const e of elements ?? []) {
      const k = e.key.length === 1 ? Number(e.key[0]) : NaN;
      // The first element of a value is the one that counts.
      if (!Number.isInteger(k) || k < 0 || k >= modulus || seen.has(k)) continue;
      seen.add(k);
      if (e.verdict) verdicts.set(k, { verdict: e.verdict, ...(e.chain ? { chain: e.chain } : {}) });
    }
    return { kind: 'numgen', modulus, mode: opt(target, 'mode')?.values[0] ?? 'random', verdicts };
  }
  const selectors = opt(target, 'selector')?.values ?? [];
  const map = named ?? '{ ... }';
  if (!elements) return { kind: 'vmap', map, selectors };
  const lookup = new Map<string, NftVerdict>();
  for (const e of elements)
    if (e.verdict) lookup.set(verdictMapKey(e.key), { verdict: e.verdict, ...(e.chain ? { chain: e.chain } : {}) });
  return { kind: 'vmap', map, selectors, lookup };
}

/** Targets that only observe or tweak headers the trace does not model: the walk continues. */
const NOOP_TARGETS = new Set([
  'LOG',
  'NFLOG',
  'ULOG',
  'TRACE',
  'CHECKSUM',
  'TCPMSS',
  'TOS',
  'DSCP',
  'TTL',
  'HL',
  'ECN',
  'CLASSIFY',
  'AUDIT',
  'SECMARK',
  'CONNSECMARK',
  'IDLETIMER',
  'LED',
  'RATEEST',
  'TEE',
  'SET',
  'HMARK',
  'TCPOPTSTRIP',
  'NFACCT',
]);

/** Targets whose rule outcome does not depend on whether they matched, so unknown matches need no fork. */
export function hasNoEffect(t: CompiledTarget): boolean {
  return t.kind === 'none' || t.kind === 'noop';
}

/** The mark bits the target may change when all it does is change marks; undefined for any other target. */
export function markChanges(t: CompiledTarget): MarkBits | undefined {
  return t.kind === 'mark' || t.kind === 'connmark' ? t.changes : undefined;
}

function opt(target: Target, ...names: string[]): OptionArg | undefined {
  return target.options.find((o) => names.includes(o.name));
}

const U32 = 0xffffffff;

function compileMark(target: Target): CompiledTarget {
  const bad = (o: OptionArg): CompiledTarget => ({ kind: 'bad-option', name: target.name, option: o.written });
  const setX = opt(target, 'set-xmark');
  if (setX) {
    const vm = parseValueMask(setX.values[0] ?? '');
    if (!vm) return bad(setX);
    return {
      kind: 'mark',
      apply: (m) => ((m & ~vm.mask & U32) ^ vm.value) >>> 0,
      changes: { mark: (vm.mask | vm.value) >>> 0, ctmark: 0 },
    };
  }
  const set = opt(target, 'set-mark');
  if (set) {
    const vm = parseValueMask(set.values[0] ?? '');
    if (!vm) return bad(set);
    return {
      kind: 'mark',
      apply: (m) => ((m & ~vm.mask & U32) | vm.value) >>> 0,
      changes: { mark: (vm.mask | vm.value) >>> 0, ctmark: 0 },
    };
  }
  for (const [name, op] of [
    ['or-mark', (m: number, v: number) => m | v],
    ['and-mark', (m: number, v: number) => m & v],
    ['xor-mark', (m: number, v: number) => m ^ v],
  ] as const) {
    const o = opt(target, name);
    if (!o) continue;
    const v = parseU32(o.values[0] ?? '');
    if (v === undefined) return bad(o);
    // --and-mark V clears the bits outside V; --or-mark and --xor-mark touch the bits of V.
    const changed = name === 'and-mark' ? ~v >>> 0 : v;
    return { kind: 'mark', apply: (m) => op(m, v) >>> 0, changes: { mark: changed, ctmark: 0 } };
  }
  return { kind: 'noop', name: target.name };
}

function compileConnmark(target: Target): CompiledTarget {
  const bad = (o: OptionArg): CompiledTarget => ({ kind: 'bad-option', name: target.name, option: o.written });
  const setX = opt(target, 'set-xmark', 'set-mark');
  if (setX) {
    const vm = parseValueMask(setX.values[0] ?? '');
    if (!vm) return bad(setX);
    const xor = setX.name === 'set-xmark';
    return {
      kind: 'connmark',
      apply: (m) => ({
        mark: m.mark,
        ctmark: (xor ? (m.ctmark & ~vm.mask & U32) ^ vm.value : (m.ctmark & ~vm.mask & U32) | vm.value) >>> 0,
      }),
      changes: { mark: 0, ctmark: (vm.mask | vm.value) >>> 0 },
    };
  }
  const masks = (def: number) => {
    const nf = parseU32(opt(target, 'nfmask', 'mask')?.values[0] ?? '') ?? def;
    const ct = parseU32(opt(target, 'ctmask', 'mask')?.values[0] ?? '') ?? def;
    return { nf, ct };
  };
  if (opt(target, 'save-mark')) {
    const { nf, ct } = masks(U32);
    // ctmark = (ctmark & ~ctmask) ^ (mark & nfmask)
    return {
      kind: 'connmark',
      apply: (m) => ({ mark: m.mark, ctmark: ((m.ctmark & ~ct & U32) ^ (m.mark & nf)) >>> 0 }),
      changes: { mark: 0, ctmark: (ct | nf) >>> 0 },
    };
  }
  if (opt(target, 'restore-mark')) {
    const { nf, ct } = masks(U32);
    // mark = (mark & ~nfmask) ^ (ctmark & ctmask)
    return {
      kind: 'connmark',
      apply: (m) => ({ mark: ((m.mark & ~nf & U32) ^ (m.ctmark & ct)) >>> 0, ctmark: m.ctmark }),
      changes: { mark: (nf | ct) >>> 0, ctmark: 0 },
    };
  }
  return { kind: 'noop', name: target.name };
}

/**
 * `chainExists` says whether the name is a chain of the rule's table; standard targets win over chain names
 * because iptables forbids chains named like them.
 */
export function compileTarget(
  target: Target | undefined,
  family: IpFamily,
  chainExists: (name: string) => boolean,
  objectNamed: (name: string) => NftObject | undefined = () => undefined,
): CompiledTarget {
  if (!target) return { kind: 'none' };
  const name = target.name;
  if ((name === 'VMAP' && opt(target, 'selector')) || (name === 'NUMGEN' && opt(target, 'mod')))
    return compileVerdictMap(target, objectNamed);
  switch (name) {
    case 'ACCEPT':
      return { kind: 'accept', name };
    case 'DROP':
      return { kind: 'drop', name };
    case 'QUEUE':
    case 'NFQUEUE':
      return { kind: 'queue', name };
    case 'RETURN':
      return { kind: 'return', name };
    case 'REJECT':
      return { kind: 'reject', with: opt(target, 'reject-with')?.values[0] };
  }
  if (chainExists(name)) return { kind: 'chain', name, goto: target.kind === 'goto' };
  switch (name) {
    case 'DNAT': {
      const o = opt(target, 'to-destination', 'to');
      const text = o?.values[0] ?? '';
      return { kind: 'dnat', to: parseNatTo(text, family), text };
    }
    case 'SNAT': {
      const o = opt(target, 'to-source', 'to');
      const text = o?.values[0] ?? '';
      return { kind: 'snat', to: parseNatTo(text, family), text };
    }
    case 'REDIRECT': {
      const text = opt(target, 'to-ports')?.values[0] ?? '';
      const port = text ? parseNatTo(`:${text.replace(/-.*/, '')}`, family)?.port : undefined;
      return { kind: 'redirect', port, text };
    }
    case 'MASQUERADE':
      return { kind: 'masquerade' };
    case 'MARK':
      return compileMark(target);
    case 'CONNMARK':
      return compileConnmark(target);
    case 'NOTRACK':
      return { kind: 'notrack', name };
    case 'CT':
      return opt(target, 'notrack') ? { kind: 'notrack', name } : { kind: 'noop', name };
    case 'TPROXY':
      return { kind: 'tproxy', name };
  }
  if (NOOP_TARGETS.has(name)) return { kind: 'noop', name };
  // Options after the name mean an extension target; a bare unknown name is most likely a missing chain.
  if (target.options.length > 0) return { kind: 'unknown-target', name };
  return { kind: 'undefined-chain', name };
}
