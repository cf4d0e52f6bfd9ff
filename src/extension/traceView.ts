/**
 * Shows a packet trace. One summary row per path (share, verdict or DNAT target, endpoint chain), its steps
 * collapsed under it; steps that decide nothing (chains entered and left without a matching rule) fold into one
 * line; forks on a fact the dump cannot decide (is this address the node's?) are alternatives, each under its
 * condition, and not a coin flip. Steps paths have in common come once from the server (`sharedSteps`); a path
 * shows them folded under one node, resolved only when opened. Every rule a path matched is highlighted in the
 * dump; selecting a path highlights that path's lines only. What is long is the view's message, which wraps, so it
 * is read whole at any side bar width (a tree row is cut at the side bar's edge): the summary, each alternative's
 * condition with its paths, the warnings; a path's endpoint chain is its first row, whole. Texts follow
 * `kubePacketPath.language`.
 */
import * as vscode from 'vscode';
import { t, tn, type Lang } from '../core/i18n/catalog';
import { joinHostPort } from '../core/common/ip';
import { formatPreciseShare, formatShare } from '../core/common/shares';
import type { TracePacketResult, TracePathResult, TraceStepResult } from '../server/protocol';
import { uiLang } from './config';
import { foldSteps, type FoldedStep } from '../core/iptables/trace/fold';

type Node =
  | { kind: 'alternative'; given: string[]; paths: number[] }
  | { kind: 'endpoint'; chain: string; path: number }
  | { kind: 'path'; path: TracePathResult; index: number }
  | { kind: 'shared'; path: number; prefix: number; count: number }
  | { kind: 'step'; step: TraceStepResult; path: number }
  | { kind: 'nothing'; steps: TraceStepResult[]; path: number }
  | { kind: 'note'; text: string };

/** Path rows keep to what the default side bar shows; the tooltip has the rest. */
const CHAIN_CHARS = 14;

export const TRACE_VIEW_ID = 'kubePacketPath.trace';

export class TraceView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private result: TracePacketResult | undefined;
  private uri: vscode.Uri | undefined;
  /** The path whose lines alone are highlighted (selected in the view), or none: every matched line. */
  private selectedPath: number | undefined;
  /**
   * Counts the traces shown: a row's id names its trace, so that a new trace's rows are new to the workbench, which
   * would otherwise keep a path of the last one selected and open (its rows have the same labels) while its lines are
   * no longer lit, and a click on it would only fold it.
   */
  private generation = 0;
  /** Every rule any path matched. */
  private readonly highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  /** The selected path's rules: a colour of its own, never the current line's. */
  private readonly pathHighlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('kubePacketPath.tracePathBackground'),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor('kubePacketPath.tracePathBackground'),
    overviewRulerLane: vscode.OverviewRulerLane.Center,
  });
  private readonly view: vscode.TreeView<Node>;

  constructor() {
    this.view = vscode.window.createTreeView(TRACE_VIEW_ID, { treeDataProvider: this });
    this.view.onDidChangeSelection((e) => {
      const n = e.selection[0];
      this.selectPath(
        n?.kind === 'path' ? n.index : n && 'path' in n && typeof n.path === 'number' ? n.path : undefined,
      );
    });
  }

  get lastResult(): TracePacketResult | undefined {
    return this.result;
  }

  get lastUri(): vscode.Uri | undefined {
    return this.uri;
  }

  /**
   * Shows a trace: a new one with no path selected or open; the same one again in another language (`sameTrace`)
   * keeps the path selected, when its paths are the ones shown (the document may have changed since).
   */
  show(uri: vscode.Uri, result: TracePacketResult, sameTrace = false): void {
    const samePaths =
      sameTrace &&
      this.result !== undefined &&
      pathsKey(this.result) === pathsKey(result) &&
      this.uri?.toString() === uri.toString();
    this.uri = uri;
    this.result = result;
    if (!samePaths) {
      this.selectedPath = undefined;
      this.generation++;
    }
    // The rows first, then the message: the workbench batches a view's changes for 200 ms and acts on the first at
    // once. Were the message first, the rows' refresh would come late and could drop the rows the workbench had just
    // fetched when the view was focused; a click on one then reached no path (seen on a loaded machine).
    this.changed.fire(undefined);
    this.view.message = viewMessage(result, uiLang());
    this.decorate();
  }

  /** The view's message: what the side bar would cut in a row, whole (undefined: none). */
  get message(): string | undefined {
    return this.view.message;
  }

  /** Texts were rendered in another language: draw the rows again. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Highlights only path `index`'s lines (undefined: every matched line again). Returns the lines highlighted. */
  selectPath(index: number | undefined): number[] {
    this.selectedPath = index;
    this.decorate();
    return index === undefined ? [] : this.pathLines(index);
  }

  /** Highlights matched rules in every visible editor of the traced document. */
  decorate(): number {
    let count = 0;
    const selected = this.selectedPath;
    const lines = selected === undefined ? (this.result?.matchedLines ?? []) : this.pathLines(selected);
    for (const editor of vscode.window.visibleTextEditors) {
      if (!this.uri || editor.document.uri.toString() !== this.uri.toString()) continue;
      const ranges = lines.filter((l) => l < editor.document.lineCount).map((l) => editor.document.lineAt(l).range);
      editor.setDecorations(selected === undefined ? this.highlight : this.pathHighlight, ranges);
      editor.setDecorations(selected === undefined ? this.pathHighlight : this.highlight, []);
      count += ranges.length;
    }
    return count;
  }

  /** The lines of the rules path `index` matched (a run of rules not taken counts whole). */
  pathLines(index: number): number[] {
    const path = this.result?.paths[index];
    if (!path) return [];
    const out = new Set<number>();
    for (const s of [...this.sharedChain(path.prefix ?? -1), ...path.steps]) {
      // Chain ends and policies point at declarations, not at rules the packet matched.
      if (s.line < 0 || (s.action === 'return' && !s.rule) || s.action === 'policy') continue;
      const last = s.skipped ? s.skipped.lastLine : s.line;
      for (let l = s.line; l <= last; l++) out.add(l);
    }
    return [...out].sort((a, b) => a - b);
  }

  getParent(): Node | undefined {
    return undefined;
  }

  /**
   * Each row keyed by where it is in the trace (a path by its index, the others by their place under their parent),
   * not by its text: a change of language then keeps what was open and selected.
   */
  getChildren(node?: Node): Node[] {
    return this.childrenOf(node).map((child, i) => {
      const at = child.kind === 'path' ? `path-${child.index}` : node ? `${keyOf(node)}/${i}` : `top-${i}`;
      keys.set(child, at);
      return child;
    });
  }

  private childrenOf(node?: Node): Node[] {
    const r = this.result;
    if (!r) return [];
    const lang = uiLang();
    if (!node) {
      // The summary is the view's message (whole, wrapped), not a row.
      const top: Node[] = [];
      if (r.localAddresses) {
        const addresses = r.localAddresses.addresses.join(', ');
        top.push({
          kind: 'note',
          text: t(
            lang,
            r.localAddresses.from === 'paste' ? 'ui.trace.node-addresses.paste' : 'ui.trace.node-addresses',
            { addresses },
          ),
        });
      }
      top.push(...this.alternatives(r));
      return top;
    }
    if (node.kind === 'alternative')
      return node.paths.map((index): Node => ({ kind: 'path', path: r.paths[index], index }));
    if (node.kind === 'path') {
      const prefix = node.path.prefix ?? -1;
      const shared: Node[] =
        prefix >= 0 ? [{ kind: 'shared', path: node.index, prefix, count: this.sharedChain(prefix).length }] : [];
      const endpoint: Node[] = node.path.endpointChain
        ? [{ kind: 'endpoint', chain: node.path.endpointChain, path: node.index }]
        : [];
      return [
        ...endpoint,
        ...shared,
        ...this.stepNodes(node.path.steps, node.index),
        ...node.path.assumptions.map((text): Node => ({ kind: 'note', text })),
      ];
    }
    if (node.kind === 'shared') return this.stepNodes(this.sharedChain(node.prefix), node.path);
    if (node.kind === 'nothing') return node.steps.map((step): Node => ({ kind: 'step', step, path: node.path }));
    return [];
  }

  /**
   * Paths that assume no undecided fact first (they apply whatever the answer), then one group per condition
   * ("if 10.96.0.10 is an address of this node"), its paths under it.
   */
  private alternatives(r: TracePacketResult): Node[] {
    const always: Node[] = [];
    const groups = new Map<string, { given: string[]; paths: number[] }>();
    r.paths.forEach((path, index) => {
      const given = path.given ?? [];
      if (!given.length) return void always.push({ kind: 'path', path, index });
      const key = given.join('\n');
      const g = groups.get(key);
      if (g) g.paths.push(index);
      else groups.set(key, { given, paths: [index] });
    });
    return [
      ...always,
      ...[...groups.values()].map((g): Node => ({ kind: 'alternative', given: g.given, paths: g.paths })),
    ];
  }

  private stepNodes(steps: readonly TraceStepResult[], path: number): Node[] {
    return foldSteps(steps).map((f: FoldedStep<TraceStepResult>): Node =>
      f.kind === 'step' ? { kind: 'step', step: f.step, path } : { kind: 'nothing', steps: f.steps, path },
    );
  }

  /** The shared steps from the first to `prefix`. */
  private sharedChain(prefix: number): TraceStepResult[] {
    const shared = this.result?.sharedSteps ?? [];
    const out: TraceStepResult[] = [];
    for (let i = prefix; i >= 0 && i < shared.length; i = shared[i].parent) out.push(shared[i]);
    return out.reverse();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const item = this.itemOf(node);
    item.id = `trace-${this.generation}/${keyOf(node)}`;
    return item;
  }

  private itemOf(node: Node): vscode.TreeItem {
    const lang = uiLang();
    switch (node.kind) {
      case 'endpoint': {
        // The path row's description has room for the chain's start only.
        const item = new vscode.TreeItem(node.chain);
        item.tooltip = t(lang, 'ui.trace.endpoint', { chain: node.chain });
        item.iconPath = new vscode.ThemeIcon('symbol-function');
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(node.text);
        item.tooltip = node.text;
        item.iconPath = new vscode.ThemeIcon('info');
        return item;
      }
      case 'alternative': {
        const text = node.given.join('; ');
        const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.Expanded);
        item.description = tn(lang, 'ui.trace.alternative.paths', node.paths.length);
        item.tooltip = t(lang, 'ui.trace.alternative', { text });
        item.iconPath = new vscode.ThemeIcon('question');
        return item;
      }
      case 'path':
        return pathItem(
          node.path,
          lang,
          (this.result?.paths ?? []).some((p) => (p.given ?? []).length > 0),
        );
      case 'shared': {
        const item = new vscode.TreeItem(
          tn(lang, 'ui.trace.shared', node.count),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.iconPath = new vscode.ThemeIcon('git-merge');
        return item;
      }
      case 'nothing': {
        const chains = [
          ...new Set(node.steps.filter((s) => s.action === 'return').map((s) => `${s.table}/${s.chain}`)),
        ].join(', ');
        const item = new vscode.TreeItem(
          tn(lang, 'ui.trace.nothing', node.steps.length, { chains }),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.tooltip = `${t(lang, 'ui.trace.nothing.tooltip')}\n${node.steps.map((s) => stepLabel(s, lang)).join('\n')}`;
        item.iconPath = new vscode.ThemeIcon('debug-step-out');
        return item;
      }
      case 'step': {
        const s = node.step;
        const item = new vscode.TreeItem(stepLabel(s, lang));
        item.description = s.note ? `${s.action} · ${s.note}` : s.action;
        item.tooltip = [stepLabel(s, lang), s.rule, s.note].filter(Boolean).join('\n');
        if (this.uri && s.line >= 0) {
          item.command = {
            command: 'vscode.open',
            title: t(lang, 'ui.trace.show-rule'),
            arguments: [this.uri, { selection: new vscode.Range(s.line, 0, s.line, 0) }],
          };
        }
        return item;
      }
    }
  }

  dispose(): void {
    this.view.dispose();
    this.highlight.dispose();
    this.pathHighlight.dispose();
    this.changed.dispose();
  }
}

/** Where each row given to the workbench is in its trace (see getChildren). */
const keys = new WeakMap<Node, string>();
const keyOf = (node: Node): string => keys.get(node) ?? (node.kind === 'path' ? `path-${node.index}` : 'row');

/** What tells a trace's paths apart whatever the language: each one's target, share and endpoint chain. */
function pathsKey(r: TracePacketResult): string {
  return JSON.stringify(r.paths.map((p) => [p.verdict, p.dnat, p.probability, p.endpointChain, p.given?.length]));
}

/**
 * The view's message: the summary, then each alternative's condition and its paths, then the warnings, each whole (a
 * message wraps; a row is cut at the side bar's edge). A warning that is the summary (a Service without endpoints) is
 * said once.
 */
export function viewMessage(r: TracePacketResult, lang: Lang): string | undefined {
  const alternatives = new Map<string, string[]>();
  r.paths.forEach((p) => {
    const given = (p.given ?? []).join('; ');
    if (given) alternatives.set(given, [...(alternatives.get(given) ?? []), pathLabel(p, lang)]);
  });
  const said = [
    r.summary,
    ...[...alternatives].map(([text, paths]) => `${t(lang, 'ui.trace.alternative', { text })} → ${paths.join(', ')}`),
    ...r.warnings.filter((w) => w !== r.summary).map((text) => t(lang, 'ui.trace.warning', { text })),
  ].filter(Boolean);
  // A plain-text message: its lines are not kept, so the parts are set apart in the line.
  return said.length ? said.join(' · ') : undefined;
}

function shortChain(chain: string): string {
  return chain.length <= CHAIN_CHARS ? chain : `${chain.slice(0, CHAIN_CHARS - 1)}…`;
}

function targetOf(p: TracePathResult): string | undefined {
  return p.dnat
    ? joinHostPort(p.dnat.ip, p.dnat.port ?? undefined)
    : p.forward
      ? joinHostPort(p.forward.ip, p.forward.port)
      : undefined;
}

/** `33.3% DNAT 10.244.1.11:6443`, `100% REJECT`. */
function pathLabel(p: TracePathResult, lang: Lang): string {
  const to = targetOf(p);
  const what = p.dnat
    ? t(lang, 'ui.trace.dnat', { to: to! })
    : p.forward
      ? t(lang, 'ui.trace.forward', { method: p.forward.method, to: to! })
      : p.verdict;
  // A DNATed path that is not accepted in the end says so; an accepted one needs no word for it.
  // One space apart: a row of the default side bar has room for `33.3% DNAT 10.244.1.11:6443` and no more.
  return `${formatShare(p.probability)} ${what}${(p.dnat || p.forward) && p.verdict !== 'ACCEPT' ? ` ${p.verdict}` : ''}`;
}

/** `33.3% DNAT 10.244.1.11:6443` with the endpoint chain as description; everything in the tooltip. */
export function pathItem(p: TracePathResult, lang: Lang, alternatives: boolean): vscode.TreeItem {
  const to = targetOf(p);
  const item = new vscode.TreeItem(pathLabel(p, lang), vscode.TreeItemCollapsibleState.Collapsed);
  item.description = [
    p.endpointChain ? shortChain(p.endpointChain) : '',
    p.masquerade ? t(lang, 'ui.trace.masqueraded') : '',
  ]
    .filter(Boolean)
    .join(' · ');
  item.tooltip = [
    t(lang, alternatives ? 'ui.trace.share' : 'ui.trace.share.all', {
      p: formatPreciseShare(p.probability),
    }),
    t(lang, 'ui.trace.verdict', { verdict: p.verdict }),
    p.dnat
      ? t(lang, 'ui.trace.dnat.tooltip', { to: to! })
      : p.forward
        ? t(lang, 'ui.trace.forward.tooltip', { method: p.forward.method, to: to! })
        : '',
    p.endpointChain ? t(lang, 'ui.trace.endpoint', { chain: p.endpointChain }) : '',
    p.masquerade ? t(lang, 'ui.trace.masqueraded') : '',
    ...(p.given ?? []).map((g) => t(lang, 'ui.trace.alternative', { text: g })),
    ...p.assumptions,
  ]
    .filter(Boolean)
    .join('\n');
  item.iconPath = new vscode.ThemeIcon(
    p.verdict === 'ACCEPT' ? 'pass' : p.verdict === 'UNKNOWN' ? 'question' : 'error',
  );
  return item;
}

/** `nat/KUBE-SERVICES:35`; IPVS steps (no chains: the virtual service) name the line apart from the address. */
export function stepLabel(s: TraceStepResult, lang: Lang): string {
  const range = s.skipped && s.skipped.count > 1 ? `${s.line + 1}-${s.skipped.lastLine + 1}` : `${s.line + 1}`;
  if (s.table === 'ipvs') {
    const where =
      s.line < 0
        ? ''
        : s.skipped && s.skipped.count > 1
          ? t(lang, 'ui.trace.lines', { from: s.line + 1, to: s.skipped.lastLine + 1 })
          : t(lang, 'ui.trace.line', { line: s.line + 1 });
    return `${s.rule || s.chain}${where ? `  (${where})` : ''}`;
  }
  return `${s.table}/${s.chain}${s.line < 0 ? '' : `:${range}`}`;
}
