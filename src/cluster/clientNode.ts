/**
 * @kubernetes/client-node 1.4.x is ESM-only while this code compiles to CommonJS: it is loaded once, on the first
 * cluster command, from dist/client-node.js in the bundles (scripts/build.mjs) and by a dynamic import in tests
 * (tsx and Node 20.19+).
 * Only its KubeConfig is used: it parses kubeconfig files and applies every kind of credential (token, token
 * file, client certificate, basic auth, exec plugins, auth providers) to a request's options. The requests
 * themselves are this folder's own (http.ts, exec.ts) so every call has a timeout, an AbortSignal and the
 * API's own Status message.
 */
import type * as k8s from '@kubernetes/client-node' with { 'resolution-mode': 'import' };

/** What is used of client-node: its KubeConfig (scripts/client-node-entry.mjs bundles just that). */
export type ClientNode = Pick<typeof k8s, 'KubeConfig'>;
export type KubeConfig = k8s.KubeConfig;
export type KubeCluster = k8s.Cluster;
export type KubeUser = k8s.User;
export type KubeContext = k8s.Context;

let loaded: Promise<ClientNode> | undefined;

/** Set by scripts/build.mjs in the CLI and extension bundles: the file name of the separate client-node bundle. */
declare const KPP_CLIENT_NODE_BUNDLE: string | undefined;

export function clientNode(): Promise<ClientNode> {
  loaded ??=
    typeof KPP_CLIENT_NODE_BUNDLE === 'string'
      ? // A bundle beside this one (dist/), loaded on first use.
        Promise.resolve(require(require('node:path').join(__dirname, KPP_CLIENT_NODE_BUNDLE)) as ClientNode)
      : import('@kubernetes/client-node');
  return loaded;
}
