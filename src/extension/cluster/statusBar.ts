/** The status-bar item that names the kube context and namespace the sidebar shows; a click switches context. */
import * as vscode from 'vscode';
import { onDidChangeUiLang, uiLang } from '../config';
import { t } from '../../core/i18n/catalog';
import { ALL_NAMESPACES } from '../../cluster';
import { COMMANDS } from '../../server/protocol';
import type { ClusterState } from './state';

export class ClusterStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'kubePacketPath.context',
    vscode.StatusBarAlignment.Left,
    10,
  );
  private readonly subscription: vscode.Disposable;

  constructor(private readonly state: ClusterState) {
    this.item.command = COMMANDS.switchContext;
    this.subscription = vscode.Disposable.from(
      state.onDidChange(() => this.update()),
      onDidChangeUiLang(() => this.update()),
    );
    this.update();
  }

  update(): void {
    this.item.name = t(uiLang(), 'ui.status.name');
    const s = this.state.current;
    if (!s && !this.state.errors.get('session')) {
      this.item.hide();
      return;
    }
    const ns =
      this.state.namespaceScope === ALL_NAMESPACES
        ? t(uiLang(), 'ui.cluster.all-namespaces')
        : this.state.namespaceScope;
    const error = this.state.errors.get('session');
    this.item.text = error
      ? `$(error) ${t(uiLang(), 'ui.status.no-context')}`
      : `$(server-environment) ${s?.context} · ${ns}`;
    this.item.tooltip = error ? error.oneLine(uiLang()) : t(uiLang(), 'ui.status.tooltip');
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
