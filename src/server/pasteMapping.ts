/**
 * A document whose engine lines are not its own (a kube-proxy log line carrying a whole dump, see
 * core/common/pastePositions.ts): each request's positions are moved into the engine's lines before a feature
 * answers it, and every position of the answer back into the document's, so the features need not know.
 */
import type { PastePositions } from '../core/common/pastePositions';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
interface Position {
  line: number;
  character: number;
}
const isPosition = (x: unknown): x is Position =>
  isObject(x) && typeof x.line === 'number' && typeof x.character === 'number';

type Move = (p: Position) => Position;

const toEngine =
  (map: PastePositions): Move =>
  (p) => {
    const e = map.toEngine(p.line, p.character);
    return { line: e.line, character: e.column };
  };
const toDocument =
  (map: PastePositions): Move =>
  (p) => {
    const d = map.toOriginal(p.line, p.character);
    return { line: d.line, character: d.column };
  };

/** Every position in `x` (ranges, `position`, call hierarchy items) moved; a new value, `x` is left as it was. */
function movePositions(x: unknown, move: Move): unknown {
  if (Array.isArray(x)) return x.map((v) => movePositions(v, move));
  if (!isObject(x)) return x;
  if (isPosition(x)) return move(x);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(x)) out[key] = key === 'data' ? v : movePositions(v, move);
  return out;
}

/** The request's positions in the engine's lines (`params` itself when the document has no map). */
export function paramsToEngine(params: unknown, map: PastePositions | undefined): unknown {
  return map ? movePositions(params, toEngine(map)) : params;
}

/** The answer's positions in the document's lines (`result` itself when the document has no map). */
export function resultToDocument(method: string, result: unknown, map: PastePositions | undefined): unknown {
  if (!map || result === null || result === undefined) return result;
  const line = (l: number) => (l >= 0 ? map.lineToOriginal(l) : l);
  switch (method) {
    case 'textDocument/semanticTokens/full':
    case 'textDocument/semanticTokens/range':
      return { ...(result as object), data: moveTokens((result as { data: number[] }).data, map) };
    case 'textDocument/foldingRange':
      // A fold of lines that share one line of the document folds nothing there.
      return (result as { startLine: number; endLine: number }[])
        .map((f) => ({ ...f, startLine: line(f.startLine), endLine: line(f.endLine) }))
        .filter((f) => f.endLine > f.startLine);
    case 'kubePacketPath/tracePacket': {
      const r = result as {
        paths?: { steps?: TraceStep[] }[];
        sharedSteps?: TraceStep[];
        matchedLines?: number[];
      };
      const step = (s: TraceStep): TraceStep => ({
        ...s,
        line: line(s.line),
        ...(s.skipped ? { skipped: { ...s.skipped, lastLine: line(s.skipped.lastLine) } } : {}),
      });
      return {
        ...r,
        ...(r.paths ? { paths: r.paths.map((p) => ({ ...p, ...(p.steps ? { steps: p.steps.map(step) } : {}) })) } : {}),
        ...(r.sharedSteps ? { sharedSteps: r.sharedSteps.map(step) } : {}),
        ...(r.matchedLines ? { matchedLines: [...new Set(r.matchedLines.map(line))] } : {}),
      };
    }
    case 'kubePacketPath/listTargets':
      return (result as { line: number }[]).map((t) => ({ ...t, line: line(t.line) }));
    case 'textDocument/codeLens':
      return (movePositions(result, toDocument(map)) as CodeLens[]).map((lens) => {
        // A lens that asks for references passes the chain's engine position along: the editor's, too.
        const args = lens.command?.arguments;
        if (!args || args.length !== 3 || typeof args[1] !== 'number' || typeof args[2] !== 'number') return lens;
        const p = map.toOriginal(args[1], args[2]);
        return { ...lens, command: { ...lens.command!, arguments: [args[0], p.line, p.column] } };
      });
    default:
      return movePositions(result, toDocument(map));
  }
}

interface TraceStep {
  line: number;
  skipped?: { count: number; lastLine: number };
}

interface CodeLens {
  command?: { title: string; command: string; arguments?: unknown[] };
}

/** Semantic tokens (relative encoding) moved into the document's lines, in its order. */
function moveTokens(data: number[], map: PastePositions): number[] {
  const tokens: [number, number, number, number, number][] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    line += data[i];
    char = data[i] === 0 ? char + data[i + 1] : data[i + 1];
    const start = map.toOriginal(line, char);
    const end = map.toOriginal(line, char + data[i + 2]);
    // A token stays on one line of the document: the engine's lines are runs of one document line.
    if (end.line !== start.line) continue;
    tokens.push([start.line, start.column, end.column - start.column, data[i + 3], data[i + 4]]);
  }
  tokens.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  for (const [l, c, length, type, modifiers] of tokens) {
    out.push(l - prevLine, l === prevLine ? c - prevChar : c, length, type, modifiers);
    prevLine = l;
    prevChar = c;
  }
  return out;
}
