/** Which context and namespace the sidebar shows (the extension's own choice; the kubeconfig is not rewritten). */
import * as vscode from 'vscode';
import { ALL_NAMESPACES } from '../../../cluster';
import type { Ctx } from '../../ctx';
import { asClusterError } from '../../cluster/state';

export function switchContextCommand(ctx: Ctx) {
  return async (context?: string): Promise<string | undefined> => {
    const state = ctx.cluster;
    if (!context) {
      let contexts: string[] = [];
      let current = '';
      try {
        const s = await state.open();
        contexts = s.info.contexts;
        current = s.context;
      } catch (e) {
        void vscode.window.showErrorMessage(asClusterError(e).oneLine());
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        contexts.map((c) => ({ label: c, description: c === current ? vscode.l10n.t('current') : undefined })),
        { title: vscode.l10n.t('Switch Context (Kube Packet Path only; your kubeconfig is not changed)') },
      );
      if (!picked) return undefined;
      context = picked.label;
    }
    await state.setContext(context);
    return context;
  };
}

export function switchNamespaceCommand(ctx: Ctx) {
  return async (namespace?: string): Promise<string | undefined> => {
    const state = ctx.cluster;
    if (!namespace) {
      const known = new Set(state.namespaces());
      try {
        const s = await state.open();
        known.add(s.namespace);
        const list = await s.list(
          '/api/v1/namespaces',
          { verb: 'list', resource: 'namespaces' },
          { timeoutMs: 10_000 },
        );
        for (const n of list.items) if (n.metadata?.name) known.add(n.metadata.name);
      } catch {
        // Listing namespaces is often forbidden; the Services seen and free text still work.
      }
      const all = vscode.l10n.t('All namespaces');
      const quick = vscode.window.createQuickPick();
      quick.title = vscode.l10n.t('Switch Namespace (or type one)');
      quick.items = [{ label: all, description: '*' }, ...[...known].sort().map((label) => ({ label }))];
      namespace = await new Promise<string | undefined>((resolve) => {
        quick.onDidAccept(() => {
          const item = quick.selectedItems[0];
          resolve(item ? (item.label === all ? ALL_NAMESPACES : item.label) : quick.value.trim() || undefined);
          quick.hide();
        });
        quick.onDidHide(() => resolve(undefined));
        quick.show();
      });
      quick.dispose();
      if (!namespace) return undefined;
    }
    await state.setNamespace(namespace);
    return namespace;
  };
}

export function refreshClusterCommand(ctx: Ctx) {
  return () => ctx.cluster.connect();
}

export function filterServicesCommand(ctx: Ctx) {
  return async (text?: string): Promise<void> => {
    const value =
      text ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter Services by name'),
        value: ctx.cluster.filter,
        prompt: vscode.l10n.t('Part of a Service name; empty shows all'),
      }));
    if (value !== undefined) ctx.cluster.setFilter(value);
  };
}
