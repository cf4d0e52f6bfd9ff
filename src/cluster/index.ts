/** The cluster half's I/O (kubeconfig, reads, watches, exec, debug pods, node capture, diagnosis). No `vscode`. */
export * from './errors';
export { ApiTransport, DEFAULT_TIMEOUT_MS, type CallOptions } from './http';
export { execInPod, readExecStatus, type ExecOptions, type ExecResult } from './exec';
export {
  kubeconfigFiles,
  loadKubeconfig,
  readContexts,
  type ContextEntry,
  type KubeconfigOptions,
  type LoadedKubeconfig,
} from './kubeconfig';
export * from './session';
export * from './validate';
export * from './debug';
export * from './capture';
export * from './diagnose';
export * from './captureFiles';
