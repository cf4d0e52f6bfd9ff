/** The status-bar item that names the kube context and namespace the sidebar shows; a click switches context. */
import * as vscode from 'vscode';
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
    this.item.name = vscode.l10n.t('Kube Packet Path: kube context');
    this.item.command = COMMANDS.switchContext;
    this.subscription = state.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const s = this.state.current;
    if (!s && !this.state.errors.get('session')) {
      this.item.hide();
      return;
    }
    const ns =
      this.state.namespaceScope === ALL_NAMESPACES ? vscode.l10n.t('all namespaces') : this.state.namespaceScope;
    const error = this.state.errors.get('session');
    this.item.text = error
      ? `$(error) ${vscode.l10n.t('no kube context')}`
      : `$(server-environment) ${s?.context} · ${ns}`;
    this.item.tooltip = error
      ? error.oneLine()
      : vscode.l10n.t('Kube context of Kube Packet Path (click to switch; your kubeconfig is not changed)');
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
