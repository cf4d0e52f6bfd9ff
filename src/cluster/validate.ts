/**
 * Names and addresses from the cluster or the command line, checked before they go into a URL, an argv or a
 * report. A name with shell metacharacters never gets further than here.
 */
import { isIpText, isNamespaceName, isPortNumber, isServiceName, isSubdomainName } from '../core/kube/validate';
import { ClusterError, errorText, hintText } from './errors';

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
    errorText('invalid-namespace', { value: show(v) }),
    hintText('invalid-namespace'),
  );
}

export function checkServiceName(v: unknown): string {
  if (isServiceName(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-service', { value: show(v) }), hintText('invalid-service'));
}

export function checkPodName(v: unknown): string {
  if (isSubdomainName(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-pod', { value: show(v) }), hintText('invalid-pod'));
}

export function checkNodeName(v: unknown): string {
  if (isSubdomainName(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-node', { value: show(v) }), hintText('invalid-node'));
}

export function checkContainerName(v: unknown): string {
  if (typeof v === 'string' && v.length <= 63 && DNS1123_LABEL.test(v)) return v;
  throw new ClusterError(
    'invalid-name',
    errorText('invalid-container', { value: show(v) }),
    hintText('invalid-container'),
  );
}

export function checkIp(v: unknown): string {
  if (isIpText(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-ip', { value: show(v) }), '');
}

export function checkPort(v: unknown): number {
  if (isPortNumber(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-port', { value: show(v) }), '');
}

/** An image reference for a debug container: registry/name[:tag][@digest], no spaces or shell characters. */
export function checkImage(v: unknown): string {
  if (typeof v === 'string' && v.length <= 512 && /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/.test(v)) return v;
  throw new ClusterError('invalid-name', errorText('invalid-image', { value: show(v) }), hintText('invalid-image'));
}
