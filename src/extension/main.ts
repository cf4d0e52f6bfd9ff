/**
 * Extension entry: a thin client. It starts the language server when the first dump opens and registers the
 * commands; all knowledge lives in the server and `src/core`.
 */
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { Ctx, DUMP_LANGUAGES } from './ctx';

let ctx: Ctx | undefined;

export interface KubePacketPathApi {
  ctx: Ctx;
}

export async function activate(context: vscode.ExtensionContext): Promise<KubePacketPathApi> {
  const c = new Ctx(context);
  ctx = c;
  registerCommands(c);
  const isDump = (d: vscode.TextDocument) => (DUMP_LANGUAGES as readonly string[]).includes(d.languageId);
  const startIfDump = (d: vscode.TextDocument) => {
    if (isDump(d) && !c.isRunning) void c.languageClient().catch((e: Error) => void vscode.window.showErrorMessage(vscode.l10n.t('Kube Packet Path: the language server did not start: {0}', e.message)));
  };
  c.push(vscode.workspace.onDidOpenTextDocument(startIfDump));
  c.push(vscode.window.onDidChangeVisibleTextEditors(() => c.traceView.decorate()));
  vscode.workspace.textDocuments.forEach(startIfDump);
  context.subscriptions.push({ dispose: () => void c.dispose() });
  return { ctx: c };
}

export async function deactivate(): Promise<void> {
  await ctx?.dispose();
  ctx = undefined;
}
