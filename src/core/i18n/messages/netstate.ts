import type { MessageBundle } from '../lang';

/** routes texts. Keys are namespaced `routes.*`; every key exists in both languages (a unit test checks). */
export const netstateMessages: MessageBundle = {
  en: {
    // Diagnostics of the network-output parsers (code `routes-X` has key `routes.diag.X`).
    'routes.diag.unrecognized-line':
      'Line not understood as ip route, ip rule, ip addr, route -n, conntrack or ipset output: {text}',
    'routes.diag.command-error': 'The command reported an error: {reason}',
    'routes.diag.route-unknown-word': 'Unknown word "{word}" in a route; kept as written.',
    'routes.diag.route-missing-value': '"{key}" has no value (was the line cut?).',
    'routes.diag.route-bad-address': '"{value}" is not an IP address or prefix.',
    'routes.diag.route-no-destination':
      'A {type} route without a destination (was the line cut?); read as the default route.',
    'routes.diag.nexthop-without-route': 'A nexthop line without the multipath route it belongs to.',
    'routes.diag.cache-without-route-get': 'A cache line without the ip route get answer it belongs to.',
    'routes.diag.addr-outside-interface': '"{word}" line without the address or interface it belongs to.',
    'routes.diag.addr-unknown-detail': 'Detail line of interface {name} not understood; kept as written.',
    'routes.diag.addr-bad-address': '"{value}" is not an address with a prefix length.',
    'routes.diag.route-n-bad-row': 'Routing table row has {found} columns, the header has {expected}.',
    'routes.diag.route-n-bad-genmask': 'Genmask {value} is not a contiguous netmask.',
    'routes.diag.conntrack-missing-protocol':
      'The conntrack line starts without its protocol name (cut at the start?); protocol taken as {protocol}.',
    'routes.diag.conntrack-unknown-word': 'Unknown word "{word}" in a conntrack entry; kept as written.',
    'routes.diag.ipset-member-outside-set': 'ipset member "{value}" appears outside any set listing.',
    'routes.diag.ipset-bad-member': '"{value}" is not a member of this set type.',
    'routes.diag.ipset-unknown-field': 'Unknown ipset field "{field}"; kept as written.',
    'routes.diag.ipset-count-mismatch':
      'Set {name} says it has {declared} entries but {listed} are listed (was the paste cut?).',
    'routes.diag.rule-unknown-word': 'Unknown word "{word}" in an ip rule; kept as written.',
    'routes.diag.rule-table-not-pasted':
      'Rule {priority} looks up table {table}, but none of the routes pasted (from `ip route show table all`) is in it: that table is empty, or it was not pasted. An empty table sends the lookup on to the next rule.',

    // What kube-proxy (IPVS mode) keeps in each of its ipsets.
    'routes.ipset.purpose.loop-back':
      'Endpoint IP, port and the same endpoint IP: a pod reaching itself through its Service (hairpin), to masquerade.',
    'routes.ipset.purpose.cluster-ip':
      'Service ClusterIP and port pairs, used to masquerade and accept Service traffic.',
    'routes.ipset.purpose.external-ip': 'Service external IPs and ports, to masquerade and filter.',
    'routes.ipset.purpose.external-ip-local': 'External IPs and ports of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.load-balancer': 'LoadBalancer ingress IPs and ports of Services.',
    'routes.ipset.purpose.load-balancer-fw':
      'LoadBalancer IPs and ports of Services that set loadBalancerSourceRanges.',
    'routes.ipset.purpose.load-balancer-local':
      'LoadBalancer IPs and ports of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.load-balancer-source-ip': 'LoadBalancer IP, port and a source IP allowed to reach it.',
    'routes.ipset.purpose.load-balancer-source-cidr': 'LoadBalancer IP, port and a source CIDR allowed to reach it.',
    'routes.ipset.purpose.node-port-tcp': 'TCP NodePorts, to masquerade.',
    'routes.ipset.purpose.node-port-local-tcp': 'TCP NodePorts of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.node-port-udp': 'UDP NodePorts, to masquerade.',
    'routes.ipset.purpose.node-port-local-udp': 'UDP NodePorts of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.node-port-sctp': 'SCTP NodePorts (as IP and port), to masquerade.',
    'routes.ipset.purpose.node-port-local-sctp':
      'SCTP NodePorts (as IP and port) of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.health-check-node-port':
      'Health check NodePorts of Services with externalTrafficPolicy Local.',
    'routes.ipset.purpose.ipvs-ips': 'Addresses bound to the kube-ipvs0 dummy interface (the Service IPs).',
    // Explanations of lines (`kpp explain` on network output).
    'routes.explain.default-destination': 'any destination without a more specific route (the default route)',
    'routes.explain.route.via': 'Packets to {destination} go to the next hop {gateway} through {dev}.',
    'routes.explain.route.link':
      'Packets to {destination} are sent straight out of {dev}, without a gateway: the destination is on that link.',
    'routes.explain.route.nhid':
      'Packets to {destination} follow nexthop object {id}; this listing does not say which gateway or device that is (run `ip nexthop show id {id}`).',
    'routes.explain.route.multipath': 'Packets to {destination} are spread over {count} next hops: {hops}.',
    'routes.explain.route.blackhole':
      "Packets to {destination} are dropped silently (blackhole). A longer prefix elsewhere still wins, so CNIs use this for a node's own pod block.",
    'routes.explain.route.unreachable':
      'Packets to {destination} are refused: the sender gets "No route to host" (EHOSTUNREACH).',
    'routes.explain.route.prohibit':
      'Packets to {destination} are refused: the sender gets "administratively prohibited".',
    'routes.explain.route.throw':
      'The lookup for {destination} stops in this table and goes on with the next policy rule.',
    'routes.explain.route.local': '{destination} is an address of this host: packets to it are delivered here.',
    'routes.explain.source': 'The source address it picks is {src}.',
    'routes.explain.table': '(Routing table {table}, used only where an ip rule sends the lookup there.)',
    'routes.explain.table.local':
      '(Table local: the kernel checks it before every other table, so these addresses are always delivered here.)',
    'routes.explain.get.blackhole':
      "The kernel's answer: packets to {destination} are dropped silently (a blackhole route matches).",
    'routes.explain.get.unreachable':
      'The kernel\'s answer: packets to {destination} are refused with "No route to host" (an unreachable route matches).',
    'routes.explain.get.prohibit':
      "The kernel's answer: packets to {destination} are refused as administratively prohibited (a prohibit route matches).",
    'routes.explain.linkdown':
      '{dev} has no carrier (linkdown); unless the ignore_routes_with_linkdown sysctl is set, the kernel still uses this route, so packets go out a dead link instead of falling back.',
    'routes.explain.get.via':
      "The kernel's answer: packets to {destination} leave through {dev} to the next hop {gateway}.",
    'routes.explain.get.link':
      "The kernel's answer: packets to {destination} leave through {dev}, straight to the destination.",
    'routes.explain.get.local':
      "The kernel's answer: {destination} is an address of this host; packets to it stay here.",
    'routes.explain.get.error': 'The kernel has no route to {destination}: {error}.',
    'routes.explain.get.service-hint':
      'If {destination} is a Service ClusterIP, only netfilter on a host the packet passes rewrites it: this host as it leaves, or the host that receives it from {dev} (for a pod, the node at the other end of its veth, whatever the gateway address). A router outside the cluster never does.',
    'routes.explain.get.service-known':
      '{destination} is the ClusterIP of {service} (from the rules in this paste): only netfilter on a host the packet passes rewrites it, this host as it leaves or the host that receives it from {dev} (for a pod, the node at the other end of its veth). If {gateway} is a router outside the cluster, the packet reaches it untranslated.',
    'routes.explain.rule.lookup': 'Rule {priority}: {selector} are routed by table {table}.',
    'routes.explain.rule.lookup-main':
      'Rule {priority}: {selector} are routed by table main, the one `ip route` shows.',
    'routes.explain.rule.lookup-local':
      "Rule {priority}: {selector} are checked against table local first (this host's own and broadcast addresses).",
    'routes.explain.rule.goto': 'Rule {priority}: {selector} go on at rule {goto}, skipping the rules in between.',
    'routes.explain.rule.blackhole': 'Rule {priority}: {selector} are dropped silently.',
    'routes.explain.rule.unreachable': 'Rule {priority}: {selector} are refused with "Network is unreachable".',
    'routes.explain.rule.prohibit': 'Rule {priority}: {selector} are refused as administratively prohibited.',
    'routes.explain.rule.nop': 'Rule {priority}: does nothing with {selector} (a placeholder).',
    'routes.explain.rule.before-main':
      'It comes before table main (rule {main}): a packet it matches uses the routes of table {table} (`ip route show table {table}`), not those `ip route` shows, unless table {table} has no route for it; then the next rule is tried.',
    'routes.explain.rule.suppress':
      "A route it finds there with a prefix of {bits} bits or fewer is not taken (suppress_prefixlength {bits}); 0 means the table's default route is ignored, as wg-quick sets up.",
    'routes.explain.rule.mark':
      'The firewall mark is set by iptables/nftables rules (MARK, CONNMARK) or by the CNI (Cilium, Calico, the AWS VPC CNI).',
    'routes.explain.rule.detached':
      'Its interface does not exist now (detached): the rule matches nothing until it does.',
    'routes.explain.rule.all': 'all packets',
    'routes.explain.rule.packets': 'packets {parts}',
    'routes.explain.rule.not': 'packets except those {parts}',
    'routes.explain.rule.none': 'no packets (`not from all` matches nothing)',
    'routes.explain.rule.lookup-vrf':
      'Rule {priority}: {selector} are routed by the table of the VRF device they are on (l3mdev).',
    'routes.explain.rule.goto-unresolved':
      'Rule {priority}: its goto target, rule {goto}, does not exist (unresolved): the rule does nothing and the next one is tried.',
    'routes.explain.rule.from': 'from {value}',
    'routes.explain.rule.to': 'to {value}',
    'routes.explain.rule.fwmark': 'with firewall mark {value}',
    'routes.explain.rule.iif': 'arriving on {value}',
    'routes.explain.rule.iif-lo': 'sent by this host (iif lo)',
    'routes.explain.rule.oif': 'leaving on {value}',
    'routes.explain.rule.uidrange': 'of processes with uid {value}',
    'routes.explain.rule.ipproto': 'of protocol {value}',
    'routes.explain.rule.sport': 'from port {value}',
    'routes.explain.rule.dport': 'to port {value}',
    'routes.explain.rule.tos': 'with TOS {value}',
    'routes.explain.rule.separator': ', ',
    'routes.explain.flow': '{protocol} flow from {from} to {to}, state {state}.',
    'routes.explain.flow.dnat': 'Its destination was rewritten (DNAT) to {to}.',
    'routes.explain.flow.snat': 'Its source was rewritten (SNAT/masquerade) to {to}.',
    'routes.explain.flow.no-nat':
      'Its reply tuple mirrors it: no NAT. A flow to a Service ClusterIP like this was never translated on this host.',
    'routes.explain.flow.unreplied': 'No reply has been seen yet (UNREPLIED).',
    'routes.explain.interface': 'Interface {name}, state {state}, MTU {mtu}: {addresses}.',
    'routes.explain.interface.veth':
      'Its peer is interface {index} in another network namespace (a veth pair, as CNIs make for pods).',
    'routes.explain.interface.admin-down':
      'It is administratively down (no UP flag): it sends and receives nothing, and routes out of it are not used, until `ip link set {name} up`.',
    'routes.explain.interface.no-carrier':
      'It has no carrier (its link is down): nothing passes until the link comes back (cable, peer veth or the other end of the tunnel).',
    'routes.explain.no-addresses': 'no addresses',
    'routes.explain.address':
      '`{address}/{prefix}` on {interface}: this host answers for {address}, and {network} is reached directly on {interface}.',
    'routes.explain.address.configured': '`{address}/{prefix}` is configured on {interface}.',
    'routes.explain.address.dadfailed':
      'But duplicate address detection failed: another host on the link already has {address}, so the kernel neither uses it nor answers for it. Give {interface} a unique address (and remove this one).',
    'routes.explain.address.tentative':
      'But {address} is still tentative (duplicate address detection has not finished): the kernel does not use it until it has.',
    'routes.explain.address.admin-down':
      'But {interface} is administratively down (no UP flag): nothing is sent or received on it, and {network} is not reachable through it until `ip link set {interface} up`.',
    'routes.explain.address.no-carrier':
      'But {interface} has no carrier (its link is down): {network} is not reachable through it until the link comes back (cable, peer veth or the other end of the tunnel).',
    'routes.explain.set.one': 'ipset {name} ({type}) with {count} member.',
    'routes.explain.set.other': 'ipset {name} ({type}) with {count} members.',
    'routes.explain.set.cut': 'It says {said} entries but {pasted} were pasted: the list was cut.',
    'routes.explain.set-member':
      '`{member}` is a member of {set}: rules with `-m set --match-set {set}` match packets whose fields equal it.',
    'routes.outline.routes': 'Routes',
    'routes.outline.route-gets': 'Route lookups (ip route get)',
    'routes.outline.rules': 'Policy rules (ip rule)',
    'routes.outline.interfaces': 'Interfaces',
    'routes.outline.conntrack': 'Connections (conntrack)',
    'routes.outline.ipsets': 'IP sets',
    'routes.outline.table': 'table {table}',
    'routes.outline.members.one': '{count} member',
    'routes.outline.members.other': '{count} members',
    'routes.outline.error': 'error: {error}',
  },
  'zh-CN': {
    'routes.diag.unrecognized-line':
      '无法识别为 ip route、ip rule、ip addr、route -n、conntrack 或 ipset 输出的行：{text}',
    'routes.diag.command-error': '命令报告了错误：{reason}',
    'routes.diag.route-unknown-word': '路由中有未知的词“{word}”，已按原样保留。',
    'routes.diag.route-missing-value': '“{key}”缺少取值（该行是否被截断？）。',
    'routes.diag.route-bad-address': '“{value}”不是 IP 地址或前缀。',
    'routes.diag.route-no-destination': '{type} 路由没有目的地址（该行是否被截断？），按默认路由读取。',
    'routes.diag.nexthop-without-route': 'nexthop 行前面没有它所属的多路径路由。',
    'routes.diag.cache-without-route-get': 'cache 行前面没有它所属的 ip route get 结果。',
    'routes.diag.addr-outside-interface': '“{word}”行前面没有它所属的地址或接口。',
    'routes.diag.addr-unknown-detail': '无法理解接口 {name} 的详情行，已按原样保留。',
    'routes.diag.addr-bad-address': '“{value}”不是带前缀长度的地址。',
    'routes.diag.route-n-bad-row': '路由表这一行有 {found} 列，表头有 {expected} 列。',
    'routes.diag.route-n-bad-genmask': 'Genmask {value} 不是连续的子网掩码。',
    'routes.diag.conntrack-missing-protocol': 'conntrack 行开头缺少协议名（开头被截断？），协议按 {protocol} 处理。',
    'routes.diag.conntrack-unknown-word': 'conntrack 条目中有未知的词“{word}”，已按原样保留。',
    'routes.diag.ipset-member-outside-set': 'ipset 成员“{value}”不在任何集合列表中。',
    'routes.diag.ipset-bad-member': '“{value}”不是此集合类型的成员。',
    'routes.diag.ipset-unknown-field': '未知的 ipset 字段“{field}”，已按原样保留。',
    'routes.diag.ipset-count-mismatch':
      '集合 {name} 声明有 {declared} 个条目，但只列出了 {listed} 个（粘贴是否被截断？）。',
    'routes.diag.rule-unknown-word': 'ip rule 中有未知的词“{word}”，已按原样保留。',
    'routes.diag.rule-table-not-pasted':
      '规则 {priority} 查询路由表 {table}，但粘贴的路由（来自 `ip route show table all`）中没有任何一条属于它：该表为空，或者没有被粘贴。空表会让查询继续交给下一条规则。',

    'routes.ipset.purpose.loop-back':
      'Endpoint IP、端口和同一个 Endpoint IP：Pod 经自己的 Service 访问自己（hairpin），需做 SNAT 伪装。',
    'routes.ipset.purpose.cluster-ip': 'Service 的 ClusterIP 与端口，用于伪装和放行 Service 流量。',
    'routes.ipset.purpose.external-ip': 'Service 的 externalIP 与端口，用于伪装和过滤。',
    'routes.ipset.purpose.external-ip-local': 'externalTrafficPolicy 为 Local 的 Service 的 externalIP 与端口。',
    'routes.ipset.purpose.load-balancer': 'Service 的 LoadBalancer 入口 IP 与端口。',
    'routes.ipset.purpose.load-balancer-fw': '设置了 loadBalancerSourceRanges 的 Service 的 LoadBalancer IP 与端口。',
    'routes.ipset.purpose.load-balancer-local': 'externalTrafficPolicy 为 Local 的 Service 的 LoadBalancer IP 与端口。',
    'routes.ipset.purpose.load-balancer-source-ip': 'LoadBalancer IP、端口以及允许访问它的源 IP。',
    'routes.ipset.purpose.load-balancer-source-cidr': 'LoadBalancer IP、端口以及允许访问它的源网段。',
    'routes.ipset.purpose.node-port-tcp': 'TCP NodePort 端口，用于伪装。',
    'routes.ipset.purpose.node-port-local-tcp': 'externalTrafficPolicy 为 Local 的 Service 的 TCP NodePort 端口。',
    'routes.ipset.purpose.node-port-udp': 'UDP NodePort 端口，用于伪装。',
    'routes.ipset.purpose.node-port-local-udp': 'externalTrafficPolicy 为 Local 的 Service 的 UDP NodePort 端口。',
    'routes.ipset.purpose.node-port-sctp': 'SCTP NodePort（IP 加端口形式），用于伪装。',
    'routes.ipset.purpose.node-port-local-sctp':
      'externalTrafficPolicy 为 Local 的 Service 的 SCTP NodePort（IP 加端口形式）。',
    'routes.ipset.purpose.health-check-node-port': 'externalTrafficPolicy 为 Local 的 Service 的健康检查 NodePort。',
    'routes.ipset.purpose.ipvs-ips': '绑定在 kube-ipvs0 虚拟网卡上的地址（即 Service IP）。',
    'routes.explain.default-destination': '没有更具体路由的任何目的地址（默认路由）',
    'routes.explain.route.via': '发往 {destination} 的数据包经 {dev} 交给下一跳 {gateway}。',
    'routes.explain.route.link': '发往 {destination} 的数据包不经网关，直接从 {dev} 发出：目的地址就在该链路上。',
    'routes.explain.route.nhid':
      '发往 {destination} 的数据包使用下一跳对象 {id}；此列表没有显示它对应的网关或设备（运行 `ip nexthop show id {id}` 查看）。',
    'routes.explain.route.multipath': '发往 {destination} 的数据包分摊到 {count} 个下一跳：{hops}。',
    'routes.explain.route.blackhole':
      '发往 {destination} 的数据包被静默丢弃（blackhole）。其他更长的前缀仍然优先，所以 CNI 用它来覆盖节点自己的 Pod 网段。',
    'routes.explain.route.unreachable':
      '发往 {destination} 的数据包被拒绝：发送方收到“No route to host”（EHOSTUNREACH）。',
    'routes.explain.route.prohibit': '发往 {destination} 的数据包被拒绝：发送方收到“管理上禁止”。',
    'routes.explain.route.throw': '对 {destination} 的查找在此表中止，继续按下一条策略规则查找。',
    'routes.explain.route.local': '{destination} 是本机地址：发往它的数据包在本机接收。',
    'routes.explain.source': '选用的源地址是 {src}。',
    'routes.explain.table': '（路由表 {table}，只有 ip rule 把查找指向它时才使用。）',
    'routes.explain.table.local': '（local 表：内核在查其他表之前先查它，所以这些地址总在本机接收。）',
    'routes.explain.get.blackhole': '内核的回答：发往 {destination} 的数据包被静默丢弃（匹配了 blackhole 路由）。',
    'routes.explain.get.unreachable':
      '内核的回答：发往 {destination} 的数据包被拒绝，返回“No route to host”（匹配了 unreachable 路由）。',
    'routes.explain.get.prohibit':
      '内核的回答：发往 {destination} 的数据包以“管理上禁止”被拒绝（匹配了 prohibit 路由）。',
    'routes.explain.linkdown':
      '{dev} 没有载波（linkdown）；除非设置了 ignore_routes_with_linkdown sysctl，内核仍会使用这条路由，数据包会从断开的链路发出而不是改走其他路由。',
    'routes.explain.get.via': '内核的回答：发往 {destination} 的数据包从 {dev} 发出，交给下一跳 {gateway}。',
    'routes.explain.get.link': '内核的回答：发往 {destination} 的数据包从 {dev} 直接发往目的地址。',
    'routes.explain.get.local': '内核的回答：{destination} 是本机地址，发往它的数据包留在本机。',
    'routes.explain.get.error': '内核没有到 {destination} 的路由：{error}。',
    'routes.explain.get.service-hint':
      '如果 {destination} 是 Service 的 ClusterIP，只有数据包经过的主机上的 netfilter 才会改写它：本机（发出时），或者从 {dev} 接收它的主机（对 Pod 来说是 veth 另一端的节点，与网关地址无关）。集群之外的路由器永远不会改写。',
    'routes.explain.get.service-known':
      '{destination} 是 {service} 的 ClusterIP（来自本次粘贴中的规则）：只有数据包经过的主机上的 netfilter 才会改写它，即本机（发出时）或从 {dev} 接收它的主机（对 Pod 来说是 veth 另一端的节点）。如果 {gateway} 是集群之外的路由器，数据包到达它时没有被转换。',
    'routes.explain.rule.lookup': '规则 {priority}：{selector}由路由表 {table} 决定路由。',
    'routes.explain.rule.lookup-main':
      '规则 {priority}：{selector}由路由表 main 决定路由，也就是 `ip route` 显示的那张表。',
    'routes.explain.rule.lookup-local': '规则 {priority}：{selector}先查 local 表（本机自己的地址和广播地址）。',
    'routes.explain.rule.goto': '规则 {priority}：{selector}跳到规则 {goto} 继续，跳过中间的规则。',
    'routes.explain.rule.blackhole': '规则 {priority}：{selector}被静默丢弃。',
    'routes.explain.rule.unreachable': '规则 {priority}：{selector}被拒绝，返回“Network is unreachable”。',
    'routes.explain.rule.prohibit': '规则 {priority}：{selector}被以“管理上禁止”拒绝。',
    'routes.explain.rule.nop': '规则 {priority}：对{selector}不做任何事（占位规则）。',
    'routes.explain.rule.before-main':
      '它排在 main 表（规则 {main}）之前：它匹配的数据包使用路由表 {table} 的路由（`ip route show table {table}`），而不是 `ip route` 显示的路由；只有表 {table} 中没有适用的路由时，才尝试下一条规则。',
    'routes.explain.rule.suppress':
      '在该表中找到的前缀长度不超过 {bits} 位的路由不会被采用（suppress_prefixlength {bits}）；0 表示忽略该表的默认路由，wg-quick 就是这样配置的。',
    'routes.explain.rule.mark':
      '防火墙标记由 iptables/nftables 规则（MARK、CONNMARK）或 CNI（Cilium、Calico、AWS VPC CNI）设置。',
    'routes.explain.rule.detached': '它的网卡目前不存在（detached）：在网卡出现之前，这条规则不匹配任何数据包。',
    'routes.explain.rule.all': '所有数据包',
    'routes.explain.rule.packets': '{parts}的数据包',
    'routes.explain.rule.not': '不满足“{parts}”的数据包',
    'routes.explain.rule.none': '没有任何数据包（`not from all` 不匹配任何数据包）',
    'routes.explain.rule.lookup-vrf': '规则 {priority}：{selector}由它们所在 VRF 设备的路由表决定路由（l3mdev）。',
    'routes.explain.rule.goto-unresolved':
      '规则 {priority}：它的 goto 目标规则 {goto} 不存在（unresolved）：这条规则不起作用，继续尝试下一条规则。',
    'routes.explain.rule.from': '来自 {value}',
    'routes.explain.rule.to': '发往 {value}',
    'routes.explain.rule.fwmark': '带防火墙标记 {value}',
    'routes.explain.rule.iif': '从 {value} 进入',
    'routes.explain.rule.iif-lo': '由本机发出（iif lo）',
    'routes.explain.rule.oif': '从 {value} 发出',
    'routes.explain.rule.uidrange': '属于 uid 为 {value} 的进程',
    'routes.explain.rule.ipproto': '协议为 {value}',
    'routes.explain.rule.sport': '源端口为 {value}',
    'routes.explain.rule.dport': '目的端口为 {value}',
    'routes.explain.rule.tos': 'TOS 为 {value}',
    'routes.explain.rule.separator': '、',
    'routes.explain.flow': '{protocol} 连接：从 {from} 到 {to}，状态 {state}。',
    'routes.explain.flow.dnat': '它的目的地址被改写（DNAT）为 {to}。',
    'routes.explain.flow.snat': '它的源地址被改写（SNAT/伪装）为 {to}。',
    'routes.explain.flow.no-nat':
      '它的应答方向与原方向对称：没有 NAT。发往 Service ClusterIP 的连接若是这样，说明本机从未转换它。',
    'routes.explain.flow.unreplied': '还没有看到应答（UNREPLIED）。',
    'routes.explain.interface': '网卡 {name}，状态 {state}，MTU {mtu}：{addresses}。',
    'routes.explain.interface.veth': '它的对端是另一个网络命名空间中的网卡 {index}（veth 对，CNI 为 Pod 创建的那种）。',
    'routes.explain.interface.admin-down':
      '它已被管理性关闭（没有 UP 标志）：执行 `ip link set {name} up` 之前它不收发任何数据包，经它出去的路由也不会被使用。',
    'routes.explain.interface.no-carrier':
      '它没有载波（链路断开）：链路恢复（网线、对端 veth 或隧道另一端）之前没有数据包能通过。',
    'routes.explain.no-addresses': '没有地址',
    'routes.explain.address':
      '{interface} 上的 `{address}/{prefix}`：本机应答 {address}，并且 {network} 在 {interface} 上直连可达。',
    'routes.explain.address.configured': '{interface} 上配置了 `{address}/{prefix}`。',
    'routes.explain.address.dadfailed':
      '但重复地址检测失败：链路上另一台主机已经使用 {address}，内核既不使用它，也不应答它。请给 {interface} 配置一个唯一的地址（并删除这个）。',
    'routes.explain.address.tentative':
      '但 {address} 仍处于 tentative 状态（重复地址检测尚未完成）：完成之前内核不会使用它。',
    'routes.explain.address.admin-down':
      '但 {interface} 已被管理性关闭（没有 UP 标志）：它不收发任何数据包，执行 `ip link set {interface} up` 之前无法经它到达 {network}。',
    'routes.explain.address.no-carrier':
      '但 {interface} 没有载波（链路断开）：链路恢复（网线、对端 veth 或隧道另一端）之前无法经它到达 {network}。',
    'routes.explain.set.one': 'ipset {name}（{type}），共 {count} 个成员。',
    'routes.explain.set.other': 'ipset {name}（{type}），共 {count} 个成员。',
    'routes.explain.set.cut': '它声明有 {said} 个条目，但只粘贴了 {pasted} 个：列表被截断了。',
    'routes.explain.set-member':
      '`{member}` 是 {set} 的成员：带 `-m set --match-set {set}` 的规则匹配字段与它相同的数据包。',
    'routes.outline.routes': '路由',
    'routes.outline.route-gets': '路由查询（ip route get）',
    'routes.outline.rules': '策略路由规则（ip rule）',
    'routes.outline.interfaces': '网卡',
    'routes.outline.conntrack': '连接（conntrack）',
    'routes.outline.ipsets': 'IP 集合（ipset）',
    'routes.outline.table': '路由表 {table}',
    'routes.outline.members.one': '{count} 个成员',
    'routes.outline.members.other': '{count} 个成员',
    'routes.outline.error': '错误：{error}',
  },
};
