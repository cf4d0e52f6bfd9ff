import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hasKey, t } from '../../../src/core/i18n/catalog';
import { repoRoot } from '../../helpers/corpus';

const root = repoRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test("the extension's texts come from the catalog in the language setting, not from VS Code's display language", () => {
  // vscode.l10n follows VS Code's display language only; kubePacketPath.language must decide every text (uiLang).
  const used = new Set<string>();
  for (const f of sourceFiles(join(root, 'src', 'extension'))) {
    const text = readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /vscode\.l10n|\bl10n\.t\(/, f);
    for (const m of text.matchAll(/\btn?\(\s*[\w.()]+,\s*'([\w.-]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 50, `${used.size} catalog keys used by the extension`);
  assert.deepEqual(
    [...used].filter((k) => !hasKey(k)),
    [],
    'keys the catalog lacks',
  );
  assert.ok(!existsSync(join(root, 'l10n')), 'no vscode.l10n bundle is left to drift from the catalog');
  assert.equal(
    t('zh-CN', 'ui.detect.offer', { file: 'a.txt', name: t('zh-CN', 'ui.language.iptables') }),
    'a.txt 看起来是 iptables 转储。要以 iptables 转储打开吗？',
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
