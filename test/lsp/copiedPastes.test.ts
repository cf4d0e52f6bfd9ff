/**
 * A double-spaced paste and a terminal-coloured one, opened in the real server: hovers, definitions and symbols
 * asked and answered on the text the editor holds (its lines, its columns past the colour sequences).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { seedDump } from '../helpers/dumps';
import { startSession, type LspSession } from './client';

const SAVE = seedDump(['172.18.0.2:6443'], 'default/kubernetes:https', '10.96.0.1').text;
const DOUBLED = SAVE.replace(/\n/g, '\n\n');
const COLOURED = SAVE.replace(/KUBE-SVC-/g, '\x1b[01;31m\x1b[KKUBE-SVC-\x1b[m\x1b[K');
let s: LspSession;

before(async () => {
  s = await startSession();
});
after(async () => {
  await s.close();
});

async function jumpAndDeclaration(uri: string, text: string) {
  const published = await s.open(uri, 'iptables', text);
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.startsWith('-A KUBE-SERVICES') && l.includes('-j '));
  const character = lines[line].lastIndexOf('KUBE-SVC-') + 2;
  const position = { line, character };
  const hover = await s.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  const def = (await s.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position })) as
    Location[] | Location;
  const [target] = Array.isArray(def) ? def : [def];
  const textAt = (r: Range) => lines[r.start.line].slice(r.start.character, r.end.character);
  const symbols = (await s.connection.sendRequest(DocumentSymbolRequest.type, {
    textDocument: { uri },
  })) as DocumentSymbol[];
  return { published, hover: (hover?.contents as MarkupContent).value, declared: textAt(target.range), symbols, lines };
}

test('a double-spaced paste: a hover and a definition on the paste’s lines, nothing on the added blank lines', async () => {
  const r = await jumpAndDeclaration('file:///work/from-mail.txt', DOUBLED);
  assert.match(r.hover, /default\/kubernetes/);
  assert.match(r.declared, /^:?KUBE-SVC-\w+$/);
  for (const d of r.published.diagnostics) assert.notEqual(r.lines[d.range.start.line].trim(), '', String(d.code));
  assert.ok(r.published.diagnostics.some((d) => d.code === 'double-spaced-paste'));
});

test('a coloured paste: a hover and a definition on the text’s own columns, past the colour sequences', async () => {
  const r = await jumpAndDeclaration('file:///work/grep-color.txt', COLOURED);
  assert.match(r.hover, /default\/kubernetes/);
  // The name's range in the text holds the sequences inside it too.
  assert.ok(r.declared.startsWith('\x1b['), JSON.stringify(r.declared));
  assert.match(r.declared.replace(/\x1b\[[\d;]*[A-Za-z]/g, ''), /^KUBE-SVC-\w+$/);
  assert.ok(r.published.diagnostics.some((d) => d.code === 'terminal-escapes'));
  assert.ok(r.symbols.length > 0);
});
