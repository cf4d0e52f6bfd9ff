/**
 * "Capture Node Rules...": reads a node's rules, addresses and routes (its kube-proxy pod, or a confirmed debug
 * pod that is deleted afterwards), saves them in the extension's storage and opens the rules in the editor, where
 * the language server reads them. "Trace in Node Rules...": the same capture, then a trace to the Service.
 */
import * as vscode from 'vscode';
import { t } from '../../../core/i18n/catalog';
import { captureFiles, captureNode, openNodeAccess, type ClusterSession } from '../../../cluster';
import { LANGUAGE_OF_KIND } from '../../../core/languages';
import { COMMANDS } from '../../../server/protocol';
import { readSettings, uiLang } from '../../config';
import type { Ctx } from '../../ctx';
import { asClusterError } from '../../cluster/state';
import type { ClusterRow } from '../../cluster/tree';
import { confirmCreate, pickNode, requireTrust } from './pickers';

export interface CaptureResult {
  node: string;
  via: string;
  files: vscode.Uri[];
  rules?: vscode.TextDocument;
}

async function capture(ctx: Ctx, session: ClusterSession, node: string): Promise<CaptureResult> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: t(uiLang(), 'ui.capture.progress', { node }),
      cancellable: true,
    },
    async (progress, token) => {
      const ctl = new AbortController();
      token.onCancellationRequested(() => ctl.abort());
      const access = await openNodeAccess(session, node, {
        confirm: confirmCreate,
        image: readSettings().debugImage,
        signal: ctl.signal,
        onProgress: (message) => {
          ctx.output.info(`capture: ${message}`);
          progress.report({ message });
        },
      });
      try {
        const cap = await captureNode(access, { signal: ctl.signal });
        const stamp = new Date()
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d+Z$/, 'Z');
        const dir = vscode.Uri.joinPath(ctx.extension.globalStorageUri, 'captures', `${node}-${stamp}`);
        await vscode.workspace.fs.createDirectory(dir);
        const result: CaptureResult = { node, via: cap.via, files: [] };
        for (const f of captureFiles(node, cap.results)) {
          const uri = vscode.Uri.joinPath(dir, f.name);
          await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(f.text));
          result.files.push(uri);
          if (f.rules && !result.rules) {
            let doc = await vscode.workspace.openTextDocument(uri);
            const { iptables, ipvs } = LANGUAGE_OF_KIND;
            if (doc.languageId !== iptables && doc.languageId !== ipvs)
              doc = await vscode.languages.setTextDocumentLanguage(doc, f.name.endsWith('.ipvs') ? ipvs : iptables);
            result.rules = doc;
          }
        }
        ctx.output.info(`capture of ${node} via ${cap.via}: ${result.files.map((u) => u.fsPath).join(', ')}`);
        return result;
      } finally {
        await access.dispose().catch((e: Error) => ctx.output.error(`capture: cleaning up on ${node}: ${e.message}`));
      }
    },
  );
}

async function nodeOf(
  ctx: Ctx,
  session: ClusterSession,
  arg: ClusterRow | string | undefined,
): Promise<string | undefined> {
  if (typeof arg === 'string') return arg;
  if (arg?.kind === 'node') return arg.node.name;
  if (arg?.kind === 'endpoint' && arg.endpoint.nodeName) return arg.endpoint.nodeName;
  return (await pickNode(ctx.cluster, session))?.name;
}

export function captureNodeRulesCommand(ctx: Ctx) {
  return async (arg?: ClusterRow | string): Promise<CaptureResult | undefined> => {
    if (!requireTrust()) return undefined;
    try {
      const session = await ctx.cluster.open();
      const node = await nodeOf(ctx, session, arg);
      if (!node) return undefined;
      const result = await capture(ctx, session, node);
      if (result.rules) await vscode.window.showTextDocument(result.rules, { preview: false });
      else void vscode.window.showWarningMessage(t(uiLang(), 'ui.capture.no-rules', { node, via: result.via }));
      return result;
    } catch (e) {
      const err = asClusterError(e);
      if (err.code !== 'cancelled')
        void vscode.window.showErrorMessage(t(uiLang(), 'ui.capture.failed', { message: err.oneLine(uiLang()) }));
      return undefined;
    }
  };
}

/** From a Service row: capture a node's rules, then trace a packet to the Service's ClusterIP and port there. */
export function traceInNodeRulesCommand(ctx: Ctx) {
  return async (arg?: ClusterRow): Promise<unknown> => {
    if (!requireTrust()) return undefined;
    if (!arg || arg.kind !== 'service' || !arg.service.clusterIP || arg.service.clusterIP === 'None') {
      void vscode.window.showInformationMessage(t(uiLang(), 'ui.capture.no-cluster-ip'));
      return undefined;
    }
    try {
      const session = await ctx.cluster.open();
      const node = await nodeOf(ctx, session, undefined);
      if (!node) return undefined;
      const result = await capture(ctx, session, node);
      if (!result.rules) {
        void vscode.window.showWarningMessage(t(uiLang(), 'ui.capture.no-rules', { node, via: result.via }));
        return undefined;
      }
      await vscode.window.showTextDocument(result.rules, { preview: false });
      const port = arg.service.ports[0];
      const dst = arg.service.clusterIP.includes(':')
        ? `[${arg.service.clusterIP}]:${port?.port ?? 80}`
        : `${arg.service.clusterIP}:${port?.port ?? 80}`;
      return vscode.commands.executeCommand(COMMANDS.tracePacket, {
        uri: result.rules.uri.toString(),
        dst,
        ...(port ? { proto: port.protocol.toLowerCase() } : {}),
      });
    } catch (e) {
      const err = asClusterError(e);
      if (err.code !== 'cancelled')
        void vscode.window.showErrorMessage(t(uiLang(), 'ui.capture.failed', { message: err.oneLine(uiLang()) }));
      return undefined;
    }
  };
}
