/**
 * What the iptables parser says about lines it cannot read as written (`parse.<code>`), English and Simplified
 * Chinese. The parser fills the English text; the faces show the person's language from the same key and params.
 */
import type { MessageBundle } from '../lang';

export const parseMessages: MessageBundle = {
  en: {
    'parse.unexpected-word': 'Unexpected "{word}": expected an option such as -s, -m or -j.',
    'parse.missing-module-name': '{option} needs a module name.',
    'parse.missing-target': '{option} needs a target or chain name.',
    'parse.duplicate-target': 'A rule can have only one target; "{target}" repeats it.',
    'parse.second-rule-command':
      'A second {command} on this line: iptables refuses it ("Cannot use {command} with ..."). Two rules run together on one line (a line break lost in the paste?); only the first is read.',
    'parse.bad-counters': '{option} needs two numbers: packets and bytes.',
    'parse.missing-option-value': '{option} expects a value.',
    'parse.missing-option-value.two': '{option} expects two values.',
    'parse.option-without-module': '{option} is not a generic option and no -m module was loaded before it.',
    'parse.dangling-negation': '"!" must be followed by an option.',
    'parse.wrapped-word-joined':
      '"{before}" and "{after}" are separated by a wide gap, as a terminal wrap leaves them; read as "{joined}".',
    'parse.unterminated-quote': 'This quote is never closed; the rest of the line is read as one value.',
    'parse.missing-commit':
      "The text ends before table {table}'s COMMIT (the paste was cut off?): its chains and rules are read as table {table}'s, but iptables-restore would not apply it.",
    'parse.missing-commit.next':
      "Table {table} has no COMMIT before the next table starts (the paste cut its end off?): its chains and rules are read as table {table}'s, but iptables-restore would reject it.",
    'parse.cut-table-header':
      'The text ends inside this table header (the paste was cut off?): `{header}` is read as `*{table}`, the one table whose name starts so.',
    'parse.cut-rule':
      'The text ends inside this rule (the paste was cut off?): what it lacks is the cut, not an error of the dump.',
    'parse.table-again':
      "Table {table} starts again after its COMMIT (a second dump pasted after the first: another node's, a later one, or the other iptables backend's?): the first dump runs from the first *{table} header to its COMMIT, the second from this header on. Their chains and rules are read together as one table, so rules both hold count twice and Service ladders add up: the ladder, duplicate and order findings on them may be the two dumps', not a node's. Paste each dump into a document of its own to read it alone.",
    'parse.commit-without-table': 'COMMIT without a *table header before it.',
    'parse.duplicate-chain-declaration': 'Chain {chain} is declared twice in table {table}.',
    'parse.undeclared-chain':
      'Chain {chain} gets rules in table {table} before anything declares it (`:{chain} - [0:0]` or `-N {chain}`): iptables-restore stops at this line ("No chain/target/match by that name"), unless it restores with --noflush onto a table that has the chain. A paste cut by grep may only have lost the declaration.',
    'parse.undeclared-chain.deleted':
      'Chain {chain} was deleted on line {line} (-X), so this rule makes a new, undeclared chain {chain} in table {table}: iptables-restore stops at this line ("No chain/target/match by that name").',
    'parse.undeclared-chain.renamed':
      'Chain {chain} was renamed to {to} on line {line}, so this rule makes a new, undeclared chain {chain} in table {table}: iptables-restore stops at this line ("No chain/target/match by that name"). Did you mean {to}?',
    'parse.related.first-declaration': 'first declaration',
    'parse.related.first-dump': "the first dump's header",
    'parse.related.first-dump-commit': "the first dump's COMMIT",
    'parse.nft-syntax':
      'This is nft syntax outside a `table ... {` block (a grep of nft list ruleset?): these lines are not read, as nothing says their table and chain. Paste the whole `nft list ruleset`, or iptables-save (iptables-nft-save on nf_tables hosts).',
    'parse.nft-table-unclosed':
      'Table {table} has no closing `}`: the paste ends inside it. Its rules up to here are read.',
    'parse.nft-table-skipped':
      "Table {family} {table} is read on its own: a dump is read for one family at a time, here {read} (the family with more rules, or the traced packet's), or a table of that name was read already. A packet of family {family} is traced through that family's tables, and the hovers, explanations, outline and lint of these lines read them.",
    'parse.nft-xt-extension':
      'nft printed the xtables {kind} `{name}` by name only (its translation is unknown to this nft): its options are not in the listing, so the tracer treats them as unknown. iptables-save shows them in full.',
    'parse.nft-text-unmapped':
      '"{text}" in this nft rule is not mapped to an iptables match; the tracer treats the rule as uncertain.',
    'parse.nft-base-chain-not-traced':
      'Chain {chain} of table {table} hooks into {hook}, but the tracer walks only the builtin chains iptables-nft writes (PREROUTING, INPUT, ... in raw, mangle, nat, filter): packets are not traced through it. Its rules are still read and explained. (kube-proxy in nftables mode writes such chains.)',
    'parse.tool-message': 'Message from the iptables tool, not a rule: {text}',
    'parse.listing-resolved-name':
      '`{name}` is a name: the listing was printed without -n, so iptables resolved the address through DNS and the number is not in the paste. Traces treat this match as unknown; `iptables -L -n` shows the address.',
    'parse.listing-without-interfaces':
      'This listing has no in/out columns (iptables -L without -v): a rule that matches an interface (`-i lo -j ACCEPT`) shows as matching every packet. Traces and the unreachable-rule check cannot tell them apart; `iptables -L -n -v` shows them.',
    'parse.nft-incompatible':
      'Table {table} holds rules iptables cannot show (written with nft directly, e.g. by kube-proxy in nftables mode): this dump leaves them out and a trace cannot see them. `nft list table {family} {table}` shows them.',
    'parse.nft-incompatible.chain':
      'Chain {chain} of table {table} holds rules iptables cannot show (written with nft directly): this output leaves them out. `nft list chain {family} {table} {chain}` shows them.',
    'parse.text-line': 'Prose, not part of the dump; ignored.',
    'parse.prose-only.one':
      'No table, chain or rule in this text: its {count} line of prose is ignored. A kube-proxy log of nftables or IPVS mode holds no iptables rules: `nft list ruleset` or `ipvsadm -Ln` on the node shows them.',
    'parse.prose-only.other':
      'No table, chain or rule in this text: its {count} lines of prose are ignored. A kube-proxy log of nftables or IPVS mode holds no iptables rules: `nft list ruleset` or `ipvsadm -Ln` on the node shows them.',
    'parse.unrecognized-line':
      'Not an iptables line: "{text}". Expected *table, :CHAIN, -A/-I/-N/-P rules, COMMIT or # comments.',
    'parse.missing-chain-name': '{command} needs a chain name.',
    'parse.rename-refused.missing': '-E {chain} needs the new name: iptables-restore would stop here.',
    'parse.rename-refused.unknown':
      '-E finds no chain {chain} in table {table}: iptables-restore would stop here ("No chain/target/match by that name").',
    'parse.rename-refused.exists':
      '-E cannot rename {chain} to {to}: table {table} already has a chain {to}, so iptables-restore would stop here ("File exists").',
    'parse.rename-refused.builtin': '-E cannot rename the builtin chain {chain}: iptables-restore would stop here.',
    'parse.rename-refused.target-name':
      '-E cannot rename {chain} to {to}: {to} is a target, and a chain name may not clash with one, so iptables-restore would stop here.',
    'parse.missing-policy': '-P {chain} needs a policy (ACCEPT or DROP).',
    'parse.delete-no-match':
      '-D finds no rule like this in {chain}: iptables-restore would stop here ("does a matching rule exist in that chain?").',
    'parse.delete-no-match.command':
      '-D finds no rule like this in {chain} among the rules read so far: it deletes such a rule only if the kernel had one before these commands ran (iptables fails otherwise); nothing is deleted here.',
    'parse.command-not-read':
      'Only one iptables command of a line is read (the last that changes the rules): this {command} is not applied.',
    'parse.command-other-family':
      "This ip6tables {command} changes IPv6 rules, which the kernel keeps apart from the IPv4 rules of the text's iptables commands: it is not applied to them.",
    'parse.logfmt-other-family.one':
      "The log's ip6tables command changes IPv6 rules, which the kernel keeps apart from the IPv4 rules of its iptables commands: it is not applied to them.",
    'parse.logfmt-other-family.other':
      "The log's {count} ip6tables commands (the first here) change IPv6 rules, which the kernel keeps apart from the IPv4 rules of its iptables commands: they are not applied to them.",
    'parse.command-family-refused.iptables':
      'iptables refuses {option}: it is the IPv4 tool, and stops with exit status 2 (1.8.x prints only "Try `iptables -h\' ..."). This command changes no rule; IPv6 rules are written with ip6tables.',
    'parse.command-family-refused.ip6tables':
      'ip6tables refuses {option}: it is the IPv6 tool, and stops with exit status 2 (1.8.x prints only "Try `ip6tables -h\' ..."). This command changes no rule; IPv4 rules are written with iptables.',
    'parse.rule-line-not-command':
      'This rule line runs no tool (no iptables before it): in a script of iptables commands the shell would not run it ("-A: command not found"). It is read as the rule it writes, as if its iptables were lost in the paste.',
    'parse.restore-file-not-shown':
      '{tool} loads the rules of {file}, which the text does not show: lint and the trace read only the rules written here.',
    'parse.shell-lines-not-run.one':
      "This line of shell around the iptables commands is not run: only the iptables commands are read, in the order written; a loop's or a condition's commands are read once.",
    'parse.shell-lines-not-run.other':
      "{count} lines of shell around the iptables commands (the first here) are not run: only the iptables commands are read, in the order written; a loop's or a condition's commands are read once.",
    'parse.command-not-applied':
      'This iptables {command} is not applied: the text also shows rules as iptables-save, -S or -L printed them, and those are read as the state (a command in a transcript ran before or after that output).',
    'parse.rule-number-out-of-range.one':
      '{chain} has 1 rule at this point: there is no rule {position} to {command}; iptables-restore would stop here.',
    'parse.rule-number-out-of-range.other':
      '{chain} has {count} rules at this point: there is no rule {position} to {command}; iptables-restore would stop here.',
    'parse.hash-prefixed-paste': 'Every line is prefixed with "#" (a pasted log); the prefix is ignored.',
    'parse.wrapped-line-joined':
      'This line goes on with the rule of line {line} (the paste wrapped it): it is read as part of that rule.',
    'parse.wrapped-line-joined.folded':
      'This line is the rest of line {line}, which a terminal folded at its width ({width} columns).',
    'parse.log-prefixed-paste':
      'The lines carry log prefixes (a timestamp, `host program[pid]:` or `[pod/...]`): a pasted log. The prefixes are ignored and the output behind them is read.',
    'parse.logfmt-commands':
      "A logfmt log (`level=... msg=...`, as Cilium's agent writes): the iptables commands its messages say were run (`msg=\"Running 'iptables ...' command\"`) are read as typed; its other lines are ignored.",
    'parse.quoted-paste':
      'The lines are quoted (`{mark}` before each, as a chat, a mail or code quotes them): the quote marks are ignored and the output behind them is read.',
    'parse.kube-proxy-log':
      'A kube-proxy log: the iptables-restore input it logged here is read as the dump (its lines are those of the log); every other line of the text is ignored (paste other outputs into a document of their own).',
    'parse.kube-proxy-log.several.one':
      'A kube-proxy log of 1 sync: the last iptables-restore input it logged, here, is read as the dump (its lines are those of the log); every other line of the text is ignored (paste other outputs into a document of their own).',
    'parse.kube-proxy-log.several.other':
      'A kube-proxy log of {count} syncs: the last iptables-restore input it logged, here, is read as the dump (its lines are those of the log); every other line of the text is ignored (paste other outputs into a document of their own).',
    'parse.grep-numbered-paste':
      'Lines start with grep -n line numbers (`92:`); the numbers are ignored (positions are lines of this file).',
    'parse.typographic-quotes':
      'Typographic quotes (“ ”) on rule lines are read as the straight quotes iptables writes: the paste went through a word processor, a mail client or a wiki.',
    'parse.klog-commands':
      "A klog log of the iptables commands kube-proxy or the kubelet ran (`running iptables: iptables [-w 5 -I ...]`, `-v=5`): each command that changes the rules is read as typed, a comment's words quoted again; checks (`-C`), listings and the log's other lines are ignored.",
    'parse.docker-json-log':
      'Docker\'s JSON log file (`{"log":"...","stream":...}` per line, /var/lib/docker/containers/*/*-json.log): the output inside each entry is read, unescaped, the parts of a line longer than 16 KiB joined; positions are those of the file.',
    'parse.container-log-parts':
      "A container runtime's log file split lines longer than 16 KiB into parts (`P`, then `F` on the last): they are read as the one line they were (parts joined: {count}); positions are those of the file.",
    'parse.typographic-dashes':
      "Typographic dashes (– —) before options on rule and command lines, and in a listing's opt column, are read as the `--` (or `-`) iptables writes: the paste went through a word processor, a mail client or a wiki.",
    'parse.grep-file-names':
      'Lines start with the name of the file grep read them from (`grep -r`, `grep -H`, a grep over several files); the names are ignored.',
    'parse.terminal-escapes':
      "A terminal's escape sequences (colours: `ESC[32m`) are left out: the output was captured from a terminal (`kubectl exec -it`, `--color=always`, `script`).",
    'parse.double-spaced-paste':
      'Every line is followed by a blank line (the paste went through a mail, a word processor or a chat that made each line a paragraph): the lines are read without those blank lines; positions are lines of this file.',
    'parse.unicode-spaces':
      'No-break, zero-width or full-width spaces (U+00A0, U+200B, U+3000, ...) are read as the blanks the tool wrote: the paste went through a chat, a mail client, a wiki, a web page or an input method.',
    'parse.ansible-output':
      "Ansible's report of a command (`node | CHANGED | rc=0 >>`, a task's `stdout` or `stdout_lines` in JSON): the output it holds is read (JSON strings unescaped, one line per line of the output), and Ansible's own lines and keys are ignored.",
    'parse.html-line-breaks':
      "HTML line breaks (`<br>`) are read as the line breaks they stand for, and the tags around the output (`<pre>`, `<code>`) as nothing: the text was pasted into a web form, or copied from a page's source.",
    'parse.html-references':
      "HTML character references (`&quot;`, `&gt;`, `&amp;`) are read as the characters they stand for: the text was copied from a web page's source or a ticket export.",
    'parse.numbered-paste':
      "Lines start with line numbers (`cat -n`, `nl`, an editor's or `less -N`'s); the numbers are ignored (positions are lines of this file).",
    'parse.diff-paste': 'This is diff output; the lines marked ">" (the newer dump) are read, the "<" side is skipped.',
    'parse.listing-text-unmapped':
      '"{text}" in this listing is not mapped to a match; the tracer treats the rule as uncertain.',
    'parse.document-too-large':
      'This document is too large for the language server: reading it used {used} MB of memory, of the {limit} MB its worker may use, so nothing of it is shown. Open the chains you need in a smaller file (grep them out of the dump).',
    'parse.input-too-large':
      '{file} is too large for kpp: {used} MB of memory used reading it, of the {limit} MB Node allows; grep the chains you need first',
  },
  'zh-CN': {
    'parse.unexpected-word': '意外的 "{word}"：此处应为 -s、-m 或 -j 之类的选项。',
    'parse.missing-module-name': '{option} 后面需要模块名。',
    'parse.missing-target': '{option} 后面需要目标或链名。',
    'parse.duplicate-target': '一条规则只能有一个目标；"{target}" 重复了目标。',
    'parse.second-rule-command':
      '这一行出现了第二个 {command}：iptables 会拒绝（"Cannot use {command} with ..."）。两条规则连在了一行（粘贴时丢了换行？）；只读取第一条。',
    'parse.bad-counters': '{option} 需要两个数字：包数和字节数。',
    'parse.missing-option-value': '{option} 需要一个值。',
    'parse.missing-option-value.two': '{option} 需要两个值。',
    'parse.option-without-module': '{option} 不是通用选项，并且之前没有用 -m 加载模块。',
    'parse.dangling-negation': '"!" 后面必须跟一个选项。',
    'parse.wrapped-word-joined': '"{before}" 和 "{after}" 之间隔着很宽的空白，像是终端换行留下的；按 "{joined}" 读取。',
    'parse.unterminated-quote': '这个引号没有闭合；本行余下部分按一个值读取。',
    'parse.missing-commit':
      '文本在表 {table} 的 COMMIT 之前就结束了（粘贴被截断？）：其链和规则仍作为表 {table} 的内容读取，但 iptables-restore 不会应用它。',
    'parse.missing-commit.next':
      '表 {table} 在下一个表开始之前没有 COMMIT（这部分粘贴被截断？）：其链和规则仍作为表 {table} 的内容读取，但 iptables-restore 会拒绝它。',
    'parse.cut-table-header':
      '文本在这个表头中间结束（粘贴被截断？）：`{header}` 按 `*{table}` 读取，它是唯一以此开头的表。',
    'parse.cut-rule': '文本在这条规则中间结束（粘贴被截断？）：它缺少的部分是截断造成的，不是转储的错误。',
    'parse.table-again':
      '表 {table} 在其 COMMIT 之后再次开始（在第一份转储之后又粘贴了一份：来自另一个节点、稍后的时间，还是另一个 iptables 后端？）：第一份转储从第一个 *{table} 表头到它的 COMMIT，第二份从这个表头开始。它们的链和规则合在一起作为一张表读取，因此两份都有的规则会计两次，Service 的概率阶梯也会叠加：针对它们的阶梯、重复和顺序检查结果可能来自两份转储的合并，而不是节点的问题。请把每份转储粘贴到单独的文档中分别读取。',
    'parse.commit-without-table': 'COMMIT 之前没有 *table 表头。',
    'parse.duplicate-chain-declaration': '链 {chain} 在表 {table} 中声明了两次。',
    'parse.undeclared-chain':
      '链 {chain} 在表 {table} 中有规则，但在这些规则之前没有任何声明（`:{chain} - [0:0]` 或 `-N {chain}`）：iptables-restore 会在这一行停止（“No chain/target/match by that name”），除非用 --noflush 恢复到已有该链的表。如果是 grep 截取的片段，可能只是声明被截掉了。',
    'parse.undeclared-chain.deleted':
      '链 {chain} 已在第 {line} 行被删除（-X），所以这条规则会在表 {table} 中新建一个未声明的链 {chain}：iptables-restore 会在这一行停止（“No chain/target/match by that name”）。',
    'parse.undeclared-chain.renamed':
      '链 {chain} 已在第 {line} 行被重命名为 {to}，所以这条规则会在表 {table} 中新建一个未声明的链 {chain}：iptables-restore 会在这一行停止（“No chain/target/match by that name”）。是不是想写 {to}？',
    'parse.related.first-declaration': '第一次声明',
    'parse.related.first-dump': '第一份转储的表头',
    'parse.related.first-dump-commit': '第一份转储的 COMMIT',
    'parse.nft-syntax':
      '这是 `table ... {` 块之外的 nft 语法（nft list ruleset 的 grep 结果？）：不知道这些行属于哪个表和链，所以不会读取。请粘贴完整的 `nft list ruleset`，或 iptables-save（nf_tables 主机上运行 iptables-nft-save）。',
    'parse.nft-table-unclosed': '表 {table} 没有结束的 `}`：粘贴内容在表内结束。到此为止的规则已读取。',
    'parse.nft-table-skipped':
      '表 {family} {table} 单独读取：一个转储一次只读一个协议族，这里是 {read}（规则较多的协议族，或所追踪数据包的协议族），或同名的表已读取。{family} 协议族的数据包沿该协议族的表追踪，这些行的悬停提示、解释、大纲和检查也读取这些表。',
    'parse.nft-xt-extension':
      'nft 只按名字打印了 xtables {kind} `{name}`（这个 nft 不认识它的翻译）：列表里没有它的选项，追踪器把它们视为未知。iptables-save 会完整显示。',
    'parse.nft-text-unmapped': '此 nft 规则中的 "{text}" 无法对应到 iptables 匹配条件；追踪器把这条规则视为不确定。',
    'parse.nft-base-chain-not-traced':
      '表 {table} 的链 {chain} 挂在 {hook} 钩子上，但追踪器只走 iptables-nft 写入的内置链（raw、mangle、nat、filter 中的 PREROUTING、INPUT 等）：数据包不会经过它被追踪。它的规则仍会被读取和解释。（nftables 模式的 kube-proxy 会写入这样的链。）',
    'parse.tool-message': 'iptables 工具输出的消息，不是规则：{text}',
    'parse.listing-resolved-name':
      '`{name}` 是一个名字：列表打印时没有加 -n，iptables 通过 DNS 解析了地址，粘贴内容里没有数字地址。跟踪会把这个匹配视为未知；`iptables -L -n` 会显示地址。',
    'parse.listing-without-interfaces':
      '此列表没有 in/out 列（iptables -L 未加 -v）：匹配网卡的规则（`-i lo -j ACCEPT`）看起来像匹配所有数据包。跟踪和“规则不可达”检查无法区分它们；`iptables -L -n -v` 会显示。',
    'parse.nft-incompatible':
      '表 {table} 中有 iptables 无法显示的规则（直接用 nft 写入，例如 nftables 模式的 kube-proxy）：此转储不包含它们，跟踪也看不到它们。用 `nft list table {family} {table}` 查看。',
    'parse.nft-incompatible.chain':
      '表 {table} 的链 {chain} 中有 iptables 无法显示的规则（直接用 nft 写入）：此输出不包含它们。用 `nft list chain {family} {table} {chain}` 查看。',
    'parse.text-line': '说明文字，不属于转储内容；已忽略。',
    'parse.prose-only.other':
      '此文本中没有表、链或规则：其中 {count} 行说明文字已忽略。nftables 或 IPVS 模式的 kube-proxy 日志不含 iptables 规则：在节点上用 `nft list ruleset` 或 `ipvsadm -Ln` 查看。',
    'parse.unrecognized-line': '不是 iptables 行："{text}"。应为 *table、:CHAIN、-A/-I/-N/-P 规则、COMMIT 或 # 注释。',
    'parse.missing-chain-name': '{command} 后面需要链名。',
    'parse.rename-refused.missing': '-E {chain} 缺少新名称：iptables-restore 会在此处停止。',
    'parse.rename-refused.unknown':
      '-E 在表 {table} 中找不到链 {chain}：iptables-restore 会在此处停止（“No chain/target/match by that name”）。',
    'parse.rename-refused.exists':
      '-E 无法把 {chain} 重命名为 {to}：表 {table} 已有链 {to}，iptables-restore 会在此处停止（“File exists”）。',
    'parse.rename-refused.builtin': '-E 不能重命名内置链 {chain}：iptables-restore 会在此处停止。',
    'parse.rename-refused.target-name':
      '-E 无法把 {chain} 重命名为 {to}：{to} 是一个目标（target），链名不能与目标重名，iptables-restore 会在此处停止。',
    'parse.missing-policy': '-P {chain} 需要一个策略（ACCEPT 或 DROP）。',
    'parse.delete-no-match':
      '-D 在 {chain} 中找不到这样的规则：iptables-restore 会在此处停止（“该链中是否存在匹配的规则？”）。',
    'parse.delete-no-match.command':
      '在目前读到的规则中，-D 在 {chain} 里找不到这样的规则：只有在这些命令运行之前内核中已有这样的规则时它才会删除（否则 iptables 会报错）；这里不删除任何规则。',
    'parse.command-not-read': '一行只读取一条 iptables 命令（最后一条修改规则的命令）：这里的 {command} 未被应用。',
    'parse.command-other-family':
      '此处的 ip6tables {command} 修改的是 IPv6 规则，内核把它们与文本中 iptables 命令的 IPv4 规则分开保存：它不应用到这些规则上。',
    'parse.logfmt-other-family.other':
      '日志中的 {count} 条 ip6tables 命令（第一条在此）修改的是 IPv6 规则，内核把它们与日志中 iptables 命令的 IPv4 规则分开保存：它们不应用到这些规则上。',
    'parse.command-family-refused.iptables':
      'iptables 拒绝 {option}：它是 IPv4 工具，会以退出状态 2 停止（1.8.x 只打印 "Try `iptables -h\' ..."）。这条命令不修改任何规则；IPv6 规则要用 ip6tables 写。',
    'parse.command-family-refused.ip6tables':
      'ip6tables 拒绝 {option}：它是 IPv6 工具，会以退出状态 2 停止（1.8.x 只打印 "Try `ip6tables -h\' ..."）。这条命令不修改任何规则；IPv4 规则要用 iptables 写。',
    'parse.rule-line-not-command':
      '这一行规则前面没有工具（没有 iptables）：在 iptables 命令的脚本中，shell 不会运行它（“-A: command not found”）。这里按它写出的规则读取，就像粘贴时丢掉了它的 iptables。',
    'parse.restore-file-not-shown':
      '{tool} 加载 {file} 中的规则，文本里没有这些规则：lint 和追踪只读取这里写出的规则。',
    'parse.shell-lines-not-run.other':
      'iptables 命令周围的 {count} 行 shell 代码（第一行在此）不会运行：只按书写顺序读取 iptables 命令；循环或条件中的命令只读取一次。',
    'parse.command-not-applied':
      '此处的 iptables {command} 未被应用：文本中还有 iptables-save、-S 或 -L 打印的规则，规则的状态以它们为准（记录中的命令是在那份输出之前或之后运行的）。',
    'parse.rule-number-out-of-range.other':
      '此时 {chain} 只有 {count} 条规则：没有第 {position} 条规则可以{command}；iptables-restore 会在此处停止。',
    'parse.hash-prefixed-paste': '每一行都以 "#" 开头（粘贴的日志）；已忽略这个前缀。',
    'parse.wrapped-line-joined': '这一行接续第 {line} 行的规则（粘贴时被折行）：已作为该规则的一部分读取。',
    'parse.wrapped-line-joined.folded': '这一行是第 {line} 行的剩余部分：终端在 {width} 列处把它折行了。',
    'parse.log-prefixed-paste':
      '这些行带有日志前缀（时间戳、`主机 程序[pid]:` 或 `[pod/...]`）：这是粘贴的日志。已忽略这些前缀，读取其后的输出。',
    'parse.logfmt-commands':
      '这是 logfmt 格式的日志（`level=... msg=...`，Cilium agent 的写法）：其消息中说明已运行的 iptables 命令（`msg="Running \'iptables ...\' command"`）按原样读取；其他行被忽略。',
    'parse.quoted-paste':
      '每一行前都有引用标记（`{mark}`，聊天、邮件或代码中的引用）：已忽略这些引用标记，读取其后的输出。',
    'parse.kube-proxy-log':
      '这是 kube-proxy 的日志：将它在此处记录的 iptables-restore 输入作为转储读取（位置仍按日志的行计）；文本中的其他各行都被忽略（其他命令的输出请粘贴到单独的文档中）。',
    'parse.kube-proxy-log.several.other':
      '这是 kube-proxy 记录了 {count} 次同步的日志：将它最后一次（此处）记录的 iptables-restore 输入作为转储读取（位置仍按日志的行计）；文本中的其他各行都被忽略（其他命令的输出请粘贴到单独的文档中）。',
    'parse.grep-numbered-paste': '各行以 grep -n 的行号开头（`92:`）；已忽略这些行号（位置按本文件的行计）。',
    'parse.typographic-quotes':
      '规则行中的排版引号（“ ”）按 iptables 输出的直引号读取：粘贴内容经过了文字处理软件、邮件客户端或 wiki 的转换。',
    'parse.klog-commands':
      '这是 kube-proxy 或 kubelet 运行的 iptables 命令的 klog 日志（`running iptables: iptables [-w 5 -I ...]`，`-v=5`）：每条修改规则的命令按原样读取，注释的各个词重新加上引号；检查（`-C`）、列出命令和日志的其他行被忽略。',
    'parse.docker-json-log':
      'Docker 的 JSON 日志文件（每行一个 `{"log":"...","stream":...}`，/var/lib/docker/containers/*/*-json.log）：读取每个条目中的输出（已反转义），超过 16 KiB 被拆开的行已合并；位置按该文件计。',
    'parse.container-log-parts':
      '容器运行时的日志文件把超过 16 KiB 的行拆成了若干部分（`P`，最后一部分为 `F`）：按原来的一行读取（合并了 {count} 个部分）；位置按该文件计。',
    'parse.typographic-dashes':
      '规则行和命令行中选项前以及列表 opt 列中的排版破折号（– —）按 iptables 使用的 `--`（或 `-`）读取：粘贴内容经过了文字处理软件、邮件客户端或 wiki 的转换。',
    'parse.grep-file-names':
      '各行以 grep 读取的文件名开头（`grep -r`、`grep -H` 或对多个文件的 grep）；已忽略这些文件名。',
    'parse.terminal-escapes':
      '终端转义序列（颜色：`ESC[32m`）被略去：输出是从终端捕获的（`kubectl exec -it`、`--color=always`、`script`）。',
    'parse.double-spaced-paste':
      '每行之后都有一个空行（粘贴内容经过了邮件、文字处理软件或聊天工具的转换，每行成了一个段落）：读取时忽略这些空行；位置按本文件的行计。',
    'parse.unicode-spaces':
      '不换行空格、零宽空格或全角空格（U+00A0、U+200B、U+3000 等）按工具输出的空格读取：粘贴内容经过了聊天工具、邮件客户端、wiki、网页或输入法的转换。',
    'parse.ansible-output':
      'Ansible 对命令的报告（`node | CHANGED | rc=0 >>`，或任务结果 JSON 中的 `stdout`、`stdout_lines`）：读取其中包含的输出（JSON 字符串已反转义，输出的每一行为一行），Ansible 自己的行和键被忽略。',
    'parse.html-line-breaks':
      'HTML 换行标记（`<br>`）按其代表的换行读取，输出外围的标签（`<pre>`、`<code>`）被忽略：文本曾粘贴到网页表单中，或复制自网页源代码。',
    'parse.html-references':
      'HTML 字符引用（`&quot;`、`&gt;`、`&amp;`）按其代表的字符读取：文本复制自网页源代码或工单导出。',
    'parse.numbered-paste':
      '各行以行号开头（`cat -n`、`nl`、编辑器或 `less -N` 显示的行号）；已忽略这些行号（位置按本文件的行计）。',
    'parse.diff-paste': '这是 diff 输出；读取标记为 ">" 的行（较新的转储），跳过 "<" 一侧。',
    'parse.listing-text-unmapped': '此列表中的 "{text}" 无法对应到匹配条件；追踪器把这条规则视为不确定。',
    'parse.document-too-large':
      '此文档对语言服务器来说太大：读取它已用 {used} MB 内存，而其 worker 最多可用 {limit} MB，因此不显示其任何内容。请把需要的链放到一个较小的文件中打开（从转储中 grep 出来）。',
    'parse.input-too-large':
      '{file} 对 kpp 来说太大：读取它已用 {used} MB 内存（Node 允许 {limit} MB）；请先用 grep 取出需要的链',
  },
};
