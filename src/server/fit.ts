/**
 * The last line of defence before an answer leaves the server: what VS Code would reject or mis-render is fitted
 * into the document the editor holds now. Needed because requests are answered from the last complete analysis,
 * which may be of an older version of the text (ranges past the new end, tokens past a shortened line); for an
 * answer of the current version it changes nothing unless a feature has a bug, and then it says so (`fitted`).
 */
import type { FoldingRange, Position, Range } from 'vscode-languageserver';
import { countedEn } from '../core/i18n/english';
import type { LineShape } from './lineIndex';
import { METHODS } from './protocolNames';
import { throwIfCancelled } from './cancellation';

export interface Fitted<T> {
  value: T;
  /** What had to change, for the log (empty when the answer was already valid). */
  changes: string[];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isPosition = (x: unknown): x is Position =>
  isObject(x) && typeof x.line === 'number' && typeof x.character === 'number';
const isRange = (x: unknown): x is Range => isObject(x) && isPosition(x.start) && isPosition(x.end);
const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);

export function fitResponse(method: string, value: unknown, lines: LineShape): Fitted<unknown> {
  const changes: string[] = [];
  const note = (what: string) => {
    if (changes.length < 5) changes.push(what);
  };
  if (value === null || value === undefined) return { value, changes };
  switch (method) {
    case 'textDocument/hover': {
      const contents = (value as { contents?: { value?: string } | string }).contents;
      const text = typeof contents === 'string' ? contents : contents?.value;
      if (!text || !text.trim()) return { value: null, changes: ['empty hover'] };
      break;
    }
    case 'textDocument/semanticTokens/full':
    case 'textDocument/semanticTokens/range':
      return {
        value: { ...(value as object), data: fitTokens((value as { data: number[] }).data, lines, note) },
        changes,
      };
    case 'textDocument/foldingRange':
      return { value: fitFolds(value as FoldingRange[], lines, note), changes };
    case METHODS.tracePacket: {
      const r = value as { paths?: { steps?: { line: number }[] }[]; matchedLines?: number[] };
      const inside = (l: number) => l >= 0 && l < lines.lineCount;
      for (const p of r.paths ?? []) {
        for (const s of p.steps ?? []) {
          if (s.line === -1 || inside(s.line)) continue;
          s.line = -1;
          note('trace step line');
        }
      }
      const kept = r.matchedLines?.filter(inside);
      if (kept && kept.length !== r.matchedLines!.length) {
        r.matchedLines = kept;
        note('matched lines');
      }
      return { value: r, changes };
    }
    case METHODS.listTargets:
      for (const t of value as { line: number }[]) {
        if (t.line < lines.lineCount) continue;
        t.line = lines.lineCount - 1;
        note('target line');
      }
      return { value, changes };
    default:
      break;
  }
  return { value: fitRanges(value, lines, note), changes };
}

/** Every range and position in `x` moved inside the document; a selectionRange outside its range widens the range. */
function fitRanges(x: unknown, lines: LineShape, note: (what: string) => void): unknown {
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      throwIfCancelled();
      x[i] = fitRanges(x[i], lines, note);
    }
    return x;
  }
  if (!isObject(x)) return x;
  if (isRange(x)) {
    const r = lines.clampRange(x);
    if (r !== x) note(`range ${x.start.line}:${x.start.character}-${x.end.line}:${x.end.character}`);
    return before(r.start, r.end) ? r : { start: r.start, end: r.start };
  }
  for (const key of Object.keys(x)) {
    const v = x[key];
    if (key === 'position' && isPosition(v)) {
      const p = lines.clamp(v);
      if (p !== v) {
        x[key] = p;
        note(`position ${v.line}:${v.character}`);
      }
    } else if (key !== 'data' && key !== 'command' && typeof v === 'object') x[key] = fitRanges(v, lines, note);
  }
  if (isRange(x.range) && isRange(x.selectionRange)) {
    const r = x.range;
    const s = x.selectionRange;
    if (!(before(r.start, s.start) && before(s.end, r.end))) {
      note('selectionRange outside range');
      x.range = { start: before(r.start, s.start) ? r.start : s.start, end: before(s.end, r.end) ? r.end : s.end };
    }
  }
  return x;
}

/** Tokens inside their lines, in order, not overlapping, not splitting a surrogate pair; the rest dropped. */
function fitTokens(data: number[], lines: LineShape, note: (what: string) => void): number[] {
  const out: number[] = [];
  let line = 0;
  let char = 0;
  let outLine = 0;
  let outChar = 0;
  let prevEnd = -1;
  let prevLine = -1;
  for (let i = 0; i + 4 < data.length; i += 5) {
    throwIfCancelled();
    line += data[i];
    char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
    let length = data[i + 2];
    const lineLength = lines.lineLength(line);
    if (
      line >= lines.lineCount ||
      char >= lineLength ||
      (line === prevLine && char < prevEnd) ||
      length <= 0 ||
      lines.splitsSurrogate(line, char)
    ) {
      note(`token at ${line}:${char}`);
      continue;
    }
    if (char + length > lineLength) {
      note(`token at ${line}:${char} past its line`);
      length = lineLength - char;
    }
    if (lines.splitsSurrogate(line, char + length)) length--;
    if (length <= 0) continue;
    out.push(line - outLine, line === outLine ? char - outChar : char, length, data[i + 3], data[i + 4]);
    outLine = line;
    outChar = char;
    prevLine = line;
    prevEnd = char + length;
  }
  return out;
}

/** What VS Code keeps: ranges of at least two lines inside the document, nested or disjoint, one per first line. */
function fitFolds(folds: FoldingRange[], lines: LineShape, note: (what: string) => void): FoldingRange[] {
  const last = lines.lineCount - 1;
  const sorted = folds
    .map((f) => (f.endLine > last ? { ...f, endLine: last } : f))
    .filter((f) => f.startLine >= 0 && f.endLine > f.startLine)
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const out: FoldingRange[] = [];
  const open: FoldingRange[] = [];
  for (const f of sorted) {
    if (out.length && out[out.length - 1].startLine === f.startLine) continue;
    while (open.length && open[open.length - 1].endLine < f.startLine) open.pop();
    const parent = open[open.length - 1];
    if (parent && f.endLine > parent.endLine) continue;
    out.push(f);
    open.push(f);
  }
  if (out.length !== folds.length) note(countedEn(folds.length - out.length, 'folding range'));
  return out;
}
