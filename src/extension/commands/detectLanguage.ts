/**
 * "Kube Packet Path: Detect Dump Language": sets the active document's language from its content, as the language
 * server's detector reads it, and remembers the choice for the document (it survives a reload).
 */
import * as vscode from 'vscode';
import { DetectLanguageRequest } from '../../server/protocol';
import type { Ctx } from '../ctx';
import { headOf, type LanguageDetection } from '../detection';

export function detectLanguageCommand(ctx: Ctx, detection: LanguageDetection) {
  return async (uri?: vscode.Uri): Promise<string | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Open a document first: there is no active editor to detect.'),
      );
      return undefined;
    }
    const found = await (await ctx.languageClient()).sendRequest(DetectLanguageRequest, { text: headOf(doc) });
    if (!found.languageId) {
      const what =
        found.kind === 'nft'
          ? vscode.l10n.t(
              'nft rules without their table and chain (paste the whole nft list ruleset, or iptables-save)',
            )
          : vscode.l10n.t('not a dump this extension reads');
      void vscode.window.showInformationMessage(vscode.l10n.t('This text looks like {0}.', what));
      return doc.languageId;
    }
    if (doc.languageId !== found.languageId) await vscode.languages.setTextDocumentLanguage(doc, found.languageId);
    await detection.remember(doc.uri, found.languageId);
    return found.languageId;
  };
}
