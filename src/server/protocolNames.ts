/**
 * The names of the custom requests and of the extension's commands, as plain strings: the analysis worker needs
 * them without the protocol library (protocol.ts builds its request types from them, and re-exports COMMANDS).
 */

/** Methods of the custom requests (protocol.ts: their params and results). */
export const METHODS = {
  tracePacket: 'kubePacketPath/tracePacket',
  listTargets: 'kubePacketPath/listTargets',
  detectLanguage: 'kubePacketPath/detectLanguage',
} as const;

/**
 * The commands the extension contributes (package.json `contributes.commands`), by what they do: the extension
 * registers every one, the server's code lenses invoke two. test/unit/server/contributes.test.ts holds them equal.
 */
export const COMMANDS = {
  detectLanguage: 'kubePacketPath.detectLanguage',
  tracePacket: 'kubePacketPath.tracePacket',
  showServerOutput: 'kubePacketPath.showServerOutput',
  showReferences: 'kubePacketPath.showReferences',
  diagnoseService: 'kubePacketPath.diagnoseService',
  diagnoseFromPod: 'kubePacketPath.diagnoseFromPod',
  diagnoseFromHere: 'kubePacketPath.diagnoseFromHere',
  switchContext: 'kubePacketPath.switchContext',
  switchNamespace: 'kubePacketPath.switchNamespace',
  captureNodeRules: 'kubePacketPath.captureNodeRules',
  traceInNodeRules: 'kubePacketPath.traceInNodeRules',
  copyClusterIP: 'kubePacketPath.copyClusterIP',
  copyReport: 'kubePacketPath.copyReport',
  refreshCluster: 'kubePacketPath.cluster.refresh',
  filterCluster: 'kubePacketPath.cluster.filter',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];
