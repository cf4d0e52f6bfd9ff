/**
 * Deterministic mutations of real dumps for the fuzz suites (LSP, CLI, bench): the inputs that broke the server
 * and the CLI before (lone CR, NUL, lines over 10,000 characters, unbalanced quotes, words that name Object's
 * prototype, absurd numbers, truncated tables, chains declared with no rules, astral characters), applied at
 * random places chosen by a seeded generator so a failure is reproducible from its seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusFiles, repoRoot } from './corpus';
import { NFT_RULESET, seedDump, SESSION_PASTE } from './dumps';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

export interface FuzzSource {
  name: string;
  languageId: 'iptables' | 'ipvs';
  text: string;
}

/**
 * The project's samples and test dumps (`samples`), the shared corpus of real dumps (`corpus`, empty when it is
 * absent), or both (`all`, the default).
 */
export function fuzzSources(from: 'samples' | 'corpus' | 'all' = 'all'): FuzzSource[] {
  const out: FuzzSource[] = [];
  if (from !== 'corpus') out.push(...sampleSources());
  if (from !== 'samples') {
    for (const f of corpusFiles('iptables'))
      out.push({ name: `corpus/iptables/${f.name}`, languageId: 'iptables', text: f.text });
    for (const f of corpusFiles('ipvs')) out.push({ name: `corpus/ipvs/${f.name}`, languageId: 'ipvs', text: f.text });
    for (const f of corpusFiles('routes'))
      out.push({ name: `corpus/routes/${f.name}`, languageId: 'iptables', text: f.text });
  }
  return out;
}

function sampleSources(): FuzzSource[] {
  const samples = join(repoRoot(), 'samples');
  const out: FuzzSource[] = [
    { name: 'seed', languageId: 'iptables', text: seedDump().text },
    { name: 'nft-ruleset', languageId: 'iptables', text: NFT_RULESET },
    { name: 'session-paste', languageId: 'iptables', text: SESSION_PASTE },
  ];
  for (const n of readdirSync(samples).sort()) {
    if (n === 'README.md' || n.endsWith('.json')) continue;
    out.push({
      name: `samples/${n}`,
      languageId: n.endsWith('.ipvs') ? 'ipvs' : 'iptables',
      text: readFileSync(join(samples, n), 'utf8'),
    });
  }
  return out;
}

const PROTOTYPE_WORDS = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];
const ABSURD_NUMBERS = [
  '99999999999999999999999',
  '-1',
  '1e308',
  'NaN',
  'Infinity',
  '0x',
  '4294967296',
  '65536',
  '0.00000000001',
  '-0',
  '00000000000000000000000000001',
];
const ASTRAL = ['😀', '𝔘', '🚀', '\u{1F1E8}\u{1F1F3}'];

/** A fragment that a mutation inserts. */
function fragment(rng: Rng, near: string): string {
  switch (rng.int(12)) {
    case 0:
      return '\r';
    case 1:
      return '\u0000';
    case 2: {
      // A line over 10,000 characters: a rule with a huge comment, or a chain name repeated.
      const word = rng.pick([
        'KUBE-SVC-AAAAAAAAAAAAAAAA',
        'x',
        ' -m comment --comment "' + 'a'.repeat(50) + '"',
        near.slice(0, 40) || 'y',
      ]);
      return `\n-A KUBE-SERVICES ${word.repeat(Math.ceil((10_000 + rng.int(5_000)) / Math.max(1, word.length)))} -j KUBE-MARK-MASQ\n`;
    }
    case 3:
      return rng.pick(['"', "'", '"unterminated', ' --comment "a\\"b', '\\']);
    case 4:
      return rng.pick(PROTOTYPE_WORDS);
    case 5:
      return rng.pick(ABSURD_NUMBERS);
    case 6:
      return `\n:${rng.pick(['KUBE-KUBELET-CANARY', 'constructor', 'EMPTY', '__proto__'])} - [0:0]\n`;
    case 7:
      return rng.pick(ASTRAL);
    case 8:
      return rng.pick([
        '\n*nat\n',
        '\nCOMMIT\n',
        '\n*filter\n:INPUT ACCEPT [0:0]\n',
        '\n-A\n',
        '\n-A INPUT -m\n',
        '\n-A INPUT -j\n',
        '\n-E A B\n',
        '\n[1:2] -A X -j Y\n',
      ]);
    case 9:
      return rng.pick(['\t', '\r\n', '   ', '\n\n']);
    case 10:
      return (
        rng.pick([
          '-m statistic --mode random --probability ',
          '--to-destination ',
          '-j DNAT --to-destination 10.0.0.1:',
          '--dport ',
          ' -d 172.16.0.1/32 ',
        ]) + rng.pick(ABSURD_NUMBERS)
      );
    default:
      return rng.pick([
        'TCP  172.16.0.1:443 rr\n  -> 10.0.1.11:6443 Masq 1 0 0\n',
        'table ip nat {\n chain X {\n',
        '}\n',
        '$ ipvsadm -Ln\n',
        '# iptables-save\n',
        'default via 10.0.0.1 dev eth0\n',
      ]);
  }
}

/** One edit as LSP sends it (offsets into the old text) and the text after it. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** A random edit of `text`: an insertion of a hostile fragment, a deletion, a replaced word or a truncation. */
export function randomEdit(text: string, rng: Rng): Edit {
  const at = rng.int(text.length + 1);
  const kind = rng.int(10);
  if (kind < 5 || text.length === 0) return { start: at, end: at, text: fragment(rng, text.slice(at, at + 60)) };
  if (kind < 7) {
    // Delete a short run (maybe across lines, maybe half a CRLF or half a surrogate pair).
    return { start: at, end: Math.min(text.length, at + 1 + rng.int(rng.next() < 0.2 ? 400 : 12)), text: '' };
  }
  if (kind < 9) {
    // Replace the word at `at` with a prototype word or an absurd number.
    let s = at;
    let e = at;
    while (s > 0 && /\S/.test(text[s - 1])) s--;
    while (e < text.length && /\S/.test(text[e])) e++;
    return { start: s, end: e, text: rng.next() < 0.5 ? rng.pick(PROTOTYPE_WORDS) : rng.pick(ABSURD_NUMBERS) };
  }
  // Truncate: a table without COMMIT, a rule cut mid-word.
  return { start: at, end: text.length, text: '' };
}

export function applyEdit(text: string, e: Edit): string {
  return text.slice(0, e.start) + e.text + text.slice(e.end);
}

/** A dump with `n` random edits applied (n = 0 keeps it as it is). */
export function mutate(text: string, rng: Rng, n: number): string {
  let out = text;
  for (let i = 0; i < n; i++) out = applyEdit(out, randomEdit(out, rng));
  return out;
}
