/**
 * "Kube Packet Path: Trace Packet...": asks for a source IP and a destination (offering the Services found in the
 * dump), asks the server to trace, and shows the paths. With arguments (from a code lens or a test) it asks only
 * for what is missing. Returns the result so callers can use it.
 */
import * as vscode from 'vscode';
import { isIp, splitHostPort } from '../../core/common/ip';
import { ListTargetsRequest, TracePacketRequest, type TracePacketParams, type TracePacketResult } from '../../server/protocol';
import { DUMP_LANGUAGES, type Ctx } from '../ctx';
import { TRACE_VIEW_ID } from '../traceView';

export interface TraceArgs {
  uri?: string;
  src?: string;
  dst?: string;
  proto?: TracePacketParams['proto'];
  hook?: TracePacketParams['hook'];
}

let lastSource = '10.244.0.10';

function validateIp(v: string): string | undefined {
  return isIp(v.trim()) ? undefined : vscode.l10n.t('Enter an IPv4 or IPv6 address, e.g. a pod IP such as 10.244.1.5');
}

function validateDestination(v: string): string | undefined {
  const hp = splitHostPort(v.trim());
  return hp && isIp(hp.host) && hp.port !== undefined ? undefined : vscode.l10n.t('Enter IP:PORT, e.g. 172.16.0.1:443 ([fd00::1]:443 for IPv6)');
}

export function tracePacketCommand(ctx: Ctx) {
  return async (args: TraceArgs = {}): Promise<TracePacketResult | undefined> => {
    const doc = args.uri ? await vscode.workspace.openTextDocument(vscode.Uri.parse(args.uri)) : vscode.window.activeTextEditor?.document;
    if (!doc || !(DUMP_LANGUAGES as readonly string[]).includes(doc.languageId)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open an iptables or IPVS dump first (or run "Detect Dump Language" on a pasted one).'));
      return undefined;
    }
    const client = await ctx.languageClient();
    const src =
      args.src ??
      (await vscode.window.showInputBox({ title: vscode.l10n.t('Trace Packet: source IP'), prompt: vscode.l10n.t('Where the packet comes from (a pod IP, or a node IP with hook output)'), value: lastSource, validateInput: validateIp }));
    if (!src) return undefined;
    lastSource = src.trim();
    let dst = args.dst;
    let proto = args.proto;
    if (!dst) {
      const targets = await client.sendRequest(ListTargetsRequest, { uri: doc.uri.toString() });
      const manual = vscode.l10n.t('Enter an address...');
      const picked = await vscode.window.showQuickPick(
        [...targets.map((t) => ({ label: t.destination, description: `${t.protocol.toUpperCase()} ${t.name}`, detail: `${t.kind}, ${t.endpoints} endpoint(s)`, target: t })), { label: manual, description: '', detail: undefined, target: undefined }],
        { title: vscode.l10n.t('Trace Packet: destination'), placeHolder: vscode.l10n.t('A Service found in this dump, or enter an address') },
      );
      if (!picked) return undefined;
      if (picked.target) {
        dst = picked.target.destination;
        proto = (picked.target.protocol as TracePacketParams['proto']) ?? proto;
      } else {
        dst = await vscode.window.showInputBox({ title: vscode.l10n.t('Trace Packet: destination IP:PORT'), validateInput: validateDestination });
        if (!dst) return undefined;
      }
    }
    try {
      const result = await client.sendRequest(TracePacketRequest, { uri: doc.uri.toString(), src: src.trim(), dst: dst.trim(), ...(proto ? { proto } : {}), ...(args.hook ? { hook: args.hook } : {}) });
      ctx.traceView.show(doc.uri, result);
      await vscode.commands.executeCommand(`${TRACE_VIEW_ID}.focus`).then(undefined, () => undefined);
      return result;
    } catch (e) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Trace failed: {0}', (e as Error).message));
      return undefined;
    }
  };
}
