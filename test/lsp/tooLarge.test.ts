/**
 * A document too large for the language server's worker: one error on its first line says so (in the person's
 * language), where V8 ended the worker with a crash and the document got no word; the document answers as an empty
 * one and the server goes on serving the others. The heap is made small (`--max-old-space-size`), not the text huge.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DidChangeConfigurationNotification, HoverRequest } from 'vscode-languageserver-protocol/node';
import { oneChainListing, seedDump } from '../helpers/dumps';
import { startSession } from './client';

const listing = oneChainListing(60_000);
const TOO_LARGE = {
  en: /^This document is too large for the language server: reading it used \d+ MB of memory, of the 96 MB its worker may use/,
  'zh-CN': /^此文档对语言服务器来说太大：读取它已用 \d+ MB 内存，而其 worker 最多可用 96 MB/,
};

for (const language of ['en', 'zh-CN'] as const) {
  test(`a listing too large for the worker's heap is one error that says so (${language}); the server serves on`, async () => {
    const s = await startSession({
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=96' },
      locale: language === 'zh-CN' ? 'zh-cn' : 'en',
    });
    try {
      const big = 'file:///work/one-chain.txt';
      const shown = s.waitDiagnostics(big, (p) => p.diagnostics.some((d) => d.code === 'document-too-large'));
      await s.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: big, languageId: 'iptables', version: 1, text: listing },
      });
      const { diagnostics } = await shown;
      assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
      const [d] = diagnostics;
      assert.equal(d.severity, 1);
      assert.deepEqual(d.range.start, { line: 0, character: 0 });
      assert.match(String(d.message), TOO_LARGE[language]);
      // A change of language says it again in the other language (it was lost: the empty document has no error).
      const other = language === 'en' ? 'zh-CN' : 'en';
      const again = s.waitDiagnostics(big, (p) => p.diagnostics.some((x) => TOO_LARGE[other].test(String(x.message))));
      s.settings.language = other;
      await s.connection.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { kubePacketPath: { language: other } },
      });
      assert.equal((await again).diagnostics.length, 1);
      // Nothing of it was read: a hover on a row answers nothing, and answers.
      assert.equal(
        await s.connection.sendRequest(HoverRequest.type, {
          textDocument: { uri: big },
          position: { line: 5, character: 10 },
        }),
        null,
      );
      // Another document is served as ever.
      const small = 'file:///work/seed.iptables';
      const seed = seedDump();
      await s.open(small, 'iptables', seed.text);
      const line = seed.lineOf('-A KUBE-SERVICES ');
      const hover = await s.connection.sendRequest(HoverRequest.type, {
        textDocument: { uri: small },
        position: { line, character: 4 },
      });
      assert.ok(hover, 'a hover on the small dump');
    } finally {
      await s.close();
    }
  });
}
