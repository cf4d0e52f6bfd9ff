/**
 * Shows a packet trace: a tree of paths (probability, verdict, DNAT target) whose steps open their line, and a
 * highlight on every rule the packet matched in the dump. Steps paths have in common come once from the server
 * (`sharedSteps`); a path shows them folded under one node, resolved only when opened.
 */
import * as vscode from 'vscode';
import { joinHostPort } from '../core/common/ip';
import type { TracePacketResult, TracePathResult, TraceStepResult } from '../server/protocol';

type Node =
  | { kind: 'summary'; text: string }
  | { kind: 'path'; path: TracePathResult; index: number }
  | { kind: 'shared'; prefix: number; count: number }
  | { kind: 'step'; step: TraceStepResult }
  | { kind: 'note'; text: string };

/** Above this many paths they start collapsed: expanding thousands at once would fetch all their steps. */
const EXPANDED_PATHS = 20;

export const TRACE_VIEW_ID = 'kubePacketPath.trace';

export class TraceView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private result: TracePacketResult | undefined;
  private uri: vscode.Uri | undefined;
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.window.registerTreeDataProvider(TRACE_VIEW_ID, this);
  }

  get lastResult(): TracePacketResult | undefined {
    return this.result;
  }

  show(uri: vscode.Uri, result: TracePacketResult): void {
    this.uri = uri;
    this.result = result;
    this.changed.fire(undefined);
    this.decorate();
  }

  /** Highlights matched rules in every visible editor of the traced document. */
  decorate(): number {
    let count = 0;
    for (const editor of vscode.window.visibleTextEditors) {
      if (!this.uri || editor.document.uri.toString() !== this.uri.toString()) continue;
      const ranges = (this.result?.matchedLines ?? []).filter((l) => l < editor.document.lineCount).map((l) => editor.document.lineAt(l).range);
      editor.setDecorations(this.highlight, ranges);
      count += ranges.length;
    }
    return count;
  }

  getChildren(node?: Node): Node[] {
    const r = this.result;
    if (!r) return [];
    if (!node) {
      const top: Node[] = [{ kind: 'summary', text: r.summary }];
      r.paths.forEach((path, index) => top.push({ kind: 'path', path, index }));
      for (const w of r.warnings) top.push({ kind: 'note', text: w });
      return top;
    }
    if (node.kind === 'path') {
      const prefix = node.path.prefix ?? -1;
      const shared: Node[] = prefix >= 0 ? [{ kind: 'shared', prefix, count: this.sharedChain(prefix).length }] : [];
      return [...shared, ...node.path.steps.map((step): Node => ({ kind: 'step', step })), ...node.path.assumptions.map((text): Node => ({ kind: 'note', text }))];
    }
    if (node.kind === 'shared') return this.sharedChain(node.prefix).map((step): Node => ({ kind: 'step', step }));
    return [];
  }

  /** The shared steps from the first to `prefix`. */
  private sharedChain(prefix: number): TraceStepResult[] {
    const shared = this.result?.sharedSteps ?? [];
    const out: TraceStepResult[] = [];
    for (let i = prefix; i >= 0 && i < shared.length; i = shared[i].parent) out.push(shared[i]);
    return out.reverse();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'summary': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon('debug-step-over');
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
      case 'path': {
        const p = node.path;
        const pct = `${Number((p.probability * 100).toFixed(2))}%`;
        const target = p.dnat
          ? vscode.l10n.t('DNAT to {0}', `${p.dnat.ip}${p.dnat.port !== null ? `:${p.dnat.port}` : ''}`)
          : p.forward
            ? vscode.l10n.t('{0} to {1}, destination kept', p.forward.method, joinHostPort(p.forward.ip, p.forward.port))
            : vscode.l10n.t('no DNAT');
        const few = (this.result?.paths.length ?? 0) <= EXPANDED_PATHS;
        const item = new vscode.TreeItem(`${pct}  ${p.verdict}  ${target}`, few ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.description = p.masquerade ? vscode.l10n.t('masqueraded') : '';
        item.iconPath = new vscode.ThemeIcon(p.verdict === 'ACCEPT' ? 'pass' : p.verdict === 'UNKNOWN' ? 'question' : 'error');
        return item;
      }
      case 'shared': {
        const item = new vscode.TreeItem(vscode.l10n.t('{0} steps shared with other paths', node.count), vscode.TreeItemCollapsibleState.Collapsed);
        item.iconPath = new vscode.ThemeIcon('git-merge');
        return item;
      }
      case 'step': {
        const s = node.step;
        const lines = s.line < 0 ? '' : s.skipped && s.skipped.count > 1 ? `:${s.line + 1}-${s.skipped.lastLine + 1}` : `:${s.line + 1}`;
        const item = new vscode.TreeItem(`${s.table}/${s.chain}${lines}`);
        item.description = s.note ? `${s.action} · ${s.note}` : s.action;
        item.tooltip = s.rule;
        if (this.uri && s.line >= 0) {
          item.command = {
            command: 'vscode.open',
            title: vscode.l10n.t('Show rule'),
            arguments: [this.uri, { selection: new vscode.Range(s.line, 0, s.line, 0) }],
          };
        }
        return item;
      }
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.highlight.dispose();
    this.changed.dispose();
  }
}
