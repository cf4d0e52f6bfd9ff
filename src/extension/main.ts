/**
 * Extension entry: a thin client. It starts the language server when the first dump opens and registers the
 * commands; all knowledge lives in the server and `src/core`.
 */
import * as vscode from 'vscode';
import { uiLang } from './config';
import { t } from '../core/i18n/catalog';
import { ClusterStatusBar } from './cluster/statusBar';
import { CLUSTER_VIEW_ID, ClusterTree } from './cluster/tree';
import { registerCommands } from './commands';
import { Ctx } from './ctx';
import { LanguageDetection } from './detection';
import { kindOfLanguage } from '../core/languages';
import { DetectLanguageRequest } from '../server/protocol';

let ctx: Ctx | undefined;

export interface KubePacketPathApi {
  ctx: Ctx;
  /** The Cluster view's rows, for tests that read what the tree shows. */
  clusterTree: ClusterTree;
  /** Content detection of plain-text documents and the remembered choices. */
  detection: LanguageDetection;
}

export async function activate(context: vscode.ExtensionContext): Promise<KubePacketPathApi> {
  const c = new Ctx(context);
  ctx = c;
  const detection = new LanguageDetection(
    context.workspaceState,
    async (text) => (await c.languageClient()).sendRequest(DetectLanguageRequest, { text }),
    (m) => c.output.info(m),
  );
  c.push(detection);
  registerCommands(c, detection);
  const isDump = (d: vscode.TextDocument) => kindOfLanguage(d.languageId) !== undefined;
  const startIfDump = (d: vscode.TextDocument) => {
    if (isDump(d) && !c.isRunning)
      void c
        .languageClient()
        .catch(
          (e: Error) =>
            void vscode.window.showErrorMessage(t(uiLang(), 'ui.server.not-started', { message: e.message })),
        );
  };
  c.push(vscode.workspace.onDidOpenTextDocument(startIfDump));
  c.push(vscode.window.onDidChangeVisibleTextEditors(() => c.traceView.decorate()));
  vscode.workspace.textDocuments.forEach(startIfDump);
  // The cluster is contacted only once its view is shown: reading dumps never needs a kube context.
  const tree = new ClusterTree(c.cluster);
  const view = vscode.window.createTreeView(CLUSTER_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const connectOnce = () => {
    if (!c.cluster.current && !c.cluster.errors.size) void c.cluster.connect();
  };
  if (view.visible) connectOnce();
  c.push(
    tree,
    view,
    view.onDidChangeVisibility((e) => e.visible && connectOnce()),
    new ClusterStatusBar(c.cluster),
  );
  context.subscriptions.push({ dispose: () => void c.dispose() });
  return { ctx: c, clusterTree: tree, detection };
}

export async function deactivate(): Promise<void> {
  await ctx?.dispose();
  ctx = undefined;
}
