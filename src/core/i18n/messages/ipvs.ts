import type { MessageBundle } from '../lang';

/** ipvs texts. Keys are namespaced `ipvs.*`; every key exists in both languages (a unit test checks). */
export const ipvsMessages: MessageBundle = {
  en: {
    // Parser diagnostics (code `ipvs-<name>`).
    'ipvs.diag.internal-error': 'Internal error while reading this line ({error}); please report it.',
    'ipvs.diag.unrecognized-line': 'Not recognised as ipvsadm output: {text}',
    'ipvs.diag.text-line': 'Prose, not part of the ipvsadm output; ignored.',
    'ipvs.diag.elided': 'Lines were left out here ("..."): counts describe only what was pasted.',
    'ipvs.diag.module-not-loaded':
      'ipvsadm could not reach IPVS in the kernel: the ip_vs module is not loaded. kube-proxy is probably running in iptables mode on this node, or IPVS is missing.',
    'ipvs.diag.ipvsadm-error': 'ipvsadm refused the command and printed its error instead of output: "{text}".',
    'ipvs.diag.no-such-service':
      'ipvsadm answered "{text}": IPVS on this node has no virtual service with the address, port and protocol the command named. kube-proxy has not programmed that Service here (compare with ipvsadm -Ln and the Service\'s ClusterIP and port).',
    'ipvs.diag.bad-address': 'Cannot read "{text}" as address:port.',
    'ipvs.diag.bad-number': '"{text}" is not a number.',
    'ipvs.diag.cut-line':
      'The text ends inside this line (the paste was cut off?): what it lacks is the cut, not an error of the output.',
    'ipvs.diag.truncated-line': 'The line ends early; missing: {missing}. The paste was probably cut.',
    'ipvs.diag.unexpected-token': 'Unexpected "{text}" on this line.',
    'ipvs.diag.unknown-port-name': 'Port name "{name}" is not a known service name; its number stays unknown.',
    'ipvs.diag.host-name':
      '"{text}" uses a name, not an address: ipvsadm resolved names because -n was not given. Run `ipvsadm -Ln` for numeric output.',
    'ipvs.diag.ambiguous-columns':
      'Four numbers and no column header: read as --thresholds (Uthreshold Lthreshold ActiveConn InActConn). Paste the header lines to be sure.',
    'ipvs.diag.unknown-forward': 'Unknown forwarding method "{text}" (expected Masq, Route, Tunnel or Local).',
    'ipvs.diag.orphan-real-server':
      'Real server {address} comes before any virtual service: the paste starts mid-list, so its virtual service is unknown.',
    'ipvs.diag.save-missing-value': '{option} needs a value.',
    'ipvs.diag.save-unknown-option': 'Unknown ipvsadm option {option}.',
    'ipvs.diag.save-missing-option': 'This rule lacks {option}.',
    'ipvs.diag.save-unknown-service':
      'This adds a real server to {service}, but no -A line above declares that virtual service.',
    'ipvs.diag.save-delete-unknown':
      'Nothing above adds {service}, so there is nothing to delete: ipvsadm would stop here ("No such service" / "No such destination").',
    'ipvs.diag.save-edit-unknown':
      'Nothing above adds {service}, so there is nothing to change: ipvsadm would stop here ("No such service" / "No such destination") and add nothing.',

    // Lint findings.
    'ipvs.lint.no-real-servers':
      "{service} has no real servers: new connections to it fail. For kube-proxy this means the Service has no ready endpoints; check the Pods' readiness and the Service selector.",
    'ipvs.lint.no-real-servers-cut':
      '{service} shows no real servers, but it is the last line pasted: the list may simply have been cut here. If not, the Service has no ready endpoints.',
    'ipvs.lint.all-weights-zero':
      'All {count} real servers of {service} have weight 0 (draining): IPVS schedules no new connections to any of them.',
    'ipvs.lint.all-overloaded':
      'Every real server of {service} that takes connections ({count}) is overloaded: its active + inactive connections reached the upper threshold, so IPVS schedules new connections to none of them and they fail until connections fall below the lower threshold. Raise the thresholds or add real servers.',
    'ipvs.lint.weight-zero':
      '{address} has weight 0: it is draining and gets no new connections; existing ones continue (kube-proxy does this for terminating endpoints).',
    'ipvs.lint.duplicate-virtual-service':
      '{service} is listed again (first on line {line}); was the output pasted twice?',
    'ipvs.lint.duplicate-real-server': '{address} is listed twice under {service} (first on line {line}).',
    'ipvs.lint.unknown-scheduler': 'Unknown scheduler "{name}" (known: {known}).',
    'ipvs.lint.flag-other-scheduler': 'Flag {flag} belongs to another scheduler; with {scheduler} it has no effect.',
    'ipvs.lint.reserved-address':
      'Real server {address} is in 240.0.0.0/4, which is reserved and never assigned to a host: traffic sent there is lost. This is often an IPv6 endpoint misread as IPv4.',
    'ipvs.lint.family-mismatch':
      '{service} is IPv{serviceFamily} but real server {address} is IPv{realFamily}: only Tunnel forwarding can cross address families.',
    'ipvs.lint.empty-table':
      'The IPVS table is empty: kube-proxy is probably not in IPVS mode on this node (check its mode setting), or it has not synced yet.',

    // Schedulers: short name and what it does.
    'ipvs.sched.rr.name': 'round robin',
    'ipvs.sched.rr.desc':
      "Each new connection goes to the next real server in turn. Weights only matter as 0 (skipped) or not; this is kube-proxy's default.",
    'ipvs.sched.wrr.name': 'weighted round robin',
    'ipvs.sched.wrr.desc':
      'Real servers take turns in proportion to their weights: weight 2 gets twice the new connections of weight 1.',
    'ipvs.sched.lc.name': 'least connection',
    'ipvs.sched.lc.desc':
      'Each new connection goes to the real server with the fewest connections (active ones count 256 times more than inactive ones).',
    'ipvs.sched.wlc.name': 'weighted least connection',
    'ipvs.sched.wlc.desc':
      "Like least connection, with connections divided by weight. It is ipvsadm's default when -s is not given.",
    'ipvs.sched.lblc.name': 'locality-based least connection',
    'ipvs.sched.lblc.desc':
      'Sends each destination IP to the same real server unless that one is overloaded; meant for cache clusters.',
    'ipvs.sched.lblcr.name': 'locality-based least connection with replication',
    'ipvs.sched.lblcr.desc':
      'Like lblc, but keeps a set of servers per destination IP and adds servers to the set under load.',
    'ipvs.sched.dh.name': 'destination hashing',
    'ipvs.sched.dh.desc':
      'A hash of the destination address picks the real server, so each destination always reaches the same server.',
    'ipvs.sched.sh.name': 'source hashing',
    'ipvs.sched.sh.desc':
      'A hash of the client (source) address picks the real server, so each client is sticky to one server. With sh-port the source port is hashed too.',
    'ipvs.sched.sed.name': 'shortest expected delay',
    'ipvs.sched.sed.desc': 'Picks the real server with the smallest (active connections + 1) / weight.',
    'ipvs.sched.nq.name': 'never queue',
    'ipvs.sched.nq.desc': 'Uses an idle real server when there is one, otherwise behaves like shortest expected delay.',
    'ipvs.sched.fo.name': 'weighted failover',
    'ipvs.sched.fo.desc':
      'All new connections go to the available real server with the highest weight; the others are standbys.',
    'ipvs.sched.ovf.name': 'weighted overflow',
    'ipvs.sched.ovf.desc':
      'The highest-weight real server takes new connections until its active connections exceed its weight, then the next one.',
    'ipvs.sched.mh.name': 'maglev hashing',
    'ipvs.sched.mh.desc':
      'Consistent (Maglev) hashing of the client address: each client is sticky to one server and few clients move when servers change. With mh-port the source port is hashed too.',
    'ipvs.sched.twos.name': 'weighted random twos choice',
    'ipvs.sched.twos.desc': 'Picks two real servers at random by weight and uses the less loaded one.',
    'ipvs.sched.unknown': 'Scheduler "{name}" is not one of the Linux IPVS schedulers this tool knows.',

    // Scheduler flags.
    'ipvs.flag.ops': 'One-packet scheduling: every UDP datagram is scheduled on its own, without a connection entry.',
    'ipvs.flag.sh-fallback':
      'sh-fallback: when the hashed real server is unavailable (weight 0 or overloaded), try the next one instead of failing.',
    'ipvs.flag.sh-port': 'sh-port: hash the source port as well as the address, so one client spreads over servers.',
    'ipvs.flag.mh-fallback':
      'mh-fallback: when the hashed real server is unavailable, try the next one instead of failing.',
    'ipvs.flag.mh-port': 'mh-port: hash the source port as well as the address.',
    'ipvs.flag.generic': 'Scheduler flag {flag}: its meaning depends on the scheduler.',

    // Forwarding methods.
    'ipvs.fwd.Masq.short': 'NAT (Masq)',
    'ipvs.fwd.Masq':
      '**Masq** = NAT: IPVS rewrites the destination to the real server and replies come back through this node, which rewrites them again. kube-proxy always uses it.',
    'ipvs.fwd.Route.short': 'direct routing (Route)',
    'ipvs.fwd.Route':
      "**Route** = direct routing (`-g`): the frame is sent to the real server's MAC unchanged; the server must hold the virtual IP and answers the client directly. The port cannot change.",
    'ipvs.fwd.Tunnel.short': 'tunnel (Tunnel)',
    'ipvs.fwd.Tunnel.typed.short': '{type} tunnel (Tunnel)',
    'ipvs.fwd.Tunnel':
      '**Tunnel** (`-i`): the packet is encapsulated to the real server (IP-in-IP unless `--tun-type` says GUE or GRE), which decapsulates it, holds the virtual IP and answers directly (DSR). The port cannot change.',
    'ipvs.fwd.Local.short': 'local (Local)',
    'ipvs.fwd.Local': '**Local**: the real server is an address of this node, so the packet is delivered locally.',

    // Tokens.
    'ipvs.tok.prompt': 'Shell prompt: not part of the output.',
    'ipvs.tok.command.list': '`ipvsadm -Ln` lists each virtual service followed by its real servers (`->` lines).',
    'ipvs.tok.command.stats':
      '`ipvsadm -Ln --stats` lists traffic counters per virtual service and real server since they were last zeroed.',
    'ipvs.tok.command.rate': '`ipvsadm -Ln --rate` lists current rates per second.',
    'ipvs.tok.command.thresholds':
      '`ipvsadm -Ln --thresholds` lists the upper/lower connection thresholds of each real server.',
    'ipvs.tok.command.persistent-conn': '`ipvsadm -Ln --persistent-conn` lists connections held by persistence.',
    'ipvs.tok.command.connections': '`ipvsadm -Lnc` lists the connection table: one line per tracked connection.',
    'ipvs.tok.command.timeout': '`ipvsadm -L --timeout` prints the TCP, TCP FIN and UDP idle timeouts.',
    'ipvs.tok.command.daemon': '`ipvsadm -L --daemon` prints the connection sync daemons.',
    'ipvs.tok.command.save': '`ipvsadm -S` prints the table as rules that `ipvsadm -R` can restore.',
    'ipvs.tok.command.rule': 'An ipvsadm rule: the rest of the line changes the IPVS table.',
    'ipvs.tok.command.other': 'Another command; its output is skipped.',
    'ipvs.tok.comment': 'Comment.',
    'ipvs.tok.ellipsis': 'Lines left out by the person who pasted this.',
    'ipvs.tok.header':
      'IPVS version {version} of the kernel (1.2.1 in every kernel since 2.6). size={size} is the number of buckets of the connection hash table, not a connection limit.',
    'ipvs.tok.columns.list':
      'Column header of `ipvsadm -Ln`: a virtual service line (protocol, address:port, scheduler, flags), then its real servers with forwarding method, weight and connection counts.',
    'ipvs.tok.columns.stats':
      'Column header of `--stats`: totals since the counters were last zeroed. Numbers of 100 million and more get K/M/G/T suffixes (powers of 1000) unless --exact is given.',
    'ipvs.tok.columns.rate': 'Column header of `--rate`: connections, packets and bytes per second, in and out.',
    'ipvs.tok.columns.thresholds':
      'Column header of `--thresholds`: a real server with more connections than its upper threshold gets no new ones until it falls below the lower threshold (0 = no limit).',
    'ipvs.tok.columns.persistent-conn':
      'Column header of `--persistent-conn`: weight, connections held by persistence templates, active and inactive connections.',
    'ipvs.tok.columns.connections':
      'Column header of `ipvsadm -Lnc`: protocol, time left, state, client (source), virtual service, and real server (destination).',
    'ipvs.tok.columns.timeout':
      'Idle timeouts in seconds for established TCP, TCP after FIN, and UDP connection entries.',
    'ipvs.tok.protocol.TCP': '**TCP** virtual service.',
    'ipvs.tok.protocol.UDP': '**UDP** virtual service (for kube-proxy: a Service port with protocol UDP, e.g. DNS).',
    'ipvs.tok.protocol.SCTP': '**SCTP** virtual service.',
    'ipvs.tok.protocol.FWM':
      '**FWM**: a firewall-mark service. It matches packets by the mark that iptables/nftables set, not by address and port.',
    'ipvs.tok.protocol.other': 'Protocol {name}.',
    'ipvs.tok.address.service': 'Virtual address {address}: packets to it are balanced over the real servers below.',
    'ipvs.tok.address.real': 'Real server address {address} (for kube-proxy: a ready endpoint, usually a Pod IP).',
    'ipvs.tok.address.source': 'Client (source) address {address}.',
    'ipvs.tok.address.virtual': 'Virtual service address {address} the client connected to.',
    'ipvs.tok.address.destination': 'Real server {address} that IPVS chose for this connection.',
    'ipvs.tok.port.service': 'Virtual port {port}.',
    'ipvs.tok.port.real': 'Real server port {port} (for kube-proxy: the targetPort).',
    'ipvs.tok.port.conn': 'Port {port}.',
    'ipvs.tok.port.zero':
      'Port 0: any port. On a connection entry it marks a persistence template; on a virtual service it means all ports (persistent services only).',
    'ipvs.tok.port.nodePort':
      'Port {port} is in the default NodePort range (30000-32767): probably a NodePort, listening on a node address rather than on kube-ipvs0.',
    'ipvs.tok.port.unknown': 'Port name {name}, number unknown.',
    'ipvs.tok.fwmark': 'Firewall mark {mark} ({hex}): packets carrying this mark are balanced by this service.',
    'ipvs.tok.family6': 'IPv6 firewall-mark service.',
    'ipvs.tok.keyword.persistent':
      '**persistent**: a client keeps the same real server while it keeps connecting within the timeout that follows.',
    'ipvs.tok.keyword.mask':
      '**mask**: persistence granularity; clients in the same masked network share one real server.',
    'ipvs.tok.keyword.pe': '**pe**: persistence engine, which decides what "the same client" means.',
    'ipvs.tok.persistent': 'Persistence timeout {seconds} seconds ({human}).',
    'ipvs.tok.persistent.kube':
      "Persistence timeout {seconds} seconds ({human}): kube-proxy's default for `sessionAffinity: ClientIP`.",
    'ipvs.tok.netmask': 'Persistence mask {mask}.',
    'ipvs.tok.pe.sip': 'Persistence engine **sip**: SIP calls with the same Call-ID stick to one real server.',
    'ipvs.tok.pe': 'Persistence engine {name}.',
    'ipvs.tok.arrow': '`->` introduces a real server of the virtual service above.',
    'ipvs.tok.weight':
      "Weight {weight}: the server's relative capacity for weighted schedulers; any weight above 0 takes part.",
    'ipvs.tok.weight.zero':
      'Weight **0**: draining. The real server gets no new connections; existing ones continue until they end (kube-proxy sets this for terminating endpoints).',
    'ipvs.tok.activeConn':
      'ActiveConn {count}: connections in ESTABLISHED state (for TCP) going through this real server now.',
    'ipvs.tok.inactConn':
      'InActConn {count}: other connection entries (TIME_WAIT, FIN_WAIT, SYN_RECV, UDP) still in the table.',
    'ipvs.tok.persistConn': 'PersistConn {count}: connections held to this server by persistence templates.',
    'ipvs.tok.counter': '{column}: {meaning} Value: {value}.',
    'ipvs.tok.counter.approx':
      '{column}: {meaning} Value: {text} = about {value} (rounded down; use --exact for exact numbers).',
    'ipvs.tok.threshold': '{column} {value} (0 = no limit).',
    'ipvs.tok.expire': 'Expires in {text} ({seconds} seconds) unless more packets arrive.',
    'ipvs.tok.timeout': '{meaning}: {seconds} seconds.',
    'ipvs.tok.daemon':
      'Connection sync daemon ({state}): copies the connection table to other directors so failover keeps connections.',
    'ipvs.tok.error': "ipvsadm's own error message.",
    'ipvs.tok.option': 'ipvsadm option {option}: {meaning}',

    // Column meanings.
    'ipvs.col.Conns': 'connections scheduled since the counters were last zeroed.',
    'ipvs.col.InPkts': 'packets received from clients.',
    'ipvs.col.OutPkts': 'packets sent back to clients (0 for Route/Tunnel, whose replies bypass this node).',
    'ipvs.col.InBytes': 'bytes received from clients.',
    'ipvs.col.OutBytes': 'bytes sent back to clients.',
    'ipvs.col.CPS': 'new connections per second.',
    'ipvs.col.InPPS': 'incoming packets per second.',
    'ipvs.col.OutPPS': 'outgoing packets per second.',
    'ipvs.col.InBPS': 'incoming bytes per second.',
    'ipvs.col.OutBPS': 'outgoing bytes per second.',
    'ipvs.col.Uthreshold': 'Upper connection threshold',
    'ipvs.col.Lthreshold': 'Lower connection threshold',
    'ipvs.col.tcp': 'Idle timeout of established TCP connections',
    'ipvs.col.tcpfin': 'Timeout of TCP connections after FIN',
    'ipvs.col.udp': 'Idle timeout of UDP entries',

    // Connection states.
    'ipvs.state.ESTABLISHED': 'ESTABLISHED: the TCP connection is open; it counts in ActiveConn.',
    'ipvs.state.SYN_RECV':
      'SYN_RECV: the client sent SYN; the handshake is not finished. Many of these can mean the real server does not answer.',
    'ipvs.state.SYN_SENT': 'SYN_SENT: a SYN was seen leaving; the handshake is not finished.',
    'ipvs.state.FIN_WAIT': 'FIN_WAIT: one side has closed; waiting for the other.',
    'ipvs.state.TIME_WAIT': 'TIME_WAIT: the connection closed; the entry stays a little while for late packets.',
    'ipvs.state.CLOSE': 'CLOSE: the connection was reset or closed; the entry expires soon.',
    'ipvs.state.CLOSE_WAIT': 'CLOSE_WAIT: the client closed; waiting for the server to close.',
    'ipvs.state.LAST_ACK': 'LAST_ACK: waiting for the last acknowledgement.',
    'ipvs.state.LISTEN': 'LISTEN: a listening entry.',
    'ipvs.state.SYNACK': 'SYNACK: the server answered the SYN.',
    'ipvs.state.NONE':
      'NONE: no TCP state; with port 0 this is a persistence template that remembers which real server the client was given.',
    'ipvs.state.UDP': 'UDP: a UDP flow; it expires after the UDP timeout without packets.',
    'ipvs.state.ERR!': 'ERR!: IPVS could not track the state of this entry.',
    'ipvs.state.unknown': 'Connection state {state}.',

    // Sentences for whole lines.
    'ipvs.line.service': '{label}, {scheduler} {distribution}{binding}{persistence}.',
    'ipvs.line.serviceNoScheduler': '{label}, {distribution}{binding}{persistence}.',
    'ipvs.dist.none': 'with no real servers: new connections fail',
    'ipvs.dist.allDraining': 'over {count} real servers, all with weight 0 (draining): no new connections are accepted',
    'ipvs.dist.one': 'to a single real server ({address})',
    'ipvs.dist.equal': 'over {count} real servers ({share} each)',
    'ipvs.dist.list': 'over {count} real servers ({list})',
    'ipvs.dist.connections':
      'over {count} real servers; each new connection goes to the least-loaded one, so the split depends on current connections',
    'ipvs.dist.hashSource':
      'over {count} real servers; each client address always lands on the same server ({list} of clients)',
    'ipvs.dist.hashDestination':
      'over {count} real servers; each destination address always lands on the same server ({list} of destinations)',
    'ipvs.dist.locality':
      'over {count} real servers; each destination address sticks to one server until it is overloaded',
    'ipvs.dist.failover':
      'over {count} real servers; all new connections go to {address} (highest weight) while it is available',
    'ipvs.dist.overflow':
      'over {count} real servers; the highest-weight one takes new connections until its active connections exceed its weight',
    'ipvs.dist.random': 'over {count} real servers; two are picked at random by weight and the less loaded one wins',
    'ipvs.dist.unknown': 'over {count} real servers',
    'ipvs.dist.noScheduler': 'with {count} real servers (this listing does not show the scheduler)',
    'ipvs.dist.noSchedulerOne': 'with 1 real server (this listing does not show the scheduler)',
    'ipvs.dist.draining': '; {count} more with weight 0 (draining)',
    'ipvs.dist.overloaded': '; {count} more overloaded (over Uthreshold, skipped)',
    'ipvs.dist.allOverloaded':
      'over {count} real servers, none able to take new connections ({overloaded} overloaded over Uthreshold, the rest draining): new connections fail',
    'ipvs.svc.persistent':
      '; each client keeps its real server for {seconds} s ({human}) after its last connection (persistence, which kube-proxy uses for sessionAffinity: ClientIP)',
    'ipvs.svc.bind.kube': ', bound by kube-proxy to kube-ipvs0',
    'ipvs.svc.bind.nodePort':
      '; port {port} is in the NodePort range, so this is likely a NodePort on a node address (not on kube-ipvs0)',
    'ipvs.svc.bind.fwm':
      '; packets marked {mark} by iptables/nftables are balanced here (kube-proxy does not create fwmark services; kube-router DSR and keepalived do)',
    'ipvs.svc.stats': ' Counters: {about}{conns} connections, {inPkts} packets in, {outPkts} packets out.',
    'ipvs.stats.about': 'about ',
    'ipvs.rs.stats': '{about}{conns} connections, {inPkts} packets in, {outPkts} packets out',
    'ipvs.rs.overloaded':
      'overloaded: {total} connections reach its Uthreshold {upper}, so every scheduler skips it (share 0) until it falls below {clearsBelow}',
    'ipvs.rs.maybeOverloaded':
      'near its Uthreshold {upper} ({total} connections): if it was already flagged overloaded, it stays skipped until it falls below {clearsBelow}',
    'ipvs.line.real': 'Real server {address} of {service}: {details}.',
    'ipvs.line.orphan': 'Real server {address}: {details}. Its virtual service is above the pasted part.',
    'ipvs.rs.weight': 'weight {weight}',
    'ipvs.rs.weightZero': 'weight 0, draining (no new connections)',
    'ipvs.rs.conns': '{active} active and {inactive} inactive connections',
    'ipvs.rs.share': 'expected share {share} of new connections',
    'ipvs.rs.shareClients': 'about {share} of clients',
    'ipvs.rs.shareLoad': 'share depends on load ({scheduler})',
    'ipvs.line.connection':
      '{protocol} connection from {source} to {virtual}, sent to real server {destination}; {state}, expires in {expire}.',
    'ipvs.line.template':
      'Persistence template: client {source} of {virtual} sticks to real server {destination} for {expire} more.',
    'ipvs.line.timeout': 'IPVS idle timeouts: established TCP {tcp} s, TCP after FIN {tcpfin} s, UDP {udp} s.',
    'ipvs.line.saveOther': 'An ipvsadm rule that clears, zeroes or deletes entries.',
    'ipvs.line.deleteService':
      'Deletes virtual service {service} (added on line {line}) with its real servers: the table this input leaves does not have it.',
    'ipvs.line.deleteServer':
      'Takes real server {server} out of {service} (added on line {line}): new connections no longer go to it.',
    'ipvs.line.removedService': 'Virtual service {service}',
    'ipvs.line.removedServer': 'Real server {server} of {service}',
    'ipvs.line.removedLater': '{what} is taken out again on line {line}: the table this input leaves does not have it.',
    'ipvs.line.clear.one': 'Clears the whole table: the virtual service added above leaves it, with its real servers.',
    'ipvs.line.clear.other':
      'Clears the whole table: the {count} virtual services added above leave it, with their real servers.',
    'ipvs.line.foreign': 'Output of another command; skipped.',
    'ipvs.sep.list': ', ',
    'ipvs.resolve.portZero': 'Matched through the port-0 (all ports) persistent service {service}.',
    'ipvs.resolve.none': 'No virtual service for {protocol} {target} in this dump.',

    // Rule (save format) options.
    'ipvs.opt.add-service': 'add a virtual service.',
    'ipvs.opt.edit-service': 'change a virtual service.',
    'ipvs.opt.delete-service': 'delete a virtual service.',
    'ipvs.opt.add-server': 'add a real server to a virtual service.',
    'ipvs.opt.edit-server': 'change a real server.',
    'ipvs.opt.delete-server': 'remove a real server.',
    'ipvs.opt.clear': 'clear the whole IPVS table.',
    'ipvs.opt.zero': 'zero the counters.',
    'ipvs.opt.tcp-service': 'the TCP virtual service address:port.',
    'ipvs.opt.udp-service': 'the UDP virtual service address:port.',
    'ipvs.opt.sctp-service': 'the SCTP virtual service address:port.',
    'ipvs.opt.fwmark-service': 'a firewall-mark virtual service.',
    'ipvs.opt.ipv6': 'the firewall-mark service is IPv6.',
    'ipvs.opt.scheduler': 'the scheduling algorithm (default wlc).',
    'ipvs.opt.sched-flags': 'scheduler flags.',
    'ipvs.opt.persistent': 'persistence, with a timeout in seconds (default 360).',
    'ipvs.opt.netmask': 'persistence granularity mask.',
    'ipvs.opt.pe': 'persistence engine.',
    'ipvs.opt.ops': 'one-packet scheduling.',
    'ipvs.opt.real-server': 'the real server address[:port].',
    'ipvs.opt.weight': 'the real server weight (default 1; 0 = draining).',
    'ipvs.opt.u-threshold': 'upper connection threshold.',
    'ipvs.opt.l-threshold': 'lower connection threshold.',
    'ipvs.opt.tun-type': 'tunnel encapsulation type (ipip, gue, gre).',
    'ipvs.opt.tun-port': 'destination port of the tunnel encapsulation.',
    'ipvs.opt.tun-nocsum': 'no checksum in the tunnel header.',
    'ipvs.opt.tun-csum': 'checksum in the tunnel header.',
    'ipvs.opt.tun-remcsum': 'remote checksum offload in the tunnel header.',
    'ipvs.opt.numeric': 'numeric output.',
    'ipvs.unit.h': '{n} h',
    'ipvs.unit.min': '{n} min',
    'ipvs.unit.s': '{n} s',
  },
  'zh-CN': {
    'ipvs.diag.internal-error': '读取此行时发生内部错误（{error}），请反馈此问题。',
    'ipvs.diag.unrecognized-line': '无法识别为 ipvsadm 输出：{text}',
    'ipvs.diag.text-line': '说明文字，不属于 ipvsadm 输出；已忽略。',
    'ipvs.diag.elided': '此处省略了若干行（"..."）：统计只反映粘贴出来的部分。',
    'ipvs.diag.module-not-loaded':
      'ipvsadm 无法访问内核中的 IPVS：ip_vs 模块未加载。此节点上的 kube-proxy 可能运行在 iptables 模式，或者缺少 IPVS。',
    'ipvs.diag.ipvsadm-error': 'ipvsadm 拒绝了该命令，输出的是错误而不是结果："{text}"。',
    'ipvs.diag.no-such-service':
      'ipvsadm 回答 "{text}"：此节点的 IPVS 中没有命令所指地址、端口和协议的虚拟服务。kube-proxy 没有在此节点上配置该 Service（请与 ipvsadm -Ln 以及 Service 的 ClusterIP 和端口对照）。',
    'ipvs.diag.bad-address': '无法把 "{text}" 解析为 地址:端口。',
    'ipvs.diag.bad-number': '"{text}" 不是数字。',
    'ipvs.diag.cut-line': '文本在这一行中间结束（粘贴被截断？）：它缺少的部分是截断造成的，不是输出的错误。',
    'ipvs.diag.truncated-line': '此行提前结束，缺少：{missing}。粘贴内容可能被截断。',
    'ipvs.diag.unexpected-token': '此行出现了意外的 "{text}"。',
    'ipvs.diag.unknown-port-name': '端口名 "{name}" 不是已知的服务名，端口号未知。',
    'ipvs.diag.host-name':
      '"{text}" 使用的是名称而不是地址：没有加 -n，ipvsadm 做了名称解析。请运行 `ipvsadm -Ln` 获取数字形式的输出。',
    'ipvs.diag.ambiguous-columns':
      '有四个数字但没有列标题：按 --thresholds（Uthreshold Lthreshold ActiveConn InActConn）解读。请一并粘贴标题行以确认。',
    'ipvs.diag.unknown-forward': '未知的转发方式 "{text}"（应为 Masq、Route、Tunnel 或 Local）。',
    'ipvs.diag.orphan-real-server':
      '真实服务器 {address} 出现在任何虚拟服务之前：粘贴内容从列表中间开始，无法得知它所属的虚拟服务。',
    'ipvs.diag.save-missing-value': '{option} 需要一个值。',
    'ipvs.diag.save-unknown-option': '未知的 ipvsadm 选项 {option}。',
    'ipvs.diag.save-missing-option': '此规则缺少 {option}。',
    'ipvs.diag.save-unknown-service': '此行向 {service} 添加真实服务器，但上方没有声明该虚拟服务的 -A 行。',
    'ipvs.diag.save-delete-unknown':
      '上方没有添加 {service}，因此没有可删除的条目：ipvsadm 会在此处停止（“No such service” / “No such destination”）。',
    'ipvs.diag.save-edit-unknown':
      '上方没有添加 {service}，因此没有可修改的条目：ipvsadm 会在此处停止（“No such service” / “No such destination”），不会新增任何条目。',

    'ipvs.lint.no-real-servers':
      '{service} 没有任何真实服务器：新连接会失败。对 kube-proxy 而言，这表示该 Service 没有就绪的端点；请检查 Pod 的就绪状态和 Service 的选择器。',
    'ipvs.lint.no-real-servers-cut':
      '{service} 没有显示真实服务器，但它是粘贴内容的最后一行：列表可能只是在这里被截断了。否则说明该 Service 没有就绪的端点。',
    'ipvs.lint.all-weights-zero':
      '{service} 的全部 {count} 个真实服务器权重均为 0（排空中）：IPVS 不会再向其中任何一个调度新连接。',
    'ipvs.lint.all-overloaded':
      '{service} 中可接收连接的全部真实服务器（{count} 个）都已过载：活动 + 非活动连接数达到了上限阈值，IPVS 不会向其中任何一个调度新连接，新连接将失败，直到连接数降到下限阈值以下。请提高阈值或增加真实服务器。',
    'ipvs.lint.weight-zero':
      '{address} 的权重为 0：正在排空，不再接收新连接，已有连接继续（kube-proxy 对正在终止的端点这样处理）。',
    'ipvs.lint.duplicate-virtual-service': '{service} 重复出现（首次在第 {line} 行）；是否粘贴了两次？',
    'ipvs.lint.duplicate-real-server': '{address} 在 {service} 下出现了两次（首次在第 {line} 行）。',
    'ipvs.lint.unknown-scheduler': '未知的调度算法 "{name}"（已知：{known}）。',
    'ipvs.lint.flag-other-scheduler': '标志 {flag} 属于其他调度算法；在 {scheduler} 下不起作用。',
    'ipvs.lint.reserved-address':
      '真实服务器 {address} 位于保留网段 240.0.0.0/4，不会分配给任何主机：发往它的流量会丢失。这通常是 IPv6 端点被误读成了 IPv4。',
    'ipvs.lint.family-mismatch':
      '{service} 是 IPv{serviceFamily}，而真实服务器 {address} 是 IPv{realFamily}：只有 Tunnel 转发可以跨地址族。',
    'ipvs.lint.empty-table':
      'IPVS 表为空：此节点上的 kube-proxy 可能没有运行在 IPVS 模式（请检查其 mode 配置），或者尚未完成同步。',

    'ipvs.sched.rr.name': '轮询（rr）',
    'ipvs.sched.rr.desc':
      '每个新连接依次交给下一个真实服务器。权重只区分 0（跳过）和非 0；这是 kube-proxy 的默认算法。',
    'ipvs.sched.wrr.name': '加权轮询（wrr）',
    'ipvs.sched.wrr.desc': '真实服务器按权重比例轮流接收连接：权重 2 得到的新连接是权重 1 的两倍。',
    'ipvs.sched.lc.name': '最少连接（lc）',
    'ipvs.sched.lc.desc': '每个新连接交给连接数最少的真实服务器（活动连接的分量是非活动连接的 256 倍）。',
    'ipvs.sched.wlc.name': '加权最少连接（wlc）',
    'ipvs.sched.wlc.desc': '与最少连接相同，但连接数要除以权重。未指定 -s 时这是 ipvsadm 的默认算法。',
    'ipvs.sched.lblc.name': '基于局部性的最少连接（lblc）',
    'ipvs.sched.lblc.desc': '同一目的 IP 总是发往同一真实服务器，除非该服务器过载；用于缓存集群。',
    'ipvs.sched.lblcr.name': '带复制的基于局部性的最少连接（lblcr）',
    'ipvs.sched.lblcr.desc': '与 lblc 类似，但每个目的 IP 对应一组服务器，负载高时向组内添加服务器。',
    'ipvs.sched.dh.name': '目的地址哈希（dh）',
    'ipvs.sched.dh.desc': '按目的地址的哈希选择真实服务器，同一目的地址总是到达同一服务器。',
    'ipvs.sched.sh.name': '源地址哈希（sh）',
    'ipvs.sched.sh.desc':
      '按客户端（源）地址的哈希选择真实服务器，因此每个客户端固定落在同一台服务器上（按源地址粘滞）。加 sh-port 时源端口也参与哈希。',
    'ipvs.sched.sed.name': '最短预期延迟（sed）',
    'ipvs.sched.sed.desc': '选择（活动连接数 + 1）/ 权重 最小的真实服务器。',
    'ipvs.sched.nq.name': '永不排队（nq）',
    'ipvs.sched.nq.desc': '有空闲的真实服务器就用它，否则按最短预期延迟选择。',
    'ipvs.sched.fo.name': '加权故障转移（fo）',
    'ipvs.sched.fo.desc': '所有新连接都发往可用且权重最高的真实服务器，其余作为备用。',
    'ipvs.sched.ovf.name': '加权溢出（ovf）',
    'ipvs.sched.ovf.desc': '权重最高的真实服务器接收新连接，直到其活动连接数超过权重，再轮到下一台。',
    'ipvs.sched.mh.name': 'Maglev 哈希（mh）',
    'ipvs.sched.mh.desc':
      '对客户端地址做一致性（Maglev）哈希：每个客户端固定落在一台服务器上，服务器变化时只有少量客户端迁移。加 mh-port 时源端口也参与哈希。',
    'ipvs.sched.twos.name': '加权随机二选一（twos）',
    'ipvs.sched.twos.desc': '按权重随机挑选两台真实服务器，使用其中负载较低的一台。',
    'ipvs.sched.unknown': '调度算法 "{name}" 不在本工具已知的 Linux IPVS 调度算法之列。',

    'ipvs.flag.ops': '单包调度（ops）：每个 UDP 数据报单独调度，不建立连接条目。',
    'ipvs.flag.sh-fallback': 'sh-fallback：哈希选中的真实服务器不可用（权重 0 或过载）时，改试下一台而不是失败。',
    'ipvs.flag.sh-port': 'sh-port：源端口与地址一起参与哈希，同一客户端的连接会分散到多台服务器。',
    'ipvs.flag.mh-fallback': 'mh-fallback：哈希选中的真实服务器不可用时，改试下一台而不是失败。',
    'ipvs.flag.mh-port': 'mh-port：源端口与地址一起参与哈希。',
    'ipvs.flag.generic': '调度标志 {flag}：含义取决于调度算法。',

    'ipvs.fwd.Masq.short': 'NAT（Masq）',
    'ipvs.fwd.Masq':
      '**Masq** = NAT：IPVS 把目的地址改写为真实服务器，回包经本节点再改写回来。kube-proxy 总是使用这种方式。',
    'ipvs.fwd.Route.short': '直接路由（Route）',
    'ipvs.fwd.Route':
      '**Route** = 直接路由（`-g`）：数据帧原样发往真实服务器的 MAC 地址；服务器必须持有虚拟 IP 并直接回复客户端。端口不能改变。',
    'ipvs.fwd.Tunnel.short': '隧道（Tunnel）',
    'ipvs.fwd.Tunnel.typed.short': '{type} 隧道（Tunnel）',
    'ipvs.fwd.Tunnel':
      '**Tunnel**（`-i`）：数据包被封装后发往真实服务器（默认 IP-in-IP，`--tun-type` 可指定 GUE 或 GRE），服务器解封装、持有虚拟 IP 并直接回复（DSR）。端口不能改变。',
    'ipvs.fwd.Local.short': '本地（Local）',
    'ipvs.fwd.Local': '**Local**：真实服务器是本节点自己的地址，数据包在本机交付。',

    'ipvs.tok.prompt': 'Shell 提示符：不属于输出内容。',
    'ipvs.tok.command.list': '`ipvsadm -Ln` 列出每个虚拟服务及其下的真实服务器（`->` 行）。',
    'ipvs.tok.command.stats': '`ipvsadm -Ln --stats` 列出每个虚拟服务和真实服务器自上次清零以来的流量计数。',
    'ipvs.tok.command.rate': '`ipvsadm -Ln --rate` 列出当前的每秒速率。',
    'ipvs.tok.command.thresholds': '`ipvsadm -Ln --thresholds` 列出每个真实服务器的连接数上下限。',
    'ipvs.tok.command.persistent-conn': '`ipvsadm -Ln --persistent-conn` 列出由持久化保持的连接。',
    'ipvs.tok.command.connections': '`ipvsadm -Lnc` 列出连接表：每行一个被跟踪的连接。',
    'ipvs.tok.command.timeout': '`ipvsadm -L --timeout` 输出 TCP、TCP FIN 和 UDP 的空闲超时。',
    'ipvs.tok.command.daemon': '`ipvsadm -L --daemon` 输出连接同步守护进程。',
    'ipvs.tok.command.save': '`ipvsadm -S` 以规则形式输出整张表，可用 `ipvsadm -R` 恢复。',
    'ipvs.tok.command.rule': '一条 ipvsadm 规则：本行其余部分会修改 IPVS 表。',
    'ipvs.tok.command.other': '其他命令；其输出被跳过。',
    'ipvs.tok.comment': '注释。',
    'ipvs.tok.ellipsis': '粘贴者省略的行。',
    'ipvs.tok.header':
      '内核的 IPVS 版本 {version}（2.6 以来的所有内核都是 1.2.1）。size={size} 是连接哈希表的桶数，不是连接数上限。',
    'ipvs.tok.columns.list':
      '`ipvsadm -Ln` 的列标题：先是一行虚拟服务（协议、地址:端口、调度算法、标志），随后是它的真实服务器及转发方式、权重和连接数。',
    'ipvs.tok.columns.stats':
      '`--stats` 的列标题：自上次清零以来的累计值。除非加 --exact，达到 1 亿及以上的数字会带 K/M/G/T 后缀（1000 的幂）。',
    'ipvs.tok.columns.rate': '`--rate` 的列标题：每秒的连接数、进出包数和字节数。',
    'ipvs.tok.columns.thresholds':
      '`--thresholds` 的列标题：真实服务器的连接数超过上限后不再接收新连接，直到降到下限以下（0 表示不限制）。',
    'ipvs.tok.columns.persistent-conn':
      '`--persistent-conn` 的列标题：权重、由持久化模板保持的连接、活动和非活动连接。',
    'ipvs.tok.columns.connections':
      '`ipvsadm -Lnc` 的列标题：协议、剩余时间、状态、客户端（源）、虚拟服务、真实服务器（目的）。',
    'ipvs.tok.columns.timeout': '已建立的 TCP、收到 FIN 后的 TCP 以及 UDP 连接条目的空闲超时（秒）。',
    'ipvs.tok.protocol.TCP': '**TCP** 虚拟服务。',
    'ipvs.tok.protocol.UDP': '**UDP** 虚拟服务（对 kube-proxy 而言：协议为 UDP 的 Service 端口，例如 DNS）。',
    'ipvs.tok.protocol.SCTP': '**SCTP** 虚拟服务。',
    'ipvs.tok.protocol.FWM':
      '**FWM**：防火墙标记服务。它按 iptables/nftables 设置的标记匹配数据包，而不是按地址和端口。',
    'ipvs.tok.protocol.other': '协议 {name}。',
    'ipvs.tok.address.service': '虚拟地址 {address}：发往它的数据包在下方的真实服务器之间负载均衡。',
    'ipvs.tok.address.real': '真实服务器地址 {address}（对 kube-proxy 而言：一个就绪端点，通常是 Pod IP）。',
    'ipvs.tok.address.source': '客户端（源）地址 {address}。',
    'ipvs.tok.address.virtual': '客户端连接的虚拟服务地址 {address}。',
    'ipvs.tok.address.destination': 'IPVS 为此连接选中的真实服务器 {address}。',
    'ipvs.tok.port.service': '虚拟端口 {port}。',
    'ipvs.tok.port.real': '真实服务器端口 {port}（对 kube-proxy 而言：targetPort）。',
    'ipvs.tok.port.conn': '端口 {port}。',
    'ipvs.tok.port.zero': '端口 0：任意端口。在连接条目上表示持久化模板；在虚拟服务上表示所有端口（仅限持久化服务）。',
    'ipvs.tok.port.nodePort':
      '端口 {port} 位于默认 NodePort 范围（30000-32767）：很可能是 NodePort，监听在节点地址上而不是 kube-ipvs0 上。',
    'ipvs.tok.port.unknown': '端口名 {name}，端口号未知。',
    'ipvs.tok.fwmark': '防火墙标记 {mark}（{hex}）：带有此标记的数据包由此服务负载均衡。',
    'ipvs.tok.family6': 'IPv6 防火墙标记服务。',
    'ipvs.tok.keyword.persistent': '**persistent**：客户端只要在随后的超时时间内持续连接，就保持使用同一台真实服务器。',
    'ipvs.tok.keyword.mask': '**mask**：持久化粒度；掩码后属于同一网段的客户端共用一台真实服务器。',
    'ipvs.tok.keyword.pe': '**pe**：持久化引擎，决定什么算“同一个客户端”。',
    'ipvs.tok.persistent': '持久化超时 {seconds} 秒（{human}）。',
    'ipvs.tok.persistent.kube':
      '持久化超时 {seconds} 秒（{human}）：kube-proxy 对 `sessionAffinity: ClientIP` 的默认值。',
    'ipvs.tok.netmask': '持久化掩码 {mask}。',
    'ipvs.tok.pe.sip': '持久化引擎 **sip**：Call-ID 相同的 SIP 呼叫固定到同一台真实服务器。',
    'ipvs.tok.pe': '持久化引擎 {name}。',
    'ipvs.tok.arrow': '`->` 表示上方虚拟服务的一个真实服务器。',
    'ipvs.tok.weight': '权重 {weight}：加权调度算法中服务器的相对容量；任何大于 0 的权重都会参与调度。',
    'ipvs.tok.weight.zero':
      '权重 **0**：排空中。该真实服务器不再接收新连接，已有连接持续到结束（kube-proxy 对正在终止的端点这样设置）。',
    'ipvs.tok.activeConn': 'ActiveConn {count}：当前经过此真实服务器、处于 ESTABLISHED 状态（TCP）的连接数。',
    'ipvs.tok.inactConn': 'InActConn {count}：表中其余的连接条目（TIME_WAIT、FIN_WAIT、SYN_RECV、UDP）。',
    'ipvs.tok.persistConn': 'PersistConn {count}：由持久化模板保持到此服务器的连接数。',
    'ipvs.tok.counter': '{column}：{meaning}值：{value}。',
    'ipvs.tok.counter.approx': '{column}：{meaning}值：{text}，约为 {value}（向下取整；使用 --exact 获取精确值）。',
    'ipvs.tok.threshold': '{column} {value}（0 表示不限制）。',
    'ipvs.tok.expire': '若没有新的数据包，{text}（{seconds} 秒）后过期。',
    'ipvs.tok.timeout': '{meaning}：{seconds} 秒。',
    'ipvs.tok.daemon': '连接同步守护进程（{state}）：把连接表复制到其他调度器，故障切换时连接得以保持。',
    'ipvs.tok.error': 'ipvsadm 自身的错误信息。',
    'ipvs.tok.option': 'ipvsadm 选项 {option}：{meaning}',

    'ipvs.col.Conns': '自上次清零以来调度的连接数。',
    'ipvs.col.InPkts': '从客户端收到的数据包数。',
    'ipvs.col.OutPkts': '发回客户端的数据包数（Route/Tunnel 的回包不经过本节点，为 0）。',
    'ipvs.col.InBytes': '从客户端收到的字节数。',
    'ipvs.col.OutBytes': '发回客户端的字节数。',
    'ipvs.col.CPS': '每秒新建连接数。',
    'ipvs.col.InPPS': '每秒入包数。',
    'ipvs.col.OutPPS': '每秒出包数。',
    'ipvs.col.InBPS': '每秒入字节数。',
    'ipvs.col.OutBPS': '每秒出字节数。',
    'ipvs.col.Uthreshold': '连接数上限',
    'ipvs.col.Lthreshold': '连接数下限',
    'ipvs.col.tcp': '已建立 TCP 连接的空闲超时',
    'ipvs.col.tcpfin': '收到 FIN 后 TCP 连接的超时',
    'ipvs.col.udp': 'UDP 条目的空闲超时',

    'ipvs.state.ESTABLISHED': 'ESTABLISHED：TCP 连接已建立；计入 ActiveConn。',
    'ipvs.state.SYN_RECV': 'SYN_RECV：客户端已发送 SYN，握手尚未完成。大量此状态可能表示真实服务器没有响应。',
    'ipvs.state.SYN_SENT': 'SYN_SENT：看到发出的 SYN，握手尚未完成。',
    'ipvs.state.FIN_WAIT': 'FIN_WAIT：一方已关闭，等待另一方。',
    'ipvs.state.TIME_WAIT': 'TIME_WAIT：连接已关闭；条目会保留一小段时间以处理迟到的数据包。',
    'ipvs.state.CLOSE': 'CLOSE：连接已被重置或关闭；条目即将过期。',
    'ipvs.state.CLOSE_WAIT': 'CLOSE_WAIT：客户端已关闭，等待服务器关闭。',
    'ipvs.state.LAST_ACK': 'LAST_ACK：等待最后一个确认。',
    'ipvs.state.LISTEN': 'LISTEN：监听条目。',
    'ipvs.state.SYNACK': 'SYNACK：服务器已应答 SYN。',
    'ipvs.state.NONE': 'NONE：没有 TCP 状态；端口为 0 时这是一个持久化模板，记录客户端被分配到的真实服务器。',
    'ipvs.state.UDP': 'UDP：一个 UDP 流；在 UDP 超时时间内没有数据包就会过期。',
    'ipvs.state.ERR!': 'ERR!：IPVS 无法跟踪此条目的状态。',
    'ipvs.state.unknown': '连接状态 {state}。',

    'ipvs.line.service': '{label}：{scheduler}，{distribution}{binding}{persistence}。',
    'ipvs.line.serviceNoScheduler': '{label}：{distribution}{binding}{persistence}。',
    'ipvs.dist.none': '没有任何真实服务器：新连接会失败',
    'ipvs.dist.allDraining': '共 {count} 个真实服务器，权重全部为 0（排空中）：不接受新连接',
    'ipvs.dist.one': '只有一个真实服务器（{address}）',
    'ipvs.dist.equal': '在 {count} 个真实服务器之间分配（各占 {share}）',
    'ipvs.dist.list': '在 {count} 个真实服务器之间分配（{list}）',
    'ipvs.dist.connections': '在 {count} 个真实服务器之间分配；每个新连接交给负载最低的一台，比例取决于当前连接数',
    'ipvs.dist.hashSource':
      '在 {count} 个真实服务器之间分配；同一客户端地址总是落在同一台服务器上（客户端占比 {list}）',
    'ipvs.dist.hashDestination':
      '在 {count} 个真实服务器之间分配；同一目的地址总是落在同一台服务器上（目的地址占比 {list}）',
    'ipvs.dist.locality': '在 {count} 个真实服务器之间分配；同一目的地址固定到一台服务器，直到其过载',
    'ipvs.dist.failover': '在 {count} 个真实服务器之间分配；只要 {address}（权重最高）可用，所有新连接都发往它',
    'ipvs.dist.overflow': '在 {count} 个真实服务器之间分配；权重最高的一台接收新连接，直到其活动连接数超过权重',
    'ipvs.dist.random': '在 {count} 个真实服务器之间分配；按权重随机选两台，负载较低者胜出',
    'ipvs.dist.unknown': '共 {count} 个真实服务器',
    'ipvs.dist.noScheduler': '共 {count} 个真实服务器（此列表不显示调度算法）',
    'ipvs.dist.noSchedulerOne': '共 1 个真实服务器（此列表不显示调度算法）',
    'ipvs.dist.draining': '；另有 {count} 个权重为 0（排空中）',
    'ipvs.dist.overloaded': '；另有 {count} 个已过载（超过上限阈值，被跳过）',
    'ipvs.dist.allOverloaded':
      '共 {count} 个真实服务器，都不能接受新连接（{overloaded} 个超过上限阈值而过载，其余排空中）：新连接会失败',
    'ipvs.svc.persistent':
      '；每个客户端在最后一次连接后的 {seconds} 秒（{human}）内保持使用同一台真实服务器（持久化，kube-proxy 用它实现 sessionAffinity: ClientIP）',
    'ipvs.svc.bind.kube': '，由 kube-proxy 绑定到 kube-ipvs0',
    'ipvs.svc.bind.nodePort': '；端口 {port} 位于 NodePort 范围，很可能是节点地址上的 NodePort（不在 kube-ipvs0 上）',
    'ipvs.svc.bind.fwm':
      '；被 iptables/nftables 打上标记 {mark} 的数据包在此负载均衡（kube-proxy 不创建防火墙标记服务，kube-router DSR 和 keepalived 会创建）',
    'ipvs.svc.stats': '计数：{about}{conns} 个连接，入包 {inPkts}，出包 {outPkts}。',
    'ipvs.stats.about': '约 ',
    'ipvs.rs.stats': '{about}{conns} 个连接，入包 {inPkts}，出包 {outPkts}',
    'ipvs.rs.overloaded':
      '已过载：{total} 个连接达到上限阈值 {upper}，所有调度器都会跳过它（占比 0），直到低于 {clearsBelow}',
    'ipvs.rs.maybeOverloaded':
      '接近上限阈值 {upper}（{total} 个连接）：如果此前已被标记为过载，在低于 {clearsBelow} 之前仍会被跳过',
    'ipvs.line.real': '{service} 的真实服务器 {address}：{details}。',
    'ipvs.line.orphan': '真实服务器 {address}：{details}。它所属的虚拟服务在粘贴部分之前。',
    'ipvs.rs.weight': '权重 {weight}',
    'ipvs.rs.weightZero': '权重 0，排空中（不接收新连接）',
    'ipvs.rs.conns': '{active} 个活动连接、{inactive} 个非活动连接',
    'ipvs.rs.share': '预计获得 {share} 的新连接',
    'ipvs.rs.shareClients': '约 {share} 的客户端',
    'ipvs.rs.shareLoad': '占比取决于负载（{scheduler}）',
    'ipvs.line.connection':
      '{protocol} 连接：从 {source} 到 {virtual}，转发给真实服务器 {destination}；{state}，{expire} 后过期。',
    'ipvs.line.template':
      '持久化模板：{virtual} 的客户端 {source} 在接下来的 {expire} 内固定使用真实服务器 {destination}。',
    'ipvs.line.timeout': 'IPVS 空闲超时：已建立 TCP {tcp} 秒，FIN 后 TCP {tcpfin} 秒，UDP {udp} 秒。',
    'ipvs.line.saveOther': '一条清空、清零或删除条目的 ipvsadm 规则。',
    'ipvs.line.deleteService': '删除虚拟服务 {service}（第 {line} 行添加）及其真实服务器：此输入最终得到的表中没有它。',
    'ipvs.line.deleteServer': '把真实服务器 {server} 从 {service}（第 {line} 行添加）中移除：新连接不再发往它。',
    'ipvs.line.removedService': '虚拟服务 {service}',
    'ipvs.line.removedServer': '{service} 的真实服务器 {server}',
    'ipvs.line.removedLater': '{what} 在第 {line} 行又被移除：此输入最终得到的表中没有它。',
    'ipvs.line.clear.one': '清空整个表：上方添加的虚拟服务及其真实服务器都被移除。',
    'ipvs.line.clear.other': '清空整个表：上方添加的 {count} 个虚拟服务及其真实服务器都被移除。',
    'ipvs.line.foreign': '其他命令的输出；已跳过。',
    'ipvs.sep.list': '，',
    'ipvs.resolve.portZero': '通过端口为 0（所有端口）的持久化服务 {service} 匹配。',
    'ipvs.resolve.none': '此转储中没有 {protocol} {target} 的虚拟服务。',
    'ipvs.opt.add-service': '添加虚拟服务。',
    'ipvs.opt.edit-service': '修改虚拟服务。',
    'ipvs.opt.delete-service': '删除虚拟服务。',
    'ipvs.opt.add-server': '向虚拟服务添加真实服务器。',
    'ipvs.opt.edit-server': '修改真实服务器。',
    'ipvs.opt.delete-server': '移除真实服务器。',
    'ipvs.opt.clear': '清空整张 IPVS 表。',
    'ipvs.opt.zero': '计数清零。',
    'ipvs.opt.tcp-service': 'TCP 虚拟服务的 地址:端口。',
    'ipvs.opt.udp-service': 'UDP 虚拟服务的 地址:端口。',
    'ipvs.opt.sctp-service': 'SCTP 虚拟服务的 地址:端口。',
    'ipvs.opt.fwmark-service': '防火墙标记虚拟服务。',
    'ipvs.opt.ipv6': '该防火墙标记服务为 IPv6。',
    'ipvs.opt.scheduler': '调度算法（默认 wlc）。',
    'ipvs.opt.sched-flags': '调度标志。',
    'ipvs.opt.persistent': '持久化，超时以秒计（默认 360）。',
    'ipvs.opt.netmask': '持久化粒度掩码。',
    'ipvs.opt.pe': '持久化引擎。',
    'ipvs.opt.ops': '单包调度。',
    'ipvs.opt.real-server': '真实服务器 地址[:端口]。',
    'ipvs.opt.weight': '真实服务器权重（默认 1；0 表示排空）。',
    'ipvs.opt.u-threshold': '连接数上限。',
    'ipvs.opt.l-threshold': '连接数下限。',
    'ipvs.opt.tun-type': '隧道封装类型（ipip、gue、gre）。',
    'ipvs.opt.tun-port': '隧道封装的目的端口。',
    'ipvs.opt.tun-nocsum': '隧道头不带校验和。',
    'ipvs.opt.tun-csum': '隧道头带校验和。',
    'ipvs.opt.tun-remcsum': '隧道头使用远端校验和卸载。',
    'ipvs.opt.numeric': '数字形式输出。',
    'ipvs.unit.h': '{n} 小时',
    'ipvs.unit.min': '{n} 分钟',
    'ipvs.unit.s': '{n} 秒',
  },
};
