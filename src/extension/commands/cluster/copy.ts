/** Clipboard commands of the cluster half: a Service's ClusterIP, the last diagnosis report. */
import * as vscode from 'vscode';
import type { Ctx } from '../../ctx';
import type { ClusterRow } from '../../cluster/tree';

export function copyClusterIPCommand() {
  return async (arg?: ClusterRow): Promise<string | undefined> => {
    if (!arg || (arg.kind !== 'service' && arg.kind !== 'port' && arg.kind !== 'endpoint')) return undefined;
    const ip = arg.service.clusterIP;
    await vscode.env.clipboard.writeText(ip);
    return ip;
  };
}

export function copyReportCommand(ctx: Ctx) {
  return () => ctx.reports.copy();
}
