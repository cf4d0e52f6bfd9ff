/**
 * What the iptables parser says about lines it cannot read as written (`parse.<code>`), English and Simplified
 * Chinese. The parser fills the English text; the faces show the person's language from the same key and params.
 */
import type { MessageBundle } from '../catalog';

export const parseMessages: MessageBundle = {
  en: {
    'parse.unexpected-word': 'Unexpected "{word}": expected an option such as -s, -m or -j.',
    'parse.missing-module-name': '{option} needs a module name.',
    'parse.missing-target': '{option} needs a target or chain name.',
    'parse.duplicate-target': 'A rule can have only one target; "{target}" repeats it.',
    'parse.bad-counters': '{option} needs two numbers: packets and bytes.',
    'parse.missing-option-value': '{option} expects a value.',
    'parse.missing-option-value.two': '{option} expects two values.',
    'parse.option-without-module': '{option} is not a generic option and no -m module was loaded before it.',
    'parse.dangling-negation': '"!" must be followed by an option.',
    'parse.wrapped-word-joined': '"{before}" and "{after}" are separated by a wide gap, as a terminal wrap leaves them; read as "{joined}".',
    'parse.unterminated-quote': 'This quote is never closed; the rest of the line is read as one value.',
    'parse.missing-commit': 'Table {table} ends without COMMIT; iptables-restore would not apply it.',
    'parse.missing-commit.next': 'Table {table} has no COMMIT before the next table starts; iptables-restore would reject it.',
    'parse.commit-without-table': 'COMMIT without a *table header before it.',
    'parse.duplicate-chain-declaration': 'Chain {chain} is declared twice in table {table}.',
    'parse.related.first-declaration': 'first declaration',
    'parse.nft-syntax':
      'This text is nft syntax (nft list ruleset), not iptables-save; its rules are not read. Run iptables-save (iptables-nft-save on nf_tables hosts) for a dump the tracer can follow.',
    'parse.tool-message': 'Message from the iptables tool, not a rule: {text}',
    'parse.text-line': 'Prose, not part of the dump; ignored.',
    'parse.unrecognized-line': 'Not an iptables line: "{text}". Expected *table, :CHAIN, -A/-I/-N/-P rules, COMMIT or # comments.',
    'parse.missing-chain-name': '{command} needs a chain name.',
    'parse.missing-policy': '-P {chain} needs a policy (ACCEPT or DROP).',
    'parse.hash-prefixed-paste': 'Every line is prefixed with "#" (a pasted log); the prefix is ignored.',
    'parse.diff-paste': 'This is diff output; the lines marked ">" (the newer dump) are read, the "<" side is skipped.',
    'parse.listing-text-unmapped': '"{text}" in this listing is not mapped to a match; the tracer treats the rule as uncertain.',
  },
  'zh-CN': {
    'parse.unexpected-word': '意外的 "{word}"：此处应为 -s、-m 或 -j 之类的选项。',
    'parse.missing-module-name': '{option} 后面需要模块名。',
    'parse.missing-target': '{option} 后面需要目标或链名。',
    'parse.duplicate-target': '一条规则只能有一个目标；"{target}" 重复了目标。',
    'parse.bad-counters': '{option} 需要两个数字：包数和字节数。',
    'parse.missing-option-value': '{option} 需要一个值。',
    'parse.missing-option-value.two': '{option} 需要两个值。',
    'parse.option-without-module': '{option} 不是通用选项，并且之前没有用 -m 加载模块。',
    'parse.dangling-negation': '"!" 后面必须跟一个选项。',
    'parse.wrapped-word-joined': '"{before}" 和 "{after}" 之间隔着很宽的空白，像是终端换行留下的；按 "{joined}" 读取。',
    'parse.unterminated-quote': '这个引号没有闭合；本行余下部分按一个值读取。',
    'parse.missing-commit': '表 {table} 没有以 COMMIT 结束；iptables-restore 不会应用它。',
    'parse.missing-commit.next': '表 {table} 在下一个表开始之前没有 COMMIT；iptables-restore 会拒绝它。',
    'parse.commit-without-table': 'COMMIT 之前没有 *table 表头。',
    'parse.duplicate-chain-declaration': '链 {chain} 在表 {table} 中声明了两次。',
    'parse.related.first-declaration': '第一次声明',
    'parse.nft-syntax':
      '这段文本是 nft 语法（nft list ruleset），不是 iptables-save 输出；其中的规则不会被读取。请运行 iptables-save（nf_tables 主机上运行 iptables-nft-save），得到追踪器能跟随的转储。',
    'parse.tool-message': 'iptables 工具输出的消息，不是规则：{text}',
    'parse.text-line': '说明文字，不属于转储内容；已忽略。',
    'parse.unrecognized-line': '不是 iptables 行："{text}"。应为 *table、:CHAIN、-A/-I/-N/-P 规则、COMMIT 或 # 注释。',
    'parse.missing-chain-name': '{command} 后面需要链名。',
    'parse.missing-policy': '-P {chain} 需要一个策略（ACCEPT 或 DROP）。',
    'parse.hash-prefixed-paste': '每一行都以 "#" 开头（粘贴的日志）；已忽略这个前缀。',
    'parse.diff-paste': '这是 diff 输出；读取标记为 ">" 的行（较新的转储），跳过 "<" 一侧。',
    'parse.listing-text-unmapped': '此列表中的 "{text}" 无法对应到匹配条件；追踪器把这条规则视为不确定。',
  },
};
