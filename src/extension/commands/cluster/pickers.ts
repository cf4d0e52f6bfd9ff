/** Quick picks the cluster commands share: a Service of the tree's scope, a pod of a namespace, a node. */
import * as vscode from 'vscode';
import { uiLang } from '../../config';
import { t } from '../../../core/i18n/catalog';
import type { NodeInfo, PodInfo, ServiceInfo } from '../../../core/kube/types';
import { describeCreation, portChoice, type ClusterSession, type PlannedCreation } from '../../../cluster';
import type { ClusterState } from '../../cluster/state';

export async function pickService(
  state: ClusterState,
  session: ClusterSession,
  namespace?: string,
): Promise<ServiceInfo | undefined> {
  // Without the Cluster view open nothing is watched yet: list once.
  const known = state.synced.has('services')
    ? [...state.services.values()]
    : await session.listServices(namespace ?? state.namespaceScope);
  const services = known
    .filter((s) => !namespace || s.namespace === namespace)
    .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
  const picked = await vscode.window.showQuickPick(
    services.map((s) => ({
      label: s.name,
      description: `${s.namespace} · ${s.clusterIP || '-'} · ${s.ports.map((p) => `${p.port}/${p.protocol}`).join(',')}`,
      service: s,
    })),
    {
      title: t(uiLang(), 'ui.pick.service'),
      matchOnDescription: true,
      placeHolder: services.length ? undefined : t(uiLang(), 'ui.pick.service.none'),
    },
  );
  return picked?.service;
}

export async function pickPort(service: ServiceInfo): Promise<string | undefined> {
  if (service.ports.length <= 1) return service.ports[0] ? portChoice(service.ports[0]) : undefined;
  const picked = await vscode.window.showQuickPick(
    service.ports.map((p) => ({
      label: `${p.name ? `${p.name} ` : ''}${p.port}/${p.protocol}`,
      port: portChoice(p),
    })),
    { title: t(uiLang(), 'ui.pick.port') },
  );
  return picked?.port;
}

/** A running pod of the namespace to run the checks from (pods on the node network come last: they are not pod-network clients). */
export async function pickSourcePod(session: ClusterSession, namespace: string): Promise<PodInfo | undefined> {
  const pods = (await session.listPods(namespace)).filter((p) => !p.phase || p.phase === 'Running');
  pods.sort((a, b) => Number(a.hostNetwork) - Number(b.hostNetwork) || a.name.localeCompare(b.name));
  const picked = await vscode.window.showQuickPick(
    pods.map((p) => ({
      label: p.name,
      description: `${p.ip ?? '-'} · ${p.nodeName ?? '-'}${p.hostNetwork ? ' · hostNetwork' : ''}`,
      pod: p,
    })),
    {
      title: t(uiLang(), 'ui.pick.pod'),
      placeHolder: pods.length ? undefined : t(uiLang(), 'ui.pick.pod.none', { namespace }),
    },
  );
  return picked?.pod;
}

export async function pickNode(state: ClusterState, session: ClusterSession): Promise<NodeInfo | undefined> {
  const nodes = state.nodes.size ? [...state.nodes.values()] : await session.listNodes();
  const picked = await vscode.window.showQuickPick(
    nodes
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((n) => ({ label: n.name, description: `${n.internalIPs.join(',')} · ${n.podCIDRs.join(',')}`, node: n })),
    { title: t(uiLang(), 'ui.pick.node') },
  );
  return picked?.node;
}

/** Asks before anything is created in the cluster (a debug container or pod). */
export async function confirmCreate(creation: PlannedCreation): Promise<boolean> {
  const create = t(uiLang(), 'ui.pick.create');
  const answer = await vscode.window.showWarningMessage(
    t(uiLang(), 'ui.pick.create.confirm', { what: describeCreation(uiLang(), creation) }),
    { modal: true },
    create,
  );
  return answer === create;
}

/** Exec and pod creation are refused in an untrusted workspace; says so and returns false there. */
export function requireTrust(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(t(uiLang(), 'ui.pick.untrusted'));
  return false;
}
