// Entry of dist/client-node.js: the part of @kubernetes/client-node this project uses (KubeConfig: kubeconfig
// parsing and every kind of credential), on its own so the CLI and the extension load it only when a cluster
// command runs (src/cluster/clientNode.ts). Exporting only KubeConfig lets esbuild leave out the generated API
// (1.8 MB instead of 15 MB).
export { KubeConfig } from '@kubernetes/client-node';
