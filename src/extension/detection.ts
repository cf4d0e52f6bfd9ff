/**
 * Recognises dumps where people keep them: a plain-text document (an untitled editor, a `.txt` file, a ticket
 * attachment, a paste) whose first lines are an iptables, IPVS or network-state dump is switched to that language
 * when the engine is sure, and offered when it only may be (setting `kubePacketPath.detectLanguage`). A saved log
 * file (VS Code's Log language: `kubectl logs kube-proxy-... > kube-proxy.log`) is switched or offered only when the
 * engine is sure: most logs are only logs, and a person opening one should not be asked about it.
 *
 * The language server decides (`kubePacketPath/detectLanguage`, the engine's detector on the first lines): this
 * bundle does not carry the engine. The choice made for a document (switched by us, accepted or declined offer,
 * the Detect command, or the person picking a language by hand) is kept in workspaceState by URI and applied again
 * when the document opens after a reload, without asking the server.
 */
import * as vscode from 'vscode';
import { looksLikeKubeProxyLog, mayCarryRestoreInput } from '../core/common/kubeProxyLog';
import { t } from '../core/i18n/catalog';
import { DETECTION_SAMPLE_LINES, DUMP_LANGUAGE_IDS, LANGUAGE_OF_KIND } from '../core/languages';
import type { DetectLanguageResult } from '../server/protocol';
import { CONFIG_SECTION, uiLang } from './config';

export type DetectMode = 'always' | 'ask' | 'never';

/** workspaceState key: `{ [uri]: languageId }`, `plaintext` for a document whose offer was declined. */
export const CHOICES_KEY = 'kubePacketPath.languageChoices';
const PLAIN_TEXT = 'plaintext';
/** VS Code's language of `.log` files, and of Output channels too (which are not files, and are left alone). */
const LOG = 'log';
const SAVED_LOG_SCHEMES = new Set(['file', 'vscode-remote', 'untitled']);
/** A paste, not typing: an insert at least this long that holds a line break. */
const PASTE_MIN_CHARS = 20;
const PASTE_SETTLE_MS = 300;
/** The head sent to the server is cut here too: a 25 MB one-line paste is decided by its start. */
const HEAD_MAX_CHARS = 200_000;
/** A kube-proxy log is sent whole up to this size (a day of -v=9 syncs of a small cluster). */
const LOG_MAX_CHARS = 16_000_000;

/** A document whose language is what VS Code guessed from its name, and whose text may be a dump. */
function mayHoldDump(doc: vscode.TextDocument): boolean {
  return doc.languageId === PLAIN_TEXT || (doc.languageId === LOG && SAVED_LOG_SCHEMES.has(doc.uri.scheme));
}

function isDumpLanguage(id: string | undefined): boolean {
  return !!id && (DUMP_LANGUAGE_IDS as readonly string[]).includes(id);
}

export function detectMode(): DetectMode {
  const v = vscode.workspace.getConfiguration(CONFIG_SECTION).get<string>('detectLanguage', 'always');
  return v === 'ask' || v === 'never' ? v : 'always';
}

/** The name a person knows the language by (the first alias in package.json). */
export function languageName(id: string): string {
  switch (id) {
    case LANGUAGE_OF_KIND.iptables:
      return t(uiLang(), 'ui.language.iptables');
    case LANGUAGE_OF_KIND.ipvs:
      return t(uiLang(), 'ui.language.ipvs');
    case LANGUAGE_OF_KIND.network:
      return t(uiLang(), 'ui.language.netstate');
    default:
      return id;
  }
}

/**
 * The first lines of a document, as much as the detector reads; the whole of a klog or JSON log that may carry
 * kube-proxy's restore input (up to LOG_MAX_CHARS), which may come after hundreds of log lines.
 */
export function headOf(doc: vscode.TextDocument): string {
  const last = Math.min(doc.lineCount, DETECTION_SAMPLE_LINES) - 1;
  const text = doc.getText(new vscode.Range(0, 0, last, doc.lineAt(last).text.length));
  if (doc.lineCount > DETECTION_SAMPLE_LINES && looksLikeKubeProxyLog(text)) {
    const all = doc.getText();
    if (all.length <= LOG_MAX_CHARS && mayCarryRestoreInput(all)) return all;
  }
  return text.length > HEAD_MAX_CHARS ? text.slice(0, HEAD_MAX_CHARS) : text;
}

/** What happened to a document, for the log and for tests. */
export type Outcome =
  | { kind: 'remembered'; languageId: string }
  | { kind: 'switched'; languageId: string }
  | { kind: 'offered'; languageId: string; answer: 'accepted' | 'declined' | 'dismissed' }
  | { kind: 'left'; reason: string };

export type Offer = (
  doc: vscode.TextDocument,
  languageId: string,
  detection: DetectLanguageResult,
) => Thenable<'accepted' | 'declined' | undefined>;

/** Asks in a notification; the answer is remembered (dismissing it is no answer). */
export const notificationOffer: Offer = async (doc, languageId) => {
  const name = languageName(languageId);
  const open = t(uiLang(), 'ui.detect.open', { name });
  const keep = t(uiLang(), doc.languageId === LOG ? 'ui.detect.keep-log' : 'ui.detect.keep');
  const file = doc.uri.scheme === 'untitled' ? doc.uri.path : vscode.workspace.asRelativePath(doc.uri);
  const answer = await vscode.window.showInformationMessage(t(uiLang(), 'ui.detect.offer', { file, name }), open, keep);
  return answer === open ? 'accepted' : answer === keep ? 'declined' : undefined;
};

export class LanguageDetection implements vscode.Disposable {
  /** The last outcome per URI (tests wait for it). */
  readonly outcomes = new Map<string, Outcome>();
  /** How an offer is put to the person; tests replace it. */
  offer: Offer = notificationOffer;
  /** The language each open document was last seen in: a change we did not make is the person's choice. */
  private readonly seen = new Map<string, string>();
  /** Offers made in this session: a document is asked once. */
  private readonly offered = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly listeners = new Set<(uri: string, o: Outcome) => void>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly state: vscode.Memento,
    private readonly detect: (head: string) => Promise<DetectLanguageResult>,
    private readonly log: (message: string) => void,
  ) {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.opened(d)),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.changed(e)),
    );
    for (const d of vscode.workspace.textDocuments) this.opened(d);
  }

  /** The language remembered for a document: a dump language, `plaintext` (declined), or undefined. */
  choiceOf(uri: vscode.Uri | string): string | undefined {
    return this.state.get<Record<string, string>>(CHOICES_KEY, {})[uri.toString()];
  }

  async remember(uri: vscode.Uri | string, languageId: string | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, string>>(CHOICES_KEY, {}) };
    if (languageId === undefined) delete all[uri.toString()];
    else all[uri.toString()] = languageId;
    await this.state.update(CHOICES_KEY, all);
  }

  /** Resolves with the next outcome for `uri` (tests). */
  nextOutcome(uri: vscode.Uri | string): Promise<Outcome> {
    return new Promise((resolve) => {
      const l = (u: string, o: Outcome) => {
        if (u !== uri.toString()) return;
        this.listeners.delete(l);
        resolve(o);
      };
      this.listeners.add(l);
    });
  }

  private done(uri: string, o: Outcome): Outcome {
    this.outcomes.set(uri, o);
    this.log(`language of ${uri}: ${JSON.stringify(o)}`);
    for (const l of [...this.listeners]) l(uri, o);
    return o;
  }

  private opened(doc: vscode.TextDocument): void {
    const uri = doc.uri.toString();
    const before = this.seen.get(uri);
    this.seen.set(uri, doc.languageId);
    // The same document again in another language: the person (or the Detect command, or us) chose it.
    if (
      before !== undefined &&
      before !== doc.languageId &&
      (isDumpLanguage(before) || isDumpLanguage(doc.languageId))
    ) {
      void this.remember(uri, doc.languageId);
      return;
    }
    void this.consider(doc, 'opened');
  }

  private closed(doc: vscode.TextDocument): void {
    const uri = doc.uri.toString();
    // A language change closes and reopens the document in one go; a real close is forgotten a moment later, and
    // with it the choice for an untitled editor, whose name the next new editor takes (a reload keeps it open).
    setTimeout(() => {
      if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri)) return;
      this.seen.delete(uri);
      this.offered.delete(uri);
      if (doc.uri.scheme === 'untitled' && this.choiceOf(uri)) void this.remember(uri, undefined);
    }, 0);
    const timer = this.timers.get(uri);
    if (timer) clearTimeout(timer);
    this.timers.delete(uri);
  }

  private changed(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    if (doc.languageId !== PLAIN_TEXT || this.offered.has(doc.uri.toString()) || this.choiceOf(doc.uri)) return;
    const pasted = e.contentChanges.some(
      (c) => c.range.start.line < DETECTION_SAMPLE_LINES && c.text.length >= PASTE_MIN_CHARS && /[\r\n]/.test(c.text),
    );
    if (!pasted) return;
    const uri = doc.uri.toString();
    const timer = this.timers.get(uri);
    if (timer) clearTimeout(timer);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void this.consider(doc, 'pasted');
      }, PASTE_SETTLE_MS),
    );
  }

  /**
   * Decides what to do with a plain-text document: the remembered choice, else the detector's answer and the
   * setting. A document of another language (a firewall script, `.sh`) takes a dump language the person chose for
   * it (Detect Dump Language) again when it is opened again; it is never detected on its own.
   */
  async consider(doc: vscode.TextDocument, why: 'opened' | 'pasted'): Promise<Outcome | undefined> {
    const uri = doc.uri.toString();
    const remembered = this.choiceOf(uri);
    if (doc.isClosed || !(mayHoldDump(doc) || isDumpLanguage(remembered))) return undefined;
    if (remembered) {
      // `plaintext` is a declined offer (a log stays a log). An untitled name comes back for a new, empty editor:
      // only restored text takes the old choice.
      if (
        remembered === PLAIN_TEXT ||
        remembered === doc.languageId ||
        (doc.uri.scheme === 'untitled' && doc.getText().trim() === '')
      )
        return undefined;
      await this.switchTo(doc, remembered);
      return this.done(uri, { kind: 'remembered', languageId: remembered });
    }
    const mode = detectMode();
    if (mode === 'never' || this.offered.has(uri)) return undefined;
    const head = headOf(doc);
    if (head.trim() === '') return undefined;
    let found: DetectLanguageResult;
    try {
      found = await this.detect(head);
    } catch (e) {
      this.log(`detecting the language of ${uri} failed: ${(e as Error).message}`);
      return undefined;
    }
    if (doc.isClosed || !mayHoldDump(doc) || this.choiceOf(uri)) return undefined;
    if (!found.languageId || found.certainty === 'no' || (doc.languageId === LOG && found.certainty !== 'sure'))
      return this.done(uri, { kind: 'left', reason: `${why}: ${found.kind} (${found.confidence.toFixed(2)})` });
    const languageId = found.languageId;
    if (mode === 'always' && found.certainty === 'sure') {
      await this.switchTo(doc, languageId);
      await this.remember(uri, languageId);
      return this.done(uri, { kind: 'switched', languageId });
    }
    this.offered.add(uri);
    const pending = this.offer(doc, languageId, found);
    // Reported at once, answered later: a notification may wait for the person for a long time.
    this.outcomes.set(uri, { kind: 'offered', languageId, answer: 'dismissed' });
    for (const l of [...this.listeners]) l(uri, { kind: 'offered', languageId, answer: 'dismissed' });
    const answer = await pending;
    if (answer === 'accepted') {
      const now = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      if (now && mayHoldDump(now)) await this.switchTo(now, languageId);
      await this.remember(uri, languageId);
    } else if (answer === 'declined') await this.remember(uri, PLAIN_TEXT);
    this.outcomes.set(uri, { kind: 'offered', languageId, answer: answer ?? 'dismissed' });
    this.log(`language of ${uri}: offered ${languageId}, ${answer ?? 'dismissed'}`);
    return this.outcomes.get(uri);
  }

  private async switchTo(doc: vscode.TextDocument, languageId: string): Promise<void> {
    this.seen.set(doc.uri.toString(), languageId);
    await vscode.languages.setTextDocumentLanguage(doc, languageId);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
