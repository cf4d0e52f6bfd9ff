import type { MessageBundle } from '../lang';

/**
 * Texts of the diagnosis (`src/core/diagnose`): verdict summaries, evidence sentences, next steps and the report's
 * headings. Keys are namespaced `diagnose.*`; every key exists in both languages (a unit test checks).
 * Summaries are built from a head (`diagnose.summary.*`) and, for the route bypass, a tail about the node counters.
 */
export const diagnoseMessages: MessageBundle = {
  en: {
    // Verdict titles (the report's heading).
    'diagnose.title.ok': 'OK',
    'diagnose.title.no-endpoints': 'No endpoints',
    'diagnose.title.endpoints-not-ready': 'Endpoints not ready',
    'diagnose.title.pod-route-bypasses-node': "The pod's route bypasses the node",
    'diagnose.title.clusterip-dnat-missing': 'No DNAT for the ClusterIP on the node',
    'diagnose.title.backend-unreachable': 'Backends unreachable',
    'diagnose.title.dns-failure': 'DNS failure',
    'diagnose.title.tool-missing': 'No tool to probe with',
    'diagnose.title.exec-forbidden': 'Exec forbidden',
    'diagnose.title.inconclusive': 'Inconclusive',

    // Summaries.
    'diagnose.summary.ok': 'From pod {pod}, {service} answers on {target}, and its name {name} resolves.',
    'diagnose.summary.ok.no-dns':
      'From pod {pod}, {service} answers on {target}; its name was not looked up (no nslookup or getent ran in the pod).',
    'diagnose.summary.tail.short-none':
      'But from namespace {namespace} its bare name {name} does not resolve (the search list tries {namespace} first): clients there must use {qualified}.',
    'diagnose.summary.tail.short-other':
      'But from namespace {namespace} its bare name {name} resolves to {addresses}, another Service (the search list tries {namespace} first): clients there must use {qualified}.',
    'diagnose.summary.ok.not-checkable':
      "From pod {pod}, {service} is right as far as it was checked: its endpoints are ready, the pod's route leads into the node and the node's rules DNAT {target} to {dnat}. Not checked: whether the endpoints receive and answer what is sent there ({proto} cannot be probed with a connect: a lost datagram and an unanswered one look alike).",
    'diagnose.summary.no-endpoints':
      'Service {service} has no endpoints for port {port}: nothing backs {target}, so kube-proxy rejects or drops connections to it.',
    'diagnose.summary.no-local-endpoints':
      'Service {service} has internalTrafficPolicy Local and no ready endpoint for port {port} on node {node}{nodes}: kube-proxy there drops connections to {target} from this pod.',
    'diagnose.summary.no-endpoints.no-match':
      'Service {service} has no endpoints for port {port}: its selector {selector} matches no pod in namespace {namespace}, so nothing backs {target} and kube-proxy rejects connections to it.',
    'diagnose.summary.no-endpoints.pods-match.one':
      "Service {service} has no endpoints for port {port} although its selector {selector} matches 1 pod ({running} running): a pod without an IP yet (Pending) is no endpoint, nor one whose containers lack the Service's targetPort {targetPort} when it is a port name. kube-proxy rejects connections to {target}.",
    'diagnose.summary.no-endpoints.pods-match.other':
      "Service {service} has no endpoints for port {port} although its selector {selector} matches {count} pods ({running} running): pods without an IP yet (Pending) are no endpoints, nor ones whose containers lack the Service's targetPort {targetPort} when it is a port name. kube-proxy rejects connections to {target}.",
    'diagnose.summary.no-endpoints.no-selector':
      'Service {service} has no selector and no endpoints for port {port}: nothing writes its endpoints but whoever manages them (Endpoints or EndpointSlices of its own), so kube-proxy rejects connections to {target}.',
    'diagnose.summary.no-endpoints.port-name':
      'Service {service} has no endpoints for port {port}: its Endpoints or EndpointSlices list endpoints for port name {names}, not {portName}; kube-proxy pairs them with the Service port by name, so nothing backs {target} and it rejects connections to it.',
    'diagnose.summary.no-endpoints.node':
      "The API's endpoints of {service} could not be read, but node {node}'s kube-proxy rules have port {port} as a Service without endpoints (line {line}): nothing backs {target}, so kube-proxy rejects connections to it.",
    'diagnose.summary.endpoints-not-ready.one':
      'Service {service} has 1 endpoint for port {port} and it is not ready: kube-proxy sends no traffic to {target}.',
    'diagnose.summary.endpoints-not-ready.other':
      'Service {service} has {count} endpoints for port {port} and none is ready: kube-proxy sends no traffic to {target}.',
    'diagnose.summary.endpoints-terminating.one':
      'Service {service} has no ready endpoint for port {port}; 1 terminating endpoint still serves: kube-proxy (1.28+) sends connections to {target} to it until it stops, then to nothing (a rollout or a scale-down with no new pod ready).',
    'diagnose.summary.endpoints-terminating.other':
      'Service {service} has no ready endpoint for port {port}; {count} terminating endpoints still serve: kube-proxy (1.28+) sends connections to {target} to them until they stop, then to nothing (a rollout or a scale-down with no new pod ready).',
    'diagnose.summary.external-name.dns':
      '{service} is an ExternalName Service, a DNS alias of {externalName}, and its name {name} does not resolve from the pod ({why}).',
    'diagnose.summary.bypass.gateway': "The pod's route to {dst} goes via {gateway} on {dev}, which is not this node",
    'diagnose.summary.bypass.gateway-kind':
      "The pod's route to {dst} goes via {gateway} on {dev}, a {kind} interface on the network beside the node, and {gateway} is not this node",
    'diagnose.summary.bypass.onlink':
      "The pod's route to {dst} leaves directly on {dev} ({kind}) without passing through this node",
    'diagnose.summary.bypass.onlink-plain':
      "The pod's route to {dst} leaves directly on {dev}, another interface than the pod's own, without passing through this node",
    'diagnose.summary.bypass.no-route':
      'The pod has no usable route to {dst} ({error}): the packet never leaves the pod',
    'diagnose.summary.bypass.counters-only':
      "The probe to {dst} never reached the node, although the pod's route does not say where it went",
    'diagnose.summary.tail.still':
      "; the node's {rule} for {target} counted 0 packets during the probe: kube-proxy's rules never saw it.",
    'diagnose.summary.tail.moved.one':
      "; the node's {rule} for {target} counted 1 packet during the probe, which another client can explain: kube-proxy's rules do not see this pod's packets.",
    'diagnose.summary.tail.moved.other':
      "; the node's {rule} for {target} counted {count} packets during the probe, which other clients can explain: kube-proxy's rules do not see this pod's packets.",
    'diagnose.summary.tail.unknown': ": kube-proxy's rules on the node never see the packet.",
    'diagnose.summary.dnat-missing': "The node's rules do not DNAT {target}: {missing}.",
    'diagnose.missing.no-entry':
      'there is no KUBE-SERVICES rule for it (kube-proxy would write one jumping to {chain})',
    'diagnose.missing.no-map-element':
      "kube-proxy's `service-ips` map has no element for it (kube-proxy would send it to {expected})",
    'diagnose.missing.no-chain': 'KUBE-SERVICES jumps to {chain}, which the dump does not contain',
    'diagnose.missing.reject.one':
      'they still treat it as a Service without endpoints (line {line}), while the API lists 1 ready endpoint',
    'diagnose.missing.reject.other':
      'they still treat it as a Service without endpoints (line {line}), while the API lists {count} ready endpoints',
    'diagnose.missing.stale': 'they send it to {stale}, which the API does not list (it lists {expected})',
    'diagnose.missing.no-dnat':
      'no path of the trace is DNATed (verdicts: {verdicts}), while kube-proxy would send it to {expected}',
    'diagnose.missing.ipvs-no-service':
      'IPVS has no virtual service for it (kube-proxy would add one with real servers {expected})',
    'diagnose.missing.ipvs-no-real-servers':
      'its IPVS virtual service has no real servers, while the API lists {expected}',
    'diagnose.dnatted.read': 'is DNATed on the node',
    'diagnose.dnatted.unread': 'was not checked on the node (its rules could not be read)',
    'diagnose.summary.backend-unreachable.one':
      '{target} {dnatted}, but the only endpoint probed also fails when connected to directly: the backend does not accept connections.',
    'diagnose.summary.backend-unreachable.other':
      '{target} {dnatted}, but {failed} of {count} endpoints probed also fail when connected to directly: the backends do not accept connections.',
    'diagnose.summary.backend-refused.one':
      "{target} {dnatted}, but the only endpoint probed refuses a direct connect to port {port} too{where}: the pod is there and nothing listens on the Service's targetPort {targetPort} (the container listens on another port, or its server is down), or a REJECT rule in that pod refuses it.",
    'diagnose.summary.backend-refused.other':
      "{target} {dnatted}, but {failed} of {count} endpoints probed refuse a direct connect to port {port} too{where}: the pods are there and nothing listens on the Service's targetPort {targetPort} (the containers listen on another port, or their server is down), or a REJECT rule in those pods refuses it.",
    'diagnose.summary.backend-port-mismatch.one':
      "{target} is DNATed to port {port} of its endpoint, which refuses it{where}: the pod declares container port {declared}, not the Service's targetPort {targetPort}. The Service's targetPort does not match the port the container listens on.",
    'diagnose.summary.backend-port-mismatch.other':
      "{target} is DNATed to port {port} of its endpoints, and {failed} of {count} probed refuse it{where}: their pods declare container ports {declared}, not the Service's targetPort {targetPort}. The Service's targetPort does not match the port the containers listen on.",
    'diagnose.summary.backend-filtered':
      "{target} is DNATed on node {node}, but its {table} rule {chain} line {line} {action} the packets to {endpoints} (`{rule}`; the pod's connect: {outcome}): a firewall or NetworkPolicy rule on the node blocks the traffic, not the Service or its backends.",
    'diagnose.summary.hairpin':
      "{target}'s only ready endpoint is pod {pod} itself ({endpoint}): it answers a direct connect, but its connect through the ClusterIP, DNATed back to itself on node {node}, {outcome}: the node does not send the packet back out the interface it came in on (hairpin).",
    'diagnose.summary.backend-path.one':
      '{target} {dnatted}, but the only endpoint probed also fails when connected to directly ({outcome}{where}): the pod cannot reach it, so the path to the backend is broken (routes or tunnels between nodes, a firewall), not the Service.',
    'diagnose.summary.backend-path.other':
      '{target} {dnatted}, but {failed} of {count} endpoints probed also fail when connected to directly ({outcome}{where}): the pod cannot reach them, so the path to the backends is broken (routes or tunnels between nodes, a firewall), not the Service.',
    'diagnose.summary.backend-no-answer.one':
      '{target} {dnatted}, but the only DNS server probed does not answer a query sent to it directly either ({outcome}{where}): the DNS pod does not answer, or the path to it is broken.',
    'diagnose.summary.backend-no-answer.other':
      '{target} {dnatted}, but {failed} of {count} DNS servers probed do not answer a query sent to them directly either ({outcome}{where}): the DNS pods do not answer, or the path to them is broken.',
    'diagnose.summary.headless.no-endpoints':
      'Headless Service {service} has no endpoints for port {port}: its name {name} resolves to no pod, so clients have nothing to connect to.',
    'diagnose.summary.headless.not-ready.one':
      'Headless Service {service} has 1 endpoint for port {port} and it is not ready: {name} does not resolve to it.',
    'diagnose.summary.headless.not-ready.other':
      'Headless Service {service} has {count} endpoints for port {port} and none is ready: {name} resolves to none of them.',
    'diagnose.summary.headless.backend.one':
      'Headless Service {service}: clients connect to its pods directly, and the only ready endpoint probed fails ({outcome}{where}).',
    'diagnose.summary.headless.backend.other':
      'Headless Service {service}: clients connect to its pods directly, and {failed} of {count} ready endpoints probed fail ({outcome}{where}).',
    'diagnose.summary.headless.dns-mismatch':
      '{name} resolves to {addresses}, none of the ready endpoints of the headless Service ({endpoints}).',
    'diagnose.summary.headless.ok.one':
      'From pod {pod}, headless {service} works: {name} resolves to its endpoints, and the endpoint probed answers.',
    'diagnose.summary.headless.ok.other':
      'From pod {pod}, headless {service} works: {name} resolves to its endpoints, and the {count} endpoints probed answer.',
    'diagnose.summary.headless.ok.no-dns.one':
      'From pod {pod}, the endpoint of headless {service} answers (its name was not looked up).',
    'diagnose.summary.headless.ok.no-dns.other':
      'From pod {pod}, the {count} endpoints of headless {service} probed answer (its name was not looked up).',
    'diagnose.summary.backend-partly.one':
      '{target} answered this time, but the only ready endpoint probed fails when connected to directly ({outcome}{where}): connections kube-proxy sends to it fail.',
    'diagnose.summary.backend-partly.other':
      '{target} answered this time, but {failed} of {count} ready endpoints probed fail when connected to directly ({outcome}{where}): the connections kube-proxy sends to them fail.',
    'diagnose.summary.backend-partly.affinity.one':
      "{target} answered, and the Service's ClientIP session affinity makes kube-proxy send every connection of this pod to that same endpoint (until {timeout} s after its last one); but the only ready endpoint probed fails when connected to directly ({outcome}{where}): clients pinned to it fail on every connection, not now and then.",
    'diagnose.summary.backend-partly.affinity.other':
      "{target} answered, and the Service's ClientIP session affinity makes kube-proxy send every connection of this pod to that same endpoint (until {timeout} s after its last one); but {failed} of {count} ready endpoints probed fail when connected to directly ({outcome}{where}): clients pinned to them fail on every connection, not now and then.",
    'diagnose.ev.api-other-protocol':
      'This report checks {checked}; the Service serves the same port number as {others} too, which it does not check: {commands}.',
    'diagnose.word.on-nodes.one': ', on node {nodes}',
    'diagnose.word.on-nodes.other': ', on nodes {nodes}',
    'diagnose.summary.dns-failure': '{target} answers, but {name} does not resolve from the pod ({why}).',
    'diagnose.summary.dns-failure.not-checkable': '{name} does not resolve from the pod ({why}).',
    'diagnose.summary.tail.nameserver-bypass':
      '{route}: its queries to the nameserver {server} (resolv.conf) never reach the node.',
    'diagnose.summary.dns-mismatch': '{target} answers, but {name} resolves to {addresses}, not to the ClusterIP {ip}.',
    'diagnose.summary.tool-missing':
      'The container has no tool to open a connection with (looked for curl, wget, nc and bash): {target} was not probed.',
    'diagnose.summary.tool-missing.dns':
      'The container has no DNS client to query {target} with (looked for nslookup): a UDP port is probed with a DNS query, so it was not probed.',
    'diagnose.summary.tool-missing.probe-failed':
      'The tool probe could not run in the container ({why}): without a shell (or when it does not answer) no check can be chosen.',
    'diagnose.summary.exec-forbidden': 'Exec into pod {pod} was refused ({status}): {message}',
    'diagnose.summary.inconclusive': 'No verdict for {target} from pod {pod}: {reason}',
    'diagnose.reason.exec-failed': 'exec into the pod failed: {message}.',
    'diagnose.reason.headless':
      'the Service is headless (ClusterIP {clusterIP}): its clients reach its pods directly, and none of them could be probed (its endpoints could not be read, or its port cannot be probed).',
    'diagnose.reason.external-name':
      'the Service is of type ExternalName, a DNS alias (CNAME) of {externalName} (from the pod: {addresses}): kube-proxy writes nothing for it, so there is no ClusterIP or endpoint to probe.',
    'diagnose.reason.not-checkable':
      'a {proto} port cannot be probed with a TCP connect, and no other check found a fault.',
    'diagnose.reason.counters-still-route-node':
      "the connect failed ({outcome}) and the node's rule counted no packet, although the pod's route leads to the node: something before kube-proxy's nat rules (an eBPF program, a policy on the pod's interface) dropped it, or the evidence is from another node.",
    'diagnose.reason.no-kube-rules':
      'the connect failed ({outcome}) and the node has no kube-proxy rules at all: Services are translated elsewhere (an eBPF kube-proxy replacement?), or kube-proxy is not running.',
    'diagnose.reason.endpoints-answer':
      'the connect to the ClusterIP failed ({outcome}) after the node DNATed it, while every endpoint probed answers directly: look at NetworkPolicies, hairpin masquerade and conntrack.',
    'diagnose.reason.endpoints-answer-unread':
      "the connect to the ClusterIP failed ({outcome}) while every endpoint probed answers directly; the node's rules could not be read, so whether it DNATs the ClusterIP is not known: look at kube-proxy on the node, NetworkPolicies, hairpin masquerade and conntrack.",
    'diagnose.reason.connect-failed': 'the connect failed ({outcome}) and no check explains why.',
    'diagnose.reason.connect-error': 'the connect tool could not answer ({outcome}), and no other check found a fault.',
    'diagnose.reason.nothing': 'no check gave an answer.',

    'diagnose.rule.kube-services': 'KUBE-SERVICES rule',
    'diagnose.rule.ipvs': 'IPVS virtual service',
    'diagnose.rule.nft': 'kube-proxy service rule',
    'diagnose.word.not-ready': 'not ready',
    'diagnose.word.drops': 'drops',
    'diagnose.word.endpoint-nodes': ' (its ready endpoints are on {nodes})',
    'diagnose.word.rejects': 'rejects',
    'diagnose.word.none': 'none',

    // Connect outcomes.
    'diagnose.outcome.connected': 'connected',
    'diagnose.outcome.answered': 'answered',
    'diagnose.outcome.refused': 'refused',
    'diagnose.outcome.unreachable': 'unreachable',
    'diagnose.outcome.timeout': 'timed out',
    'diagnose.outcome.no-connect': 'could not connect',
    'diagnose.outcome.error': 'the tool failed',
    'diagnose.outcome.not-run': 'not run',

    // Evidence.
    'diagnose.ev.exec': 'Exec into the pod failed: {message} (status {status}).',
    'diagnose.ev.api-endpoints.one': 'The API lists 1 endpoint for port {port}, {ready} ready: {list}.',
    'diagnose.ev.api-endpoints.other': 'The API lists {count} endpoints for port {port}, {ready} ready: {list}.',
    'diagnose.ev.api-no-endpoints': 'The API lists no endpoint for port {port} of {service}.',
    'diagnose.ev.api-endpoints-unknown': "The Service's endpoints could not be read from the API.",
    'diagnose.ev.tools': 'Tools found in the container: {tools}.',
    'diagnose.ev.tools-none': 'The tool probe found none of the tools it looks for.',
    'diagnose.ev.tools-failed': 'The tool probe failed ({why}): nothing is known about the container.',
    'diagnose.ev.connect': '{tool} to {target}: {outcome} (exit {code}, {ms} ms).',
    'diagnose.ev.connect-summary.one': 'The only direct connect to an endpoint failed.',
    'diagnose.ev.connect-summary-ok.one': 'The only endpoint probed answered a direct connect.',
    'diagnose.ev.connect-summary-ok.other': 'All {count} endpoints probed answered a direct connect.',
    'diagnose.ev.connect-summary.other': '{failed} of {count} direct connects to endpoints failed.',
    'diagnose.ev.endpoint-cap':
      'Only {probed} of {total} endpoints were probed directly (the plan probes at most {cap}).',
    'diagnose.ev.not-checkable': '{proto} port {port}: a TCP connect says nothing about it, so it was not probed.',
    'diagnose.ev.route-get': "The pod's kernel routes {dst} via {gateway} on {dev} (source {src}).",
    'diagnose.ev.route-get-onlink':
      "The pod's kernel routes {dst} directly on {dev}, without a gateway (source {src}).",
    'diagnose.ev.route-error': "The pod's kernel has no usable route to {dst}: {error}.",
    'diagnose.ev.route-table':
      "The pod's route table ({source}) sends {dst} via {gateway} on {dev} (looked up here: no `ip route get`).",
    'diagnose.ev.route-table-onlink':
      "The pod's route table ({source}) sends {dst} directly on {dev} (looked up here: no `ip route get`).",
    'diagnose.ev.route-table-none': "The pod's route table ({source}) has no route for {dst}.",
    'diagnose.ev.route-local': "{dst} is an address of the pod's own namespace (a local route).",
    'diagnose.ev.host-network':
      'Pod {pod} uses the host network: its packets start on the node itself and pass its OUTPUT rules.',
    'diagnose.ev.gateway-not-node': '{gateway} is not an address of node {node} (its addresses: {addresses}).',
    'diagnose.ev.gateway-unknown':
      "{gateway} is not among the addresses the API gives for node {node} ({addresses}) nor in its pod CIDR ({cidrs}); the node's own address list was not captured.",
    'diagnose.ev.gateway-is-node': '{gateway} is an address of node {node}: the packet enters the node.',
    'diagnose.ev.proxy-arp':
      '{gateway} is a link-local next hop over {dev}, the veth into the node: the node answers it by proxy ARP (Calico style), so the packet enters the node.',
    'diagnose.ev.node-bridge':
      "{gateway} lies in node {node}'s pod CIDR {cidr}: the node's bridge or host-side address.",
    'diagnose.ev.onlink-veth':
      '{dev} is a veth whose other end is the node: an on-link route still hands the packet to the node.',
    'diagnose.ev.link-kind': '{dev} is a {kind} interface{mode}.',
    'diagnose.ev.link-bypass':
      "{dev} is a {kind} interface{mode}: the pod sits on the parent network beside the node, and the node's netfilter never sees what it sends there.",
    'diagnose.ev.second-interface':
      "The pod's own address {podIP} is on {primary}, but the route to {dst} leaves on {dev}, another interface.",
    'diagnose.ev.neighbour': 'Neighbour entry of the pod for {gateway} on {dev}: {lladdr} ({state}).',
    'diagnose.ev.counter.one': 'Node {node}, {chain} line {line} ({target}): 1 packet before the probe, {after} after.',
    'diagnose.ev.counter.other':
      'Node {node}, {chain} line {line} ({target}): {count} packets before the probe, {after} after.',
    'diagnose.ev.counter-one.one': 'Node {node}, {chain} line {line} ({target}): 1 packet in the only capture.',
    'diagnose.ev.counter-one.other':
      'Node {node}, {chain} line {line} ({target}): {count} packets in the only capture.',
    'cluster.create.ephemeral-container':
      "add an ephemeral debug container (image {image}) to pod {pod}; it shares the pod's network and ends by itself after {lifetime} s",
    'cluster.create.debug-pod':
      'create a privileged hostNetwork debug pod (image {image}) on node {node} in namespace {namespace}, deleted when done',
    'diagnose.ev.counter-no-rule': "Node {node}'s dump has no rule for {target} with counters.",
    'diagnose.ev.counter-no-counters':
      "Node {node}'s rules for {target} carry no packet counters (`iptables-save` needs `-c`; kube-proxy's nftables mode keeps none).",
    'diagnose.ev.counter-no-counters.nft':
      "Node {node}'s kube-proxy nftables rules for {target} carry no packet counters (kube-proxy writes none in that mode), so they cannot show whether the probe reached them.",
    'diagnose.ev.node-missing': 'No node evidence: {error}.',
    'diagnose.ev.node-none': "The node's rules were not captured: nothing shows whether the probe reached them.",
    'diagnose.ev.node-other':
      'The node evidence is from {evidenceNode}, but the pod runs on {podNode}: its counters and addresses say nothing about this pod.',
    'diagnose.ev.trace-dnat': "Traced {src} -> {target} through node {node}'s rules: DNAT to {dnat} (share {share}).",
    'diagnose.ev.trace-none':
      "Traced {src} -> {target} through node {node}'s rules: no path is DNATed (verdicts: {verdicts}).",
    'diagnose.ev.trace-no-kube':
      "Node {node}'s dump has no kube-proxy rules (no KUBE-SERVICES chain and no kube-proxy table).",
    'diagnose.ev.expected': "kube-proxy would write, from the API's Service and endpoints: `{rule}`.",
    'diagnose.ev.stop.no-endpoints':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}): kube-proxy's rule for a Service port without endpoints.",
    'diagnose.ev.stop.no-local-endpoints':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}): kube-proxy's rule for internalTrafficPolicy Local without an endpoint on this node.",
    'diagnose.ev.stop.filter':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}): not a kube-proxy rule (a firewall or a NetworkPolicy's).",
    'diagnose.ev.refused-by-node':
      "The refusal the pod got at {target} is that REJECT on node {node} (an ICMP port unreachable), not a backend's closed port.",
    // {given}: the trace's "if" clauses of one alternative (a fact the dump cannot decide), joined by "; ".
    'diagnose.ev.trace-dnat-if':
      "Traced {src} -> {target} through node {node}'s rules, {given}: DNAT to {dnat} (share {share}).",
    'diagnose.ev.trace-none-if':
      "Traced {src} -> {target} through node {node}'s rules, {given}: no path is DNATed (verdicts: {verdicts}).",
    'diagnose.ev.trace-more-alternatives.one':
      'One more alternative of the trace (a side of facts the dump cannot decide) is not shown.',
    'diagnose.ev.trace-more-alternatives.other':
      '{count} more alternatives of the trace (sides of facts the dump cannot decide) are not shown.',
    'diagnose.ev.stop.no-endpoints-if':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}), {given}: kube-proxy's rule for a Service port without endpoints.",
    'diagnose.ev.stop.no-local-endpoints-if':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}), {given}: kube-proxy's rule for internalTrafficPolicy Local without an endpoint on this node.",
    'diagnose.ev.stop.filter-if':
      "Node {node}'s {table} {chain} line {line} {action} the pod's packets to {target} (share {share}), {given}: not a kube-proxy rule (a firewall or a NetworkPolicy's).",
    'diagnose.ev.container-ports': 'Pod {pod} declares container ports {ports}.',
    'diagnose.ev.container-ports-none': 'Pod {pod} declares no container ports.',
    'diagnose.ev.local-endpoints-used':
      "internalTrafficPolicy Local: kube-proxy on node {node} sends this pod's connections only to the endpoints there ({endpoints}); the others were probed for reference and do not count for this pod.",
    'diagnose.ev.ipvs-service': "Node {node}'s IPVS virtual service {target}: real servers {servers}.",
    'diagnose.ev.dns-ok': '{tool} {name}: resolves to {addresses}.',
    'diagnose.ev.dns-failed': '{tool} {name}: does not resolve ({why}).',
    'diagnose.ev.dns-short-ok': 'The bare name {name}, looked up from namespace {namespace}: {addresses}.',
    'diagnose.ev.dns-short-failed': 'The bare name {name}, looked up from namespace {namespace}: does not resolve.',
    'diagnose.next.short-name':
      "In namespace {namespace}, call the Service {qualified} (or by its full name), not {name}: a bare name means a Service of the client's own namespace.",
    'diagnose.ev.dns-invalid': "The Service's DNS name was not looked up: {name} is not a valid DNS name.",
    'diagnose.ev.resolv-conf': "The pod's resolv.conf: nameserver {servers}; search {search}; options {options}.",
    'diagnose.ev.no-route-check': "The pod's route to {dst} is unknown (no `ip` and no readable /proc/net/route).",
    'diagnose.ev.connect-ok-despite-route':
      'The connect succeeded even though the route does not lead through the node: something on that path translates the ClusterIP.',

    // DNS failure reasons.
    'diagnose.dns.nxdomain': 'no such name (NXDOMAIN)',
    'diagnose.dns.timeout': 'no DNS server answered',
    'diagnose.dns.servfail': 'the server failed (SERVFAIL)',
    'diagnose.dns.not-found': 'not found',
    'diagnose.dns.other': 'exit {code}',

    // Next steps.
    'diagnose.next.ok.1':
      'The Service works from this pod. If the application still fails, check its own settings (host name, port, TLS, proxy variables).',
    'diagnose.next.ok.2': 'Compare with the failing pod: diagnose from that pod, or from a pod on another node.',
    'diagnose.next.ok-unprobed.1':
      "Only the node's translation was checked, not the endpoints' answers: send a request with the application's own client from this pod and watch an endpoint's log, or run `conntrack -L -p {protocol} --orig-dst {ip}` on node {node} right after it (an [UNREPLIED] entry: no answer came back).",
    'diagnose.next.no-endpoints.port-name':
      'Give the port of the Endpoints or EndpointSlice the name of the Service port ({portName}), or leave both unnamed (a Service with one port): `kubectl get endpointslices -n {svcNamespace} -l kubernetes.io/service-name={name} -o yaml` shows their ports.',
    'diagnose.next.node-unconfirmed':
      "Node {node}'s rules were not read (no usable kube-proxy pod there to read them through): allow a privileged debug pod on that node (pass `--yes` to kpp diagnose, or confirm the prompt in VS Code; it is deleted afterwards) and diagnose again.",
    'diagnose.next.debug-unconfirmed':
      "Allow the ephemeral debug container kpp offers (pass `--yes` to kpp diagnose, or confirm the prompt in VS Code): it shares the pod's network, brings the tools and ends by itself (Kubernetes cannot remove it); then diagnose again.",
    'diagnose.next.no-endpoints.1':
      'Check the selector: `kubectl get svc {name} -n {svcNamespace} -o jsonpath={.spec.selector}` and `kubectl get pods -n {svcNamespace} -l <selector>`.',
    'diagnose.next.no-endpoints.2':
      'A Service without a selector needs Endpoints or EndpointSlices written by hand (or by its controller).',
    'diagnose.next.no-endpoints.3':
      'Check that the port name or number of the Service matches a container port of the pods.',
    'diagnose.next.endpoints-not-ready.1':
      "See why the pods are not ready: `kubectl describe pod` (readiness probe events) and the containers' logs.",
    'diagnose.next.endpoints-not-ready.2':
      'If the pods serve but the probe is wrong, fix the readinessProbe (path, port, timeout).',
    'diagnose.next.bypass.1':
      "Make the Service CIDR go through the node: a route in the pod for the Service CIDR via the node side of its primary interface (in the CNI or Multus config), or remove the second interface's default route.",
    'diagnose.next.bypass.2':
      "Compare the pod's routes and routing rules with those of a working pod on the same node: `kubectl exec -n {namespace} {podName} -- ip route` and `kubectl exec -n {namespace} {podName} -- ip rule`.",
    'diagnose.next.bypass.3':
      'For macvlan/ipvlan/SR-IOV pods, ClusterIPs need a route back through the node or a CNI that translates Services in the pod (e.g. an eBPF load balancer).',
    'diagnose.next.bypass.4':
      'Until then, reach the endpoints directly (they are reached by their own addresses) or through a NodePort.',
    'diagnose.next.dnat-missing.1':
      "Check kube-proxy on the node: `kubectl -n kube-system logs` of its pod (sync errors, 'Failed to execute iptables-restore').",
    'diagnose.next.dnat-missing.2':
      'Restart kube-proxy on that node (delete its pod) so it rewrites its rules, then diagnose again.',
    'diagnose.next.dnat-missing.3':
      'Compare the node dump with `kpp generate` on the same Services and endpoints to see every difference.',
    'diagnose.next.backend-refused.1':
      "Compare the Service's targetPort with the port the container really listens on: `kubectl get svc {name} -n {svcNamespace} -o jsonpath={.spec.ports}` and `ss -ltn` (or the server's log) inside an endpoint pod.",
    'diagnose.next.backend-refused.2':
      "Fix the Service's targetPort (or the address the server binds: a server on 127.0.0.1 refuses the pod IP), then diagnose again.",
    'diagnose.next.backend-filtered.1':
      "Find the rule's owner: `kubectl get networkpolicy -A` (a policy whose ingress or egress leaves this pod out), or the node's own firewall (`iptables-save -c` on the node: the rule's counter moves with each probe).",
    'diagnose.next.backend-filtered.2':
      'Allow the traffic from this pod to the endpoints on their targetPort, then diagnose again.',
    'diagnose.next.no-local-endpoints.1':
      "Run a ready endpoint on this pod's node too (a DaemonSet, or spread the Deployment), or set `internalTrafficPolicy: Cluster` on Service {name}.",
    'diagnose.next.no-local-endpoints.2':
      "Or run this client on a node that has an endpoint: `kubectl get endpointslices -n {svcNamespace} -l kubernetes.io/service-name={name} -o wide` shows each endpoint's node.",
    'diagnose.next.no-local-endpoints.3':
      "kube-proxy's rule for it is a `has no local endpoints` DROP: the client sees a timeout, not a refusal.",
    'diagnose.next.hairpin.1':
      "On a bridge (cni0, docker0), the pod's bridge port needs hairpin mode: kubelet's `--hairpin-mode` (hairpin-veth or promiscuous-bridge) or the bridge CNI's `hairpinMode: true`; on the node, `/sys/class/net/<bridge>/brif/<veth>/hairpin_mode` must be 1.",
    'diagnose.next.hairpin.2':
      "kube-proxy must masquerade a pod's traffic to itself (its KUBE-SEP rule `-s <podIP> -j KUBE-MARK-MASQ`): compare `kpp generate` with the node's rules.",
    'diagnose.next.backend-unreachable.1':
      'Check the backend pods listen on the target port on all addresses (not only 127.0.0.1): `ss -ltn` inside them.',
    'diagnose.next.backend-unreachable.2':
      "Check the Service's targetPort against the containers' ports, and NetworkPolicies that may block the traffic.",
    'diagnose.next.backend-path.1':
      "Check the path from node {node} to {endpoint}: on that node `ip route get {endpoint}` must leave by the overlay or towards the endpoint's node (not unreachable or a blackhole), and the tunnel between the nodes must pass (VXLAN UDP 8472 or 4789, IPIP, WireGuard; BGP routes; security groups or firewalls between nodes).",
    'diagnose.next.backend-path.2':
      'A NetworkPolicy or a firewall that drops the packets looks the same (`kubectl get networkpolicy -n {svcNamespace}`); diagnose from a pod on another node too: a broken path between two nodes fails only from the one side.',
    'diagnose.next.dns-failure.1': "Check CoreDNS / kube-dns: its pods, logs and the kube-dns Service's endpoints.",
    'diagnose.next.dns-failure.2':
      "Check the pod's resolv.conf (nameserver = the kube-dns ClusterIP, search list, ndots) and the pod's dnsPolicy.",
    'diagnose.next.dns-failure.3':
      'Diagnose the cluster DNS Service itself (UDP 53) from this pod: `kpp diagnose svc/kube-dns -n kube-system --port 53/udp --from pod/{podName} --from-namespace {namespace}` (kube-dns is its usual name, with CoreDNS too).',
    'diagnose.next.dns-bypass.1':
      "Make the pod's route to its nameserver {server} go through the node too (the Service CIDR, or the node-local DNS address), in the CNI or Multus config, or remove the second interface's default route.",
    'diagnose.next.tool-missing.1':
      "Run the checks from an ephemeral debug container that shares the pod's network (e.g. `kubectl debug -it {podName} -n {namespace} --image=nicolaka/netshoot`).",
    'diagnose.next.tool-missing.2': 'Or diagnose from another pod on the same node that has curl, wget, nc or bash.',
    'diagnose.next.tool-missing-dns.1':
      "A UDP DNS port is probed with a DNS query: run the checks from an ephemeral debug container that has nslookup and shares the pod's network (e.g. `kubectl debug -it {podName} -n {namespace} --image=busybox`).",
    'diagnose.next.tool-missing-dns.2': 'Or diagnose from another pod on the same node that has nslookup.',
    'diagnose.next.exec-forbidden.1':
      'Ask for `create` on `pods/exec` in namespace {namespace} (RBAC), or use a kube context that has it.',
    'diagnose.next.exec-forbidden.2': 'Check with `kubectl auth can-i create pods/exec -n {namespace}`.',
    'diagnose.next.inconclusive.1':
      'Read the evidence above and the commands run below; rerun with a longer timeout if checks timed out.',
    'diagnose.next.inconclusive.2':
      "Capture the node's rules before and after a probe (`kpp capture node/...`) and trace the pod's packet through them.",

    // Report.
    'diagnose.next.external-name.1':
      'Check the far end from the pod itself: `kubectl exec -n {namespace} {podName} -- nslookup {externalName}`, then a connect to {externalName} on the port the client uses (kpp diagnose checks what kube-proxy translates).',
    'diagnose.report.title': 'Diagnosis: {service} from {pod}',
    'diagnose.report.verdict': 'Verdict: {title}',
    'diagnose.report.evidence': 'Evidence',
    'diagnose.report.next': 'Next steps',
    'diagnose.report.checks': 'Commands run in the pod',
    'diagnose.report.node': 'Node {node}: rule counters',
    'diagnose.report.node-via': 'Read through {via}.',
    'diagnose.report.node-error': 'Node evidence: {error}',
    'diagnose.report.col.check': 'Check',
    'diagnose.report.col.command': 'Command',
    'diagnose.report.col.exit': 'Exit',
    'diagnose.report.col.time': 'Time',
    'diagnose.report.col.result': 'Result',
    'diagnose.report.col.line': 'Line',
    'diagnose.report.col.chain': 'Chain',
    'diagnose.report.col.rule': 'Rule',
    'diagnose.report.col.before': 'Before',
    'diagnose.report.col.after': 'After',
    'diagnose.report.yes': 'yes',
    'diagnose.report.no': 'no',
    'diagnose.report.no-checks': 'No command was run in the pod.',
    'diagnose.report.no-counters': 'No counters were read.',
    'diagnose.report.duration': 'Took {ms} ms.',
    'diagnose.report.output': 'Output',
    'diagnose.report.source': 'Source: {pod}',
    'diagnose.report.service': 'Service: {service}',
    'diagnose.report.source-node': 'node {node}',
  },
  'zh-CN': {
    'diagnose.title.ok': '正常',
    'diagnose.title.no-endpoints': '没有端点',
    'diagnose.title.endpoints-not-ready': '端点未就绪',
    'diagnose.title.pod-route-bypasses-node': 'Pod 的路由绕过了节点',
    'diagnose.title.clusterip-dnat-missing': '节点上没有 ClusterIP 的 DNAT',
    'diagnose.title.backend-unreachable': '后端不可达',
    'diagnose.title.dns-failure': 'DNS 解析失败',
    'diagnose.title.tool-missing': '缺少探测工具',
    'diagnose.title.exec-forbidden': '禁止 exec',
    'diagnose.title.inconclusive': '无法判定',

    'diagnose.summary.ok': '从 Pod {pod} 访问 {service}：{target} 有响应，名称 {name} 也能解析。',
    'diagnose.summary.ok.no-dns':
      '从 Pod {pod} 访问 {service}：{target} 有响应；没有查询它的名称（Pod 中没有能运行的 nslookup 或 getent）。',
    'diagnose.summary.tail.short-none':
      '但在命名空间 {namespace} 中，它的短名称 {name} 无法解析（搜索列表先查 {namespace}）：那里的客户端必须使用 {qualified}。',
    'diagnose.summary.tail.short-other':
      '但在命名空间 {namespace} 中，它的短名称 {name} 解析到 {addresses}，那是另一个 Service（搜索列表先查 {namespace}）：那里的客户端必须使用 {qualified}。',
    'diagnose.summary.ok.not-checkable':
      '从 Pod {pod} 看，{service} 在已检查的范围内正常：端点已就绪，Pod 的路由进入节点，节点规则把 {target} DNAT 到 {dnat}。未检查：端点是否收到并应答发往那里的数据（{proto} 无法用连接来探测：丢失的数据报和没有应答的数据报看起来一样）。',
    'diagnose.summary.no-endpoints':
      'Service {service} 的端口 {port} 没有端点：{target} 背后没有任何后端，kube-proxy 会拒绝或丢弃到它的连接。',
    'diagnose.summary.no-local-endpoints':
      'Service {service} 的 internalTrafficPolicy 为 Local，而节点 {node} 上没有端口 {port} 的就绪端点{nodes}：该节点的 kube-proxy 会丢弃这个 Pod 发往 {target} 的连接。',
    'diagnose.summary.no-endpoints.no-match':
      'Service {service} 的端口 {port} 没有端点：它的选择器 {selector} 在命名空间 {namespace} 中匹配不到任何 Pod，所以 {target} 背后没有后端，kube-proxy 会拒绝到它的连接。',
    'diagnose.summary.no-endpoints.pods-match.other':
      'Service {service} 的端口 {port} 没有端点，尽管它的选择器 {selector} 匹配到 {count} 个 Pod（{running} 个在运行）：还没有 IP 的 Pod（Pending）不是端点；targetPort {targetPort} 是端口名称时，容器里没有这个端口的 Pod 也不是。kube-proxy 会拒绝到 {target} 的连接。',
    'diagnose.summary.no-endpoints.no-selector':
      'Service {service} 没有选择器，端口 {port} 也没有端点：它的端点只能由管理它的人或控制器写入（自己的 Endpoints 或 EndpointSlice），所以 kube-proxy 会拒绝到 {target} 的连接。',
    'diagnose.summary.no-endpoints.port-name':
      'Service {service} 的端口 {port} 没有端点：它的 Endpoints 或 EndpointSlice 中的端点属于端口名 {names}，而不是 {portName}；kube-proxy 按名称把它们与 Service 端口配对，因此 {target} 没有后端，kube-proxy 会拒绝到它的连接。',
    'diagnose.summary.no-endpoints.node':
      '无法从 API 读取 {service} 的端点，但节点 {node} 的 kube-proxy 规则把端口 {port} 当作没有端点的 Service（第 {line} 行）：{target} 背后没有任何后端，kube-proxy 会拒绝到它的连接。',
    'diagnose.summary.endpoints-not-ready.other':
      'Service {service} 的端口 {port} 有 {count} 个端点，但没有一个就绪：kube-proxy 不会把发往 {target} 的流量转给它们。',
    'diagnose.summary.endpoints-terminating.one':
      'Service {service} 的端口 {port} 没有就绪端点；1 个正在终止的端点仍在服务：kube-proxy（1.28+）会把发往 {target} 的连接转给它，直到它停止，之后就无处可转（滚动更新或缩容时没有新的 Pod 就绪）。',
    'diagnose.summary.endpoints-terminating.other':
      'Service {service} 的端口 {port} 没有就绪端点；{count} 个正在终止的端点仍在服务：kube-proxy（1.28+）会把发往 {target} 的连接转给它们，直到它们停止，之后就无处可转（滚动更新或缩容时没有新的 Pod 就绪）。',
    'diagnose.summary.external-name.dns':
      '{service} 是 ExternalName 类型的 Service，即 {externalName} 的 DNS 别名，而它的名称 {name} 在 Pod 中无法解析（{why}）。',
    'diagnose.summary.bypass.gateway': 'Pod 到 {dst} 的路由经 {dev} 上的 {gateway} 转发，而该网关不是本节点',
    'diagnose.summary.bypass.gateway-kind':
      'Pod 到 {dst} 的路由经 {gateway} 转发，出口 {dev} 是一个 {kind} 接口，位于节点旁边的网络上，而 {gateway} 不是本节点',
    'diagnose.summary.bypass.onlink': 'Pod 到 {dst} 的路由直接从 {dev}（{kind}）发出，不经过本节点',
    'diagnose.summary.bypass.onlink-plain':
      'Pod 到 {dst} 的路由直接从 {dev}（不是 Pod 自己的主接口）发出，不经过本节点',
    'diagnose.summary.bypass.no-route': 'Pod 没有到 {dst} 的可用路由（{error}）：数据包根本出不了 Pod',
    'diagnose.summary.bypass.counters-only': '到 {dst} 的探测从未到达节点，虽然 Pod 的路由无法说明它去了哪里',
    'diagnose.summary.tail.still':
      '；节点上 {target} 的 {rule}在探测期间计数为 0 个包：kube-proxy 的规则根本没有看到它。',
    'diagnose.summary.tail.moved.other':
      '；节点上 {target} 的 {rule}在探测期间增加了 {count} 个包，这可能来自其他客户端：kube-proxy 的规则看不到这个 Pod 的数据包。',
    'diagnose.summary.tail.unknown': '：节点上 kube-proxy 的规则永远看不到这个数据包。',
    'diagnose.summary.dnat-missing': '节点的规则没有对 {target} 做 DNAT：{missing}。',
    'diagnose.missing.no-entry': '没有针对它的 KUBE-SERVICES 规则（kube-proxy 本应写一条跳转到 {chain} 的规则）',
    'diagnose.missing.no-map-element':
      'kube-proxy 的 `service-ips` 映射中没有它的元素（kube-proxy 本应把它转发到 {expected}）',
    'diagnose.missing.no-chain': 'KUBE-SERVICES 跳转到 {chain}，但转储中没有这个链',
    'diagnose.missing.reject.other':
      '规则仍把它当作没有端点的 Service（第 {line} 行），而 API 列出了 {count} 个就绪端点',
    'diagnose.missing.stale': '规则把它转发到 {stale}，而 API 中没有这些端点（API 列出的是 {expected}）',
    'diagnose.missing.no-dnat':
      '追踪的所有路径都没有 DNAT（结果：{verdicts}），而 kube-proxy 本应把它转发到 {expected}',
    'diagnose.missing.ipvs-no-service': 'IPVS 中没有它的虚拟服务（kube-proxy 本应添加一个，真实服务器为 {expected}）',
    'diagnose.missing.ipvs-no-real-servers': '它的 IPVS 虚拟服务没有真实服务器，而 API 列出的是 {expected}',
    'diagnose.dnatted.read': '在节点上被 DNAT 了',
    'diagnose.dnatted.unread': '未能在节点上核对（读不到节点的规则）',
    'diagnose.summary.backend-unreachable.other':
      '{target} {dnatted}，但探测的 {count} 个端点中有 {failed} 个直接连接也失败：后端不接受连接。',
    'diagnose.summary.backend-refused.other':
      '{target} {dnatted}，但探测的 {count} 个端点中有 {failed} 个直接连接端口 {port} 也被拒绝{where}：Pod 在那里，只是没有程序监听 Service 的 targetPort {targetPort}（容器监听的是别的端口，或者服务进程没有运行），或者该 Pod 中有 REJECT 规则拒绝了它。',
    'diagnose.summary.backend-port-mismatch.other':
      '{target} 被 DNAT 到端点的端口 {port}，探测的 {count} 个端点中有 {failed} 个拒绝连接{where}：这些 Pod 声明的容器端口是 {declared}，而不是 Service 的 targetPort {targetPort}。Service 的 targetPort 与容器实际监听的端口不一致。',
    'diagnose.summary.backend-filtered':
      '{target} 在节点 {node} 上被 DNAT 了，但该节点 {table} 表 {chain} 链第 {line} 行的规则{action}发往 {endpoints} 的数据包（`{rule}`；Pod 的连接结果：{outcome}）：是节点上的防火墙或 NetworkPolicy 规则拦住了流量，而不是 Service 或它的后端。',
    'diagnose.summary.hairpin':
      '{target} 唯一的就绪端点就是 Pod {pod} 自己（{endpoint}）：直接连接有响应，但经 ClusterIP 的连接在节点 {node} 上被 DNAT 回它自己后{outcome}：节点没有把数据包从它进来的接口发回去（hairpin）。',
    'diagnose.summary.backend-path.other':
      '{target} {dnatted}，但探测的 {count} 个端点中有 {failed} 个直接连接也失败（{outcome}{where}）：Pod 到不了它们，坏的是通往后端的路径（节点之间的路由或隧道、防火墙），而不是 Service。',
    'diagnose.summary.backend-no-answer.other':
      '{target} {dnatted}，但探测的 {count} 个 DNS 服务器中有 {failed} 个对直接发给它们的查询也没有应答（{outcome}{where}）：DNS Pod 没有应答，或者通往它们的路径坏了。',
    'diagnose.summary.headless.no-endpoints':
      '无头 Service {service} 的端口 {port} 没有端点：名称 {name} 解析不到任何 Pod，客户端没有可连接的对象。',
    'diagnose.summary.headless.not-ready.other':
      '无头 Service {service} 的端口 {port} 有 {count} 个端点，但没有一个就绪：{name} 不会解析到它们。',
    'diagnose.summary.headless.backend.other':
      '无头 Service {service}：客户端直接连接它的 Pod，而探测的 {count} 个就绪端点中有 {failed} 个连接失败（{outcome}{where}）。',
    'diagnose.summary.headless.dns-mismatch':
      '{name} 解析为 {addresses}，不是这个无头 Service 的任何就绪端点（{endpoints}）。',
    'diagnose.summary.headless.ok.other':
      '从 Pod {pod} 访问无头 Service {service} 正常：{name} 解析到它的端点，探测的 {count} 个端点都有响应。',
    'diagnose.summary.headless.ok.no-dns.other':
      '从 Pod {pod} 访问无头 Service {service}：探测的 {count} 个端点都有响应（没有查询它的名称）。',
    'diagnose.summary.backend-partly.other':
      '{target} 这次有响应，但探测的 {count} 个就绪端点中有 {failed} 个直接连接失败（{outcome}{where}）：kube-proxy 转发给它们的连接会失败。',
    'diagnose.summary.backend-partly.affinity.other':
      '{target} 有响应；Service 设置了 ClientIP 会话亲和，kube-proxy 会把这个 Pod 的每个连接都发往同一个端点（直到最后一次连接后 {timeout} 秒），所以它每次都能成功；但探测的 {count} 个就绪端点中有 {failed} 个直接连接失败（{outcome}{where}）：被固定到这些端点的客户端每次连接都会失败，而不是偶尔失败。',
    'diagnose.ev.api-other-protocol':
      '本报告检查的是 {checked}；该 Service 还以 {others} 提供同一端口号，本报告没有检查它：{commands}。',
    'diagnose.word.on-nodes.other': '，位于节点 {nodes}',
    'diagnose.summary.dns-failure': '{target} 有响应，但在 Pod 中无法解析 {name}（{why}）。',
    'diagnose.summary.dns-failure.not-checkable': '在 Pod 中无法解析 {name}（{why}）。',
    'diagnose.summary.tail.nameserver-bypass': '{route}：发往域名服务器 {server}（resolv.conf）的查询根本到不了节点。',
    'diagnose.summary.dns-mismatch': '{target} 有响应，但 {name} 解析为 {addresses}，而不是 ClusterIP {ip}。',
    'diagnose.summary.tool-missing':
      '容器里没有可用来建立连接的工具（查找了 curl、wget、nc 和 bash）：没有探测 {target}。',
    'diagnose.summary.tool-missing.dns':
      '容器里没有可用来查询 {target} 的 DNS 客户端（查找了 nslookup）：UDP 端口要用 DNS 查询来探测，因此没有探测。',
    'diagnose.summary.tool-missing.probe-failed':
      '工具探测无法在容器中运行（{why}）：没有 shell（或它没有响应）时无法选择任何检查。',
    'diagnose.summary.exec-forbidden': '进入 Pod {pod} 执行命令（exec）被拒绝（{status}）：{message}',
    'diagnose.summary.inconclusive': '从 Pod {pod} 访问 {target} 无法得出结论：{reason}',
    'diagnose.reason.exec-failed': '进入 Pod 执行命令失败：{message}。',
    'diagnose.reason.headless':
      'Service 是无头服务（ClusterIP {clusterIP}）：客户端直接访问它的 Pod，而没有一个能探测（无法读取其端点，或其端口无法探测）。',
    'diagnose.reason.external-name':
      '该 Service 是 ExternalName 类型，即 {externalName} 的 DNS 别名（CNAME）（在 Pod 中解析为：{addresses}）：kube-proxy 不为它写任何规则，因此没有 ClusterIP 或端点可探测。',
    'diagnose.reason.not-checkable': '{proto} 端口无法用 TCP 连接来探测，其他检查也没有发现故障。',
    'diagnose.reason.counters-still-route-node':
      '连接失败（{outcome}），节点上的规则也没有计到任何包，尽管 Pod 的路由指向节点：在 kube-proxy 的 nat 规则之前有东西（eBPF 程序、Pod 接口上的策略）丢弃了它，或者证据来自另一个节点。',
    'diagnose.reason.no-kube-rules':
      '连接失败（{outcome}），而节点上完全没有 kube-proxy 的规则：Service 在别处转换（eBPF 替代 kube-proxy？），或者 kube-proxy 没有运行。',
    'diagnose.reason.endpoints-answer':
      '节点对 ClusterIP 做了 DNAT 后连接仍失败（{outcome}），而探测的每个端点直接连接都有响应：请检查 NetworkPolicy、回环（hairpin）伪装和 conntrack。',
    'diagnose.reason.endpoints-answer-unread':
      '经 ClusterIP 的连接失败（{outcome}），而探测的每个端点直接连接都有响应；读不到节点的规则，无法确认节点是否对 ClusterIP 做了 DNAT：请检查节点上的 kube-proxy、NetworkPolicy、回环（hairpin）伪装和 conntrack。',
    'diagnose.reason.connect-failed': '连接失败（{outcome}），没有任何检查能解释原因。',
    'diagnose.reason.connect-error': '连接工具没有给出答案（{outcome}），其他检查也没有发现故障。',
    'diagnose.reason.nothing': '没有任何检查给出答案。',

    'diagnose.rule.kube-services': 'KUBE-SERVICES 规则',
    'diagnose.rule.ipvs': 'IPVS 虚拟服务',
    'diagnose.rule.nft': 'kube-proxy 的 Service 规则',
    'diagnose.word.not-ready': '未就绪',
    'diagnose.word.drops': '丢弃',
    'diagnose.word.endpoint-nodes': '（就绪端点位于 {nodes}）',
    'diagnose.word.rejects': '拒绝',
    'diagnose.word.none': '无',

    'diagnose.outcome.connected': '已连接',
    'diagnose.outcome.answered': '有应答',
    'diagnose.outcome.refused': '被拒绝',
    'diagnose.outcome.unreachable': '不可达',
    'diagnose.outcome.timeout': '超时',
    'diagnose.outcome.no-connect': '无法连接',
    'diagnose.outcome.error': '工具出错',
    'diagnose.outcome.not-run': '未运行',

    'diagnose.ev.exec': '进入 Pod 执行命令失败：{message}（状态 {status}）。',
    'diagnose.ev.api-endpoints.other': 'API 为端口 {port} 列出了 {count} 个端点，其中 {ready} 个就绪：{list}。',
    'diagnose.ev.api-no-endpoints': 'API 没有为 {service} 的端口 {port} 列出任何端点。',
    'diagnose.ev.api-endpoints-unknown': '无法从 API 读取该 Service 的端点。',
    'diagnose.ev.tools': '容器中找到的工具：{tools}。',
    'diagnose.ev.tools-none': '工具探测没有找到任何它要找的工具。',
    'diagnose.ev.tools-failed': '工具探测失败（{why}）：对容器一无所知。',
    'diagnose.ev.connect': '用 {tool} 访问 {target}：{outcome}（退出码 {code}，{ms} 毫秒）。',
    'diagnose.ev.connect-summary.other': '{count} 次直接连接端点中有 {failed} 次失败。',
    'diagnose.ev.connect-summary-ok.one': '探测的唯一端点接受了直接连接。',
    'diagnose.ev.connect-summary-ok.other': '探测的 {count} 个端点都接受了直接连接。',
    'diagnose.ev.endpoint-cap': '只直接探测了 {total} 个端点中的 {probed} 个（计划最多探测 {cap} 个）。',
    'diagnose.ev.not-checkable': '{proto} 端口 {port}：TCP 连接无法说明它的情况，因此没有探测。',
    'diagnose.ev.route-get': 'Pod 的内核把 {dst} 经 {dev} 上的 {gateway} 转发（源地址 {src}）。',
    'diagnose.ev.route-get-onlink': 'Pod 的内核把 {dst} 直接从 {dev} 发出，没有网关（源地址 {src}）。',
    'diagnose.ev.route-error': 'Pod 的内核没有到 {dst} 的可用路由：{error}。',
    'diagnose.ev.route-table':
      'Pod 的路由表（{source}）把 {dst} 经 {dev} 上的 {gateway} 转发（在此查找：没有 `ip route get`）。',
    'diagnose.ev.route-table-onlink':
      'Pod 的路由表（{source}）把 {dst} 直接从 {dev} 发出（在此查找：没有 `ip route get`）。',
    'diagnose.ev.route-table-none': 'Pod 的路由表（{source}）中没有到 {dst} 的路由。',
    'diagnose.ev.route-local': '{dst} 是 Pod 自身网络命名空间的地址（本地路由）。',
    'diagnose.ev.host-network': 'Pod {pod} 使用主机网络：它的数据包从节点本身发出，经过节点的 OUTPUT 规则。',
    'diagnose.ev.gateway-not-node': '{gateway} 不是节点 {node} 的地址（节点的地址：{addresses}）。',
    'diagnose.ev.gateway-unknown':
      '{gateway} 既不在 API 给出的节点 {node} 地址（{addresses}）中，也不在它的 Pod CIDR（{cidrs}）中；没有采集到节点自己的地址列表。',
    'diagnose.ev.gateway-is-node': '{gateway} 是节点 {node} 的地址：数据包会进入节点。',
    'diagnose.ev.proxy-arp':
      '{gateway} 是 {dev}（通往节点的 veth）上的链路本地下一跳：节点通过代理 ARP 应答它（Calico 方式），因此数据包会进入节点。',
    'diagnose.ev.node-bridge': '{gateway} 位于节点 {node} 的 Pod CIDR {cidr} 中：是节点的网桥或主机侧地址。',
    'diagnose.ev.onlink-veth': '{dev} 是一个 veth，另一端在节点上：即使是直连路由，数据包也会交给节点。',
    'diagnose.ev.link-kind': '{dev} 是一个 {kind} 接口{mode}。',
    'diagnose.ev.link-bypass':
      '{dev} 是一个 {kind} 接口{mode}：Pod 位于节点旁边的父网络上，节点的 netfilter 看不到它从这里发出的数据包。',
    'diagnose.ev.second-interface':
      'Pod 自己的地址 {podIP} 在 {primary} 上，但到 {dst} 的路由从另一个接口 {dev} 发出。',
    'diagnose.ev.neighbour': 'Pod 中 {dev} 上 {gateway} 的邻居表项：{lladdr}（{state}）。',
    'diagnose.ev.counter.other':
      '节点 {node}，{chain} 第 {line} 行（{target}）：探测前 {count} 个包，探测后 {after} 个包。',
    'diagnose.ev.counter-one.other': '节点 {node}，{chain} 第 {line} 行（{target}）：唯一一次采集中为 {count} 个包。',
    'cluster.create.ephemeral-container':
      '向 Pod {pod} 添加一个临时调试容器（镜像 {image}）；它共享该 Pod 的网络，并在 {lifetime} 秒后自行结束',
    'cluster.create.debug-pod':
      '在节点 {node} 上（命名空间 {namespace}）创建一个特权 hostNetwork 调试 Pod（镜像 {image}），用完即删除',
    'diagnose.ev.counter-no-rule': '节点 {node} 的转储中没有带计数器的 {target} 规则。',
    'diagnose.ev.counter-no-counters':
      '节点 {node} 上 {target} 的规则没有包计数器（`iptables-save` 需要 `-c`；kube-proxy 的 nftables 模式不保留计数器）。',
    'diagnose.ev.counter-no-counters.nft':
      '节点 {node} 上 {target} 的 kube-proxy nftables 规则没有包计数器（该模式下 kube-proxy 不写计数器），因此无法显示探测是否到达了这些规则。',
    'diagnose.ev.node-missing': '没有节点证据：{error}。',
    'diagnose.ev.node-none': '没有采集节点的规则：无法判断探测是否到达了这些规则。',
    'diagnose.ev.node-other':
      '节点证据来自 {evidenceNode}，但 Pod 运行在 {podNode} 上：这些计数器和地址与该 Pod 无关。',
    'diagnose.ev.trace-dnat': '在节点 {node} 的规则中追踪 {src} -> {target}：DNAT 到 {dnat}（占比 {share}）。',
    'diagnose.ev.trace-none': '在节点 {node} 的规则中追踪 {src} -> {target}：没有任何路径做 DNAT（结果：{verdicts}）。',
    'diagnose.ev.trace-no-kube':
      '节点 {node} 的转储中没有 kube-proxy 的规则（没有 KUBE-SERVICES 链，也没有 kube-proxy 表）。',
    'diagnose.ev.expected': '根据 API 中的 Service 和端点，kube-proxy 本应写入：`{rule}`。',
    'diagnose.ev.stop.no-endpoints':
      '节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这是 kube-proxy 为没有端点的 Service 端口写的规则。',
    'diagnose.ev.stop.no-local-endpoints':
      '节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这是 kube-proxy 为 internalTrafficPolicy Local 且本节点没有端点时写的规则。',
    'diagnose.ev.stop.filter':
      '节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这不是 kube-proxy 的规则（是防火墙或 NetworkPolicy 的规则）。',
    'diagnose.ev.trace-dnat-if':
      '在节点 {node} 的规则中追踪 {src} -> {target}，{given}：DNAT 到 {dnat}（占比 {share}）。',
    'diagnose.ev.trace-none-if':
      '在节点 {node} 的规则中追踪 {src} -> {target}，{given}：没有任何路径做 DNAT（结果：{verdicts}）。',
    'diagnose.ev.trace-more-alternatives.other': '追踪还有 {count} 个分支（转储无法判定的条件的不同取值）未列出。',
    'diagnose.ev.stop.no-endpoints-if':
      '{given}，节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这是 kube-proxy 为没有端点的 Service 端口写的规则。',
    'diagnose.ev.stop.no-local-endpoints-if':
      '{given}，节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这是 kube-proxy 为 internalTrafficPolicy Local 且本节点没有端点时写的规则。',
    'diagnose.ev.stop.filter-if':
      '{given}，节点 {node} 的 {table} 表 {chain} 链第 {line} 行{action}该 Pod 发往 {target} 的数据包（占比 {share}）：这不是 kube-proxy 的规则（是防火墙或 NetworkPolicy 的规则）。',
    'diagnose.ev.refused-by-node':
      'Pod 访问 {target} 时收到的拒绝来自节点 {node} 上的这条 REJECT（ICMP 端口不可达），而不是后端关闭的端口。',
    'diagnose.ev.container-ports': 'Pod {pod} 声明的容器端口：{ports}。',
    'diagnose.ev.container-ports-none': 'Pod {pod} 没有声明任何容器端口。',
    'diagnose.ev.local-endpoints-used':
      'internalTrafficPolicy 为 Local：节点 {node} 上的 kube-proxy 只把这个 Pod 的连接转给该节点上的端点（{endpoints}）；其他端点只是顺带探测，对这个 Pod 不起作用。',
    'diagnose.ev.ipvs-service': '节点 {node} 的 IPVS 虚拟服务 {target}：真实服务器 {servers}。',
    'diagnose.ev.dns-ok': '{tool} {name}：解析为 {addresses}。',
    'diagnose.ev.dns-failed': '{tool} {name}：无法解析（{why}）。',
    'diagnose.ev.dns-short-ok': '从命名空间 {namespace} 查询短名称 {name}：{addresses}。',
    'diagnose.ev.dns-short-failed': '从命名空间 {namespace} 查询短名称 {name}：无法解析。',
    'diagnose.next.short-name':
      '在命名空间 {namespace} 中用 {qualified}（或完整名称）访问该 Service，而不是 {name}：短名称指的是客户端自己命名空间中的 Service。',
    'diagnose.ev.dns-invalid': '没有查询 Service 的 DNS 名称：{name} 不是合法的 DNS 名称。',
    'diagnose.ev.resolv-conf': 'Pod 的 resolv.conf：nameserver {servers}；search {search}；options {options}。',
    'diagnose.ev.no-route-check': 'Pod 到 {dst} 的路由未知（没有 `ip`，也读不到 /proc/net/route）。',
    'diagnose.ev.connect-ok-despite-route': '尽管路由不经过节点，连接仍然成功：这条路径上有别的设备转换了 ClusterIP。',

    'diagnose.dns.nxdomain': '没有这个名称（NXDOMAIN）',
    'diagnose.dns.timeout': '没有 DNS 服务器应答',
    'diagnose.dns.servfail': '服务器出错（SERVFAIL）',
    'diagnose.dns.not-found': '未找到',
    'diagnose.dns.other': '退出码 {code}',

    'diagnose.next.ok.1':
      '从这个 Pod 访问该 Service 正常。如果应用仍然失败，请检查应用自己的配置（主机名、端口、TLS、代理环境变量）。',
    'diagnose.next.ok.2': '与出问题的 Pod 对比：从那个 Pod 或另一个节点上的 Pod 再诊断一次。',
    'diagnose.next.ok-unprobed.1':
      '只检查了节点的地址转换，没有检查端点的应答：从这个 Pod 用应用自己的客户端发送一次请求并查看端点的日志，或在发送后立即在节点 {node} 上运行 `conntrack -L -p {protocol} --orig-dst {ip}`（[UNREPLIED] 条目表示没有收到应答）。',
    'diagnose.next.no-endpoints.port-name':
      '把 Endpoints 或 EndpointSlice 的端口命名为 Service 端口的名称（{portName}），或者两者都不命名（只有一个端口的 Service）：`kubectl get endpointslices -n {svcNamespace} -l kubernetes.io/service-name={name} -o yaml` 会显示它们的端口。',
    'diagnose.next.node-unconfirmed':
      '没有读取节点 {node} 的规则（该节点上没有可用来读取的 kube-proxy Pod）：允许在该节点上创建特权调试 Pod（给 kpp diagnose 加 `--yes`，或在 VS Code 中确认提示；用完即删除），然后再诊断一次。',
    'diagnose.next.debug-unconfirmed':
      '允许 kpp 提供的临时调试容器（给 kpp diagnose 加 `--yes`，或在 VS Code 中确认提示）：它共享该 Pod 的网络，带有所需工具，并会自行结束（Kubernetes 无法删除它）；然后再诊断一次。',
    'diagnose.next.no-endpoints.1':
      '检查选择器：`kubectl get svc {name} -n {svcNamespace} -o jsonpath={.spec.selector}` 和 `kubectl get pods -n {svcNamespace} -l <selector>`。',
    'diagnose.next.no-endpoints.2': '没有选择器的 Service 需要手工（或由其控制器）写入 Endpoints 或 EndpointSlice。',
    'diagnose.next.no-endpoints.3': '检查 Service 的端口名称或端口号是否与 Pod 的容器端口一致。',
    'diagnose.next.endpoints-not-ready.1': '查看 Pod 为何未就绪：`kubectl describe pod`（就绪探针事件）以及容器日志。',
    'diagnose.next.endpoints-not-ready.2':
      '如果 Pod 能提供服务但探针配置有误，请修正 readinessProbe（路径、端口、超时）。',
    'diagnose.next.bypass.1':
      '让 Service CIDR 经过节点：在 Pod 中为 Service CIDR 添加一条经主接口节点侧的路由（在 CNI 或 Multus 配置中），或者去掉第二个接口上的默认路由。',
    'diagnose.next.bypass.2':
      '将该 Pod 的路由和路由规则与同一节点上正常的 Pod 对比：`kubectl exec -n {namespace} {podName} -- ip route` 和 `kubectl exec -n {namespace} {podName} -- ip rule`。',
    'diagnose.next.bypass.3':
      '对于 macvlan/ipvlan/SR-IOV 的 Pod，ClusterIP 需要一条经节点返回的路由，或者使用在 Pod 内转换 Service 的 CNI（例如 eBPF 负载均衡）。',
    'diagnose.next.bypass.4': '在此之前，可以直接访问端点（它们的地址可以直接到达）或通过 NodePort 访问。',
    'diagnose.next.dnat-missing.1':
      '检查该节点上的 kube-proxy：`kubectl -n kube-system logs` 查看其 Pod 日志（同步错误、“Failed to execute iptables-restore”）。',
    'diagnose.next.dnat-missing.2': '重启该节点上的 kube-proxy（删除它的 Pod），让它重写规则，然后再诊断一次。',
    'diagnose.next.dnat-missing.3':
      '用 `kpp generate` 根据同样的 Service 和端点生成规则，与节点转储对比，找出所有差异。',
    'diagnose.next.backend-refused.1':
      '对比 Service 的 targetPort 和容器实际监听的端口：`kubectl get svc {name} -n {svcNamespace} -o jsonpath={.spec.ports}`，并在端点 Pod 中运行 `ss -ltn`（或查看服务日志）。',
    'diagnose.next.backend-refused.2':
      '修正 Service 的 targetPort（或服务绑定的地址：只监听 127.0.0.1 的服务会拒绝发往 Pod IP 的连接），然后重新诊断。',
    'diagnose.next.backend-filtered.1':
      '找出规则的来源：`kubectl get networkpolicy -A`（入站或出站规则没有放行该 Pod 的策略），或节点自己的防火墙（在节点上运行 `iptables-save -c`：每次探测该规则的计数都会增加）。',
    'diagnose.next.backend-filtered.2': '放行从该 Pod 到端点 targetPort 的流量，然后重新诊断。',
    'diagnose.next.no-local-endpoints.1':
      '让该 Pod 所在的节点上也有就绪端点（使用 DaemonSet，或把 Deployment 分散到各节点），或者把 Service {name} 的 internalTrafficPolicy 设为 Cluster。',
    'diagnose.next.no-local-endpoints.2':
      '或者把这个客户端调度到有端点的节点上：`kubectl get endpointslices -n {svcNamespace} -l kubernetes.io/service-name={name} -o wide` 会显示每个端点所在的节点。',
    'diagnose.next.no-local-endpoints.3':
      'kube-proxy 为此写的是 `has no local endpoints` 的 DROP 规则：客户端看到的是超时，而不是连接被拒绝。',
    'diagnose.next.hairpin.1':
      '在网桥（cni0、docker0）上，Pod 的网桥端口需要开启 hairpin 模式：kubelet 的 `--hairpin-mode`（hairpin-veth 或 promiscuous-bridge），或 bridge CNI 的 `hairpinMode: true`；在节点上 `/sys/class/net/<网桥>/brif/<veth>/hairpin_mode` 必须为 1。',
    'diagnose.next.hairpin.2':
      'kube-proxy 必须对 Pod 访问自己的流量做伪装（KUBE-SEP 规则 `-s <podIP> -j KUBE-MARK-MASQ`）：用 `kpp generate` 与节点上的规则对比。',
    'diagnose.next.backend-unreachable.1':
      '检查后端 Pod 是否在所有地址（不只是 127.0.0.1）上监听目标端口：在 Pod 内运行 `ss -ltn`。',
    'diagnose.next.backend-unreachable.2':
      '核对 Service 的 targetPort 与容器端口，并检查可能阻断流量的 NetworkPolicy。',
    'diagnose.next.backend-path.1':
      '检查从节点 {node} 到 {endpoint} 的路径：在该节点上 `ip route get {endpoint}` 应经由覆盖网络或朝端点所在的节点离开（而不是 unreachable 或 blackhole），节点之间的隧道也必须畅通（VXLAN UDP 8472 或 4789、IPIP、WireGuard；BGP 路由；节点之间的安全组或防火墙）。',
    'diagnose.next.backend-path.2':
      '丢弃数据包的 NetworkPolicy 或防火墙看起来也是这样（`kubectl get networkpolicy -n {svcNamespace}`）；也从另一个节点上的 Pod 再诊断一次：两个节点之间的路径故障只会在其中一侧出现。',
    'diagnose.next.dns-failure.1': '检查 CoreDNS / kube-dns：它的 Pod、日志以及 kube-dns Service 的端点。',
    'diagnose.next.dns-failure.2':
      '检查 Pod 的 resolv.conf（nameserver 应为 kube-dns 的 ClusterIP、search 列表、ndots）以及 Pod 的 dnsPolicy。',
    'diagnose.next.dns-failure.3':
      '从这个 Pod 诊断集群 DNS Service 本身（UDP 53）：`kpp diagnose svc/kube-dns -n kube-system --port 53/udp --from pod/{podName} --from-namespace {namespace}`（通常名为 kube-dns，使用 CoreDNS 时也是如此）。',
    'diagnose.next.dns-bypass.1':
      '让 Pod 到域名服务器 {server} 的路由也经过节点（Service CIDR，或节点本地 DNS 的地址），在 CNI 或 Multus 配置中修改，或者去掉第二个接口上的默认路由。',
    'diagnose.next.tool-missing.1':
      '在共享该 Pod 网络的临时调试容器中运行检查（例如 `kubectl debug -it {podName} -n {namespace} --image=nicolaka/netshoot`）。',
    'diagnose.next.tool-missing.2': '或者从同一节点上带有 curl、wget、nc 或 bash 的另一个 Pod 进行诊断。',
    'diagnose.next.tool-missing-dns.1':
      'UDP 的 DNS 端口要用 DNS 查询来探测：在带有 nslookup 并共享该 Pod 网络的临时调试容器中运行检查（例如 `kubectl debug -it {podName} -n {namespace} --image=busybox`）。',
    'diagnose.next.tool-missing-dns.2': '或者从同一节点上带有 nslookup 的另一个 Pod 进行诊断。',
    'diagnose.next.exec-forbidden.1':
      '申请命名空间 {namespace} 中 `pods/exec` 的 `create` 权限（RBAC），或使用有该权限的 kube 上下文。',
    'diagnose.next.exec-forbidden.2': '用 `kubectl auth can-i create pods/exec -n {namespace}` 确认。',
    'diagnose.next.inconclusive.1': '阅读上面的证据和下面执行过的命令；如果检查超时，请用更长的超时时间重试。',
    'diagnose.next.inconclusive.2': '在探测前后采集节点的规则（`kpp capture node/...`），并在其中追踪 Pod 的数据包。',

    'diagnose.next.external-name.1':
      '在 Pod 中直接检查远端：`kubectl exec -n {namespace} {podName} -- nslookup {externalName}`，再在客户端使用的端口上连接 {externalName}（kpp diagnose 检查的是 kube-proxy 转换的流量）。',
    'diagnose.report.title': '诊断：从 {pod} 访问 {service}',
    'diagnose.report.verdict': '结论：{title}',
    'diagnose.report.evidence': '证据',
    'diagnose.report.next': '下一步',
    'diagnose.report.checks': '在 Pod 中执行的命令',
    'diagnose.report.node': '节点 {node}：规则计数器',
    'diagnose.report.node-via': '读取方式：{via}。',
    'diagnose.report.node-error': '节点证据：{error}',
    'diagnose.report.col.check': '检查',
    'diagnose.report.col.command': '命令',
    'diagnose.report.col.exit': '退出码',
    'diagnose.report.col.time': '耗时',
    'diagnose.report.col.result': '结果',
    'diagnose.report.col.line': '行',
    'diagnose.report.col.chain': '链',
    'diagnose.report.col.rule': '规则',
    'diagnose.report.col.before': '探测前',
    'diagnose.report.col.after': '探测后',
    'diagnose.report.yes': '是',
    'diagnose.report.no': '否',
    'diagnose.report.no-checks': '没有在 Pod 中执行任何命令。',
    'diagnose.report.no-counters': '没有读取到计数器。',
    'diagnose.report.duration': '耗时 {ms} 毫秒。',
    'diagnose.report.output': '输出',
    'diagnose.report.source': '来源：{pod}',
    'diagnose.report.service': 'Service：{service}',
    'diagnose.report.source-node': '节点 {node}',
  },
};
