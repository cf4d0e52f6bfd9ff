// A kubeconfig for the lab: cluster, user and context all named kpp-lab, CA embedded, bearer token; and a second
// user and context kpp-lab-viewer (read-only: exec and writes answer 403) on the same cluster.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const labContextName = 'kpp-lab';
/** The read-only user's context (and user entry) in the lab's kubeconfig. */
export const viewerContextName = 'kpp-lab-viewer';

export interface KubeconfigInput {
  server: string;
  caPem: string;
  token: string;
  /** Adds user and context kpp-lab-viewer with this token. */
  viewerToken?: string;
  /** Default kpp-lab. */
  currentContext?: string;
}

/** YAML with JSON-quoted scalars (valid YAML, read by kubectl and client-node alike). */
export function kubeconfigYaml({ server, caPem, token, viewerToken, currentContext }: KubeconfigInput): string {
  const q = (s: string) => JSON.stringify(s);
  const name = q(labContextName);
  const viewer = q(viewerContextName);
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
    ...(viewerToken ? [`- name: ${viewer}`, '  user:', `    token: ${q(viewerToken)}`] : []),
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    ...(viewerToken ? [`- name: ${viewer}`, '  context:', `    cluster: ${name}`, `    user: ${viewer}`] : []),
    `current-context: ${currentContext ? q(currentContext) : name}`,
    'preferences: {}',
    '',
  ].join('\n');
}

export function writeKubeconfigFile(file: string, input: KubeconfigInput): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, kubeconfigYaml(input), { mode: 0o600 });
  return file;
}
