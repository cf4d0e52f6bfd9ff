/**
 * @kubernetes/client-node 1.4.x is ESM-only while this code compiles to CommonJS: it is loaded once with a dynamic
 * import (esbuild inlines it into dist/cli.js and dist/extension.js; tsx and Node 20.19+ load it in tests).
 * Only its KubeConfig is used: it parses kubeconfig files and applies every kind of credential (token, token
 * file, client certificate, basic auth, exec plugins, auth providers) to a request's options. The requests
 * themselves are this folder's own (http.ts, exec.ts) so every call has a timeout, an AbortSignal and the
 * API's own Status message.
 */
import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

export type ClientNode = typeof k8s;
export type KubeConfig = k8s.KubeConfig;
export type KubeCluster = k8s.Cluster;
export type KubeUser = k8s.User;
export type KubeContext = k8s.Context;

let loaded: Promise<ClientNode> | undefined;

export function clientNode(): Promise<ClientNode> {
  loaded ??= import('@kubernetes/client-node');
  return loaded;
}
