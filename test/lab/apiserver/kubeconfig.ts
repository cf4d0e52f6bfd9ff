// A kubeconfig for the lab: cluster, user and context all named kpp-lab, CA embedded, bearer token.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const labContextName = 'kpp-lab';

export interface KubeconfigInput {
  server: string;
  caPem: string;
  token: string;
}

/** YAML with JSON-quoted scalars (valid YAML, read by kubectl and client-node alike). */
export function kubeconfigYaml({ server, caPem, token }: KubeconfigInput): string {
  const q = (s: string) => JSON.stringify(s);
  const name = q(labContextName);
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${q(server)}`,
    `    certificate-authority-data: ${q(Buffer.from(caPem).toString('base64'))}`,
    'users:',
    `- name: ${name}`,
    '  user:',
    `    token: ${q(token)}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    'preferences: {}',
    '',
  ].join('\n');
}

export function writeKubeconfigFile(file: string, input: KubeconfigInput): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, kubeconfigYaml(input), { mode: 0o600 });
  return file;
}
