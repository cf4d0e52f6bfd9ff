/**
 * Opens the references peek for a chain (used by the code lens on Service chains): the rules that jump to it, as
 * many as the lens counts; the declaration the lens sits on is not one of them. Returns what the peek shows.
 */
import * as vscode from 'vscode';

export function showReferencesCommand() {
  return async (uri: string, line: number, character: number): Promise<vscode.Location[]> => {
    const target = vscode.Uri.parse(uri);
    const position = new vscode.Position(line, character);
    const found =
      (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', target, position)) ??
      [];
    const jumps = found.filter((l) => !(l.uri.toString() === target.toString() && l.range.contains(position)));
    await vscode.commands.executeCommand('editor.action.showReferences', target, position, jumps);
    return jumps;
  };
}
