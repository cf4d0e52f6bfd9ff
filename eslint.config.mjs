// ESLint flat config: typescript-eslint's recommended rules, Prettier owns formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The rules of the house that a tool checks (../docs: architecture): src/core holds the knowledge and does no I/O
// (no vscode, no network, files or processes, no Kubernetes client); src/cluster and src/server never import vscode.
const IO_MODULES = ['fs', 'child_process', 'net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'worker_threads', 'cluster'];
const vscodeOnly = { name: 'vscode', message: 'only src/extension (and its tests) may import vscode' };
const coreForbidden = [
  { name: 'vscode', message: 'src/core must not import vscode: the server, the CLI and the tests call the same functions' },
  ...IO_MODULES.flatMap((m) => [m, `node:${m}`]).map((name) => ({ name, message: 'src/core does no I/O: the caller passes the data in' })),
  { name: '@kubernetes/client-node', message: 'the Kubernetes client belongs to src/cluster' },
  { name: 'ws', message: 'network I/O belongs to src/cluster' },
];
const corePatterns = [
  { group: ['vscode-languageserver*', 'vscode-languageclient*'], message: 'src/core must not depend on the language server or client' },
  { group: ['**/cluster', '**/cluster/*', '**/server/*', '**/extension/*', '**/cli/*'], message: 'src/core is the bottom layer: it imports none of the faces' },
];

const coreDynamicLoads = ["CallExpression[callee.name='require']", 'ImportExpression'].map((selector) => ({
  selector,
  message: 'src/core imports statically (import ... from), so that the layering rules see what it loads',
}));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: coreForbidden, patterns: corePatterns }],
      // require() and import() would load what the import rules above cannot see.
      'no-restricted-syntax': ['error', ...coreDynamicLoads],
    },
  },
  { files: ['src/cluster/**/*.ts', 'src/server/**/*.ts', 'src/cli/**/*.ts'], rules: { 'no-restricted-imports': ['error', { paths: [vscodeOnly] }] } },
);
