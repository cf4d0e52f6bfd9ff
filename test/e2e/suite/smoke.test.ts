// The extension loads in a real VS Code, activates when a dump opens and its command runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openSample, ourExtension, waitFor } from '../support/host';
import { SAMPLES } from '../support/samples';

suite('smoke', () => {
  test('the extension is installed from the development path', () => {
    const extension = ourExtension();
    assert.equal(extension.packageJSON.name, 'kube-packet-path');
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
