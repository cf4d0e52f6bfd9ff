/**
 * Names and addresses from the cluster or the command line, checked before they go into a URL, an argv or a
 * report. A name with shell metacharacters never gets further than here.
 */
import { isIpText, isNamespaceName, isPortNumber, isServiceName, isSubdomainName } from '../core/kube/validate';
import { ClusterError } from './errors';

/** Container names are RFC 1123 labels. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function show(v: unknown): string {
  const s = typeof v === 'string' ? v : String(v);
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}...` : s);
}

export function checkNamespace(v: unknown): string {
  if (isNamespaceName(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid namespace name`,
    'namespaces are lowercase letters, digits and "-" (RFC 1123 label)',
  );
}

export function checkServiceName(v: unknown): string {
  if (isServiceName(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid Service name`,
    'Service names are lowercase letters, digits and "-", starting with a letter',
  );
}

export function checkPodName(v: unknown): string {
  if (isSubdomainName(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid pod name`,
    'pod names are lowercase letters, digits, "-" and "."',
  );
}

export function checkNodeName(v: unknown): string {
  if (isSubdomainName(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid node name`,
    'node names are lowercase letters, digits, "-" and "."',
  );
}

export function checkContainerName(v: unknown): string {
  if (typeof v === 'string' && v.length <= 63 && DNS1123_LABEL.test(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid container name`,
    'container names are lowercase letters, digits and "-"',
  );
}

export function checkIp(v: unknown, what = 'address'): string {
  if (isIpText(v)) return v;
  throw new ClusterError('invalid-name', `${show(v)} is not a valid IP ${what}`, '');
}

export function checkPort(v: unknown): number {
  if (isPortNumber(v)) return v;
  throw new ClusterError('invalid-name', `${show(v)} is not a port number (1-65535)`, '');
}

/** An image reference for a debug container: registry/name[:tag][@digest], no spaces or shell characters. */
export function checkImage(v: unknown): string {
  if (typeof v === 'string' && v.length <= 512 && /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/.test(v)) return v;
  throw new ClusterError(
    'invalid-name',
    `${show(v)} is not a valid image reference`,
    'e.g. nicolaka/netshoot or registry.example/netshoot:v0.13',
  );
}
