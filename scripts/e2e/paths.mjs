// Where the end-to-end toolchain lives and which versions it pins. setup.mjs installs into these
// folders; run.mjs reads them. One place for these facts so the two never disagree.
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function cacheRoot() {
  if (process.env.KPP_E2E_CACHE) return path.resolve(process.env.KPP_E2E_CACHE);
  const xdgCache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(xdgCache, 'kube-packet-path-e2e');
}

/** Everything setup.mjs produces, derived from the cache root. */
export function toolPaths(root = cacheRoot()) {
  const nodeProject = path.join(root, `node-${NODE_VERSION}`);
  // The `node` npm package fetches its platform binary package into its own node_modules.
  const nodeHome = path.join(
    nodeProject,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${archName()}`,
  );
  const codeServerProject = path.join(root, `code-server-${CODE_SERVER_VERSION}`);
  const codeServerHome = path.join(codeServerProject, 'node_modules', 'code-server');
  return {
    root,
    nodeProject,
    nodeHome,
    nodeBin: path.join(nodeHome, 'bin', 'node'),
    codeServerProject,
    codeServerHome,
    codeServerEntry: path.join(codeServerHome, 'out', 'node', 'entry.js'),
    marker: path.join(root, `ready-node-${NODE_VERSION}-code-server-${CODE_SERVER_VERSION}.json`),
  };
}

function archName() {
  return process.arch === 'x64' ? 'x64' : process.arch;
}
