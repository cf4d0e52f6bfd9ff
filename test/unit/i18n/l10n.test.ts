import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../helpers/corpus';

const root = repoRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('every vscode.l10n.t string of the extension has a Simplified Chinese translation', () => {
  const used = new Set<string>();
  for (const f of sourceFiles(join(root, 'src', 'extension'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/l10n\.t\(\s*'((?:[^'\\]|\\.)+)'/g))
      used.add(m[1].replace(/\\'/g, "'"));
  }
  const bundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
    string,
    string
  >;
  assert.deepEqual(
    [...used].filter((k) => !(k in bundle)),
    [],
  );
  assert.deepEqual(
    Object.keys(bundle).filter((k) => !used.has(k)),
    [],
    'stale translations',
  );
});

test('package.nls files have the same keys and every %key% in package.json exists', () => {
  const en = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  const pkg = readFileSync(join(root, 'package.json'), 'utf8');
  const refs = [...pkg.matchAll(/"%([\w.]+)%"/g)].map((m) => m[1]);
  assert.ok(refs.length > 5);
  assert.deepEqual(
    refs.filter((k) => !(k in en)),
    [],
  );
});
