/**
 * The parser's chain records. A big dump declares 60,000 chains, each with a position and `[0:0]` counters:
 * those numbers live in shared typed columns (one row per chain), and spans and counter objects are built
 * when read. A record keeps only what is not a number, so the collector has fewer fields to copy per chain.
 */
import type { Span } from '../common/diagnostics';
import type { Chain, Counters, Rule } from './dump';

// Int32 columns of a chain row.
const DECL_LINE = 0;
const DECL_COLUMN = 1;
const DECL_LENGTH = 2;
const COUNTER_LINE = 3;
const COUNTER_COLUMN = 4;
const COUNTER_LENGTH = 5;
const POLICY_LINE = 6;
const NAME_ID = 7;
/** Index in `tables`, shifted left one bit; the low bit says the chain is built in. */
const TABLE_BUILTIN = 8;
const INT_COLUMNS = 9;

/** The numbers of every chain of one dump, by row. */
export class ChainColumns {
  ints = new Int32Array(INT_COLUMNS * 1024);
  /** Packets and bytes (byte counts pass 2^31). */
  counts = new Float64Array(2 * 1024);
  rows = 0;
  /** Table names rows refer to by index (a dump has a handful). */
  readonly tables: string[] = [];
  private lastTable = -1;

  addRow(table: string, nameId: number, builtin: boolean): number {
    const k = this.rows++;
    if ((k + 1) * INT_COLUMNS > this.ints.length) {
      const ints = new Int32Array(this.ints.length * 2);
      ints.set(this.ints);
      this.ints = ints;
      const counts = new Float64Array(this.counts.length * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    const at = k * INT_COLUMNS;
    this.ints[at + DECL_LINE] = -1;
    this.ints[at + COUNTER_LINE] = -1;
    this.ints[at + POLICY_LINE] = -1;
    this.ints[at + NAME_ID] = nameId;
    this.ints[at + TABLE_BUILTIN] = (this.tableIndex(table) << 1) | (builtin ? 1 : 0);
    return k;
  }

  private tableIndex(name: string): number {
    // Chains come table by table: the last table asked is nearly always the one.
    if (this.lastTable >= 0 && this.tables[this.lastTable] === name) return this.lastTable;
    let i = this.tables.indexOf(name);
    if (i < 0) i = this.tables.push(name) - 1;
    return (this.lastTable = i);
  }
}

/**
 * A chain of the parser. Its numbers (and table, name id, built-in flag) are a row of the columns, so the record
 * is five fields for the collector to copy; its rule list is made when first asked for, as most chains get theirs
 * whole once their block is read (the parser's `settleFillingChain`).
 */
export class ChainRecord implements Chain {
  policy: string | undefined = undefined;
  private list: Rule[] | undefined = undefined;
  private readonly row: number;

  constructor(
    private readonly columns: ChainColumns,
    table: string,
    public name: string, // `-E` renames
    nameId: number,
    builtin: boolean,
  ) {
    this.row = columns.addRow(table, nameId, builtin);
  }

  get table(): string {
    return this.columns.tables[this.int(TABLE_BUILTIN) >> 1];
  }

  get builtin(): boolean {
    return (this.int(TABLE_BUILTIN) & 1) === 1;
  }

  get nameId(): number {
    return this.int(NAME_ID);
  }

  /** `-E` renames. */
  set nameId(id: number) {
    this.columns.ints[this.row * INT_COLUMNS + NAME_ID] = id;
  }

  get rules(): Rule[] {
    return (this.list ??= []);
  }

  set rules(rules: Rule[]) {
    this.list = rules;
  }

  private int(column: number): number {
    return this.columns.ints[this.row * INT_COLUMNS + column];
  }

  get policyLine(): number | undefined {
    const line = this.int(POLICY_LINE);
    return line < 0 ? undefined : line;
  }

  set policyLine(line: number | undefined) {
    this.columns.ints[this.row * INT_COLUMNS + POLICY_LINE] = line ?? -1;
  }

  get declSpan(): Span | undefined {
    const line = this.int(DECL_LINE);
    return line < 0 ? undefined : { line, column: this.int(DECL_COLUMN), length: this.int(DECL_LENGTH) };
  }

  set declSpan(span: Span | undefined) {
    if (span) this.declareAt(span.line, span.column, span.length);
    else this.declareAt(-1, 0, 0);
  }

  get counters(): Counters | undefined {
    const line = this.int(COUNTER_LINE);
    if (line < 0) return undefined;
    const c = this.columns.counts;
    return {
      packets: c[this.row * 2],
      bytes: c[this.row * 2 + 1],
      span: { line, column: this.int(COUNTER_COLUMN), length: this.int(COUNTER_LENGTH) },
    };
  }

  set counters(c: Counters | undefined) {
    if (c) this.countAt(c.packets, c.bytes, c.span.line, c.span.column, c.span.length);
    else this.countAt(0, 0, -1, 0, 0);
  }

  get declared(): boolean {
    return this.int(DECL_LINE) >= 0;
  }

  /** `declSpan = ...` without building the span. */
  declareAt(line: number, column: number, length: number): void {
    const at = this.row * INT_COLUMNS;
    const ints = this.columns.ints;
    ints[at + DECL_LINE] = line;
    ints[at + DECL_COLUMN] = column;
    ints[at + DECL_LENGTH] = length;
  }

  /** `counters = ...` without building the objects. */
  countAt(packets: number, bytes: number, line: number, column: number, length: number): void {
    const at = this.row * INT_COLUMNS;
    const ints = this.columns.ints;
    ints[at + COUNTER_LINE] = line;
    ints[at + COUNTER_COLUMN] = column;
    ints[at + COUNTER_LENGTH] = length;
    this.columns.counts[this.row * 2] = packets;
    this.columns.counts[this.row * 2 + 1] = bytes;
  }

  toJSON(): Chain {
    return {
      table: this.table,
      name: this.name,
      builtin: this.builtin,
      policy: this.policy,
      counters: this.counters,
      declSpan: this.declSpan,
      ...(this.policyLine !== undefined ? { policyLine: this.policyLine } : {}),
      rules: this.rules,
    };
  }
}
