/**
 * "Kube Packet Path: Detect Dump Language": sets the active document's language from its content, as the language
 * server's detector reads it, and remembers the choice for the document (it survives a reload).
 */
import * as vscode from 'vscode';
import { uiLang } from '../config';
import { t } from '../../core/i18n/catalog';
import { DetectLanguageRequest } from '../../server/protocol';
import type { Ctx } from '../ctx';
import { headOf, type LanguageDetection } from '../detection';

export function detectLanguageCommand(ctx: Ctx, detection: LanguageDetection) {
  return async (uri?: vscode.Uri): Promise<string | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showWarningMessage(t(uiLang(), 'ui.detect.no-editor'));
      return undefined;
    }
    const found = await (await ctx.languageClient()).sendRequest(DetectLanguageRequest, { text: headOf(doc) });
    if (!found.languageId) {
      const what = found.kind === 'nft' ? t(uiLang(), 'ui.detect.nft-fragment') : t(uiLang(), 'ui.detect.none');
      void vscode.window.showInformationMessage(t(uiLang(), 'ui.detect.result', { what }));
      return doc.languageId;
    }
    if (doc.languageId !== found.languageId) await vscode.languages.setTextDocumentLanguage(doc, found.languageId);
    await detection.remember(doc.uri, found.languageId);
    return found.languageId;
  };
}
