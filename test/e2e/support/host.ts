// Helpers for tests that run inside the VS Code extension host (test/e2e/suite/*.test.ts).
import * as vscode from 'vscode';
import { EXTENSION_ID } from './samples';

/** The workspace folder run.mjs opened (a temp copy of test/e2e/fixtures/workspace). */
export function workspaceUri(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder is open: start the tests through scripts/e2e/run.mjs');
  return folder.uri;
}

export function sampleUri(fileName: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceUri(), fileName);
}

/** Opens a sample in an editor, as a person double-clicking it would. */
export async function openSample(fileName: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(sampleUri(fileName));
  return vscode.window.showTextDocument(document);
}

export function ourExtension(): vscode.Extension<unknown> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`extension ${EXTENSION_ID} is not loaded in this VS Code`);
  return extension;
}

/** Polls until `condition` returns a truthy value; fails with `what` when `timeoutMs` runs out. */
export async function waitFor<T>(
  what: string,
  condition: () => T | Promise<T>,
  timeoutMs = 30_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
