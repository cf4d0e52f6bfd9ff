/**
 * The command ids and languages the code declares once (server/protocol.ts, core/languages.ts) are those
 * package.json contributes, activates on and names in its menus: a typo on either side fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DUMP_LANGUAGE_IDS, TRACE_LANGUAGE_IDS } from '../../../src/core/languages';
import { COMMANDS } from '../../../src/server/protocol';
import { repoRoot } from '../../helpers/corpus';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: { command: string }[];
    languages: { id: string }[];
    grammars: { language: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync(path.join(repoRoot(__dirname), 'package.json'), 'utf8')) as Manifest;
const declaredCommands = Object.values(COMMANDS);
const sorted = (xs: Iterable<string>) => [...xs].sort();

test('the declared commands are the contributed ones, each once', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command);
  assert.equal(new Set(contributed).size, contributed.length, 'a command is contributed twice');
  assert.equal(new Set(declaredCommands).size, declaredCommands.length, 'a command id is declared twice');
  assert.deepEqual(sorted(contributed), sorted(declaredCommands));
});

test('the extension activates on every declared command', () => {
  const onCommand = manifest.activationEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice(10));
  assert.deepEqual(sorted(onCommand), sorted(declaredCommands));
});

test('every menu entry names a declared command', () => {
  for (const [menu, entries] of Object.entries(manifest.contributes.menus))
    for (const e of entries)
      assert.ok((declaredCommands as readonly string[]).includes(e.command), `${menu}: ${e.command} is not declared`);
});

test('the declared languages are the contributed ones, with a grammar and an activation each', () => {
  assert.deepEqual(sorted(manifest.contributes.languages.map((l) => l.id)), sorted(DUMP_LANGUAGE_IDS));
  assert.deepEqual(sorted(manifest.contributes.grammars.map((g) => g.language)), sorted(DUMP_LANGUAGE_IDS));
  for (const id of DUMP_LANGUAGE_IDS) assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), id);
});

test('menus offer a trace in the traceable languages, and name no other language', () => {
  const languagesIn = (when = '') => [...when.matchAll(/editorLangId == ([\w-]+)/g)].map((m) => m[1]);
  for (const [menu, entries] of Object.entries(manifest.contributes.menus))
    for (const e of entries) {
      const named = languagesIn(e.when);
      for (const id of named) assert.ok((DUMP_LANGUAGE_IDS as readonly string[]).includes(id), `${menu}: ${id}`);
      if (e.command === COMMANDS.tracePacket && named.length > 0)
        assert.deepEqual(sorted(named), sorted(TRACE_LANGUAGE_IDS), `${menu}: ${e.when}`);
    }
});
