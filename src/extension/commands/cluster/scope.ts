/** Which context and namespace the sidebar shows (the extension's own choice; the kubeconfig is not rewritten). */
import * as vscode from 'vscode';
import { uiLang } from '../../config';
import { t } from '../../../core/i18n/catalog';
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
        void vscode.window.showErrorMessage(asClusterError(e).oneLine(uiLang()));
        return undefined;
      }
      const picked = await vscode.window.showQuickPick(
        contexts.map((c) => ({ label: c, description: c === current ? t(uiLang(), 'ui.scope.current') : undefined })),
        { title: t(uiLang(), 'ui.scope.context.title') },
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
      const all = t(uiLang(), 'ui.scope.all-namespaces');
      const quick = vscode.window.createQuickPick();
      quick.title = t(uiLang(), 'ui.scope.namespace.title');
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
        title: t(uiLang(), 'ui.scope.filter.title'),
        value: ctx.cluster.filter,
        prompt: t(uiLang(), 'ui.scope.filter.prompt'),
      }));
    if (value !== undefined) ctx.cluster.setFilter(value);
  };
}
