/**
 * A diagnosis report opens as a Markdown document beside the tree (verdict, evidence, every command run); the
 * last one can be copied as Markdown for a ticket.
 */
import * as vscode from 'vscode';
import { uiLang } from '../config';
import { t } from '../../core/i18n/catalog';
import type { DiagnoseReport } from '../../core/diagnose/types';
import { reportMarkdown } from '../../core/diagnose/report';
import type { Lang } from '../../core/i18n/catalog';

export class Reports {
  private last: string | undefined;

  get lastMarkdown(): string | undefined {
    return this.last;
  }

  async show(report: DiagnoseReport, lang: Lang): Promise<vscode.TextDocument> {
    this.last = reportMarkdown(report, lang);
    void vscode.commands.executeCommand('setContext', 'kubePacketPath.hasReport', true);
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: this.last });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return doc;
  }

  async copy(): Promise<boolean> {
    if (!this.last) {
      void vscode.window.showInformationMessage(t(uiLang(), 'ui.report.none'));
      return false;
    }
    await vscode.env.clipboard.writeText(this.last);
    return true;
  }
}
