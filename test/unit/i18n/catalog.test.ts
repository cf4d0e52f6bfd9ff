import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as ts from 'typescript';
import { analyzeText } from '../../../src/core/analyze';
import { catalogs, hasKey, normalizeLang, t, tn } from '../../../src/core/i18n/catalog';
import { explainAt } from '../../../src/core/iptables/explain';
import { repoRoot } from '../../helpers/corpus';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('every key exists in both languages with the same placeholders', () => {
  const en = Object.keys(catalogs.en).sort();
  const zh = Object.keys(catalogs['zh-CN']).sort();
  assert.deepEqual(
    zh.filter((k) => !en.includes(k)),
    [],
    'keys only in zh-CN',
  );
  // `.one` forms are English plurals (tn); Chinese has none and reads `.other`.
  assert.deepEqual(
    en.filter((k) => !zh.includes(k) && !(k.endsWith('.one') && zh.includes(k.replace(/\.one$/, '.other')))),
    [],
    'keys only in en',
  );
  for (const k of en.filter((k) => zh.includes(k))) {
    const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(ph(catalogs['zh-CN'][k]), ph(catalogs.en[k]), `placeholders of ${k}`);
  }
});

test('Chinese texts are Chinese', () => {
  // Templates made only of placeholders, names and symbols need no translation; English words do.
  const words = (v: string) => v.replace(/\{\w+\}|`[^`]*`|\*\*[^*]*\*\*|\b[A-Z][A-Za-z0-9_-]*\b/g, '');
  const notChinese = Object.entries(catalogs['zh-CN']).filter(
    ([, v]) => /[a-z]{4,}/.test(words(v)) && !/[\u4e00-\u9fff]/.test(v),
  );
  assert.deepEqual(
    notChinese.map(([k]) => k),
    [],
  );
});

test('locale normalisation and fallbacks', () => {
  assert.equal(normalizeLang('zh-cn'), 'zh-CN');
  assert.equal(normalizeLang('zh-Hans'), 'zh-CN');
  assert.equal(normalizeLang('en-US'), 'en');
  assert.equal(normalizeLang(undefined), 'en');
  assert.equal(t('en', 'no.such.key'), 'no.such.key');
  assert.equal(t('en', 'iptables.option.source', { value: '10.0.0.0/8' }), 'Source address **10.0.0.0/8**.');
});

test('counted texts: English singular and plural forms, no "(s)"; Chinese one form', () => {
  assert.equal(
    tn('en', 'trace.format.header', 1, { proto: 'tcp', src: 'a', dst: 'b', hook: 'prerouting' }),
    'tcp a -> b (hook prerouting): 1 path',
  );
  assert.equal(
    tn('en', 'trace.format.header', 2, { proto: 'tcp', src: 'a', dst: 'b', hook: 'prerouting' }),
    'tcp a -> b (hook prerouting): 2 paths',
  );
  assert.match(
    tn('zh-CN', 'trace.format.header', 1, { proto: 'tcp', src: 'a', dst: 'b', hook: 'prerouting' }),
    /1 条路径/,
  );
});

test('no English text counts with "(s)", "(es)" or "(ies)"', () => {
  const guessed = /[a-z]\((s|es|ies)\)/;
  assert.deepEqual(
    Object.entries(catalogs.en)
      .filter(([, v]) => guessed.test(v))
      .map(([k, v]) => `${k}: ${v}`),
    [],
  );
  // Texts outside the catalog (logs, `kpp parse`'s report, the CLI's own lines): every string literal of src.
  const literals: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  for (const file of sourceFiles(join(repoRoot(), 'src')))
    visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  assert.ok(literals.length > 1000, 'the literals of src were read');
  assert.deepEqual(
    literals.filter((l) => guessed.test(l)),
    [],
  );
});

test('a counted text is picked by its count through t() too, so generic message paths count', () => {
  const params = { chain: 'KUBE-SERVICES', position: 5, command: 'insert' };
  assert.match(t('en', 'parse.rule-number-out-of-range', { ...params, count: 1 }), /has 1 rule at this point/);
  assert.match(t('en', 'parse.rule-number-out-of-range', { ...params, count: 3 }), /has 3 rules at this point/);
  assert.match(t('zh-CN', 'parse.rule-number-out-of-range', { ...params, count: 1 }), /只有 1 条规则/);
  assert.equal(t('en', 'lint.summary.errors', { count: 0 }), '0 errors');
  assert.equal(hasKey('lint.summary.errors'), true);
  // A key is either a plain text or counted forms, never both (the plain one would win silently).
  const keys = Object.keys(catalogs.en);
  assert.deepEqual(
    keys.filter((k) => k.endsWith('.other') && keys.includes(k.slice(0, -'.other'.length))),
    [],
  );
});

test('hovers count in English plural forms: "4 rules; jumped to from 2 places", "1 rule", "3 endpoint chains"', () => {
  const text = [
    '*nat',
    ':PREROUTING ACCEPT [0:0]',
    ':OUTPUT ACCEPT [0:0]',
    ':X - [0:0]',
    '-A PREROUTING -j X',
    '-A OUTPUT -j X',
    '-A X -j RETURN',
    '-A X -s 10.0.0.1 -j RETURN',
    'COMMIT',
    '',
  ].join('\n');
  const model = analyzeText(text).iptables!;
  const decl = (lang: 'en' | 'zh-CN') => explainAt(model, 3, 2, lang)?.markdown ?? '';
  assert.match(decl('en'), /2 rules; jumped to from 2 places\./);
  assert.doesNotMatch(decl('en'), /\(s\)/);
  assert.match(decl('zh-CN'), /共 2 条规则；有 2 处跳转到这里。/);
});

test('an English text that counts a noun by {count} has counted forms, so a count of 1 reads "1 packet"', () => {
  const countsANoun = /\{count\} [a-z]+s\b/;
  const uncounted = Object.entries(catalogs.en)
    .filter(([key, v]) => !/\.(one|other)$/.test(key) && countsANoun.test(v))
    .map(([key]) => key);
  assert.deepEqual(uncounted, []);
  assert.match(
    t('en', 'diagnose.ev.counter', { node: 'n', chain: 'c', line: 1, target: 't', count: 1, after: 3 }),
    /: 1 packet before the probe, 3 after\./,
  );
});
