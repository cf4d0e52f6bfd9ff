/**
 * Locates the repository root and the shared corpus of real dumps. Tests run both from TypeScript (tsx) and
 * compiled (out/), so paths are found by walking up to package.json rather than by counting `..`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function repoRoot(from: string = __dirname): string {
  let dir = resolve(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`package.json not found above ${from}`);
    dir = up;
  }
  return dir;
}

/** `../shared/corpus` beside the checkout, or `KPP_CORPUS` when set. Undefined when absent (as in a user's clone). */
export function corpusDir(): string | undefined {
  const dir = process.env.KPP_CORPUS ?? resolve(repoRoot(), '..', 'shared', 'corpus');
  return existsSync(dir) ? dir : undefined;
}

export const CORPUS_MISSING =
  'shared corpus not found (../shared/corpus beside the checkout; set KPP_CORPUS to use another path)';

export function corpusFiles(kind: 'iptables' | 'ipvs' | 'routes'): { name: string; path: string; text: string }[] {
  const dir = corpusDir();
  if (!dir) return [];
  const sub = join(dir, kind);
  if (!existsSync(sub)) return [];
  return readdirSync(sub)
    .filter((n) => n.endsWith('.txt'))
    .sort()
    .map((name) => ({ name, path: join(sub, name), text: readFileSync(join(sub, name), 'utf8') }));
}

export function corpusFile(kind: 'iptables' | 'ipvs' | 'routes', prefix: string): string | undefined {
  return corpusFiles(kind).find((f) => f.name.startsWith(prefix))?.text;
}
