import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DidChangeConfigurationNotification,
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
