/**
 * What VS Code rejects or mis-renders in a language server's answer, checked on every response the test client
 * receives: ranges inside the document, positions on UTF-16 boundaries, semantic tokens inside their lines and in
 * order, `selectionRange` inside `range` (document symbols, call hierarchy items), hovers with contents, folding
 * ranges VS Code keeps. A problem is a sentence naming the request and the offending part of the answer.
 */

/** LSP's line model: `\r\n`, `\n` and a lone `\r` each end a line. */
export function lspLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** The kind of invariant a problem breaks (the fuzzer counts failures by kind). */
export type ProblemKind =
  | 'range-outside-document'
  | 'inside-surrogate-pair'
  | 'inverted-range'
  | 'token-past-line-end'
  | 'token-overlap'
  | 'token-invalid'
  | 'selection-outside-range'
  | 'empty-hover'
  | 'folding-invalid'
  | 'folding-overlap'
  | 'malformed';

export interface Problem {
  kind: ProblemKind;
  message: string;
}

interface Position {
  line: number;
  character: number;
}
interface Range {
  start: Position;
  end: Position;
}

type Lines = (uri: string) => readonly string[] | undefined;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isPosition = (x: unknown): x is Position =>
  isObject(x) && Number.isInteger(x.line) && Number.isInteger(x.character);
const isRange = (x: unknown): x is Range => isObject(x) && isPosition(x.start) && isPosition(x.end);
const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
const show = (r: Range) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

class Checker {
  readonly problems: Problem[] = [];
  constructor(readonly method: string) {}

  add(kind: ProblemKind, message: string): void {
    if (this.problems.length < 20) this.problems.push({ kind, message: `${this.method}: ${message}` });
  }

  position(lines: readonly string[], p: unknown, what: string): boolean {
    if (!isPosition(p)) return (this.add('malformed', `${what} is not a position: ${JSON.stringify(p)}`), false);
    const text = lines[p.line];
    if (p.line < 0 || text === undefined || p.character < 0 || p.character > text.length) {
      this.add(
        'range-outside-document',
        `${what} ${p.line}:${p.character} is outside the document (${lines.length} lines${text === undefined ? '' : `, line ${p.line} has ${text.length} characters`})`,
      );
      return false;
    }
    if (p.character > 0 && p.character < text.length && isHighSurrogate(text.charCodeAt(p.character - 1))) {
      this.add('inside-surrogate-pair', `${what} ${p.line}:${p.character} splits a surrogate pair`);
      return false;
    }
    return true;
  }

  range(lines: readonly string[] | undefined, r: unknown, what: string): r is Range {
    if (!isRange(r)) return (this.add('malformed', `${what} is not a range: ${JSON.stringify(r)}`), false);
    if (!lines) return true;
    const ok = this.position(lines, r.start, `${what} start`) && this.position(lines, r.end, `${what} end`);
    if (ok && !before(r.start, r.end)) this.add('inverted-range', `${what} ${show(r)} ends before it starts`);
    return ok;
  }

  /** `inner` inside `outer` (what VS Code demands of a symbol's or call hierarchy item's selectionRange). */
  contains(outer: Range, inner: Range, what: string): void {
    if (!(before(outer.start, inner.start) && before(inner.end, outer.end)))
      this.add('selection-outside-range', `${what}: selectionRange ${show(inner)} is not inside range ${show(outer)}`);
  }

  location(l: unknown, lines: Lines, what: string): void {
    if (!isObject(l)) return this.add('malformed', `${what} is not a location`);
    if (typeof l.targetUri === 'string') {
      const doc = lines(l.targetUri);
      this.range(doc, l.targetRange, `${what} targetRange`);
      this.range(doc, l.targetSelectionRange, `${what} targetSelectionRange`);
      return;
    }
    if (typeof l.uri !== 'string') return this.add('malformed', `${what} has no uri`);
    this.range(lines(l.uri), l.range, `${what} range`);
  }

  symbol(lines: readonly string[] | undefined, s: unknown, path: string): void {
    if (!isObject(s) || typeof s.name !== 'string') return this.add('malformed', `${path} is not a symbol`);
    const where = `${path} "${s.name}"`;
    if (s.name.trim() === '') this.add('malformed', `${where} has an empty name`);
    const r = this.range(lines, s.range, `${where} range`);
    const sel = this.range(lines, s.selectionRange, `${where} selectionRange`);
    if (r && sel) this.contains(s.range as Range, s.selectionRange as Range, where);
    if (Array.isArray(s.children)) s.children.forEach((c, i) => this.symbol(lines, c, `${path}.${i}`));
  }

  callItem(it: unknown, lines: Lines, what: string): void {
    if (!isObject(it) || typeof it.uri !== 'string' || typeof it.name !== 'string')
      return this.add('malformed', `${what} is not a call hierarchy item`);
    const doc = lines(it.uri);
    const r = this.range(doc, it.range, `${what} "${it.name}" range`);
    const sel = this.range(doc, it.selectionRange, `${what} "${it.name}" selectionRange`);
    if (r && sel) this.contains(it.range as Range, it.selectionRange as Range, `${what} "${it.name}"`);
  }

  tokens(lines: readonly string[] | undefined, data: unknown, legendSize: number): void {
    if (!Array.isArray(data) || data.length % 5 !== 0)
      return this.add('malformed', 'semantic tokens data is not a multiple of 5 integers');
    if (!lines) return;
    let line = 0;
    let char = 0;
    let prevEnd = -1;
    for (let i = 0; i < data.length; i += 5) {
      const [dl, dc, len, type] = data.slice(i, i + 5) as number[];
      const n = i / 5;
      if (![dl, dc, len, type, data[i + 4]].every((x) => Number.isInteger(x) && x >= 0)) {
        this.add('token-invalid', `token ${n} has a negative or non-integer field: ${data.slice(i, i + 5).join(',')}`);
        return;
      }
      if (dl > 0) prevEnd = -1;
      line += dl;
      char = dl === 0 ? char + dc : dc;
      if (type >= legendSize) this.add('token-invalid', `token ${n} has type ${type}, the legend has ${legendSize}`);
      if (len === 0) this.add('token-invalid', `token ${n} at ${line}:${char} is empty`);
      const text = lines[line];
      if (text === undefined) {
        this.add('range-outside-document', `token ${n} is on line ${line}; the document has ${lines.length}`);
        return;
      }
      if (char + len > text.length)
        this.add(
          'token-past-line-end',
          `token ${n} at ${line}:${char} length ${len} runs past the end of its line (${text.length} characters)`,
        );
      if (char < prevEnd)
        this.add('token-overlap', `token ${n} at ${line}:${char} overlaps the one before (ending at ${prevEnd})`);
      for (const at of [char, char + len])
        if (at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)))
          this.add('inside-surrogate-pair', `token ${n} at ${line}:${char} length ${len} splits a surrogate pair`);
      prevEnd = char + len;
    }
  }

  folding(lines: readonly string[] | undefined, folds: unknown): void {
    if (!Array.isArray(folds)) return this.add('malformed', 'folding ranges are not an array');
    const valid: { start: number; end: number }[] = [];
    for (const f of folds) {
      if (!isObject(f) || !Number.isInteger(f.startLine) || !Number.isInteger(f.endLine)) {
        this.add('malformed', `folding range ${JSON.stringify(f)}`);
        continue;
      }
      const start = f.startLine as number;
      const end = f.endLine as number;
      if (start < 0 || end <= start || (lines && end >= lines.length)) {
        this.add(
          'folding-invalid',
          `folding range ${start}-${end} is empty, inverted or past the last line (${lines?.length ?? '?'} lines)`,
        );
        continue;
      }
      valid.push({ start, end });
    }
    // VS Code keeps nested or disjoint ranges with distinct first lines and drops the rest.
    valid.sort((a, b) => a.start - b.start || b.end - a.end);
    const open: { start: number; end: number }[] = [];
    for (let i = 0; i < valid.length; i++) {
      const f = valid[i];
      if (i > 0 && valid[i - 1].start === f.start) {
        this.add('folding-overlap', `two folding ranges start on line ${f.start}`);
        continue;
      }
      while (open.length && open[open.length - 1].end < f.start) open.pop();
      const parent = open[open.length - 1];
      if (parent && f.end > parent.end)
        this.add(
          'folding-overlap',
          `folding range ${f.start}-${f.end} overlaps ${parent.start}-${parent.end} without nesting`,
        );
      else open.push(f);
    }
  }
}

export interface ValidationContext {
  /** Lines of a document as the client holds it, by uri (undefined: not open; ranges are then not checked). */
  lines: Lines;
  /** Number of semantic token types in the server's legend. */
  tokenTypes: number;
}

/** Problems of the answer `result` to `method` with `params`; empty when VS Code would accept it. */
export function validateResponse(method: string, params: unknown, result: unknown, ctx: ValidationContext): Problem[] {
  const c = new Checker(method);
  const p = (isObject(params) ? params : {}) as {
    textDocument?: { uri?: string };
    item?: { uri?: string };
    uri?: string;
  };
  const uri = p.textDocument?.uri ?? p.item?.uri ?? p.uri;
  const lines = uri ? ctx.lines(uri) : undefined;
  if (result === null || result === undefined) return c.problems;
  switch (method) {
    case 'textDocument/hover': {
      const h = result as { contents?: unknown; range?: unknown };
      const contents = h.contents;
      const texts = Array.isArray(contents) ? contents : [contents];
      const text = texts
        .map((x) => (typeof x === 'string' ? x : isObject(x) && typeof x.value === 'string' ? x.value : ''))
        .join('');
      if (text.trim() === '') c.add('empty-hover', 'hover has empty contents (answer null instead)');
      if (h.range !== undefined) c.range(lines, h.range, 'hover range');
      break;
    }
    case 'textDocument/definition':
    case 'textDocument/references':
      (Array.isArray(result) ? result : [result]).forEach((l, i) => c.location(l, ctx.lines, `location ${i}`));
      break;
    case 'textDocument/documentSymbol':
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      result.forEach((s, i) =>
        isObject(s) && 'location' in s
          ? c.location(s.location, ctx.lines, `symbol ${i}`)
          : c.symbol(lines, s, `symbol ${i}`),
      );
      break;
    case 'workspace/symbol':
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      result.forEach((s, i) => c.location(isObject(s) ? s.location : undefined, ctx.lines, `symbol ${i}`));
      break;
    case 'textDocument/foldingRange':
      c.folding(lines, result);
      break;
    case 'textDocument/codeLens':
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      result.forEach((l, i) => c.range(lines, isObject(l) ? l.range : undefined, `lens ${i}`));
      break;
    case 'textDocument/inlayHint':
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      result.forEach((h, i) => {
        if (lines) c.position(lines, isObject(h) ? h.position : undefined, `hint ${i}`);
        const label = isObject(h) ? h.label : undefined;
        if (typeof label === 'string' ? label.trim() === '' : !Array.isArray(label) || label.length === 0)
          c.add('malformed', `hint ${i} has an empty label`);
      });
      break;
    case 'textDocument/semanticTokens/full':
    case 'textDocument/semanticTokens/range':
      c.tokens(lines, (result as { data?: unknown }).data, ctx.tokenTypes);
      break;
    case 'textDocument/prepareCallHierarchy':
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      result.forEach((it, i) => c.callItem(it, ctx.lines, `item ${i}`));
      break;
    case 'callHierarchy/incomingCalls':
    case 'callHierarchy/outgoingCalls': {
      if (!Array.isArray(result)) return (c.add('malformed', 'not an array'), c.problems);
      const incoming = method === 'callHierarchy/incomingCalls';
      result.forEach((call, i) => {
        const it = isObject(call) ? (incoming ? call.from : call.to) : undefined;
        c.callItem(it, ctx.lines, `call ${i}`);
        // fromRanges are in the caller's document: the item's for incoming calls, the asked item's for outgoing.
        const callerUri = incoming ? (isObject(it) ? (it.uri as string) : undefined) : uri;
        const ranges = isObject(call) && Array.isArray(call.fromRanges) ? call.fromRanges : [];
        ranges.forEach((r, k) => c.range(callerUri ? ctx.lines(callerUri) : undefined, r, `call ${i} fromRange ${k}`));
      });
      break;
    }
    case 'kubePacketPath/tracePacket': {
      const r = result as { paths?: { steps?: { line: number }[] }[]; matchedLines?: number[] };
      const ok = (l: number) => l === -1 || !lines || (Number.isInteger(l) && l >= 0 && l < lines.length);
      for (const path of r.paths ?? [])
        for (const s of path.steps ?? [])
          if (!ok(s.line)) c.add('range-outside-document', `trace step line ${s.line} is outside the document`);
      for (const l of r.matchedLines ?? [])
        if (!ok(l) || l === -1) c.add('range-outside-document', `matched line ${l} is outside the document`);
      break;
    }
    case 'kubePacketPath/detectLanguage': {
      const r = result as { kind?: unknown; confidence?: unknown; languageId?: unknown; certainty?: unknown } | null;
      if (!isObject(r) || !['iptables', 'ipvs', 'network', 'nft', 'unknown'].includes(r.kind as string))
        c.add('malformed', `detection kind ${JSON.stringify(r?.kind)}`);
      else if (typeof r.confidence !== 'number' || !(r.confidence >= 0 && r.confidence <= 1))
        c.add('malformed', `detection confidence ${String(r.confidence)} is not 0..1`);
      else if (!['sure', 'likely', 'no'].includes(r.certainty as string))
        c.add('malformed', `detection certainty ${String(r.certainty)}`);
      else if (r.certainty !== 'no' && typeof r.languageId !== 'string')
        c.add('malformed', 'a detection to act on names no language');
      break;
    }
    case 'kubePacketPath/listTargets':
      for (const t of (result as { line: number }[]) ?? [])
        if (lines && !(t.line >= 0 && t.line < lines.length))
          c.add('range-outside-document', `target line ${t.line} is outside the document`);
      break;
    default:
      break;
  }
  return c.problems;
}
