/** Every command, registered from one place; each is a small factory in its own file. */
import * as vscode from 'vscode';
import { COMMANDS, type CommandId } from '../../server/protocol';
import type { Ctx } from '../ctx';
import type { LanguageDetection } from '../detection';
import { copyClusterIPCommand, copyReportCommand } from './cluster/copy';
import { diagnoseServiceCommand } from './cluster/diagnose';
import { captureNodeRulesCommand, traceInNodeRulesCommand } from './cluster/node';
import {
  filterServicesCommand,
  refreshClusterCommand,
  switchContextCommand,
  switchNamespaceCommand,
} from './cluster/scope';
import { detectLanguageCommand } from './detectLanguage';
import { showReferencesCommand } from './showReferences';
import { tracePacketCommand } from './tracePacket';

export function registerCommands(ctx: Ctx, detection: LanguageDetection): void {
  // Every declared command has its handler here, or the type check fails.
  const commands: Record<CommandId, (...args: never[]) => unknown> = {
    [COMMANDS.detectLanguage]: detectLanguageCommand(ctx, detection),
    [COMMANDS.tracePacket]: tracePacketCommand(ctx),
    [COMMANDS.showReferences]: showReferencesCommand(),
    [COMMANDS.showServerOutput]: () => ctx.output.show(true),
    [COMMANDS.diagnoseService]: diagnoseServiceCommand(ctx),
    [COMMANDS.diagnoseFromPod]: diagnoseServiceCommand(ctx),
    [COMMANDS.diagnoseFromHere]: diagnoseServiceCommand(ctx, true),
    [COMMANDS.switchContext]: switchContextCommand(ctx),
    [COMMANDS.switchNamespace]: switchNamespaceCommand(ctx),
    [COMMANDS.captureNodeRules]: captureNodeRulesCommand(ctx),
    [COMMANDS.traceInNodeRules]: traceInNodeRulesCommand(ctx),
    [COMMANDS.copyClusterIP]: copyClusterIPCommand(),
    [COMMANDS.copyReport]: copyReportCommand(ctx),
    [COMMANDS.refreshCluster]: refreshClusterCommand(ctx),
    [COMMANDS.filterCluster]: filterServicesCommand(ctx),
  };
  for (const [id, run] of Object.entries(commands))
    ctx.push(vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown));
}
