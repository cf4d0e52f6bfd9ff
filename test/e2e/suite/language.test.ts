// The real language client talks to the real language server inside VS Code: hovers, definitions, references,
// symbols, diagnostics and the "Trace Packet..." command on a dump opened from the workspace.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KubePacketPathApi } from '../../../src/extension/main';
import type { TracePacketResult } from '../../../src/server/protocol';
import { openSample, ourExtension, waitFor } from '../support/host';
import { SAMPLES } from '../support/samples';

/** Position of the `nth` occurrence of `needle` on the first line containing `lineText`. */
function positionOf(doc: vscode.TextDocument, lineText: string, needle: string): vscode.Position {
  for (let i = 0; i < doc.lineCount; i++) {
    const text = doc.lineAt(i).text;
    if (text.includes(lineText)) return new vscode.Position(i, text.indexOf(needle) + 1);
  }
  throw new Error(`no line contains ${lineText}`);
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
}

suite('language server', () => {
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    const editor = await openSample(SAMPLES.iptables);
    doc = editor.document;
    await waitFor('the extension to activate', () => ourExtension().isActive);
    // The server answers once it has started and parsed the document.
    await waitFor(
      'a hover from the language server',
      async () =>
        hoverText(
          await vscode.commands.executeCommand<vscode.Hover[]>(
            'vscode.executeHoverProvider',
            doc.uri,
            positionOf(doc, '-A KUBE-SERVICES -d 172.16.0.1/32', 'KUBE-SVC-'),
          ),
        ).includes('default/kubernetes'),
      60_000,
    );
  });

  test('hover on a Service jump names the Service and the verified hash', async () => {
    const pos = positionOf(doc, '-A KUBE-SERVICES -d 172.16.45.20/32', 'KUBE-SVC-');
    const text = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos),
    );
    assert.match(text, /load-balancing chain of Service \*\*demo\/web:http\*\*/);
    assert.match(text, /it matches/);
    assert.match(text, /TCP to 172\.16\.45\.20:80/);
  });

  test('hover on a probability explains the ladder share', async () => {
    const pos = positionOf(doc, '--probability 0.50000000000', '0.50000000000');
    const text = hoverText(
      await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos),
    );
    assert.match(text, /Rule 2 of 3 in this ladder/);
  });

  test('hover in Simplified Chinese when kubePacketPath.language is zh-CN, and back', async () => {
    const pos = positionOf(doc, '-A KUBE-SERVICES -d 172.16.45.20/32', 'KUBE-SVC-');
    const hover = async () =>
      hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos));
    const config = vscode.workspace.getConfiguration('kubePacketPath');
    await config.update('language', 'zh-CN', vscode.ConfigurationTarget.Global);
    try {
      const zh = await waitFor('a Chinese hover', async () => {
        const text = await hover();
        return /[\u4e00-\u9fff]/.test(text) ? text : undefined;
      });
      assert.match(zh, /demo\/web/);
    } finally {
      await config.update('language', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the English hover again', async () => /load-balancing chain of Service/.test(await hover()));
  });

  test('go to definition jumps from a jump target to the chain declaration', async () => {
    const pos = positionOf(doc, '-A KUBE-SERVICES -d 172.16.45.20/32', 'KUBE-SVC-');
    const locations = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      doc.uri,
      pos,
    );
    assert.equal(locations.length, 1);
    const loc = locations[0];
    const range = 'targetRange' in loc ? loc.targetRange : loc.range;
    assert.equal(doc.lineAt(range.start.line).text, ':KUBE-SVC-XRY76EGRC3BSCIIJ - [0:0]');
  });

  test('references list every jump to a chain', async () => {
    const pos = positionOf(doc, ':KUBE-MARK-MASQ', 'KUBE-MARK-MASQ');
    const refs = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      doc.uri,
      pos,
    );
    const jumps = refs.filter((r) => doc.lineAt(r.range.start.line).text.includes('-j KUBE-MARK-MASQ'));
    assert.equal(jumps.length, 6, 'two Service chains and four endpoint chains mark for masquerade');
  });

  test('the outline has the tables and a Services tree', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider',
      doc.uri,
    );
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['*filter', '*nat', 'Services'],
    );
    const services = symbols[2].children.map((s) => s.name).sort();
    assert.deepEqual(services, ['default/kubernetes', 'demo/web']);
  });

  test('diagnostics appear for a broken edit and go away when it is undone', async () => {
    const editor = await vscode.window.showTextDocument(doc);
    const line = positionOf(doc, '-A KUBE-SERVICES -d 172.16.45.20/32', 'KUBE-SVC-').line;
    await editor.edit((e) => e.insert(new vscode.Position(line + 1, 0), '-A KUBE-SERVICES -j KUBE-NOWHERE\n'));
    const found = await waitFor('an undefined-chain diagnostic', () =>
      vscode.languages.getDiagnostics(doc.uri).find((d) => d.code === 'undefined-chain'),
    );
    assert.equal(found.range.start.line, line + 1);
    assert.match(found.message, /KUBE-NOWHERE/);
    await vscode.commands.executeCommand('undo');
    await waitFor(
      'the diagnostic to clear',
      () => !vscode.languages.getDiagnostics(doc.uri).some((d) => d.code === 'undefined-chain'),
    );
  });

  test('Trace Packet... follows a pod packet to the web Service endpoints', async () => {
    const result = await vscode.commands.executeCommand<TracePacketResult>('kubePacketPath.tracePacket', {
      uri: doc.uri.toString(),
      src: '10.244.1.9',
      dst: '172.16.45.20:80',
    });
    assert.ok(result, 'the command returned a trace');
    const targets = result.paths.map((p) => `${p.dnat?.ip}:${p.dnat?.port}`).sort();
    assert.deepEqual(targets, ['10.244.1.5:8080', '10.244.2.7:8080', '10.244.3.9:8080']);
    for (const p of result.paths) assert.ok(Math.abs(p.probability - 1 / 3) < 1e-6, `probability ${p.probability}`);
    assert.ok(result.matchedLines.includes(positionOf(doc, '-A KUBE-SERVICES -d 172.16.45.20/32', 'KUBE').line));
    // The Packet Trace view shows it: one row per path, each naming its DNAT target.
    const { ctx } = (ourExtension() as vscode.Extension<KubePacketPathApi>).exports;
    assert.equal(ctx.traceView.lastResult, result);
    const rows = ctx.traceView.getChildren().map((n) => ctx.traceView.getTreeItem(n));
    const text = rows
      .map((r) => `${typeof r.label === 'string' ? r.label : (r.label?.label ?? '')} ${String(r.description ?? '')}`)
      .join('\n');
    for (const target of targets) assert.ok(text.includes(target), `the Packet Trace view names ${target}:\n${text}`);
  });

  test('Detect Dump Language sets the language of an untitled paste', async () => {
    const pasted = await vscode.workspace.openTextDocument({
      content: 'TCP  10.96.0.1:443 rr\n  -> 10.0.0.1:6443   Masq    1      0          0\n',
    });
    await vscode.window.showTextDocument(pasted);
    const language = await vscode.commands.executeCommand<string>('kubePacketPath.detectLanguage');
    assert.equal(language, 'ipvs');
    await waitFor(
      'the document language to change',
      () => vscode.window.activeTextEditor?.document.languageId === 'ipvs',
    );
  });
});
