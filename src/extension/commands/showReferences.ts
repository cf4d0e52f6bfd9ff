/** Opens the references peek for a chain (used by the code lens on Service chains). */
import * as vscode from 'vscode';

export function showReferencesCommand() {
  return async (uri: string, line: number, character: number): Promise<void> => {
    const target = vscode.Uri.parse(uri);
    const position = new vscode.Position(line, character);
    const locations = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', target, position);
    await vscode.commands.executeCommand('editor.action.showReferences', target, position, locations ?? []);
  };
}
