// labelSelector and fieldSelector: parsing and matching, with the real server's semantics.
import type { KubeObject } from './types';

export class SelectorError extends Error {}

export type LabelRequirement =
  | { key: string; op: 'exists' | 'doesnotexist' }
  /** `=`/`==` parse as `in` with one value, `!=` as `notin` with one value (absent keys match notin). */
  | { key: string; op: 'in' | 'notin'; values: string[] };

const namePart = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/;

function checkKey(key: string): void {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (!namePart.test(name) || (prefix !== undefined && !dnsSubdomain.test(prefix))) {
    throw new SelectorError(`unable to parse requirement: invalid label key "${key}"`);
  }
}

function checkValue(value: string): void {
  if (value !== '' && !namePart.test(value))
    throw new SelectorError(`unable to parse requirement: invalid label value: "${value}"`);
}

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  skipSpaces(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
  atEnd(): boolean {
    return this.pos >= this.text.length;
  }
  peek(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }
  take(pattern: RegExp): string {
    const start = this.pos;
    while (this.pos < this.text.length && pattern.test(this.text[this.pos])) this.pos++;
    return this.text.slice(start, this.pos);
  }
  expect(s: string): void {
    if (!this.peek(s))
      throw new SelectorError(`unable to parse requirement: expected "${s}" at position ${this.pos} in "${this.text}"`);
    this.pos += s.length;
  }
}

const wordChar = /[A-Za-z0-9._/-]/;

function parseValueSet(c: Cursor): string[] {
  c.skipSpaces();
  c.expect('(');
  const values: string[] = [];
  for (;;) {
    c.skipSpaces();
    const v = c.take(wordChar);
    checkValue(v);
    values.push(v);
    c.skipSpaces();
    if (c.peek(')')) break;
    c.expect(',');
  }
  c.expect(')');
  if (values.length === 1 && values[0] === '')
    throw new SelectorError("unable to parse requirement: for 'in', 'notin' operators, values set can't be empty");
  return values;
}

function parseRequirement(c: Cursor): LabelRequirement {
  c.skipSpaces();
  if (c.peek('!') && !c.peek('!=')) {
    c.pos++;
    c.skipSpaces();
    const key = c.take(wordChar);
    checkKey(key);
    return { key, op: 'doesnotexist' };
  }
  const key = c.take(wordChar);
  checkKey(key);
  c.skipSpaces();
  if (c.atEnd() || c.peek(',')) return { key, op: 'exists' };
  for (const [token, op] of [
    ['==', 'in'],
    ['!=', 'notin'],
    ['=', 'in'],
  ] as const) {
    if (c.peek(token)) {
      c.pos += token.length;
      c.skipSpaces();
      const value = c.take(wordChar);
      checkValue(value);
      return { key, op, values: [value] };
    }
  }
  const word = c.take(/[a-z]/);
  if (word === 'in' || word === 'notin') return { key, op: word, values: parseValueSet(c) };
  throw new SelectorError(
    `unable to parse requirement: found '${word || c.text[c.pos]}', expected: in, notin, =, ==, !=`,
  );
}

export function parseLabelSelector(text: string): LabelRequirement[] {
  const c = new Cursor(text);
  const reqs: LabelRequirement[] = [];
  c.skipSpaces();
  if (c.atEnd()) return reqs;
  for (;;) {
    reqs.push(parseRequirement(c));
    c.skipSpaces();
    if (c.atEnd()) return reqs;
    c.expect(',');
  }
}

export function matchesLabels(reqs: LabelRequirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'doesnotexist':
        return !has;
      case 'in':
        return has && r.values.includes(l[r.key]);
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
    }
  });
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** Splits on `sep` where not escaped by a backslash. */
function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && i + 1 < text.length) {
      current += text[i] + text[i + 1];
      i++;
    } else if (text[i] === sep) {
      parts.push(current);
      current = '';
    } else current += text[i];
  }
  parts.push(current);
  return parts;
}

function unescapeFieldValue(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

export function parseFieldSelector(text: string): FieldRequirement[] {
  if (!text.trim()) return [];
  return splitUnescaped(text, ',').map((term) => {
    const m = /^([^=!]+?)\s*(!=|==|=)(.*)$/.exec(term.trim());
    if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    return { field: m[1].trim(), op: m[2] === '!=' ? '!=' : '=', value: unescapeFieldValue(m[3]) };
  });
}

type FieldReader = (o: KubeObject) => string;

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const at = (o: KubeObject, section: string, key: string): string =>
  str((o[section] as Record<string, unknown> | undefined)?.[key]);

const commonFields: Record<string, FieldReader> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

/** The fields each kind can be selected by (a subset of the real server's, covering what the product uses). */
const fieldsByKind: Record<string, Record<string, FieldReader>> = {
  Pod: {
    'spec.nodeName': (o) => at(o, 'spec', 'nodeName'),
    'spec.restartPolicy': (o) => at(o, 'spec', 'restartPolicy'),
    'spec.schedulerName': (o) => at(o, 'spec', 'schedulerName'),
    'spec.serviceAccountName': (o) => at(o, 'spec', 'serviceAccountName'),
    'spec.hostNetwork': (o) => (at(o, 'spec', 'hostNetwork') === 'true' ? 'true' : 'false'),
    'status.phase': (o) => at(o, 'status', 'phase'),
    'status.podIP': (o) => at(o, 'status', 'podIP'),
    'status.nominatedNodeName': (o) => at(o, 'status', 'nominatedNodeName'),
  },
  Node: { 'spec.unschedulable': (o) => (at(o, 'spec', 'unschedulable') === 'true' ? 'true' : 'false') },
  Namespace: { 'status.phase': (o) => at(o, 'status', 'phase') },
};

/** Throws SelectorError for a field the kind cannot be selected by, as the real server does. */
export function checkFieldsSupported(kind: string, reqs: FieldRequirement[]): void {
  for (const r of reqs) {
    if (!commonFields[r.field] && !fieldsByKind[kind]?.[r.field])
      throw new SelectorError(`field label not supported: ${r.field}`);
  }
}

export function matchesFields(reqs: FieldRequirement[], o: KubeObject): boolean {
  return reqs.every((r) => {
    const read = commonFields[r.field] ?? fieldsByKind[o.kind]?.[r.field];
    const actual = read ? read(o) : '';
    return r.op === '=' ? actual === r.value : actual !== r.value;
  });
}

export interface Selection {
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

export function matchesSelection(sel: Selection, o: KubeObject): boolean {
  const labels = o.metadata.labels as Record<string, string> | undefined;
  return matchesLabels(sel.labels, labels) && matchesFields(sel.fields, o);
}
