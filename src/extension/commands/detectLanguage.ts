/** "Kube Packet Path: Detect Dump Language": sets the active document's language from its content. */
import * as vscode from 'vscode';
import { detectDump } from '../../core/detect';

export function detectLanguageCommand() {
  return async (uri?: vscode.Uri): Promise<string | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a document first: there is no active editor to detect.'));
      return undefined;
    }
    const found = detectDump(doc.getText());
    if (!found.languageId) {
      const what = found.kind === 'nft' ? vscode.l10n.t('nft rules without their table and chain (paste the whole nft list ruleset, or iptables-save)') : found.kind === 'network' ? vscode.l10n.t('network state (routes, addresses, conntrack or ipset)') : vscode.l10n.t('not a dump this extension reads');
      void vscode.window.showInformationMessage(vscode.l10n.t('This text looks like {0}.', what));
      return doc.languageId;
    }
    if (doc.languageId !== found.languageId) await vscode.languages.setTextDocumentLanguage(doc, found.languageId);
    return found.languageId;
  };
}
