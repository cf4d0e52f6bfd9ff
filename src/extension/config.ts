/** The extension's settings, typed once (section `kubePacketPath`). */
import * as vscode from 'vscode';

export const CONFIG_SECTION = 'kubePacketPath';

export interface Settings {
  language: 'auto' | 'en' | 'zh-CN';
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const language = c.get<string>('language', 'auto');
  return { language: language === 'en' || language === 'zh-CN' ? language : 'auto' };
}
