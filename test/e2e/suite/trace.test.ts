// The Packet Trace view as a person reads it, in the real extension host: the summary and the alternatives'
// conditions whole in the view's message, one row per path (share, DNAT target, endpoint chain, which is also the
// path's first row, whole), steps that decide nothing folded, alternatives under their condition instead of
// "50% ACCEPT / 50% REJECT", a Service without endpoints said to be one, a selected path's lines alone
// highlighted, the picker finding Services by name, and every text following kubePacketPath.language.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KubePacketPathApi } from '../../../src/extension/main';
import { targetItems } from '../../../src/extension/commands/tracePacket';
import type { ServiceTarget, TracePacketResult } from '../../../src/server/protocol';
import { openSample, ourExtension, waitFor } from '../support/host';
import { SAMPLES } from '../support/samples';

/** A dump with shop/checkout (no endpoints) and shop/cart (3 endpoints), in kube-proxy's restore layout. */
const SHOP = 'shop-no-endpoints.iptables';

type Ctx = KubePacketPathApi['ctx'];
/** By name: the request type object of this file's protocol module is not the bundled client's. */
const LIST_TARGETS = 'kubePacketPath/listTargets';
type ViewNode = ReturnType<Ctx['traceView']['getChildren']>[number];

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

/** The view's rows, depth first through the nodes `open` says to expand: `label | description`. */
function rows(ctx: Ctx, open: (item: vscode.TreeItem) => boolean = () => false, node?: ViewNode, depth = 0): string[] {
  const out: string[] = [];
  for (const child of ctx.traceView.getChildren(node)) {
    const item = ctx.traceView.getTreeItem(child);
    out.push(`${'  '.repeat(depth)}${label(item)}${item.description ? ` | ${String(item.description)}` : ''}`);
    if (
      item.collapsibleState !== vscode.TreeItemCollapsibleState.None &&
      item.collapsibleState !== undefined &&
      open(item)
    )
      out.push(...rows(ctx, open, child, depth + 1));
  }
  return out;
}

async function trace(uri: vscode.Uri, dst: string, localAddresses?: string[]): Promise<TracePacketResult> {
  const result = await vscode.commands.executeCommand<TracePacketResult>('kubePacketPath.tracePacket', {
    uri: uri.toString(),
    src: '10.244.0.9',
    dst,
    ...(localAddresses ? { localAddresses } : {}),
  });
  assert.ok(result, 'the command returned a trace');
  return result;
}

suite('Packet Trace view', () => {
  let ctx: Ctx;
  let shop: vscode.TextEditor;

  suiteSetup(async () => {
    shop = await openSample(SHOP);
    await waitFor('the extension to activate', () => ourExtension().isActive);
    ctx = (ourExtension() as vscode.Extension<KubePacketPathApi>).exports.ctx;
    await waitFor('the server to read the dump', async () => {
      const client = await ctx.languageClient();
      const targets = await client.sendRequest<ServiceTarget[]>(LIST_TARGETS, { uri: shop.document.uri.toString() });
      return targets.length > 0 ? targets : undefined;
    });
  });

  suiteTeardown(async () => {
    await vscode.workspace
      .getConfiguration('kubePacketPath')
      .update('language', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a Service without endpoints: the summary says so, and "is it the node\'s address?" is two alternatives, not 50/50', async () => {
    const result = await trace(shop.document.uri, '10.96.0.10:80');
    assert.match(result.summary, /^shop\/checkout:p has no endpoints: kube-proxy rejects the connection/);
    const shown = rows(ctx, () => true);
    const text = shown.join('\n');
    // The summary and each alternative's condition with its paths, whole in the view's message (a row is cut).
    const message = ctx.traceView.message ?? '';
    assert.ok(message.startsWith(result.summary), message);
    assert.match(message, /alternative: if 10\.96\.0\.10 is not an address of this node → 100% REJECT/);
    assert.match(message, /alternative: if 10\.96\.0\.10 is an address of this node → 100% ACCEPT/);
    assert.ok(!/50%/.test(text), `no coin flip:\n${text}`);
    assert.ok(!/Check the port and protocol/.test(text), text);
    assert.match(text, /^if 10\.96\.0\.10 is not an address of this node \| 1 path\n {2}100% REJECT/m);
    assert.match(text, /^if 10\.96\.0\.10 is an address of this node \| 1 path\n {2}100% ACCEPT/m);
  });

  test('one summary row per path: share, DNAT target, endpoint chain; steps that decide nothing folded', async () => {
    const result = await trace(shop.document.uri, '10.96.0.20:80', ['192.168.0.5']);
    assert.equal(result.paths.length, 3);
    const top = rows(ctx);
    // The summary is the view's message, which wraps: no row to cut it.
    assert.match(ctx.traceView.message ?? '', /^TCP 10\.244\.0\.9 → 10\.96\.0\.20:80: 3 paths → /);
    assert.match(top[0], /^node addresses: 192\.168\.0\.5/);
    const paths = top.filter((r) => /^\d/.test(r));
    assert.deepEqual(
      paths.map((r) => r.split(' | ')[0]),
      ['33.3% DNAT 10.244.1.11:6443', '33.3% DNAT 10.244.2.12:6443', '33.3% DNAT 10.244.3.13:6443'],
    );
    for (const r of paths) assert.match(r.split(' | ')[1] ?? '', /^KUBE-SEP-[A-Z0-9]{4}/);
    // Rows fit the default side bar: the endpoint chain is shortened, the tooltip has it whole.
    for (const r of paths) assert.ok(r.length <= 60, `a row of ${r.length} characters: ${r}`);
    const pathNode = ctx.traceView.getChildren().find((n) => n.kind === 'path')!;
    const item = ctx.traceView.getTreeItem(pathNode);
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'steps start collapsed');
    assert.match(String(item.tooltip), /endpoint chain KUBE-SEP-[A-Z0-9]{16}/);
    // The filter chains entered and left without a match (KUBE-FORWARD, KUBE-SERVICES) are one line; the endpoint
    // chain, shortened in the path's row, is its first row, whole.
    const steps = rows(ctx, () => true, pathNode);
    assert.match(steps[0], /^KUBE-SEP-[A-Z0-9]{16}$/);
    assert.ok(
      steps.some((r) => /^filter\/KUBE-FORWARD, filter\/KUBE-SERVICES: no rule matched \(4 steps\)/.test(r.trim())),
      steps.join('\n'),
    );
  });

  test("selecting a path highlights that path's lines only", async () => {
    const result = await trace(shop.document.uri, '10.96.0.20:80', ['192.168.0.5']);
    const all = new Set(result.matchedLines);
    const first = ctx.traceView.selectPath(0);
    const second = ctx.traceView.selectPath(1);
    const sep = (i: number) => shop.document.lineAt(result.paths[i].steps.find((s) => s.action === 'nat')!.line).text;
    assert.ok(
      first.some((l) => shop.document.lineAt(l).text === sep(0)),
      'path 1 has its own DNAT line',
    );
    assert.ok(!first.some((l) => shop.document.lineAt(l).text === sep(1)), "path 1 does not light path 2's DNAT line");
    assert.ok(second.some((l) => shop.document.lineAt(l).text === sep(1)));
    for (const l of [...first, ...second]) assert.ok(all.has(l), `line ${l + 1} was matched`);
    assert.ok(first.length < all.size);
    ctx.traceView.selectPath(undefined);
  });

  test('the picker finds Services by name and namespace, and names the protocol once', async () => {
    const client = await ctx.languageClient();
    const targets = await client.sendRequest<ServiceTarget[]>(LIST_TARGETS, { uri: shop.document.uri.toString() });
    const items = targetItems(targets, 'en');
    const cart = items.find((i) => i.label === 'shop/cart:p');
    assert.ok(cart, items.map((i) => i.label).join(', '));
    assert.equal(cart.description, '10.96.0.20:80');
    assert.match(cart.detail ?? '', /^cluster IP, 3 endpoints$/);
    const ipvs = await openSample(SAMPLES.ipvs);
    const vips = await waitFor('IPVS targets', async () => {
      const found = await client.sendRequest<ServiceTarget[]>(LIST_TARGETS, { uri: ipvs.document.uri.toString() });
      return found.length ? found : undefined;
    });
    for (const item of targetItems(vips, 'en')) {
      assert.equal(
        (`${item.label} ${item.description}`.match(/\b(TCP|UDP|SCTP)\b/g) ?? []).length,
        1,
        `${item.label} | ${item.description}`,
      );
    }
  });

  test('IPVS steps keep the line apart from the address', async () => {
    const ipvs = await openSample(SAMPLES.ipvs);
    const line = ipvs.document
      .getText()
      .split('\n')
      .find((l) => /^TCP\s+\S+:\d+/.test(l))!;
    const vip = /^TCP\s+(\S+)/.exec(line)![1];
    await vscode.commands.executeCommand<TracePacketResult>('kubePacketPath.tracePacket', {
      uri: ipvs.document.uri.toString(),
      src: '10.244.0.9',
      dst: vip,
    });
    const pathNode = ctx.traceView.getChildren().find((n) => n.kind === 'path')!;
    const steps = rows(ctx, () => true, pathNode).map((r) => r.trim());
    assert.ok(
      steps.some((r) => new RegExp(`^TCP ${vip.replace(/\./g, '\\.')}  \\(line \\d+\\)`).test(r)),
      steps.join('\n'),
    );
    assert.ok(
      !steps.some((r) => new RegExp(`${vip.replace(/\./g, '\\.')}:\\d+`).test(r)),
      `no line number glued to the port:\n${steps.join('\n')}`,
    );
  });

  test('a trace on screen follows a language change (summary, rows, conditions)', async () => {
    await trace(shop.document.uri, '10.96.0.10:80');
    await vscode.workspace
      .getConfiguration('kubePacketPath')
      .update('language', 'zh-CN', vscode.ConfigurationTarget.Global);
    const zh = await waitFor('the view in Chinese', () => {
      const text = [ctx.traceView.message ?? '', ...rows(ctx, () => true)].join('\n');
      return /没有端点/.test(text) ? text : undefined;
    });
    assert.match(zh, /^若 10\.96\.0\.10 不是本节点的地址 \| 1 条路径/m);
    assert.match(zh, /分支：若 10\.96\.0\.10 不是本节点的地址 → 100% REJECT/);
    await vscode.workspace
      .getConfiguration('kubePacketPath')
      .update('language', 'en', vscode.ConfigurationTarget.Global);
    await waitFor('the view in English again', () =>
      /has no endpoints/.test(ctx.traceView.message ?? '') ? true : undefined,
    );
  });

  test('the lens "1 reference" and the peek it opens agree; the trace lens names its Service', async () => {
    const lenses = await waitFor('code lenses', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        shop.document.uri,
      );
      return found?.some((l) => /endpoints/.test(l.command?.title ?? '')) ? found : undefined;
    });
    const lens = lenses.find((l) => /^3 endpoints, 33\.3% each, 1 reference$/.test(l.command?.title ?? ''));
    assert.ok(lens?.command, lenses.map((l) => l.command?.title).join(' | '));
    const shown = await vscode.commands.executeCommand<vscode.Location[]>(
      lens.command.command,
      ...(lens.command.arguments ?? []),
    );
    await vscode.commands.executeCommand('closeReferenceSearch');
    assert.equal(shown.length, 1, 'the peek lists as many references as the lens says');
    assert.match(shop.document.lineAt(shown[0].range.start.line).text, /^-A KUBE-SERVICES .* -j KUBE-SVC-/);
    const trace = lenses.find((l) => l.command?.title === 'Trace to shop/cart:p from a pod...');
    assert.ok(trace, lenses.map((l) => l.command?.title).join(' | '));
    assert.equal(trace.range.start.line, lens.range.start.line, 'beside the endpoints, on the chain line');
  });
});
