/**
 * The Cluster view: Context > Namespaces > Services > Ports > Endpoints, and a Nodes folder. Rows are built when
 * their parent opens (a namespace with 5,000 Services costs nothing until it is expanded), from the state the
 * watches keep. A failure is a row of its own, where it happened, with Retry.
 */
import * as vscode from 'vscode';
import { onDidChangeUiLang, uiLang } from '../config';
import { t } from '../../core/i18n/catalog';
import { joinHostPort } from '../../core/common/ip';
import {
  serviceKey,
  type EndpointInfo,
  type NodeInfo,
  type ServiceInfo,
  type ServicePortSpec,
} from '../../core/kube/types';
import { ALL_NAMESPACES, type ClusterError } from '../../cluster';
import { COMMANDS } from '../../server/protocol';
import type { ClusterState, Section } from './state';

export const CLUSTER_VIEW_ID = 'kubePacketPath.cluster';

export type ClusterRow =
  | { kind: 'context' }
  | { kind: 'message'; id: string; text: string; tooltip?: string; error?: boolean; retry?: boolean }
  | { kind: 'namespace'; namespace: string }
  | { kind: 'service'; service: ServiceInfo }
  | { kind: 'port'; service: ServiceInfo; port: ServicePortSpec }
  | { kind: 'endpoint'; service: ServiceInfo; port: ServicePortSpec; endpoint: EndpointInfo }
  | { kind: 'nodes' }
  | { kind: 'node'; node: NodeInfo };

function portText(p: ServicePortSpec): string {
  return `${p.port}/${p.protocol}`;
}

function errorRow(section: Section, e: ClusterError): ClusterRow {
  return {
    kind: 'message',
    id: `error:${section}`,
    text: e.messageIn(uiLang()),
    tooltip: e.hint ? `${e.messageIn(uiLang())}\n\n${e.hintIn(uiLang())}` : e.messageIn(uiLang()),
    error: true,
    retry: true,
  };
}

export class ClusterTree implements vscode.TreeDataProvider<ClusterRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ClusterRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly state: ClusterState) {
    const redraw = () => this.changed.fire(undefined);
    this.subscription = vscode.Disposable.from(state.onDidChange(redraw), onDidChangeUiLang(redraw));
  }

  getChildren(row?: ClusterRow): ClusterRow[] {
    const s = this.state;
    if (!row) {
      const sessionError = s.errors.get('session');
      if (sessionError) return [errorRow('session', sessionError)];
      if (!s.current) return [{ kind: 'message', id: 'connecting', text: t(uiLang(), 'ui.cluster.connecting') }];
      return [{ kind: 'context' }];
    }
    switch (row.kind) {
      case 'context': {
        const rows: ClusterRow[] = [];
        const serviceError = s.errors.get('services');
        if (serviceError) rows.push(errorRow('services', serviceError));
        const endpointError = s.errors.get('endpoints');
        if (endpointError) rows.push(errorRow('endpoints', endpointError));
        if (!serviceError && !s.synced.has('services'))
          rows.push({ kind: 'message', id: 'loading', text: t(uiLang(), 'ui.cluster.loading') });
        for (const namespace of s.namespaces()) rows.push({ kind: 'namespace', namespace });
        if (s.synced.has('services') && s.services.size === 0 && !serviceError)
          rows.push({ kind: 'message', id: 'empty', text: t(uiLang(), 'ui.cluster.empty') });
        rows.push({ kind: 'nodes' });
        return rows;
      }
      case 'namespace':
        return s.servicesIn(row.namespace).map((service): ClusterRow => ({ kind: 'service', service }));
      case 'service':
        return row.service.ports.map((port): ClusterRow => ({ kind: 'port', service: row.service, port }));
      case 'port': {
        const endpoints = s.endpointsOf(serviceKey(row.service.namespace, row.service.name))[row.port.name] ?? [];
        if (endpoints.length === 0)
          return [
            {
              kind: 'message',
              id: `none:${row.service.namespace}/${row.service.name}:${row.port.name}`,
              text: t(uiLang(), 'ui.cluster.no-endpoints'),
            },
          ];
        return endpoints.map((endpoint): ClusterRow => ({
          kind: 'endpoint',
          service: row.service,
          port: row.port,
          endpoint,
        }));
      }
      case 'nodes': {
        void s.loadKubeProxyPods();
        const rows: ClusterRow[] = [];
        const nodeError = s.errors.get('nodes');
        if (nodeError) rows.push(errorRow('nodes', nodeError));
        const podError = s.errors.get('pods');
        if (podError) rows.push(errorRow('pods', podError));
        for (const node of [...s.nodes.values()].sort((a, b) => a.name.localeCompare(b.name)))
          rows.push({ kind: 'node', node });
        return rows;
      }
      default:
        return [];
    }
  }

  getTreeItem(row: ClusterRow): vscode.TreeItem {
    const s = this.state;
    const none = vscode.TreeItemCollapsibleState.None;
    const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
    switch (row.kind) {
      case 'context': {
        const session = s.current;
        const item = new vscode.TreeItem(session?.context ?? '', vscode.TreeItemCollapsibleState.Expanded);
        item.id = `context:${session?.context ?? ''}`;
        const scope = s.namespaceScope === ALL_NAMESPACES ? t(uiLang(), 'ui.cluster.all-namespaces') : s.namespaceScope;
        item.description = s.filter ? `${scope} · ${t(uiLang(), 'ui.cluster.filter', { filter: s.filter })}` : scope;
        item.tooltip = session ? `${session.context}\n${session.info.server}\n${session.info.user}` : undefined;
        item.iconPath = new vscode.ThemeIcon('server-environment');
        item.contextValue = 'context';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(row.text, none);
        item.id = row.id;
        item.tooltip = row.tooltip ?? row.text;
        item.iconPath = new vscode.ThemeIcon(
          row.error ? 'error' : 'info',
          row.error ? new vscode.ThemeColor('errorForeground') : undefined,
        );
        if (row.retry) {
          item.contextValue = 'retry';
          item.description = t(uiLang(), 'ui.cluster.retry');
          item.command = { command: COMMANDS.refreshCluster, title: t(uiLang(), 'ui.cluster.retry') };
        }
        return item;
      }
      case 'namespace': {
        const item = new vscode.TreeItem(row.namespace, collapsed);
        item.id = `ns:${row.namespace}`;
        item.description = String(s.servicesIn(row.namespace).length);
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.contextValue = 'namespace';
        return item;
      }
      case 'service': {
        const svc = row.service;
        const item = new vscode.TreeItem(svc.name, svc.ports.length ? collapsed : none);
        item.id = `svc:${svc.namespace}/${svc.name}`;
        item.description = `${svc.type} ${svc.clusterIP || '-'} ${svc.ports.map(portText).join(',')}`;
        const warn = s.lacksReadyEndpoints(svc);
        item.iconPath = warn
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
          : new vscode.ThemeIcon('symbol-interface');
        const tip = new vscode.MarkdownString(
          `**${svc.namespace}/${svc.name}** (${svc.type})\n\n${t(uiLang(), 'ui.cluster.cluster-ip', { ips: svc.clusterIPs.join(', ') || svc.clusterIP || '-' })}\n\n${svc.ports.map((p) => `- ${p.name || '-'} ${portText(p)} → ${p.targetPort ?? p.port}${p.nodePort ? ` (NodePort ${p.nodePort})` : ''}`).join('\n')}`,
        );
        if (warn) tip.appendMarkdown(`\n\n$(warning) ${t(uiLang(), 'ui.cluster.none-ready')}`);
        tip.supportThemeIcons = true;
        item.tooltip = tip;
        item.contextValue = svc.clusterIP && svc.clusterIP !== 'None' ? 'service.clusterIP' : 'service';
        return item;
      }
      case 'port': {
        const p = row.port;
        const item = new vscode.TreeItem(`${p.name ? `${p.name} ` : ''}${portText(p)}`, collapsed);
        item.id = `port:${row.service.namespace}/${row.service.name}:${p.name}:${p.port}/${p.protocol}`;
        item.description = `→ ${p.targetPort ?? p.port}${p.nodePort ? ` · NodePort ${p.nodePort}` : ''}`;
        item.iconPath = new vscode.ThemeIcon('plug');
        item.contextValue = 'port';
        return item;
      }
      case 'endpoint': {
        const e = row.endpoint;
        const item = new vscode.TreeItem(joinHostPort(e.ip, e.port), none);
        item.id = `ep:${row.service.namespace}/${row.service.name}:${row.port.name}:${e.ip}:${e.port}`;
        const condition = e.terminating
          ? t(uiLang(), 'ui.cluster.endpoint.terminating')
          : e.ready
            ? t(uiLang(), 'ui.cluster.endpoint.ready')
            : e.serving
              ? t(uiLang(), 'ui.cluster.endpoint.serving')
              : t(uiLang(), 'ui.cluster.endpoint.not-ready');
        item.description = [condition, e.pod, e.nodeName].filter(Boolean).join(' · ');
        item.tooltip = `${joinHostPort(e.ip, e.port)} ${e.protocol}\nready: ${e.ready} serving: ${e.serving} terminating: ${e.terminating}${e.pod ? `\npod: ${row.service.namespace}/${e.pod}` : ''}${e.nodeName ? `\nnode: ${e.nodeName}` : ''}`;
        item.iconPath = new vscode.ThemeIcon(
          e.ready ? 'pass' : 'circle-slash',
          e.ready ? undefined : new vscode.ThemeColor('problemsWarningIcon.foreground'),
        );
        item.contextValue = e.pod ? 'endpoint.pod' : 'endpoint';
        return item;
      }
      case 'nodes': {
        const item = new vscode.TreeItem(t(uiLang(), 'ui.cluster.nodes'), collapsed);
        item.id = 'nodes';
        item.description = s.synced.has('nodes') ? String(s.nodes.size) : '';
        item.iconPath = new vscode.ThemeIcon('vm');
        return item;
      }
      case 'node': {
        const n = row.node;
        const item = new vscode.TreeItem(n.name, none);
        item.id = `node:${n.name}`;
        const proxy = s.kubeProxyPods?.get(n.name);
        item.description = [n.internalIPs.join(','), n.podCIDRs.join(','), proxy].filter(Boolean).join(' · ');
        item.tooltip = `${n.name}\nInternalIP: ${n.internalIPs.join(', ') || '-'}\n${t(uiLang(), 'ui.cluster.pod-cidr', { cidrs: n.podCIDRs.join(', ') || '-' })}\nkube-proxy: ${proxy ?? '-'}`;
        item.iconPath = new vscode.ThemeIcon('server');
        item.contextValue = 'node';
        return item;
      }
    }
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
