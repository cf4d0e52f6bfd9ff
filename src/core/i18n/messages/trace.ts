import type { MessageBundle } from '../lang';

/**
 * trace texts. Keys are namespaced `trace.*`; every key exists in both languages (a unit test checks).
 * The tracer emits `{code, params}` (code = key without `trace.`), so any face can render them in either language.
 */
export const traceMessages: MessageBundle = {
  en: {
    // Problems with the trace as a whole.
    'trace.warn.bad-packet': 'The packet is not valid: {field} = {value}.',
    'trace.warn.bad-value': 'Could not read `{option}`; the trace treats it as unknown and forks on it.',
    'trace.warn.bad-target-value': 'Could not read the {target} value `{value}` at {where}.',
    'trace.warn.family-mismatch': 'The packet is IPv{packet} but the dump is IPv{dump}: no address can match.',
    // The dump says it holds the other tool's rules: the packet is not traced ({dumpTool}, {packetTool}: iptables or
    // ip6tables; {tool}: the header's tool as written).
    'trace.warn.other-family.header':
      "Not traced: the packet is IPv{packet}, but this dump holds IPv{dump} rules ({dumpTool}: its header names {tool}). The kernel passes IPv{packet} packets through {packetTool} rules only, never these: trace it through the node's `{packetTool}-save` output.",
    'trace.warn.other-family.address':
      "Not traced: the packet is IPv{packet}, but this dump holds IPv{dump} rules ({dumpTool}: they hold IPv{dump} addresses). The kernel passes IPv{packet} packets through {packetTool} rules only, never these: trace it through the node's `{packetTool}-save` output.",
    'trace.warn.family-unknown':
      "The packet is IPv{packet}, and nothing in the dump says whether its rules are iptables' (IPv4) or ip6tables' (IPv6): no header, no address. Traced through them; if they are {dumpTool} rules, IPv{packet} packets never meet them (the node's `{packetTool}-save` output holds the rules they pass).",
    'trace.warn.duplicate-table': 'Table {table} appears more than once; only the first copy is traced.',
    'trace.warn.no-local-addresses':
      'The node addresses (localAddresses) were not given: only loopback destinations count as local, and addrtype LOCAL tests fork.',
    // A limit stopped the trace early (TraceResult.truncated).
    // {facts}: the undecided facts the unfinished paths took sides on (their `given`), counted once each.
    'trace.truncated.paths':
      'The trace stopped forking at {limit} paths: {paths} paths are left unfinished where they would have split and end as UNKNOWN; they depend on {facts} facts the paste does not decide (each path lists its own).',
    'trace.truncated.facts':
      'The trace stopped forking where a path would take sides on more than {limit} facts the paste does not decide: {paths} paths are left unfinished there and end as UNKNOWN; they depend on {facts} such facts (each path lists its own). Pasting what decides them (an ipset list, the node addresses) lets the trace go on.',
    'trace.truncated.evaluations':
      'The trace stopped after {limit} rule evaluations: {paths} paths are left unfinished and end as UNKNOWN; they depend on {facts} facts the paste does not decide (each path lists its own).',
    'trace.truncated.steps':
      'The trace stopped after {limit} steps: {paths} paths are left unfinished and end as UNKNOWN; they depend on {facts} facts the paste does not decide (each path lists its own).',
    'trace.truncated.time':
      'The trace stopped after {limit} ms: {paths} paths are left unfinished and end as UNKNOWN; they depend on {facts} facts the paste does not decide (each path lists its own).',
    'trace.warn.unknown-target': 'Unknown target {target} at {where}: treated as continue.',
    'trace.hint.service-port-mismatch':
      '{dst} belongs to {services} (ports {ports}), but no rule matched {port}: the packet leaves without DNAT and no Service answers it. Check the port and protocol.',
    'trace.hint.service-not-reached':
      '{dst} is a port of {service}, but no rule of the dump sends the packet to its chain {chain}: the paste may have left out the KUBE-SERVICES rule that does (a grep, a cut), or the node lacks it, and then the packet leaves without DNAT.',
    'trace.hint.lb-source-blocked':
      "{dst} is a load-balancer address of {service}, but the source {src} is not in its loadBalancerSourceRanges ({ranges}): {chain} marked it for drop at line {line} instead of sending it to an endpoint. Add the client's range to the Service, or send from an allowed source.",
    'trace.hint.nft-incompatible':
      'The dump says table {table} holds rules iptables cannot show (line {line}): this trace does not see them, and the kernel applies them.',
    'trace.hint.nft-base-chain-not-traced':
      'Chain {chain} of table {table} (line {line}) hooks into {hook}, and the tracer does not walk it: its rules act on the packet but are not in these paths.',
    'trace.hint.listing-without-interfaces':
      'The listing (line {line}) was printed without -v: rules that match an interface look unconditional here, so a verdict may come from a rule that does not apply to this packet. Paste `iptables -L -n -v` to be sure.',
    'trace.hint.missing-commit':
      'Table {table} (line {line}) ends without COMMIT: the paste may be cut off, so rules after its last line are missing from this trace (and iptables-restore would not apply the table at all).',
    'trace.hint.missing-commit.next':
      'Table {table} (line {line}) has no COMMIT before the next table: a piece of the paste may be missing there.',
    'trace.hint.cut-rule':
      'The paste ends inside the rule at line {line}: the trace reads what is left of it, which may match where the whole rule would not.',
    'trace.hint.parse-errors.one':
      'The dump has 1 error (at line {line}: {message}): what the trace reads there may be incomplete or wrong.',
    'trace.hint.parse-errors.other':
      'The dump has {count} errors (first at line {line}: {message}): what the trace reads there may be incomplete or wrong.',
    'trace.warn.undefined-chain':
      'Jump to chain {target} at {where}, which the dump does not contain (a partial paste?): that path ends as UNKNOWN.',
    'trace.warn.loop.one':
      'The rule at {where} jumps back to its own chain ({cycle}): the rules loop, so the path stops as UNKNOWN. The kernel refuses a table whose chains loop (iptables-restore: "Too many levels of symbolic links"): the node cannot hold these rules as written.',
    'trace.warn.loop.other':
      'The rule at {where} jumps back into a chain this path is still in, a loop of {count} chains ({cycle}), so the path stops as UNKNOWN. The kernel refuses a table whose chains loop (iptables-restore: "Too many levels of symbolic links"): the node cannot hold these rules as written.',
    'trace.warn.nft-too-deep':
      'The rule at {where} goes to {chain}, {depth} jumps and gotos below {base}: nf_tables (this dump is iptables-nft\'s) refuses a ruleset nested so deep (its jump stack holds 16; "Too many links"), so the node cannot hold these rules as written; the path stops as UNKNOWN.',
    'trace.warn.nft-would-refuse':
      'The rule at {where} goes to {chain}, {depth} jumps and gotos below {base}: iptables-legacy follows it (and so does this trace), but iptables-nft refuses a ruleset nested so deep (nf_tables\' jump stack holds 16; "Too many links").',
    // Assumptions a path made where the dump cannot tell.
    // The condition an alternative holds under (TracePath.given): the `assume.*` facts as "if" clauses.
    'trace.if.holds': 'if `{cond}` matches',
    'trace.if.fails': 'if `{cond}` does not match',
    'trace.if.in-iface': 'if the packet came in on an interface matching {pattern}',
    'trace.if.not-in-iface': 'if the packet did not come in on an interface matching {pattern}',
    'trace.if.out-iface': 'if the packet leaves on an interface matching {pattern}',
    'trace.if.not-out-iface': 'if the packet does not leave on an interface matching {pattern}',
    'trace.if.local': 'if {addr} is an address of this node',
    'trace.if.not-local': 'if {addr} is not an address of this node',
    'trace.if.in-set': 'if {what} is in ipset {set}',
    'trace.if.not-in-set': 'if {what} is not in ipset {set}',
    'trace.format.alternative': 'alternative: {text}',
    'trace.hint.no-endpoints':
      '{service} has no endpoints: kube-proxy rejects the connection ({chain} line {line}, {with}). Give the Service ready endpoints (pods matching its selector that pass their readiness probe).',
    'trace.hint.no-endpoints.nat':
      '{service} has no endpoints: kube-proxy rejects the connection. Give the Service ready endpoints (pods matching its selector that pass their readiness probe).',
    'trace.assume.holds': 'assumed `{cond}` matches',
    'trace.assume.vmap-unknown': 'assumed no element of {map} matches (the paste does not show it)',
    'trace.assume.fails': 'assumed `{cond}` does not match',
    'trace.assume.in-iface': 'assumed the packet came in on an interface matching {pattern}',
    'trace.assume.not-in-iface': 'assumed the packet did not come in on an interface matching {pattern}',
    'trace.assume.out-iface': 'assumed the packet leaves on an interface matching {pattern}',
    'trace.assume.not-out-iface': 'assumed the packet does not leave on an interface matching {pattern}',
    'trace.assume.nth': 'assumed this is packet {packet} of every {every} (statistic nth)',
    'trace.assume.not-nth': 'assumed this is not packet {packet} of every {every} (statistic nth)',
    'trace.assume.local': 'assumed {addr} is an address of this node (addrtype LOCAL)',
    'trace.assume.not-local': 'assumed {addr} is not an address of this node',
    'trace.assume.in-set': 'assumed {what} is in ipset {set}',
    'trace.assume.not-in-set': 'assumed {what} is not in ipset {set}',
    'trace.assume.policy-accept': 'the policy of {table}/{chain} is not in the dump: assumed ACCEPT',
    'trace.assume.kube-jumps': "{table}/{chain} is not in the dump: assumed kube-proxy's standard jumps to {targets}",
    'trace.assume.redirect-address':
      'REDIRECT goes to the address of the incoming interface, which is unknown: the destination address was kept',
    'trace.assume.mark-unread':
      "the packet's {bits} may differ: rules it passed change those bits if their undecided matches hold (no rule of this dump reads them)",
    // Notes on steps.
    'trace.note.random-taken': 'statistic random: taken with probability {p}',
    'trace.note.random-not-taken': 'statistic random: not taken (probability {p})',
    'trace.note.random-not-taken-run.one':
      'statistic random: the rule on lines {from}-{to} not taken (probability {p})',
    'trace.note.random-not-taken-run.other':
      'statistic random: none of {count} rules (lines {from}-{to}) taken (probability {p})',
    'trace.note.implied-jump': 'implied: kube-proxy adds this jump outside its rule set',
    'trace.note.nat-skipped': 'untracked connection: the nat table is not consulted',
    'trace.note.chain-end': 'end of chain: back to the caller',
    'trace.note.return-to-policy': 'back in the builtin chain: its policy applies',
    'trace.note.policy-implied': 'the chain is not in the dump: ACCEPT',
    'trace.note.maybe-match': 'may match (depends on an unknown); the target does not change the path',
    'trace.note.maybe-mark-unread':
      'may match (depends on an unknown); it would change {bits}, which no rule of this dump reads: the path goes on the same either way',
    'trace.note.tproxy': 'TPROXY: delivered to a local socket',
    'trace.note.reject': 'rejected with {with}',
    'trace.note.queue': 'handed to a userspace queue: the verdict is decided there',
    'trace.note.snat': 'SNAT to {to}',
    'trace.note.snat-range': 'SNAT to {to} (a range: the first address/port is shown)',
    'trace.note.masquerade': 'MASQUERADE: the source becomes the outgoing interface address',
    'trace.note.mark': 'mark {from} -> {to}',
    'trace.note.connmark': 'connection mark {ctmark}, packet mark {mark}',
    'trace.note.notrack': 'the connection is not tracked: nat is skipped and ctstate is UNTRACKED',
    'trace.note.no-effect': '{target} does not change the path',
    'trace.note.unknown-target': 'unknown target {target}: continued',
    'trace.note.undefined-chain': 'chain {target} is not in the dump: what it does is unknown',
    'trace.note.known-mark-chain':
      "chain {target} is not in the dump; kube-proxy's {target} sets mark {mark} and returns",
    'trace.note.redirect': 'REDIRECT to a local port {to}',
    'trace.note.dnat': 'DNAT to {to}',
    'trace.note.vmap-hit': '{key} is in {map}: {verdict}',
    'trace.note.vmap-miss': '{key} is not in {map}: no verdict, the chain goes on',
    'trace.note.vmap-unknown':
      'the lookup in {map} cannot be decided here (the map or a key value is missing): taken as no element',
    'trace.note.numgen': 'numgen {mode} mod {modulus} gives {value} (1/{modulus} of new connections): {to}',
    'trace.note.dnat-range': 'DNAT to {to} (first of the range {range})',
    // The readable tree.
    'trace.format.header.one': '{proto} {src} -> {dst} (hook {hook}): 1 path',
    'trace.format.header.other': '{proto} {src} -> {dst} (hook {hook}): {count} paths',
    'trace.format.end': '=> {verdict} with probability {p}',
    'trace.summary.one': '{proto} {src} → {dst}: 1 path → {targets}',
    'trace.summary.other': '{proto} {src} → {dst}: {count} paths → {targets}',
    'trace.format.dnat': 'DNAT {to}',
    'trace.format.snat': 'SNAT {to}',
    'trace.format.masquerade': 'MASQUERADE',
    'trace.format.mark': 'mark {mark}',
    'trace.format.route.input': 'delivered to this node',
    'trace.format.route.forward': 'forwarded',
    'trace.format.route.output': 'sent out by this node',
    'trace.format.assumes': 'assumes: {text}',
    'trace.format.warning': 'warning: {text}',
    'trace.format.implied-line': 'implied',
  },
  'zh-CN': {
    'trace.warn.bad-packet': '数据包无效：{field} = {value}。',
    'trace.warn.bad-value': '无法读取 `{option}`；追踪将其视为未知条件并分叉。',
    'trace.warn.bad-target-value': '无法读取 {where} 处 {target} 的值 `{value}`。',
    'trace.warn.family-mismatch': '数据包是 IPv{packet}，规则转储是 IPv{dump}：任何地址都无法匹配。',
    'trace.warn.other-family.header':
      '未追踪：数据包是 IPv{packet}，但该转储是 {dumpTool} 的 IPv{dump} 规则（其头部写着 {tool}）。内核只让 IPv{packet} 数据包经过 {packetTool} 的规则，从不经过这些规则：请用节点上 `{packetTool}-save` 的输出来追踪。',
    'trace.warn.other-family.address':
      '未追踪：数据包是 IPv{packet}，但该转储是 {dumpTool} 的 IPv{dump} 规则（规则中是 IPv{dump} 地址）。内核只让 IPv{packet} 数据包经过 {packetTool} 的规则，从不经过这些规则：请用节点上 `{packetTool}-save` 的输出来追踪。',
    'trace.warn.family-unknown':
      '数据包是 IPv{packet}，而转储中没有任何信息说明其规则属于 iptables（IPv4）还是 ip6tables（IPv6）：没有头部，也没有地址。已照常追踪；若这些是 {dumpTool} 的规则，IPv{packet} 数据包根本不会经过它们（它们经过的规则在节点上 `{packetTool}-save` 的输出中）。',
    'trace.warn.duplicate-table': '表 {table} 出现了多次；只追踪第一份。',
    'trace.warn.no-local-addresses':
      '未提供节点地址（localAddresses）：只有回环地址被视为本机地址，addrtype LOCAL 判断将分叉。',
    'trace.truncated.paths':
      '追踪在 {limit} 条路径处停止分叉：{paths} 条路径在本应分叉处未走完，以 UNKNOWN 结束；它们取决于粘贴内容未能确定的 {facts} 个事实（每条路径列出各自的条件）。',
    'trace.truncated.facts':
      '在一条路径需要对超过 {limit} 个粘贴内容未能确定的事实作出假设之处，追踪停止分叉：{paths} 条路径在此未走完，以 UNKNOWN 结束；它们取决于 {facts} 个这样的事实（每条路径列出各自的条件）。粘贴能确定这些事实的内容（ipset list、节点地址）后即可继续追踪。',
    'trace.truncated.evaluations':
      '追踪在评估 {limit} 条规则后停止：{paths} 条路径未走完，以 UNKNOWN 结束；它们取决于粘贴内容未能确定的 {facts} 个事实（每条路径列出各自的条件）。',
    'trace.truncated.steps':
      '追踪在记录 {limit} 个步骤后停止：{paths} 条路径未走完，以 UNKNOWN 结束；它们取决于粘贴内容未能确定的 {facts} 个事实（每条路径列出各自的条件）。',
    'trace.truncated.time':
      '追踪在 {limit} 毫秒后停止：{paths} 条路径未走完，以 UNKNOWN 结束；它们取决于粘贴内容未能确定的 {facts} 个事实（每条路径列出各自的条件）。',
    'trace.warn.unknown-target': '{where} 处的目标 {target} 未知：按继续处理。',
    'trace.hint.service-port-mismatch':
      '{dst} 属于 {services}（端口 {ports}），但没有规则匹配 {port}：数据包不经 DNAT 就发出，不会有 Service 应答。请检查端口和协议。',
    'trace.hint.service-not-reached':
      '{dst} 是 {service} 的端口，但转储中没有规则把数据包送到它的链 {chain}：粘贴可能漏掉了做这件事的 KUBE-SERVICES 规则（grep、截断），或者节点上缺少这条规则，那样数据包就不经 DNAT 发出。',
    'trace.hint.lb-source-blocked':
      '{dst} 是 {service} 的负载均衡地址，但源地址 {src} 不在它的 loadBalancerSourceRanges（{ranges}）中：{chain} 在第 {line} 行把它标记为丢弃，没有送往端点。请把客户端网段加入 Service，或从允许的源地址发起。',
    'trace.hint.nft-incompatible':
      '转储表明表 {table} 中有 iptables 无法显示的规则（第 {line} 行）：此跟踪看不到它们，而内核会执行它们。',
    'trace.hint.nft-base-chain-not-traced':
      '表 {table} 的链 {chain}（第 {line} 行）挂在 {hook} 钩子上，追踪器不会经过它：它的规则会作用于数据包，但不在这些路径中。',
    'trace.hint.missing-commit':
      '表 {table}（第 {line} 行）没有以 COMMIT 结束：粘贴内容可能被截断，其最后一行之后的规则不在此跟踪中（iptables-restore 也根本不会应用该表）。',
    'trace.hint.missing-commit.next':
      '表 {table}（第 {line} 行）在下一个表之前没有 COMMIT：粘贴内容在那里可能缺了一段。',
    'trace.hint.cut-rule':
      '粘贴在第 {line} 行的规则中间结束：跟踪读取它剩下的部分，这部分可能匹配到完整规则不会匹配的数据包。',
    'trace.hint.parse-errors.other':
      '转储中有 {count} 个错误（第一个在第 {line} 行：{message}）：跟踪在那里读到的内容可能不完整或有误。',
    'trace.hint.listing-without-interfaces':
      '该列表（第 {line} 行）未加 -v 打印：匹配网卡的规则在这里看起来无条件，所以结论可能来自并不适用于此数据包的规则。请粘贴 `iptables -L -n -v` 以确认。',
    'trace.warn.undefined-chain': '{where} 处跳转到转储中没有的链 {target}（粘贴不完整？）：这条路径的结果为 UNKNOWN。',
    'trace.warn.loop.other':
      '{where} 处的规则跳回这条路径仍在其中的链，{count} 个链构成循环（{cycle}），该路径以 UNKNOWN 结束。内核会拒绝链之间存在循环的表（iptables-restore 报错“Too many levels of symbolic links”）：节点不可能按所写的样子持有这些规则。',
    'trace.warn.nft-too-deep':
      '{where} 处的规则转到 {chain}，位于 {base} 之下 {depth} 层跳转：nf_tables（这份转储来自 iptables-nft）拒绝嵌套这么深的规则集（其跳转栈只有 16 层；“Too many links”），节点不可能按所写的样子持有这些规则；该路径以 UNKNOWN 结束。',
    'trace.warn.nft-would-refuse':
      '{where} 处的规则转到 {chain}，位于 {base} 之下 {depth} 层跳转：iptables-legacy 会照常执行（本次跟踪也照此进行），但 iptables-nft 会拒绝嵌套这么深的规则集（nf_tables 的跳转栈只有 16 层；“Too many links”）。',
    'trace.if.holds': '若 `{cond}` 匹配',
    'trace.if.fails': '若 `{cond}` 不匹配',
    'trace.if.in-iface': '若数据包从匹配 {pattern} 的接口进入',
    'trace.if.not-in-iface': '若数据包不是从匹配 {pattern} 的接口进入',
    'trace.if.out-iface': '若数据包从匹配 {pattern} 的接口发出',
    'trace.if.not-out-iface': '若数据包不从匹配 {pattern} 的接口发出',
    'trace.if.local': '若 {addr} 是本节点的地址',
    'trace.if.not-local': '若 {addr} 不是本节点的地址',
    'trace.if.in-set': '若 {what} 在 ipset {set} 中',
    'trace.if.not-in-set': '若 {what} 不在 ipset {set} 中',
    'trace.format.alternative': '分支：{text}',
    'trace.hint.no-endpoints':
      '{service} 没有端点：kube-proxy 拒绝该连接（{chain} 第 {line} 行，{with}）。请让该 Service 有就绪的端点（匹配其选择器并通过就绪探针的 Pod）。',
    'trace.hint.no-endpoints.nat':
      '{service} 没有端点：kube-proxy 拒绝该连接。请让该 Service 有就绪的端点（匹配其选择器并通过就绪探针的 Pod）。',
    'trace.assume.holds': '假设 `{cond}` 匹配',
    'trace.assume.vmap-unknown': '假设 {map} 中没有匹配的元素（粘贴内容中没有它）',
    'trace.assume.fails': '假设 `{cond}` 不匹配',
    'trace.assume.in-iface': '假设数据包从匹配 {pattern} 的接口进入',
    'trace.assume.not-in-iface': '假设数据包不是从匹配 {pattern} 的接口进入',
    'trace.assume.out-iface': '假设数据包从匹配 {pattern} 的接口发出',
    'trace.assume.not-out-iface': '假设数据包不从匹配 {pattern} 的接口发出',
    'trace.assume.nth': '假设这是每 {every} 个包中的第 {packet} 个（statistic nth）',
    'trace.assume.not-nth': '假设这不是每 {every} 个包中的第 {packet} 个（statistic nth）',
    'trace.assume.local': '假设 {addr} 是本节点的地址（addrtype LOCAL）',
    'trace.assume.not-local': '假设 {addr} 不是本节点的地址',
    'trace.assume.in-set': '假设 {what} 在 ipset {set} 中',
    'trace.assume.not-in-set': '假设 {what} 不在 ipset {set} 中',
    'trace.assume.policy-accept': '转储中没有 {table}/{chain} 的默认策略：假设为 ACCEPT',
    'trace.assume.kube-jumps': '转储中没有 {table}/{chain}：假设存在 kube-proxy 标准的跳转（到 {targets}）',
    'trace.assume.redirect-address': 'REDIRECT 会改写为入接口的地址，但该地址未知：保留原目的地址',
    'trace.assume.mark-unread':
      '数据包的 {bits} 可能不同：它经过的规则在其无法确定的匹配成立时会改变这些位（此转储中没有规则读取它们）',
    'trace.note.random-taken': 'statistic random：以概率 {p} 命中',
    'trace.note.random-not-taken': 'statistic random：未命中（概率 {p}）',
    'trace.note.random-not-taken-run.other':
      'statistic random：{count} 条规则（第 {from}-{to} 行）均未命中（概率 {p}）',
    'trace.note.implied-jump': '隐含：kube-proxy 在其规则集之外添加此跳转',
    'trace.note.nat-skipped': '连接未被跟踪：不经过 nat 表',
    'trace.note.chain-end': '链结束：返回调用者',
    'trace.note.return-to-policy': '回到内置链：应用其默认策略',
    'trace.note.policy-implied': '转储中没有该链：ACCEPT',
    'trace.note.maybe-match': '可能匹配（取决于未知条件）；该目标不改变路径',
    'trace.note.maybe-mark-unread':
      '可能匹配（取决于未知条件）；它会改变 {bits}，而此转储中没有规则读取这些位：无论是否匹配，路径都一样',
    'trace.note.tproxy': 'TPROXY：交给本机套接字',
    'trace.note.reject': '以 {with} 拒绝',
    'trace.note.queue': '交给用户态队列：由其决定结论',
    'trace.note.snat': 'SNAT 到 {to}',
    'trace.note.snat-range': 'SNAT 到 {to}（地址范围：显示第一个地址/端口）',
    'trace.note.masquerade': 'MASQUERADE：源地址改为出接口地址',
    'trace.note.mark': '标记 {from} -> {to}',
    'trace.note.connmark': '连接标记 {ctmark}，数据包标记 {mark}',
    'trace.note.notrack': '该连接不被跟踪：跳过 nat，ctstate 为 UNTRACKED',
    'trace.note.no-effect': '{target} 不改变路径',
    'trace.note.unknown-target': '未知目标 {target}：继续',
    'trace.note.undefined-chain': '链 {target} 不在转储中：它的作用未知',
    'trace.note.known-mark-chain': '链 {target} 不在转储中；kube-proxy 的 {target} 会设置标记 {mark} 并返回',
    'trace.note.redirect': 'REDIRECT 到本机端口 {to}',
    'trace.note.dnat': 'DNAT 到 {to}',
    'trace.note.vmap-hit': '{key} 在 {map} 中：{verdict}',
    'trace.note.vmap-miss': '{key} 不在 {map} 中：没有判决，继续本链',
    'trace.note.vmap-unknown': '无法在此判断 {map} 的查找结果（映射或键值缺失）：按没有匹配元素处理',
    'trace.note.numgen': 'numgen {mode} mod {modulus} 取到 {value}（新连接的 1/{modulus}）：{to}',
    'trace.note.dnat-range': 'DNAT 到 {to}（范围 {range} 中的第一个）',
    'trace.format.header.other': '{proto} {src} -> {dst}（钩子 {hook}）：{count} 条路径',
    'trace.format.end': '=> {verdict}，概率 {p}',
    'trace.summary.other': '{proto} {src} → {dst}：{count} 条路径 → {targets}',
    'trace.format.dnat': 'DNAT {to}',
    'trace.format.snat': 'SNAT {to}',
    'trace.format.masquerade': 'MASQUERADE',
    'trace.format.mark': '标记 {mark}',
    'trace.format.route.input': '交给本节点',
    'trace.format.route.forward': '被转发',
    'trace.format.route.output': '由本节点发出',
    'trace.format.assumes': '假设：{text}',
    'trace.format.warning': '警告：{text}',
    'trace.format.implied-line': '隐含',
  },
};
