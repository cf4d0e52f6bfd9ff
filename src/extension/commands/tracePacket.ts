/**
 * "Kube Packet Path: Trace Packet...": asks for a source IP and a destination (offering the Services found in the
 * dump, found by name, namespace or address), asks the server to trace, and shows the paths. With arguments (from
 * a code lens or a test) it asks only for what is missing. When paths fork on whether an address is the node's
 * own, it asks once per document for the node's addresses (remembered; empty keeps the alternatives). A trace on
 * screen is asked again when `kubePacketPath.language` changes. Texts follow that setting. Returns the result.
 */
import * as vscode from 'vscode';
import { isIp, splitHostPort } from '../../core/common/ip';
import { t, tn, type Lang } from '../../core/i18n/catalog';
import { parseTraceDestination } from '../../core/tracePacketInput';
import { TRACE_LANGUAGE_IDS } from '../../core/languages';
import {
  ListTargetsRequest,
  TracePacketRequest,
  type ServiceTarget,
  type TracePacketParams,
  type TracePacketResult,
} from '../../server/protocol';
import { CONFIG_SECTION, uiLang } from '../config';
import type { Ctx } from '../ctx';
import { TRACE_VIEW_ID } from '../traceView';

export interface TraceArgs {
  uri?: string;
  src?: string;
  dst?: string;
  proto?: TracePacketParams['proto'];
  hook?: TracePacketParams['hook'];
  /** The node's addresses (skips the question). */
  localAddresses?: string[];
}

let lastSource = '10.244.0.10';

/** The node addresses given per document (`[]`: asked, none given). */
const ADDRESSES_KEY = 'kubePacketPath.nodeAddresses';

function validateIp(v: string): string | undefined {
  return isIp(v.trim()) ? undefined : t(uiLang(), 'ui.trace.source.invalid');
}

/** As the server checks it (a port in range too), so what the box takes is traced and not refused. */
function validateDestination(v: string): string | undefined {
  return parseTraceDestination(v.trim()) ? undefined : t(uiLang(), 'ui.trace.destination.invalid');
}

function validateAddresses(v: string): string | undefined {
  const bad = splitAddresses(v).find((a) => !isIp(a));
  return bad === undefined ? undefined : t(uiLang(), 'ui.trace.addresses.invalid', { value: bad });
}

function splitAddresses(v: string): string[] {
  // `ip -o addr` lines carry prefixes: 10.0.0.5/24 is the address 10.0.0.5.
  return v
    .split(/[\s,]+/)
    .map((a) => a.replace(/\/\d+$/, ''))
    .filter(Boolean);
}

export interface TargetItem extends vscode.QuickPickItem {
  target?: ServiceTarget;
}

/**
 * Picker rows: a Service by its `namespace/name:port` (the filter matches name, namespace and address), an IPVS
 * virtual service by its address; the protocol once, and only when it is not TCP.
 */
export function targetItems(targets: readonly ServiceTarget[], lang: Lang): TargetItem[] {
  return targets.map((target) => {
    const proto = target.protocol.toUpperCase();
    const detail = tn(lang, 'ui.trace.target.endpoints', target.endpoints, { kind: target.kind });
    if (target.kind === 'ipvs virtual service')
      return { label: target.destination, description: proto, detail, target };
    return {
      label: target.name,
      description: proto === 'TCP' ? target.destination : `${target.destination} ${proto}`,
      detail,
      target,
    };
  });
}

interface Shown {
  uri: vscode.Uri;
  params: TracePacketParams;
}
let shown: Shown | undefined;

/** Asks the server again for the trace on screen (its texts in the language now chosen). */
export function followLanguage(ctx: Ctx): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration(async (e) => {
    if (!e.affectsConfiguration(`${CONFIG_SECTION}.language`) || !shown || !ctx.isRunning) return;
    const again = shown;
    try {
      const client = await ctx.languageClient();
      const result = await client.sendRequest(TracePacketRequest, { ...again.params, lang: uiLang() });
      if (shown === again) ctx.traceView.show(again.uri, result, true);
    } catch {
      ctx.traceView.refresh();
    }
  });
}

export function tracePacketCommand(ctx: Ctx) {
  ctx.push(followLanguage(ctx));
  return async (args: TraceArgs = {}): Promise<TracePacketResult | undefined> => {
    const lang = uiLang();
    const doc = args.uri
      ? await vscode.workspace.openTextDocument(vscode.Uri.parse(args.uri))
      : vscode.window.activeTextEditor?.document;
    if (!doc || !(TRACE_LANGUAGE_IDS as readonly string[]).includes(doc.languageId)) {
      void vscode.window.showWarningMessage(t(lang, 'ui.trace.open-dump'));
      return undefined;
    }
    const client = await ctx.languageClient();
    const interactive = args.src === undefined;
    const src =
      args.src ??
      (await vscode.window.showInputBox({
        title: t(lang, 'ui.trace.source.title'),
        prompt: t(lang, 'ui.trace.source.prompt'),
        value: lastSource,
        validateInput: validateIp,
      }));
    if (!src) return undefined;
    lastSource = src.trim();
    let dst = args.dst;
    let proto = args.proto;
    if (!dst) {
      const targets = await client.sendRequest(ListTargetsRequest, { uri: doc.uri.toString() });
      const manual: TargetItem = { label: t(lang, 'ui.trace.destination.manual') };
      const picked = await vscode.window.showQuickPick([...targetItems(targets, lang), manual], {
        title: t(lang, 'ui.trace.destination.title'),
        placeHolder: t(lang, 'ui.trace.destination.placeholder'),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (!picked) return undefined;
      if (picked.target) {
        dst = picked.target.destination;
        proto = (picked.target.protocol as TracePacketParams['proto']) ?? proto;
      } else {
        dst = await vscode.window.showInputBox({
          title: t(lang, 'ui.trace.destination.manual.title'),
          validateInput: validateDestination,
        });
        if (!dst) return undefined;
      }
    }
    const key = `${ADDRESSES_KEY}:${doc.uri.toString()}`;
    const remembered = ctx.extension.workspaceState.get<string[]>(key);
    const localAddresses = args.localAddresses ?? (remembered?.length ? remembered : undefined);
    const params: TracePacketParams = {
      uri: doc.uri.toString(),
      src: src.trim(),
      dst: dst.trim(),
      ...(proto ? { proto } : {}),
      ...(args.hook ? { hook: args.hook } : {}),
      ...(localAddresses ? { localAddresses } : {}),
      lang,
    };
    try {
      let result = await client.sendRequest(TracePacketRequest, params);
      // Forks on "is this address the node's?": the person may know; asked once per document.
      if (result.needsLocalAddresses && interactive && remembered === undefined && !args.localAddresses) {
        const addr = splitHostPort(params.dst)?.host ?? params.dst;
        const answer = await vscode.window.showInputBox({
          title: t(lang, 'ui.trace.addresses.title'),
          prompt: t(lang, 'ui.trace.addresses.prompt', { addr }),
          placeHolder: '192.168.10.11, 10.244.1.1',
          validateInput: validateAddresses,
          ignoreFocusOut: true,
        });
        if (answer !== undefined) {
          const addresses = splitAddresses(answer);
          await ctx.extension.workspaceState.update(key, addresses);
          if (addresses.length) {
            params.localAddresses = addresses;
            result = await client.sendRequest(TracePacketRequest, params);
          }
        }
      }
      shown = { uri: doc.uri, params };
      ctx.traceView.show(doc.uri, result);
      await vscode.commands.executeCommand(`${TRACE_VIEW_ID}.focus`).then(undefined, () => undefined);
      return result;
    } catch (e) {
      void vscode.window.showErrorMessage(t(lang, 'ui.trace.failed', { message: (e as Error).message }));
      return undefined;
    }
  };
}
