/**
 * No import cycles in src (#27): two modules that import each other, directly or around a loop, have a shared
 * part that belongs in a module of its own. Found from the import statements of every source file (type-only
 * imports count: they tie the files' meanings together just the same).
 * KNOWN lists the loops not yet broken; it may only shrink: a new loop fails, and so does a listed one that is gone.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import * as ts from 'typescript';
import { repoRoot } from '../../helpers/corpus';

const KNOWN: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The import graph of src: file -> the files it imports (relative imports only). */
function importGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const deps: string[] = [];
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const base = resolve(dirname(file), imported.fileName);
      const target = [`${base}.ts`, join(base, 'index.ts')].find(existsSync);
      if (target) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('src has no import cycles but the known ones, and every known one still exists', () => {
  const src = join(repoRoot(), 'src');
  const loops = cycles(importGraph(src)).map((c) => c.map((f) => relative(src, f)));
  const unknown = loops.filter((loop) => !KNOWN.some((k) => loop.includes(k)));
  assert.deepEqual(
    unknown.map((l) => l.join(' <-> ')),
    [],
    'new import cycles: move what both sides share into a module of its own',
  );
  const gone = KNOWN.filter((k) => !loops.some((loop) => loop.includes(k)));
  assert.deepEqual(gone, [], 'these cycles are broken now: take them off KNOWN');
});

test('the cycle finder finds a loop', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(cycles(g), [['a', 'b', 'c']]);
});
