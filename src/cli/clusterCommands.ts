/**
 * The commands that talk to a cluster. The CLI bundle loads them only when one runs (scripts/build.mjs makes them
 * dist/cli-cluster.js): a dump command starts without their HTTP, WebSocket and diagnosis code.
 */
import { runCapture } from './commands/capture';
import { runDiagnose } from './commands/diagnose';
import { runServices } from './commands/services';
import { runCommand } from './run';

export const CLUSTER_COMMANDS = { services: runServices, diagnose: runDiagnose, capture: runCapture };

export type ClusterCommand = keyof typeof CLUSTER_COMMANDS;

/** This bundle's own UsageError is the one its commands throw: the failure is reported here. */
export function runClusterCommand(name: ClusterCommand, argv: string[]): number | Promise<number> {
  return runCommand(name, CLUSTER_COMMANDS[name], argv);
}
