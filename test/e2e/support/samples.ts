// The sample dumps in test/e2e/fixtures/workspace, which run.mjs copies into a fresh workspace folder
// for every run. Host tests and UI checks name them through this one list.
export const SAMPLES = {
  /** iptables-save of a node: filter + nat, the `demo/web:http` Service with 3 endpoints, `default/kubernetes`. */
  iptables: 'kube-proxy.iptables',
  /** ipvsadm -Ln of a node in IPVS mode with the same Services. */
  ipvs: 'kube-proxy.ipvs',
  /** `ip route get 172.16.0.1` inside a pod behind a busybox prompt, kept as a `.txt` (a ticket attachment). */
  routeGetTxt: 'pod-route-get.txt',
  /** A ticket's notes with three iptables rules among prose: may be a dump, so it is offered, not switched. */
  incidentNotes: 'incident-notes.txt',
  /** A node's firewall script of `sudo iptables` commands, a `.sh` (VS Code reads it as Shell Script). */
  firewallScript: 'node-firewall.sh',
} as const;

/** `publisher.name` from package.json. */
export const EXTENSION_ID = 'kube-packet-path.kube-packet-path';
