/** Every command, registered from one place; each is a small factory in its own file. */
import * as vscode from 'vscode';
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
  const commands: Record<string, (...args: never[]) => unknown> = {
    'kubePacketPath.detectLanguage': detectLanguageCommand(ctx, detection),
    'kubePacketPath.tracePacket': tracePacketCommand(ctx),
    'kubePacketPath.showReferences': showReferencesCommand(),
    'kubePacketPath.showServerOutput': () => ctx.output.show(true),
    'kubePacketPath.diagnoseService': diagnoseServiceCommand(ctx),
    'kubePacketPath.diagnoseFromPod': diagnoseServiceCommand(ctx),
    'kubePacketPath.diagnoseFromHere': diagnoseServiceCommand(ctx, true),
    'kubePacketPath.switchContext': switchContextCommand(ctx),
    'kubePacketPath.switchNamespace': switchNamespaceCommand(ctx),
    'kubePacketPath.captureNodeRules': captureNodeRulesCommand(ctx),
    'kubePacketPath.traceInNodeRules': traceInNodeRulesCommand(ctx),
    'kubePacketPath.copyClusterIP': copyClusterIPCommand(),
    'kubePacketPath.copyReport': copyReportCommand(ctx),
    'kubePacketPath.cluster.refresh': refreshClusterCommand(ctx),
    'kubePacketPath.cluster.filter': filterServicesCommand(ctx),
  };
  for (const [id, run] of Object.entries(commands))
    ctx.push(vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown));
}
