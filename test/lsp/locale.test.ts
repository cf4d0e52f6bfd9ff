import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeConfigurationNotification,
  DocumentSymbolRequest,
  HoverRequest,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { seedDump } from '../helpers/dumps';
import { startSession } from './client';

test('Simplified Chinese from the client locale, English by setting', async () => {
  const seed = seedDump();
  const s = await startSession({ locale: 'zh-cn' });
  try {
    const uri = 'file:///work/zh.iptables';
    const d = await s.open(uri, 'iptables', `${seed.text}-A INPUT -j NOWHERE\n-A INPUT -m\n`);
    const line = seed.lineOf('-A PREROUTING');
    const h = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line, character: 4 },
    });
    assert.match((h!.contents as MarkupContent).value, /内置链 \*\*PREROUTING\*\*/);
    const undefinedChain = d.diagnostics.find((x) => x.code === 'undefined-chain');
    assert.match(String(undefinedChain!.message), /[\u4e00-\u9fff]/, 'diagnostics follow the language too');
    const parseProblem = d.diagnostics.find((x) => x.code === 'missing-module-name');
    assert.equal(parseProblem?.message, '-m 后面需要模块名。', 'parse problems too');
    s.settings.language = 'en';
    const republished = s.waitDiagnostics(uri, (p) =>
      p.diagnostics.some(
        (x) => x.code === 'undefined-chain' && /no chain of that name|does not contain/.test(String(x.message)),
      ),
    );
    await s.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { kubePacketPath: { language: 'en' } },
    });
    await republished;
    const en = await s.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line, character: 4 },
    });
    assert.match((en!.contents as MarkupContent).value, /Builtin chain \*\*PREROUTING\*\*/);
  } finally {
    await s.close();
  }
});

test('a language change registers the outline provider anew, so the editor asks for the symbols again at once', async () => {
  // LSP has no refresh request for document symbols; VS Code re-queries the outline when its providers change.
  const seed = seedDump();
  const s = await startSession({ documentSymbolDynamicRegistration: true });
  const symbols = async () =>
    JSON.stringify(
      await s.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: 'file:///work/o.iptables' } }),
    );
  try {
    assert.equal(s.capabilities.documentSymbolProvider, false, 'not declared statically: the server registers it');
    await s.open('file:///work/o.iptables', 'iptables', seed.text);
    await waitUntil(
      () => s.registrations.length > 0,
      () => 'no registration',
    );
    assert.deepEqual(s.registrations, ['register textDocument/documentSymbol']);
    assert.match(await symbols(), /\d+ rules/);
    const change = async (language: string) => {
      s.settings.language = language;
      await s.connection.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { kubePacketPath: { language } },
      });
    };
    await change('zh-CN');
    await waitUntil(
      () => s.registrations.length === 3,
      () => s.registrations.join(', '),
    );
    assert.deepEqual(s.registrations.slice(1), [
      'unregister textDocument/documentSymbol',
      'register textDocument/documentSymbol',
    ]);
    assert.match(await symbols(), /\d+ 条规则/, 'asked again, the outline is Chinese');
    // The same language again, then English at once: one registration for English, none for the repeat.
    await change('zh-CN');
    await change('en');
    await waitUntil(
      () => s.registrations.length >= 5,
      () => s.registrations.join(', '),
    );
    assert.match(await symbols(), /\d+ rules/);
    assert.equal(s.registrations.length, 5, s.registrations.join(', '));
  } finally {
    await s.close();
  }
});

test('a client that cannot register capabilities gets the outline provider declared statically', async () => {
  const s = await startSession();
  try {
    assert.equal(s.capabilities.documentSymbolProvider, true);
    assert.deepEqual(s.registrations, []);
  } finally {
    await s.close();
  }
});

async function waitUntil(done: () => boolean, state: () => string, timeoutMs = 20_000): Promise<void> {
  for (const start = Date.now(); !done(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() - start > timeoutMs) throw new Error(`timed out: ${state()}`);
}
