// The sample dumps in test/e2e/fixtures/workspace, which run.mjs copies into a fresh workspace folder
// for every run. Host tests and UI checks name them through this one list.
export const SAMPLES = {
  /** iptables-save of a node: filter + nat, the `demo/web:http` Service with 3 endpoints, `default/kubernetes`. */
  iptables: 'kube-proxy.iptables',
  /** ipvsadm -Ln of a node in IPVS mode with the same Services. */
  ipvs: 'kube-proxy.ipvs',
} as const;

/** `publisher.name` from package.json. */
export const EXTENSION_ID = 'kube-packet-path.kube-packet-path';
