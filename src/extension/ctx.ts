/**
 * One object owns the extension's long-lived parts: the language client (started lazily, when the first dump
 * opens), the output channel for the server's log, the trace view, and every disposable.
 */
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { allocatorEnv } from '../server/allocatorEnv';
import { Reports } from './cluster/report';
import { ClusterState } from './cluster/state';
import { DUMP_LANGUAGE_IDS } from '../core/languages';
import { CONFIG_SECTION, readSettings } from './config';
import { TraceView } from './traceView';

export class Ctx implements vscode.Disposable {
  readonly output: vscode.LogOutputChannel;
  readonly traceView: TraceView;
  /** The kube context the sidebar shows, its watches and the last diagnosis report. */
  readonly cluster: ClusterState;
  readonly reports = new Reports();
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly extension: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('Kube Packet Path', { log: true });
    this.traceView = new TraceView();
    this.cluster = new ClusterState(extension.globalState);
    this.disposables.push(this.output, this.traceView, this.cluster);
  }

  push(...d: vscode.Disposable[]): void {
    this.disposables.push(...d);
  }

  /** The running client, starting the server on first use. */
  async languageClient(): Promise<LanguageClient> {
    if (this.client) return this.client;
    this.starting ??= this.start();
    return this.starting;
  }

  get isRunning(): boolean {
    return !!this.client;
  }

  private async start(): Promise<LanguageClient> {
    const module = this.extension.asAbsolutePath('dist/server.js');
    // The server's process runs with the allocator settings; its analysis workers are threads of it, so they too.
    const env = allocatorEnv();
    // Over stdio the server reads a big dump's didOpen as it comes, in pieces, and hands them to its worker
    // compressed (server/stdioReader.ts): over node IPC the whole text arrives as one string the server keeps.
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.stdio, options: { env } },
      debug: { module, transport: TransportKind.stdio, options: { env, execArgv: ['--nolazy', '--inspect=6019'] } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DUMP_LANGUAGE_IDS.flatMap((language) => [
        { language, scheme: 'file' },
        { language, scheme: 'untitled' },
        { language, scheme: 'vscode-remote' },
      ]),
      outputChannel: this.output,
      initializationOptions: { language: readSettings().language },
      synchronize: { configurationSection: CONFIG_SECTION },
    };
    const client = new LanguageClient('kubePacketPath', 'Kube Packet Path', serverOptions, clientOptions);
    await client.start();
    this.output.info(`language server started (${module})`);
    this.client = client;
    return client;
  }

  async dispose(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    if (client) await client.stop();
  }
}
