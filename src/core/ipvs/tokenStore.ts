/**
 * The tokens of an ipvsadm dump, kept in columns rather than one object each: a 10,000-Service `ipvsadm -Ln` has
 * ~390,000 tokens, and as objects (with their spans) they were two thirds of the parse's heap and most of its
 * garbage-collector time. A token becomes an `IpvsToken` object only when asked for (a hover, the colours of a
 * range). After `seal()` the tokens are in document order and found by line without a search.
 */
import type { Span } from '../common/diagnostics';
import type { EndpointRole, IpvsToken, IpvsTokenKind } from './tokenTypes';

type TokenExtra = Omit<IpvsToken, 'kind' | 'text' | 'span'>;

/** Every kind, in a fixed order: a token's kind is stored as its index here. */
const KINDS: readonly IpvsTokenKind[] = [
  'prompt',
  'command',
  'comment',
  'ellipsis',
  'header',
  'columnHeader',
  'protocol',
  'address',
  'port',
  'fwmark',
  'family',
  'scheduler',
  'flag',
  'keyword',
  'persistentTimeout',
  'netmask',
  'pe',
  'arrow',
  'forward',
  'weight',
  'activeConn',
  'inactConn',
  'persistConn',
  'counter',
  'threshold',
  'expire',
  'state',
  'timeout',
  'option',
  'daemon',
  'error',
];
const KIND_INDEX = new Map(KINDS.map((k, i) => [k, i]));
/** Index 0 is "no role". */
const ROLES: readonly (EndpointRole | undefined)[] = [undefined, 'service', 'real', 'source', 'virtual', 'destination'];
const ROLE_INDEX = new Map(ROLES.map((r, i) => [r, i]));
const NONE = -1;

export class IpvsTokens implements Iterable<IpvsToken> {
  private count = 0;
  private kinds = new Uint8Array(256);
  private roles = new Uint8Array(256);
  /** Index into `columnNames` plus one; 0: no column name. */
  private columnOf = new Uint16Array(256);
  private lines = new Int32Array(256);
  private columns = new Int32Array(256);
  private lengths = new Int32Array(256);
  private services = new Int32Array(256).fill(NONE);
  private realServers = new Int32Array(256).fill(NONE);
  private orphans = new Int32Array(256).fill(NONE);
  private connections = new Int32Array(256).fill(NONE);
  private texts: string[] = [];
  private readonly columnNames: string[] = [];
  private readonly columnIndex = new Map<string, number>();
  /**
   * After `seal`, when the tokens were not pushed in document order: the `i`th token in document order is stored
   * at `order[i]` (moving ten columns cost more than looking through this).
   */
  private order: Int32Array | undefined;
  /** After `seal`: the first token of line `l` is `lineStarts[l]`, its last before `lineStarts[l + 1]`. */
  private lineStarts: Int32Array | undefined;

  get length(): number {
    return this.count;
  }

  push(kind: IpvsTokenKind, text: string, span: Span, extra: TokenExtra = {}): void {
    if (this.count === this.kinds.length) this.grow();
    const i = this.count++;
    this.kinds[i] = KIND_INDEX.get(kind)!;
    this.texts.push(text);
    this.lines[i] = span.line;
    this.columns[i] = span.column;
    this.lengths[i] = span.length;
    if (extra.role !== undefined) this.roles[i] = ROLE_INDEX.get(extra.role)!;
    if (extra.column !== undefined) this.columnOf[i] = this.columnNameIndex(extra.column) + 1;
    if (extra.service !== undefined) this.services[i] = extra.service;
    if (extra.realServer !== undefined) this.realServers[i] = extra.realServer;
    if (extra.orphan !== undefined) this.orphans[i] = extra.orphan;
    if (extra.connection !== undefined) this.connections[i] = extra.connection;
  }

  /** Token `i` (in document order once sealed) as an object (a new one each time: changing it changes nothing). */
  at(index: number): IpvsToken {
    const i = this.slot(index);
    const tok: IpvsToken = {
      kind: KINDS[this.kinds[i]],
      text: this.texts[i],
      span: { line: this.lines[i], column: this.columns[i], length: this.lengths[i] },
    };
    const column = this.columnOf[i];
    if (column !== 0) tok.column = this.columnNames[column - 1];
    const role = ROLES[this.roles[i]];
    if (role !== undefined) tok.role = role;
    if (this.services[i] !== NONE) tok.service = this.services[i];
    if (this.realServers[i] !== NONE) tok.realServer = this.realServers[i];
    if (this.orphans[i] !== NONE) tok.orphan = this.orphans[i];
    if (this.connections[i] !== NONE) tok.connection = this.connections[i];
    return tok;
  }

  *[Symbol.iterator](): Iterator<IpvsToken> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }

  /** Every token, as objects. */
  all(): IpvsToken[] {
    const out: IpvsToken[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.at(i));
    return out;
  }

  /** The tokens on 0-based line `line`, in order. */
  onLine(line: number): IpvsToken[] {
    const out: IpvsToken[] = [];
    const [from, to] = this.lineRange(line, line);
    for (let i = from; i < to; i++) out.push(this.at(i));
    return out;
  }

  /** Indexes (for `at`) of the tokens on lines `first`..`last`: [from, to). */
  lineRange(first: number, last: number): [number, number] {
    const starts = this.lineStarts;
    if (!starts) throw new Error('IpvsTokens: seal() first');
    const clamp = (l: number) => Math.max(0, Math.min(l, starts.length - 1));
    return [starts[clamp(first)], starts[clamp(last + 1)]];
  }

  /** The service and real server token `i` refers to (undefined: none). */
  ownerOf(index: number): { service?: number; realServer?: number } {
    const i = this.slot(index);
    const service = this.services[i];
    const realServer = this.realServers[i];
    return {
      ...(service !== NONE ? { service } : {}),
      ...(realServer !== NONE ? { realServer } : {}),
    };
  }

  /** Sets (or, with undefined, clears) the service and real server token `i` refers to. */
  setOwner(index: number, service: number | undefined, realServer: number | undefined): void {
    const i = this.slot(index);
    this.services[i] = service ?? NONE;
    this.realServers[i] = realServer ?? NONE;
  }

  /** Puts the tokens in document order (line, then column; ties keep their order) and indexes them by line. */
  seal(lineCount: number): void {
    const n = this.count;
    this.order = this.documentOrder();
    const lineOf = (t: number) => this.lines[this.slot(t)];
    const lines = Math.max(lineCount, n > 0 ? lineOf(n - 1) + 1 : 0);
    const starts = new Int32Array(lines + 1);
    let t = 0;
    for (let l = 0; l <= lines; l++) {
      while (t < n && lineOf(t) < l) t++;
      starts[l] = t;
    }
    this.lineStarts = starts;
  }

  /**
   * The order that puts the tokens in document order, or undefined when they are in it. A line's tokens are pushed
   * together, in the order they were read (the options of an `ipvsadm -S` line in any order): each line is sorted
   * by itself, and the whole only when lines came out of order.
   */
  private documentOrder(): Int32Array | undefined {
    const n = this.count;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    let moved = false;
    for (let start = 0; start < n;) {
      let end = start + 1;
      let sorted = true;
      while (end < n && this.lines[end] === this.lines[start]) {
        sorted &&= this.columns[end - 1] <= this.columns[end];
        end++;
      }
      if (end < n && this.lines[end] < this.lines[start]) {
        return Int32Array.from([...order].sort((a, b) => this.compare(a, b) || a - b));
      }
      if (!sorted) {
        this.sortByColumn(order, start, end);
        moved = true;
      }
      start = end;
    }
    return moved ? order : undefined;
  }

  /**
   * Sorts `order[start..end)`, one line's tokens, by column, ties in push order. An insertion sort: a line has a
   * handful of tokens, and a typed array's sort with a comparator cost 0.9 s on 60,000 lines.
   */
  private sortByColumn(order: Int32Array, start: number, end: number): void {
    const columns = this.columns;
    for (let i = start + 1; i < end; i++) {
      const token = order[i];
      const column = columns[token];
      let j = i - 1;
      while (j >= start && columns[order[j]] > column) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = token;
    }
  }

  private slot(index: number): number {
    return this.order ? this.order[index] : index;
  }

  private compare(a: number, b: number): number {
    return this.lines[a] - this.lines[b] || this.columns[a] - this.columns[b];
  }

  private columnNameIndex(name: string): number {
    let index = this.columnIndex.get(name);
    if (index === undefined) {
      index = this.columnNames.push(name) - 1;
      this.columnIndex.set(name, index);
    }
    return index;
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    const grown = <T extends Uint8Array | Uint16Array | Int32Array>(a: T, fill?: number): T => {
      const out = new (a.constructor as new (n: number) => T)(size);
      if (fill !== undefined) out.fill(fill, a.length);
      out.set(a);
      return out;
    };
    this.kinds = grown(this.kinds);
    this.roles = grown(this.roles);
    this.columnOf = grown(this.columnOf);
    this.lines = grown(this.lines);
    this.columns = grown(this.columns);
    this.lengths = grown(this.lengths);
    this.services = grown(this.services, NONE);
    this.realServers = grown(this.realServers, NONE);
    this.orphans = grown(this.orphans, NONE);
    this.connections = grown(this.connections, NONE);
  }
}
