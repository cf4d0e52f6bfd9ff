/**
 * The Kubernetes objects a lab publishes (Namespaces, Nodes, Pods, Services, Endpoints, EndpointSlices), built
 * from the plan as a real cluster would show them. The same objects feed the rule generator, so the API and the
 * kernel rules can never disagree. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../apiserver';
import type { LabPlan, NodePlan, PodPlan, ServicePlan } from './plan';

/** Versions the lab's nodes report, by API mode. */
const VERSIONS = { current: 'v1.32.0', 'legacy-1.20': 'v1.20.15' } as const;

export function uid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('/')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function meta(
  plan: LabPlan,
  kind: string,
  name: string,
  namespace: string | undefined,
  created: string,
  extra: Record<string, unknown> = {},
) {
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    uid: uid(plan.runId, kind, namespace ?? '', name),
    resourceVersion: '1',
    creationTimestamp: created,
    ...extra,
  };
}

export function namespaceObjects(plan: LabPlan, created: string): KubeObject[] {
  const names = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
  for (const p of plan.pods) names.add(p.pod.namespace);
  for (const s of plan.services) names.add(s.service.namespace);
  return [...names].map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: meta(plan, 'Namespace', name, undefined, created, { labels: { 'kubernetes.io/metadata.name': name } }),
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}

export function nodeObjects(plan: LabPlan, created: string): KubeObject[] {
  const version = VERSIONS[plan.apiMode];
  return plan.nodes.map(({ node }) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: meta(plan, 'Node', node.name, undefined, created, {
      labels: {
        'kubernetes.io/hostname': node.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
      },
    }),
    spec: { podCIDR: node.podCidr, podCIDRs: [node.podCidr] },
    status: {
      addresses: [
        { type: 'InternalIP', address: node.ip },
        { type: 'Hostname', address: node.name },
      ],
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: created,
          lastTransitionTime: created,
        },
      ],
      nodeInfo: {
        kubeletVersion: version,
        kubeProxyVersion: version,
        containerRuntimeVersion: 'containerd://1.7.0',
        kernelVersion: 'lab',
        osImage: 'kpp lab',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  }));
}

export function podObject(plan: LabPlan, p: PodPlan, created: string): KubeObject {
  const ready = p.ready ? 'True' : 'False';
  const condition = (type: string, status: string) => ({
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: created,
  });
  const ports = p.listeners.map((l) => ({
    containerPort: l.port,
    protocol: l.kind === 'dns-udp' || l.kind === 'udp-echo' ? 'UDP' : 'TCP',
  }));
  const image = `kpp-lab/${p.pod.role}${p.pod.distroless ? '-distroless' : ''}:1`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(plan, 'Pod', p.pod.name, p.pod.namespace, created, { labels: { ...p.pod.labels } }),
    spec: {
      nodeName: p.node.name,
      containers: [{ name: p.pod.container, image, ...(ports.length ? { ports } : {}) }],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
    },
    status: {
      phase: 'Running',
      conditions: [
        condition('Initialized', 'True'),
        condition('Ready', ready),
        condition('ContainersReady', ready),
        condition('PodScheduled', 'True'),
      ],
      hostIP: p.node.ip,
      hostIPs: [{ ip: p.node.ip }],
      podIP: p.pod.ip,
      podIPs: [{ ip: p.pod.ip }],
      startTime: created,
      containerStatuses: [
        {
          name: p.pod.container,
          image,
          imageID: '',
          ready: p.ready,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: created } },
        },
      ],
      qosClass: 'BestEffort',
    },
  };
}

/** The kube-proxy image the lab's kube-proxy pods claim to run, by API mode. */
export function kubeProxyImage(plan: LabPlan): string {
  return `registry.k8s.io/kube-proxy:${VERSIONS[plan.apiMode]}`;
}

/**
 * A node's kube-proxy pod as kubeadm's DaemonSet makes it: kube-system, hostNetwork, privileged, pinned to the
 * node, podIP = the node's IP. The lab runs its exec in the node's namespace with a kube-proxy image's tools.
 */
export function kubeProxyPodObject(plan: LabPlan, n: NodePlan, created: string): KubeObject | undefined {
  if (!n.kubeProxyPod) return undefined;
  const name = n.kubeProxyPod;
  const image = kubeProxyImage(plan);
  const condition = (type: string) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: created });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: meta(plan, 'Pod', name, 'kube-system', created, {
      generateName: 'kube-proxy-',
      labels: {
        'controller-revision-hash': '7d9b9b6c4c',
        'k8s-app': 'kube-proxy',
        'pod-template-generation': '1',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'kube-proxy',
          uid: uid(plan.runId, 'DaemonSet', 'kube-system', 'kube-proxy'),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    }),
    spec: {
      nodeName: n.node.name,
      hostNetwork: true,
      dnsPolicy: 'ClusterFirst',
      priorityClassName: 'system-node-critical',
      serviceAccountName: 'kube-proxy',
      restartPolicy: 'Always',
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'kube-proxy',
          image,
          command: [
            '/usr/local/bin/kube-proxy',
            '--config=/var/lib/kube-proxy/config.conf',
            '--hostname-override=$(NODE_NAME)',
          ],
          env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
          securityContext: { privileged: true },
          volumeMounts: [
            { name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' },
            { name: 'xtables-lock', mountPath: '/run/xtables.lock' },
            { name: 'lib-modules', mountPath: '/lib/modules', readOnly: true },
          ],
        },
      ],
      volumes: [
        { name: 'kube-proxy', configMap: { name: 'kube-proxy', defaultMode: 420 } },
        { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
        { name: 'lib-modules', hostPath: { path: '/lib/modules', type: '' } },
      ],
    },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
      hostIP: n.node.ip,
      hostIPs: [{ ip: n.node.ip }],
      podIP: n.node.ip,
      podIPs: [{ ip: n.node.ip }],
      startTime: created,
      containerStatuses: [
        {
          name: 'kube-proxy',
          image,
          imageID: '',
          ready: true,
          started: true,
          restartCount: 0,
          state: { running: { startedAt: created } },
        },
      ],
      qosClass: 'BestEffort',
    },
  };
}

export function serviceObject(plan: LabPlan, s: ServicePlan, created: string): KubeObject {
  const svc = s.service;
  const labels =
    svc.endpointPods && s.key === 'default/kubernetes' ? { component: 'apiserver', provider: 'kubernetes' } : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(plan, 'Service', svc.name, svc.namespace, created, labels ? { labels } : {}),
    spec: {
      type: svc.type,
      clusterIP: svc.clusterIP,
      clusterIPs: [svc.clusterIP],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      internalTrafficPolicy: svc.internalTrafficPolicy,
      ...(svc.type === 'NodePort' ? { externalTrafficPolicy: 'Cluster' } : {}),
      ...(svc.selector ? { selector: { ...svc.selector } } : {}),
      ports: svc.ports.map((p) => ({
        ...(p.name ? { name: p.name } : {}),
        protocol: p.protocol,
        port: p.port,
        targetPort: p.targetPort,
        ...(p.nodePort !== undefined ? { nodePort: p.nodePort } : {}),
      })),
    },
    status: { loadBalancer: {} },
  };
}

function targetRef(plan: LabPlan, s: ServicePlan, p: PodPlan) {
  // Selector-less Services (the API server's own `kubernetes`) list bare IPs, as a real cluster shows them.
  if (!s.service.selector) return {};
  return {
    targetRef: {
      kind: 'Pod',
      namespace: p.pod.namespace,
      name: p.pod.name,
      uid: uid(plan.runId, 'Pod', p.pod.namespace, p.pod.name),
    },
  };
}

export function endpointsObject(plan: LabPlan, s: ServicePlan, created: string): KubeObject {
  const address = (p: PodPlan) => ({ ip: p.pod.ip, nodeName: p.node.name, ...targetRef(plan, s, p) });
  const ready = s.endpoints.filter((p) => p.ready).map(address);
  const notReady = s.endpoints.filter((p) => !p.ready).map(address);
  const ports = s.service.ports.map((p) => ({
    ...(p.name ? { name: p.name } : {}),
    port: p.targetPort,
    protocol: p.protocol,
  }));
  const subset = {
    ...(ready.length ? { addresses: ready } : {}),
    ...(notReady.length ? { notReadyAddresses: notReady } : {}),
    ports,
  };
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: meta(plan, 'Endpoints', s.service.name, s.service.namespace, created),
    ...(s.endpoints.length ? { subsets: [subset] } : {}),
  };
}

export function endpointSliceObject(plan: LabPlan, s: ServicePlan, created: string): KubeObject {
  const managedByApiserver = !s.service.selector;
  const name = managedByApiserver ? s.service.name : `${s.service.name}-${uid(plan.runId, 'slice', s.key).slice(0, 5)}`;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: meta(plan, 'EndpointSlice', name, s.service.namespace, created, {
      labels: {
        'kubernetes.io/service-name': s.service.name,
        'endpointslice.kubernetes.io/managed-by': managedByApiserver
          ? 'endpointslicemirroring-controller.k8s.io'
          : 'endpointslice-controller.k8s.io',
      },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: s.service.name,
          uid: uid(plan.runId, 'Service', s.service.namespace, s.service.name),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    }),
    addressType: 'IPv4',
    endpoints: s.endpoints.map((p) => ({
      addresses: [p.pod.ip],
      conditions: { ready: p.ready, serving: p.ready, terminating: false },
      nodeName: p.node.name,
      ...targetRef(plan, s, p),
    })),
    ports: s.service.ports.map((p) => ({
      ...(p.name ? { name: p.name } : { name: '' }),
      port: p.targetPort,
      protocol: p.protocol,
    })),
  };
}

/** Everything the lab's API server serves at start. */
export function clusterObjects(plan: LabPlan, created: string): KubeObject[] {
  return [
    ...namespaceObjects(plan, created),
    ...nodeObjects(plan, created),
    ...plan.pods.map((p) => podObject(plan, p, created)),
    ...plan.nodes.flatMap((n) => kubeProxyPodObject(plan, n, created) ?? []),
    ...serviceObjects(plan, created, () => true),
  ];
}

/** Services with their Endpoints and EndpointSlices, those `keep` accepts. */
export function serviceObjects(plan: LabPlan, created: string, keep: (s: ServicePlan) => boolean): KubeObject[] {
  return plan.services
    .filter(keep)
    .flatMap((s) => [
      serviceObject(plan, s, created),
      endpointsObject(plan, s, created),
      endpointSliceObject(plan, s, created),
    ]);
}

/** A `v1` List, the JSON form the engine's `parseCluster` reads. */
export function asList(items: KubeObject[]): {
  apiVersion: 'v1';
  kind: 'List';
  metadata: Record<string, never>;
  items: KubeObject[];
} {
  return { apiVersion: 'v1', kind: 'List', metadata: {}, items };
}
