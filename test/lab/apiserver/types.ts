// Public types of the lab API server (see /work/notes/lab-contract.md).

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

export interface ExecRequest {
  namespace: string;
  pod: string;
  container?: string;
  command: string[];
  stdin: boolean;
  tty: boolean;
}

export interface ExecProcess {
  stdout: NodeJS.ReadableStream;
  stderr: NodeJS.ReadableStream;
  stdin?: NodeJS.WritableStream;
  /** Resolves with the exit code (127 for "command not found", as runtimes report). */
  exited: Promise<number>;
  kill(): void;
}

/** Returns an ExecProcess, or throws ExecError (e.g. pod not found / container not running) that the server maps to a v1.Status. */
export type ExecHandler = (req: ExecRequest) => ExecProcess;

export type ServerMode = 'current' | 'legacy-1.20';

export interface LabApiServerOptions {
  /** Namespaces, Nodes, Pods, Services, Endpoints, EndpointSlices. */
  objects: KubeObject[];
  /** The objects are the server's to keep (not copied at start: faster for tens of thousands). Default false. */
  adoptObjects?: boolean;
  /** Absent: an API-only lab (exec answers 400 BadRequest on every path). */
  exec?: ExecHandler;
  /** Called on POST pods (after validation); returns the pod with status filled (phase Running, podIP, hostIP), or throws. */
  createPod?: (pod: KubeObject) => Promise<KubeObject>;
  deletePod?: (namespace: string, name: string) => Promise<void>;
  /** Ephemeral containers: PATCH/PUT pods/{name}/ephemeralcontainers. */
  addEphemeralContainer?: (namespace: string, pod: string, container: Record<string, unknown>) => Promise<void>;
  /** legacy-1.20: gitVersion v1.20.x, no discovery.k8s.io/v1 (v1beta1 only), no aggregated discovery. */
  mode?: ServerMode;
  /** Default 127.0.0.1; only loopback addresses are accepted. */
  host?: string;
  /** Default 0 (random). */
  port?: number;
  /** Where the CA/cert/key (and kubeconfigs written by tests) go. */
  workDir: string;
  /** The API server goes away (stops listening) once this many requests have been answered; see downForMs. */
  goAwayAfterRequests?: number;
  /** With goAwayAfterRequests: listen again after this long; absent: stay away until resume(). */
  downForMs?: number;
  /** One line per request (method, path, status, duration). Never receives credentials. Default: silent. */
  log?: (line: string) => void;
}

export interface FaultSwitches {
  /** Every request answers 401. */
  unauthorized: boolean;
  /** pods/exec answers 403 Forbidden. */
  forbidExec: boolean;
  /** Every answer is held back this long. */
  delayMs: number;
}

export interface LabStore {
  upsert(o: KubeObject): void;
  remove(kind: string, ns: string | undefined, name: string): void;
  list(kind: string, ns?: string): KubeObject[];
}

export interface LabApiServer {
  url: string;
  port: number;
  token: string;
  /** The bearer token of user "viewer": get/list/watch only; exec and writes answer 403 Forbidden. */
  viewerToken: string;
  caPem: string;
  /**
   * Writes a kubeconfig (cluster/user/context kpp-lab, CA embedded, bearer token; current context kpp-lab) with a
   * second user and context `kpp-lab-viewer` (the viewer token) and returns its path. `currentContext` picks the
   * context kubectl uses by default (kpp-lab unless given).
   */
  writeKubeconfig(path: string, options?: { currentContext?: string }): string;
  faults: FaultSwitches;
  /** Simulates the server going away: destroys open sockets and stops listening. */
  goAway(): Promise<void>;
  /** Like goAway (connections cut, connection refused), but resume() listens again on the same port. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  /** The N-th request from now is answered, then the server suspends (resumes after downForMs when given). */
  goAwayAfter(requests: number, downForMs?: number): void;
  /** False while suspended (or going away). */
  readonly listening: boolean;
  /** Mutations notify watchers. */
  store: LabStore;
  close(): Promise<void>;
}
