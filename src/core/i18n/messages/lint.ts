import type { MessageBundle } from '../lang';

/** Lint findings for iptables dumps (`lint.<code>`); every key exists in both languages (a unit test checks). */
export const lintMessages: MessageBundle = {
  en: {
    'lint.undefined-chain':
      'Jump to {chain}, but no chain of that name exists in table {table}: iptables-restore would reject this rule.',
    'lint.undefined-chain.partial':
      'Jump to {chain}, which this paste does not contain in table {table}: if the node has no such chain, iptables-restore rejects this rule (the paste may have left the chain out).',
    'lint.unreferenced-chain': 'Chain {chain} ({table}) is declared but nothing jumps to it: its rules never run.',
    'lint.unreachable-rule':
      'This rule is never reached: the rule on line {line} of {chain} matches every packet and ends the chain.',
    'lint.probability-ladder':
      'Rule {k} of {n} in this load-balancing ladder should have probability {want} so that every endpoint gets 1/{n}; it has {got}.',
    'lint.service-no-endpoints':
      'Service {service} has no endpoints: kube-proxy rejects connections to it. Check the Service selector and pod readiness.',
    'lint.service-chain-no-endpoints':
      '{chain} ({service}) jumps to no endpoint chain: traffic that reaches it is not load-balanced anywhere.',
    'lint.duplicate-rule': 'Same rule as line {line}: the copy adds nothing (a paste or a sync that appended twice).',
    'lint.unknown-module':
      'Unknown match module "{module}": check the spelling, or the module may be missing on this kernel.',
    'lint.unknown-option': 'Option {option} is not one that {module} understands.',
    'lint.hash-mismatch':
      '{chain} is not the name kube-proxy derives for {service} ({protocol}): the comment and the chain disagree, so the rule may be stale or hand-written.',
    // `kpp lint`'s last line.
    'lint.summary': '{errors}, {warnings}, {notes}',
    'lint.summary.errors.one': '1 error',
    'lint.summary.errors.other': '{count} errors',
    'lint.summary.warnings.one': '1 warning',
    'lint.summary.warnings.other': '{count} warnings',
    'lint.summary.notes.one': '1 note',
    'lint.summary.notes.other': '{count} notes',
    'lint.nodeports-not-last.one':
      'The KUBE-NODEPORTS jump must be the last rule of KUBE-SERVICES; 1 rule after it is matched after NodePort capture.',
    'lint.nodeports-not-last.other':
      'The KUBE-NODEPORTS jump must be the last rule of KUBE-SERVICES; {count} rules after it are matched after NodePort capture.',
    'lint.legacy-nft-split':
      'Rules exist in the other iptables backend ({text}): this dump shows only one of them, and kube-proxy may be writing to the other.',
    'lint.jump-loop.one':
      'This rule jumps back to its own chain ({cycle}, table {table}): a loop. The kernel refuses a table whose chains loop (iptables-restore: "Too many levels of symbolic links"; iptables-legacy only when a built-in chain reaches the loop).',
    'lint.jump-loop.other':
      'This jump closes a loop of {count} chains ({cycle}, table {table}). The kernel refuses a table whose chains loop (iptables-restore: "Too many levels of symbolic links"; iptables-legacy only when a built-in chain reaches the loop).',
  },
  'zh-CN': {
    'lint.undefined-chain': '跳转到 {chain}，但表 {table} 中没有这个链：iptables-restore 会拒绝这条规则。',
    'lint.undefined-chain.partial':
      '跳转到 {chain}，但粘贴内容的表 {table} 中没有这个链：如果节点上也没有这个链，iptables-restore 会拒绝这条规则（也可能只是粘贴时漏掉了该链）。',
    'lint.unreferenced-chain': '链 {chain}（{table}）已声明，但没有任何规则跳转到它：其中的规则永远不会执行。',
    'lint.unreachable-rule': '这条规则永远不会被匹配：{chain} 第 {line} 行的规则匹配所有数据包并结束该链。',
    'lint.probability-ladder':
      '这个负载均衡阶梯中第 {k}/{n} 条规则的概率应为 {want}，这样每个端点都得到 1/{n}；实际为 {got}。',
    'lint.service-no-endpoints':
      'Service {service} 没有端点：kube-proxy 会拒绝到它的连接。请检查 Service 的选择器和 Pod 的就绪状态。',
    'lint.service-chain-no-endpoints':
      '{chain}（{service}）没有跳转到任何端点链：到达这里的流量不会被负载均衡到任何地方。',
    'lint.duplicate-rule': '与第 {line} 行的规则相同：这个副本没有作用（可能是粘贴重复或同步时追加了两次）。',
    'lint.unknown-module': '未知的匹配模块“{module}”：请检查拼写，或者该内核缺少这个模块。',
    'lint.unknown-option': '{module} 不认识选项 {option}。',
    'lint.hash-mismatch':
      '{chain} 不是 kube-proxy 为 {service}（{protocol}）生成的链名：注释与链名不一致，规则可能已过期或是手工编写的。',
    'lint.summary': '{errors}，{warnings}，{notes}',
    'lint.summary.errors.other': '{count} 个错误',
    'lint.summary.warnings.other': '{count} 个警告',
    'lint.summary.notes.other': '{count} 个提示',
    'lint.nodeports-not-last.other':
      '跳转到 KUBE-NODEPORTS 的规则必须是 KUBE-SERVICES 的最后一条；它后面还有 {count} 条规则，会在 NodePort 捕获之后才被匹配。',
    'lint.legacy-nft-split':
      '另一个 iptables 后端中也有规则（{text}）：这份转储只包含其中一个后端，kube-proxy 可能正在写入另一个。',
    'lint.jump-loop.other':
      '这条跳转使 {count} 个链构成循环（{cycle}，表 {table}）。内核会拒绝链之间存在循环的表（iptables-restore 报错“Too many levels of symbolic links”；iptables-legacy 仅在内置链能到达该循环时拒绝）。',
  },
};
