/**
 * The first analysis worker starts with the server's process (main.ts), not once the editor has initialized: a
 * worker's start (its own Node environment and copy of the bundle) is then done while the server waits for the
 * editor, not waited for by the first document, whose didOpen follows `initialized` at once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { threadCount } from '../helpers/processes';
import { serverPath } from './client';

test('the server has its first worker thread when it answers initialize, and initialized starts no other', async () => {
  const child = spawn(process.execPath, [serverPath(), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const c = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  c.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
  });
  c.listen();
  try {
    await c.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {} });
    const atInitialize = threadCount(child.pid!);
    await c.sendNotification(InitializedNotification.type, {});
    // Answered after `initialized` was handled (messages are handled in order): the worker it wants is there.
    await c.sendRequest('kubePacketPath/detectLanguage', { text: '*nat\nCOMMIT\n' });
    assert.equal(threadCount(child.pid!), atInitialize, 'initialized started no worker: the first one runs already');
    // And that worker analyses the first document.
    await c.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: 'file:///w/first.iptables', languageId: 'iptables', version: 1, text: '*nat\n-A X -j Y\n' },
    });
    for (let waited = 0; published.length === 0 && waited < 20_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(published[0]?.uri, 'file:///w/first.iptables');
    assert.equal(threadCount(child.pid!), atInitialize, 'the first document took the first worker');
  } finally {
    await c.sendRequest(ShutdownRequest.type).catch(() => undefined);
    await c.sendNotification(ExitNotification.type).catch(() => undefined);
    c.dispose();
    setTimeout(() => child.kill(), 5000).unref();
  }
});
