/** The extension's settings, typed once (section `kubePacketPath`). */
import * as vscode from 'vscode';
import type { Lang } from '../core/i18n/catalog';

export const CONFIG_SECTION = 'kubePacketPath';

export interface Settings {
  language: 'auto' | 'en' | 'zh-CN';
  /** A kubeconfig file that replaces `KUBECONFIG` / `~/.kube/config`; empty: kubectl's rules. */
  kubeconfig: string;
  /** Each in-pod check's time limit. */
  checkTimeoutSeconds: number;
  /** Each API request's time limit. */
  requestTimeoutSeconds: number;
  /** Image of the ephemeral debug container offered when a pod has no network tools. */
  debugImage: string;
}

function positive(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION);
  const language = c.get<string>('language', 'auto');
  return {
    language: language === 'en' || language === 'zh-CN' ? language : 'auto',
    kubeconfig: c.get<string>('kubeconfig', '').trim(),
    checkTimeoutSeconds: positive(c.get('diagnose.checkTimeoutSeconds'), 5),
    requestTimeoutSeconds: positive(c.get('cluster.requestTimeoutSeconds'), 15),
    debugImage: c.get<string>('diagnose.debugImage', '').trim() || 'nicolaka/netshoot',
  };
}

/**
 * The language of everything the extension itself shows (notifications, pickers, the Cluster view, reports, the
 * Packet Trace view): the setting, or VS Code's display language. The one place the extension decides it.
 */
export function uiLang(): Lang {
  const l = readSettings().language;
  if (l !== 'auto') return l;
  return vscode.env.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** Calls `listener` when `kubePacketPath.language` changes, so texts on screen can be drawn again. */
export function onDidChangeUiLang(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(`${CONFIG_SECTION}.language`)) listener();
  });
}
