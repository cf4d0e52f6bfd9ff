// The extension loads in a real VS Code, activates when a dump opens and its command runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openSample, ourExtension, waitFor } from '../support/host';
import { SAMPLES } from '../support/samples';

suite('smoke', () => {
  // run.mjs runs this suite twice: on the development folder, and on the VSIX installed with --install-extension
  // (KPP_E2E_INSTALLED names the folder it was installed into).
  test('the extension is the one under test: the development folder, or the installed VSIX', async () => {
    const extension = ourExtension();
    assert.equal(extension.packageJSON.name, 'kube-packet-path');
    const installed = process.env.KPP_E2E_INSTALLED;
    if (installed) {
      assert.equal(extension.extensionUri.path, vscode.Uri.file(installed).path, 'loaded from the extensions dir');
      const entries = (await vscode.workspace.fs.readDirectory(extension.extensionUri)).map(([name]) => name).sort();
      for (const absent of ['src', 'test', 'out', 'node_modules', 'samples', 'scripts'])
        assert.ok(!entries.includes(absent), `the installed extension holds ${absent}/: ${entries.join(', ')}`);
      const dist = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(extension.extensionUri, 'dist')))
        .map(([name]) => name)
        .sort();
      assert.deepEqual(dist, ['client-node.js', 'dump-engine.js', 'extension.js', 'server.js']);
    } else
      assert.ok(!extension.extensionUri.path.includes('/extensions/'), `loaded from ${extension.extensionUri.path}`);
  });

  test('an iptables dump opens with the iptables language', async () => {
    const editor = await openSample(SAMPLES.iptables);
    assert.equal(editor.document.languageId, 'iptables');
  });

  test('an IPVS dump opens with the ipvs language', async () => {
    const editor = await openSample(SAMPLES.ipvs);
    assert.equal(editor.document.languageId, 'ipvs');
  });

  test('opening a dump activates the extension', async () => {
    await openSample(SAMPLES.iptables);
    await waitFor('the extension to activate', () => ourExtension().isActive);
  });

  test('the detect-language command runs on the open dump', async () => {
    await openSample(SAMPLES.iptables);
    await waitFor('the extension to activate', () => ourExtension().isActive);
    const commands = await vscode.commands.getCommands(true);
    assert.ok(
      commands.includes('kubePacketPath.detectLanguage'),
      'command kubePacketPath.detectLanguage is registered',
    );
    const language = await vscode.commands.executeCommand<string | undefined>('kubePacketPath.detectLanguage');
    assert.equal(language, 'iptables');
  });
});
