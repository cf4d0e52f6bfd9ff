/** Every command, registered from one place; each is a small factory in its own file. */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { detectLanguageCommand } from './detectLanguage';
import { showReferencesCommand } from './showReferences';
import { tracePacketCommand } from './tracePacket';

export function registerCommands(ctx: Ctx): void {
  const commands: Record<string, (...args: never[]) => unknown> = {
    'kubePacketPath.detectLanguage': detectLanguageCommand(),
    'kubePacketPath.tracePacket': tracePacketCommand(ctx),
    'kubePacketPath.showReferences': showReferencesCommand(),
    'kubePacketPath.showServerOutput': () => ctx.output.show(true),
  };
  for (const [id, run] of Object.entries(commands)) ctx.push(vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown));
}
