// The lab's Kubernetes API server (contract: /work/notes/lab-contract.md).
export { startLabApiServer } from './server';
export { ExecError } from './status';
export { labContextName, viewerContextName } from './kubeconfig';
export { viewerUser } from './server';
export type {
  ExecHandler,
  ExecProcess,
  ExecRequest,
  FaultSwitches,
  KubeObject,
  LabApiServer,
  LabApiServerOptions,
  LabStore,
  ServerMode,
} from './types';
