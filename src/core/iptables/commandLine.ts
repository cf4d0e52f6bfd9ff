/**
 * iptables commands as scripts, docs and shell history write them (`sudo iptables -t nat -A PREROUTING ...`,
 * `ip6tables -w -I INPUT 1 ...`, `iptables -C X ... 2>/dev/null || iptables -A X ...`): which command of the
 * line changes the rules, where its words are, its table, and what of the line is shell around it. Only the words
 * are read; nothing is run.
 */
import { isWhiteCode } from '../common/chars';
import { COMMAND_OPTION_VALUES, FAMILY_OPTIONS, familyOptionAt, RULE_CHANGING_COMMANDS } from './options';

/** What an iptables command does: a rule command, `-C` (changes nothing), a chain command, anything else. */
export type CommandKind = 'rule' | 'check' | 'chain' | 'other';

export interface IptablesCommand {
  /** Offset of the tool's first word (`sudo`, `iptables`) in the text. */
  at: number;
  /** Offset of the command word (`-A`, `-N`, ...). */
  commandAt: number;
  command: string;
  kind: CommandKind;
  /** Run by ip6tables: it changes IPv6 rules, kept apart from iptables' IPv4 rules. */
  ipv6: boolean;
  /** `-t`/`--table` wherever the command writes it; `filter` when it does not. */
  table: string;
  /** Where the command's words end on the line: before a shell operator, a redirection, a comment or a final `\`. */
  end: number;
  /** The line ends in `\`: the command goes on on the next line. */
  continues: boolean;
  /**
   * A family option of the other tool's family (`iptables -6 ...`, `ip6tables -A X -4 ...`): where, and as written.
   * The tool refuses the command (exit status 2) and changes nothing.
   */
  otherFamily?: { at: number; option: string };
}

const RULE_COMMANDS = new Set(RULE_CHANGING_COMMANDS);
const CHECK_COMMANDS = new Set(['-C', '--check']);
const CHAIN_COMMANDS = new Set([
  ...['-N', '--new-chain', '-X', '--delete-chain', '-F', '--flush', '-Z', '--zero'],
  ...['-P', '--policy', '-E', '--rename-chain'],
]);
/**
 * The directories scripts run the tools from (`/sbin/iptables`, `/usr/sbin/ip6tables-legacy`,
 * `/usr/local/sbin/iptables`): a path elsewhere (`/etc/iptables/rules.v4`, `/etc/iptables`) is a file, no command.
 */
export const TOOL_DIRECTORY = String.raw`(?:/usr(?:/local)?)?/s?bin/`;
/** The tools, by name or path: `iptables`, `/usr/sbin/ip6tables-legacy`, `xtables-nft-multi`. */
const TOOL = new RegExp(
  String.raw`^(?:${TOOL_DIRECTORY})?(?:ip6?tables(?:-legacy|-nft)?|xtables-(?:legacy|nft)-multi)$`,
);
const MULTI_CALL = /xtables-(?:legacy|nft)-multi$/;
/**
 * A variable as a command's first word: `$IPT`, `${IPTABLES}`, `"$IPT"`, `${IPT:-/sbin/iptables}`; group 1 or 2 is
 * its name, group 3 the value it defaults to.
 */
const TOOL_VARIABLE = /^"?\$(?:(\w+)|\{(\w+)(?::?[-=]([^}\s]*))?\})"?$/;
/**
 * A script's assignment of a tool to a variable: `IPT=/sbin/iptables`, `export IPTABLES="iptables -w"`,
 * `IP6T=$(command -v ip6tables)`, `readonly IPT=iptables-legacy`, `IPT=${IPT:-/sbin/iptables}`. Group 1 is the
 * name; group 2, 3 or 4 the value (quoted or not); group 5 the tool `which` or `command -v` prints; group 6 the
 * value a `${...:-...}` defaults to.
 */
const TOOL_ASSIGNMENT =
  /^[ \t]*(?:(?:export|readonly|local|declare(?:[ \t]+-\w+)*)[ \t]+)?([A-Za-z_]\w*)=(?:"([^"\n$`]*)"|'([^'\n]*)'|([^\s"'$`;&|]+)|(?:\$\(|`)[ \t]*(?:which|command[ \t]+-v)[ \t]+(\S+?)[ \t]*[)`]|"?\$\{\w+:?[-=]([^}"\s]+)\}"?)[ \t]*(?:[;#].*)?$/gm;
/** `2>/dev/null`, `>>log`, `&>/dev/null`, `<in`: a redirection word. */
const REDIRECTION = /^(?:\d*(?:>>?|<)|&>)/;

interface ShellWord {
  start: number;
  end: number;
  /** `;`, `&&`, `||`, `|` or `&`: the end of a command. */
  operator: boolean;
}

/**
 * The shell words of text[from, end): blanks separate, quotes group (`\` escapes in double quotes and outside),
 * and `;`, `|` and `&` outside quotes are operators of their own. A `#` starting a word ends the line's words.
 */
function shellWords(text: string, from: number, end: number): ShellWord[] {
  const words: ShellWord[] = [];
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isWhiteCode(c)) {
      i++;
      continue;
    }
    if (c === 35) break; // `# comment`
    if (c === 59 || c === 124 || (c === 38 && text.charCodeAt(i + 1) !== 62)) {
      const start = i++;
      while (i < end && text.charCodeAt(i) === c) i++;
      words.push({ start, end: i, operator: true });
      continue;
    }
    const start = i;
    let quote = 0;
    while (i < end) {
      const d = text.charCodeAt(i);
      if (quote) {
        if (d === 92 && quote === 34) i++;
        else if (d === quote) quote = 0;
      } else if (d === 34 || d === 39) quote = d;
      else if (d === 92) i++;
      else if (isWhiteCode(d) || d === 59 || d === 124) break;
      // `&` ends a word except in a redirection (`2>&1`, `&>`).
      else if (d === 38 && i > start && text.charCodeAt(i - 1) !== 62) break;
      i++;
    }
    words.push({ start, end: Math.min(i, end), operator: false });
  }
  return words;
}

/**
 * Where a command's words end among words [from, to) (a redirection, an operator or a final `\`), and whether `\`
 * continues it. Bounded by `to`, not a copy of the words: a line of 16k commands read each in its own words.
 */
function wordsEnd(
  text: string,
  words: ShellWord[],
  from: number,
  to: number,
  lineEnd: number,
): { end: number; continues: boolean } {
  for (let k = from; k < to; k++) {
    const w = words[k];
    const word = text.slice(w.start, w.end);
    if (w.operator || REDIRECTION.test(word)) return { end: trimmedEnd(text, w.start), continues: false };
    if (word === '\\' && k === to - 1) return { end: trimmedEnd(text, w.start), continues: true };
  }
  return { end: to > 0 ? words[to - 1].end : lineEnd, continues: false };
}

function trimmedEnd(text: string, at: number): number {
  while (at > 0 && isWhiteCode(text.charCodeAt(at - 1))) at--;
  return at;
}

/** The table a command's words [from, to) name with `-t`/`--table`, or undefined. */
function tableOf(text: string, words: ShellWord[], from: number, to: number): string | undefined {
  for (let k = from; k < to; k++) {
    const word = text.slice(words[k].start, words[k].end);
    if (word.startsWith('--table=')) return word.slice(8);
    if ((word === '-t' || word === '--table') && k + 1 < to) return text.slice(words[k + 1].start, words[k + 1].end);
  }
  return undefined;
}

/** One command among words [from, to): undefined when it runs no iptables tool. */
function readCommand(
  text: string,
  words: ShellWord[],
  from: number,
  to: number,
  variables: ToolOfVariable,
): IptablesCommand | undefined {
  const word = (i: number) => text.slice(words[i].start, words[i].end);
  const start = afterCompoundWords(text, words, from, to);
  let k = start;
  if (k < to && word(k) === 'sudo') for (k++; k < to && word(k).startsWith('-'); k++);
  if (k >= to) return undefined;
  // `$IPT -A ...` where the script set `IPT=/sbin/iptables`: the tool the variable names.
  const variable = TOOL_VARIABLE.exec(word(k));
  // A variable the script set is its value ('' when not a tool); one it never set, its default.
  const tool = variable ? (variables(variable[1] ?? variable[2], words[k].start) ?? variable[3]) : word(k);
  if (tool === undefined || !TOOL.test(tool)) return undefined;
  // A multi-call binary runs the tool its next word names (not through a variable: `IPT=xtables-nft-multi` is rare).
  if (!variable && MULTI_CALL.test(tool)) k++;
  const ipv6 = k < to && /^(?:\S*\/)?ip6tables/.test(variable ? tool : word(k));
  // Options before the command: `-t nat`, `-w 5`, `-W 100000`, `-4`, `--wait=5`.
  for (k++; k < to; k++) {
    const w = word(k);
    const takes = COMMAND_OPTION_VALUES.get(w);
    if (takes === undefined && !(FAMILY_OPTIONS.has(w) || w.startsWith('--table=') || w.startsWith('--wait='))) break;
    // `-w` takes a number if one follows.
    if (takes === 1 || (takes === -1 && k + 1 < to && /^\d+$/.test(word(k + 1)))) k++;
  }
  if (k >= to) return undefined;
  const command = word(k);
  const kind: CommandKind = RULE_COMMANDS.has(command)
    ? 'rule'
    : CHECK_COMMANDS.has(command)
      ? 'check'
      : CHAIN_COMMANDS.has(command)
        ? 'chain'
        : 'other';
  const { end, continues } = wordsEnd(text, words, k, to, words[to - 1].end);
  if (readsAsSentence(text, words, k + 1, end)) return undefined;
  return {
    otherFamily: otherFamilyOption(text, words, start, end, ipv6 ? 4 : 6),
    at: words[start].start,
    commandAt: words[k].start,
    command,
    kind,
    ipv6,
    table: tableOf(text, words, from, to) ?? 'filter',
    end,
    continues,
  };
}

/** Shell words a command may follow on its line: a group's or a body's opening, a condition, a loop's body. */
const COMPOUND_WORDS = new Set(['{', '(', 'then', 'do', 'else', 'if', 'elif', 'while', 'until', '!']);
/** A function's name with its parentheses (`allow()`), as one word. */
const FUNCTION_NAME_WORD = /^[\w.:-]+\(\)$/;

/**
 * Where the command of words [from, to) starts after the shell words before it on its line: a one-line function's
 * head and body (`allow() { $IPT -A ...; }`, `function allow { ...`), a condition (`if ! iptables -C ...`), a
 * branch or a loop's body (`then iptables -A ...`, `do $IPT -A ...`).
 */
function afterCompoundWords(text: string, words: ShellWord[], from: number, to: number): number {
  const word = (i: number) => (i < to ? text.slice(words[i].start, words[i].end) : '');
  let k = from;
  // A function's head counts only before the `{` or `(` of its body.
  let head = k;
  if (word(head) === 'function') head += word(head + 2) === '()' ? 3 : 2;
  else if (FUNCTION_NAME_WORD.test(word(head))) head++;
  else if (word(head + 1) === '()' && /^[\w.:-]+$/.test(word(head))) head += 2;
  if (head > k && (word(head) === '{' || word(head) === '(')) k = head;
  while (k < to && COMPOUND_WORDS.has(word(k))) k++;
  return k;
}

/** The first family option naming `family` among the command's words (from word `from` to offset `end`). */
function otherFamilyOption(
  text: string,
  words: ShellWord[],
  from: number,
  end: number,
  family: 4 | 6,
): IptablesCommand['otherFamily'] {
  for (let k = from; k < words.length && words[k].start < end; k++) {
    const w = words[k];
    if (familyOptionAt(text, w.start, w.end - w.start) === family)
      return { at: w.start, option: text.slice(w.start, w.end) };
  }
  return undefined;
}

/**
 * Whether the words after a command word (from `k` to offset `end`) are a sentence that starts like a command
 * (`iptables -F on it before the upgrade`, `iptables -X too.`, wrapped prose): three plain words in a row, or a word
 * that ends a sentence or a clause. A command has at most two
 * after its command word (`-P FORWARD ACCEPT`, `-I INPUT 1`) and an option at most two values (`--match-set NAME
 * dst,dst`); a quoted value is one word.
 */
function readsAsSentence(text: string, words: ShellWord[], k: number, end: number): boolean {
  let plainRun = 0;
  // The command's own words (chain, policy, rule number) come first; an option's value may end as it likes
  // (`--log-prefix dropped:`).
  let commandWords = true;
  for (; k < words.length && words[k].start < end; k++) {
    const c = text.charCodeAt(words[k].start);
    const plain = c !== 45 && c !== 33; // `-x`, `!`
    plainRun = plain ? plainRun + 1 : 0;
    if (!plain) commandWords = false;
    if (plainRun >= 3 || (commandWords && SENTENCE_WORD.test(text.slice(words[k].start, words[k].end)))) return true;
  }
  return false;
}

/** A word a sentence ends or breaks on (`dangerous.`, `DROP,`, `Services:`): no chain, policy or number ends so. */
const SENTENCE_WORD = /^[^"'].*[A-Za-z][.,:?]$/;

/**
 * The iptables command of the line text[from, end) that changes the rules, read as the one command of the line:
 * the last rule command, else the last chain command, else a `-C` (changes nothing, read as before). A line
 * holds one rule: `unread` are the other commands that change the rules (`-D X ... ; iptables -A X ...`: the
 * `-D` is not applied). Undefined when the line runs no such command (a listing, `iptables -S`, no iptables).
 */
export function iptablesCommandOn(
  text: string,
  from: number,
  end: number,
  variables: ToolOfVariable = (name, at) => toolAt(text, name, at),
): { read: IptablesCommand; unread: IptablesCommand[] } | undefined {
  const words = shellWords(text, from, end);
  const commands: IptablesCommand[] = [];
  let start = 0;
  for (let k = 0; k <= words.length; k++) {
    if (k < words.length && !words[k].operator) continue;
    if (k > start) {
      const command = readCommand(text, words, start, k, variables);
      if (command && command.kind !== 'other') commands.push(command);
    }
    start = k + 1;
  }
  const last = (kind: CommandKind) => {
    for (let k = commands.length - 1; k >= 0; k--) if (commands[k].kind === kind) return commands[k];
    return undefined;
  };
  const read = last('rule') ?? last('chain') ?? last('check');
  if (!read) return undefined;
  return { read, unread: commands.filter((c) => c !== read && c.kind !== 'check') };
}

/**
 * The tool a variable names where a command uses it (`at`, an offset in the text): '' when it names something
 * else, undefined when nothing set it.
 */
export type ToolOfVariable = (name: string, at: number) => string | undefined;

/** A script's assignments of each variable, in text order: where, and the tool it names ('' for no tool). */
type Assignments = ReadonlyMap<string, readonly { at: number; tool: string }[]>;

let variablesOf: { text: string; assignments: Assignments; functions?: readonly number[] } | undefined;

/**
 * The variables a script sets (`IPT=/sbin/iptables`, `IPTABLES="iptables -w"`, `IPT=echo`) and the tool each
 * assignment names. Only an assignment naming the tool counts: a name alone (`$IPTABLES` never set) says nothing.
 * The last text's answer is kept: the parser asks it of every such line.
 */
function toolVariables(text: string): Assignments {
  if (variablesOf?.text === text) return variablesOf.assignments;
  const assignments = new Map<string, { at: number; tool: string }[]>();
  if (text.includes('=')) {
    TOOL_ASSIGNMENT.lastIndex = 0;
    for (let m; (m = TOOL_ASSIGNMENT.exec(text));) {
      const value = (m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6]).trim();
      const tool = value.split(/[ \t]+/, 1)[0];
      let list = assignments.get(m[1]);
      if (!list) assignments.set(m[1], (list = []));
      list.push({ at: m.index, tool: TOOL.test(tool) ? tool : '' });
    }
  }
  variablesOf = { text, assignments };
  return assignments;
}

/** A shell function's definition up to its body: `allow()`, `function lockdown`, `function setup ()`. */
const FUNCTION_HEAD = String.raw`(?:function[ \t]+[\w.:-]+(?:[ \t]*\([ \t]*\))?|[\w.:-]+[ \t]*\([ \t]*\))`;
/** `allow() {`, `function lockdown {`: where a shell function's body opens (its `{` ends the match). */
const FUNCTION_START = new RegExp(String.raw`^[ \t]*${FUNCTION_HEAD}[ \t]*\{`, 'gm');

/**
 * The spans of the shell functions a script defines, as [start, end) offset pairs in text order: from the name to
 * the `}` that closes the body (braces counted, those of `${...}` apart). A function inside another is in the outer span.
 */
function functionSpans(text: string): readonly number[] {
  toolVariables(text);
  if (variablesOf!.functions) return variablesOf!.functions;
  const spans: number[] = [];
  if (text.includes('{')) {
    FUNCTION_START.lastIndex = 0;
    for (let m; (m = FUNCTION_START.exec(text));) {
      let depth = 1;
      // `${NAME}`'s braces are no block's: counted apart.
      let expansions = 0;
      let k = FUNCTION_START.lastIndex;
      for (; k < text.length && depth > 0; k++) {
        const c = text.charCodeAt(k);
        if (c === 123) {
          if (text.charCodeAt(k - 1) === 36) expansions++;
          else depth++;
        } else if (c === 125) {
          if (expansions > 0) expansions--;
          else depth--;
        }
      }
      spans.push(m.index, k);
      FUNCTION_START.lastIndex = k;
    }
  }
  variablesOf!.functions = spans;
  return spans;
}

/**
 * The tool `name` names at offset `at` of `text`: its last assignment before, as a shell running the script has it
 * (found by halves: a script may set a variable before each of thousands of commands). A use before any assignment
 * inside a shell function the script defines first and calls after setting the variable (`allow() { $IPT -A ...; }`,
 * then `IPT=/sbin/iptables`) runs with the first assignment after it that names a tool.
 */
function toolAt(text: string, name: string, at: number): string | undefined {
  const list = toolVariables(text).get(name);
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].at < at) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0) return list[lo - 1].tool;
  if (!insideFunction(functionSpans(text), at)) return undefined;
  for (const later of list) if (later.tool) return later.tool;
  return '';
}

function insideFunction(spans: readonly number[], at: number): boolean {
  // The last span starting at or before `at`, by halves.
  let lo = 0;
  let hi = spans.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[2 * mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && at < spans[2 * lo - 1];
}

/**
 * For lines read out of their place (detection reads a text's lines one by one): the tool of a variable's last
 * assignment that names one.
 */
export function toolOfVariableAnywhere(text: string): ToolOfVariable {
  return (name) => {
    const list = toolVariables(text).get(name);
    for (let k = (list?.length ?? 0) - 1; k >= 0; k--) if (list![k].tool) return list![k].tool;
    return list && '';
  };
}

/** `$IPT ...` or `sudo ${IPTABLES:-iptables} ...` at the start of `content`: its variable's name and default. */
const VARIABLE_COMMAND = /^(?:sudo[ \t]+(?:-\S+[ \t]+)*)?"?\$(?:(\w+)|\{(\w+)(?::?[-=]([^}\s]*))?\})"?[ \t]/;

/** Whether the line `content` (at offset `at` of `text`) runs an iptables tool through a variable set to one. */
export function runsToolVariable(text: string, at: number, content: string): boolean {
  const c = content.charCodeAt(0);
  const m = c === 36 || c === 34 || content.startsWith('sudo') ? VARIABLE_COMMAND.exec(content) : null;
  if (!m) return false;
  const tool = toolAt(text, m[1] ?? m[2], at) ?? m[3];
  return tool !== undefined && TOOL.test(tool);
}

/**
 * A line that opens shell a command may follow on it (`allow() {`, `if`, `then`, `do`, `for ...; do`, `{`): its
 * iptables command, if any, is found among its words (`iptablesCommandOn`), not at its start.
 */
const OPENS_COMPOUND = new RegExp(
  String.raw`^(?:${FUNCTION_HEAD}[ \t]*[{(]|[{(]|(?:then|do|else|if|elif|while|until|for)(?=[ \t]))`,
);

export function opensCompound(content: string): boolean {
  return OPENS_COMPOUND.test(content);
}

/** `<<EOF`, `<<-'RULES'` (not a here-string `<<<`): group 2 is the word that ends the here-document. */
const HERE_DOCUMENT = /(?<!<)<<-?[ \t]*(['"]?)(\w+)\1/;
/** A restore tool anywhere on the line (`cat <<EOF | sudo iptables-restore -n`, `iptables-restore <<RULES`). */
const RESTORE_TOOL_WORD = /\bip6?tables(?:-legacy|-nft)?-restore\b/;
/** A line that runs `cat` or `tee` (what writes a here-document's lines to a file). */
const WRITES_FILE = /^[ \t]*(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:cat|tee)\b/;
/**
 * A file restore input is kept in (`/etc/iptables/rules.v4`, `/etc/iptables.up.rules`, `/etc/sysconfig/iptables`,
 * `ip6tables.conf`, a file under `/etc/iptables/`), as a word of the line (after `>`, `>>` or as tee's argument).
 */
const RULES_FILE =
  /^(?:\d?>>?)?['"]?(?:\S*\/)?(?:ip6?tables[\w.-]*|rules\.v[46]|[\w.-]*\.rules(?:\.v[46])?|ip6?tables\/[\w./-]+)['"]?$/;

/**
 * The here-document a line opens (`cat > /etc/hosts <<EOF`, `iptables-restore --noflush <<RULES`): the word that
 * ends it, and whether its lines are restore input: given to iptables-restore or ip6tables-restore, or written to a
 * rules file (`cat <<'EOF' | sudo iptables-restore -n`, `cat > /etc/iptables/rules.v4 <<EOF`). Any other
 * here-document (a sysctl file, /etc/hosts, a YAML manifest) holds no rules.
 */
export function hereDocumentOf(line: string): { word: string; rules: boolean } | undefined {
  if (!line.includes('<<')) return undefined;
  const m = HERE_DOCUMENT.exec(line);
  if (!m) return undefined;
  const rules =
    RESTORE_TOOL_WORD.test(line) || (WRITES_FILE.test(line) && line.split(/[ \t|;&]+/).some((w) => RULES_FILE.test(w)));
  return { word: m[2], rules };
}

/** `iptables-restore`, `sudo /usr/sbin/ip6tables-legacy-restore`: group 1 the tool, the rest after it. */
const RESTORE_TOOL = new RegExp(
  String.raw`^(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:${TOOL_DIRECTORY})?(ip6?tables(?:-legacy|-nft)?-restore)(?=[ \t<]|$)`,
);
/** Options of iptables-restore that take a value (`-T nat`, `-M /sbin/modprobe`, `-W 1000`; its `-t` is --test). */
const RESTORE_OPTION_VALUES = new Set(['-T', '--table', '-M', '--modprobe', '-W', '--wait-interval']);

/**
 * The file a restore command loads (`iptables-restore < /etc/iptables/rules.v4`, `ip6tables-restore -n FILE`), not
 * a here-document's lines: rules the text does not show.
 */
export function restoreFileOf(command: string): { tool: string; file: string } | undefined {
  if (!command.includes('-restore')) return undefined;
  const m = RESTORE_TOOL.exec(command);
  if (!m) return undefined;
  const words = command.slice(m[0].length).split(/[ \t]+/);
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    if (w === '') continue;
    // An option's value (`-w` takes a number of seconds if one follows).
    if (RESTORE_OPTION_VALUES.has(w) || ((w === '-w' || w === '--wait') && /^\d+$/.test(words[k + 1] ?? ''))) {
      k++;
      continue;
    }
    if (w.startsWith('<')) {
      const file = w.length > 1 ? w.slice(1) : words[k + 1];
      return file && !file.startsWith('<') ? { tool: m[1], file } : undefined;
    }
    // A pipe, a list or a redirection of the output ends the command's words.
    if (/^(?:\||&&|;|\d*>)/.test(w)) return undefined;
    if (!w.startsWith('-')) return { tool: m[1], file: w };
  }
  return undefined;
}

/**
 * Where the words of a command's continuation line text[from, end) end (before an operator, a redirection, a
 * comment or a final `\`), and whether it goes on again.
 */
export function continuationEnd(text: string, from: number, end: number): { end: number; continues: boolean } {
  const words = shellWords(text, from, end);
  return wordsEnd(text, words, 0, words.length, from);
}

/**
 * A line only iptables prints: a table header, a chain declaration, a policy or a new chain as -S writes them (not
 * the rest of a command a `\` continues), a listing's chain header.
 */
const PRINTED_FORMAT =
  /(?<!\\\r?\n)^[ \t]*(?:\*(?:filter|nat|mangle|raw|security)[ \t]*\r?$|:[^\s:]+ (?:ACCEPT|DROP|-) \[|-[PN] \S+(?: (?:ACCEPT|DROP))?[ \t]*\r?$|Chain \S+ \((?:policy \w+|\d+ references)\b)/m;
/** An appended rule as iptables-save and -S print it, also what restore input or a stray script line writes. */
const PRINTED_RULE = /(?<!\\\r?\n)^[ \t]*-A \S/m;
/** A line with `<<`: maybe one that opens a here-document (`hereDocumentOf`). */
const HERE_DOCUMENT_LINE = /^[^\n]*<<[^\n]*\n/gm;

/** An iptables tool (or a variable naming one) where a command may run it: `iptables-save` (group 1) or the tool. */
const LISTING_TOOL = /\bip6?tables(?:-legacy|-nft)?(-save)?(?=[ \t\r\n|;&]|$)|\$\{?\w+\}?(?=[ \t])/g;
/** Where a command's words end: a pipe, a list, a line break. */
const COMMAND_WORDS_END = /[|;&\n]/g;
/** `-S`, `-L`, `-nvL`, `--list`: the options that print rules. */
const LISTING_OPTION = /[ \t](?:-[a-zA-Z]*[SL]|--list(?:-rules)?)(?=[ \t\r]|$)/;

/**
 * Whether the text runs a command that prints rules (`iptables-save | grep X`, `iptables -t nat -S X 1`,
 * `$IPT -nvL`). Each command's words are read once: a tool named again among them is no command of its own.
 */
function runsListingCommand(text: string): boolean {
  LISTING_TOOL.lastIndex = 0;
  for (let m; (m = LISTING_TOOL.exec(text));) {
    if (m[1]) return true;
    const from = m.index + m[0].length;
    COMMAND_WORDS_END.lastIndex = from;
    const end = COMMAND_WORDS_END.exec(text)?.index ?? text.length;
    if (LISTING_OPTION.test(text.slice(from, end))) return true;
    LISTING_TOOL.lastIndex = Math.max(end, from);
  }
  return false;
}

/**
 * Whether the text shows rules as iptables printed them (iptables-save, -S, -L output), outside a here-document:
 * then commands around them are a transcript's history, not the state. Rule lines alone (`-A X ...`, what
 * `iptables-save | grep X` prints) are printed output only beside a command that prints rules: in a script of
 * commands, a bare `-A INPUT ...` line is one the shell does not run, and the script stays one.
 */
export function showsPrintedRules(text: string): boolean {
  if (!PRINTED_FORMAT.test(text) && !PRINTED_RULE.test(text)) return false;
  const outside = outsideHereDocuments(text);
  if (PRINTED_FORMAT.test(outside)) return true;
  return PRINTED_RULE.test(outside) && runsListingCommand(outside);
}

/**
 * The text without the lines of its here-documents (a script's, never iptables' output). One of restore input
 * runs to the text's end when nothing closes it (the paste cut it); any other only where its word closes it.
 */
function outsideHereDocuments(text: string): string {
  if (!text.includes('<<')) return text;
  const closing = closingLinesOf(text);
  let outside = '';
  let from = 0;
  HERE_DOCUMENT_LINE.lastIndex = 0;
  for (let m; (m = HERE_DOCUMENT_LINE.exec(text));) {
    const opened = hereDocumentOf(m[0]);
    if (!opened) continue;
    const body = m.index + m[0].length;
    const end = firstAtOrAfter(closing.get(opened.word), body);
    if (end < 0 && !opened.rules) continue;
    outside += text.slice(from, body);
    from = end < 0 ? text.length : end;
    HERE_DOCUMENT_LINE.lastIndex = from;
  }
  return outside + text.slice(from);
}

/** A line that may close a here-document: one word, after tabs (`<<-`). */
const CLOSING_LINE = /^\t*(\w+)[ \t]*\r?$/gm;

/** Where each word stands alone on a line (offsets, in text order): one pass, however many here-documents. */
function closingLinesOf(text: string): Map<string, number[]> {
  const closing = new Map<string, number[]>();
  CLOSING_LINE.lastIndex = 0;
  for (let m; (m = CLOSING_LINE.exec(text));) {
    let list = closing.get(m[1]);
    if (!list) closing.set(m[1], (list = []));
    list.push(m.index);
  }
  return closing;
}

/** The first of the sorted `list` at or after `at` (by halves), -1 when none. */
export function firstAtOrAfter(list: readonly number[] | undefined, at: number): number {
  if (!list) return -1;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < at) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : -1;
}

/**
 * Where a line runs an iptables tool: after a shell prompt (`$ `, `root@node:~# `, `[root@node ~]# `; not a lone
 * `# `, a comment) and `sudo`. Group 1 is the command from `sudo` or the tool on.
 */
const COMMAND_START = new RegExp(
  String.raw`^[ \t]*(?:(?:\[[^\]\n]*\]|\S*)[$%>][ \t]+|(?:\[[^\]\n]*\]|\S+)#[ \t]+)?((?:sudo[ \t]+)?(?:(?:${TOOL_DIRECTORY})?ip6?tables(?:-legacy|-nft)?|"?\$(?:\w+|\{\w+(?::?[-=][^}\s]*)?\})"?)[ \t])`,
  'gm',
);

/**
 * Whether the text's commands are read as IPv6 rules: when the commands that change rules all run ip6tables (a
 * script of ip6tables alone); a firewall script doing both families keeps its IPv4 rules, which a trace of an IPv4
 * packet reads. Undefined when no line runs such a command where a command starts.
 */
export function readsIpv6Commands(text: string): boolean | undefined {
  let ipv6: boolean | undefined;
  COMMAND_START.lastIndex = 0;
  for (let m; (m = COMMAND_START.exec(text));) {
    const from = m.index + m[0].length - m[1].length;
    const lineEnd = text.indexOf('\n', from);
    const found = iptablesCommandOn(text, from, lineEnd < 0 ? text.length : lineEnd);
    // A command its tool refuses (`iptables -6 ...`) changes no rules of either family.
    if (!found || found.read.kind === 'check' || found.read.otherFamily) continue;
    if (!found.read.ipv6) return false;
    ipv6 = true;
  }
  return ipv6;
}

/**
 * The words a shell line of a firewall script starts with: keywords, builtins and the commands such scripts run
 * around iptables (`modprobe`, `sysctl -w`, `ip route ...`).
 */
const SHELL_WORDS = new Set([
  ...['if', 'then', 'elif', 'else', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'select'],
  ...['function', '{', '}', '(', ')', ';;', '[', '[[', 'test', 'set', 'unset', 'shopt', 'echo', 'printf'],
  ...['exit', 'return', 'export', 'local', 'readonly', 'declare', 'typeset', 'source', '.', 'trap', 'true'],
  ...['false', ':', 'eval', 'exec', 'shift', 'wait', 'cd', 'read', 'break', 'continue', 'let', 'umask'],
  ...['modprobe', 'sysctl', 'ip', 'ipset', 'conntrack', 'systemctl', 'service', 'logger', 'sleep', 'mkdir'],
  ...['rm', 'cp', 'mv', 'cat', 'tee', 'grep', 'sed', 'awk', 'touch', 'chmod', 'ln'],
]);
/**
 * An assignment (`IPT=/sbin/iptables`, `PORTS+=(22)`) or a function's definition (`setup() {`, `function f {`, on one
 * line `log() { logger -t fw "$1"; }`).
 */
const SHELL_FORM = new RegExp(
  String.raw`^(?:[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=|${FUNCTION_HEAD}[ \t]*(?:\{.*\})?\{?[ \t]*$)`,
);
/** A `case` pattern (`start)`, `stop|restart)`, `*)`) and what follows it. */
const CASE_PATTERN = /^[^\s()]+\)(?:[ \t]|$)/;
/**
 * What a sentence does not write and a shell line does: an option, a quote, an assignment, a path, a name with `_`,
 * a test's bracket, a variable, a pipe, `&&`, `;`, a redirection, a number.
 */
const SHELL_MARK = /\s-\w|["'=/_[\]$`|;&<>\d]/;
/** A command's name or path as a line's first word (`modprobe`, `/usr/local/bin/setup-nat`, `./helper.sh`). */
const COMMAND_NAME = /^(?:\.{0,2}\/[\w./+-]*|[a-z_][\w.+-]*)$/;
/** A variable as the first word (`$MODPROBE`, `"${SYSCTL}"`). */
const VARIABLE_WORD = /^"?\$\{?\w/;
/**
 * The words of a rule or of an iptables command (`-A INPUT`, `-j ACCEPT`, `--dport`, `-F`): a line holding them
 * may be a rule the paste mangled or a command whose tool was not read, never quiet shell.
 */
const RULE_WORDS =
  /(?:^|\s)(?:-[A-Z](?=\s|$)|-j[ \t]+[A-Z]|--(?:append|insert|delete|replace|flush|zero|policy|new-chain|delete-chain|rename-chain|jump|goto|dport|sport|dports|sports|to-destination|to-source|to-ports|ctstate|state|match-set|in-interface|out-interface)\b)/;

/**
 * Whether a line that is no iptables command reads as shell around the commands of a script (`set -e`, `fi`,
 * `IPT=/sbin/iptables`, `echo "..."`, `modprobe br_netfilter`). A line the parser takes for prose (`prose`) is shell
 * only by its first word or shell syntax (a doc's sentence stays prose); a line holding a rule's words never is.
 */
export function readsAsShell(content: string, prose: boolean): boolean {
  if (RULE_WORDS.test(content)) return false;
  if (SHELL_FORM.test(content)) return true;
  const first = /^[^\s;]*/.exec(content)![0];
  const named = SHELL_WORDS.has(first) || COMMAND_NAME.test(first);
  // A sentence may start with such a word (`then save them with ...`): prose is shell only with a mark of it, or
  // when it prints (`echo Flushing rules`).
  if (prose) return (named && SHELL_MARK.test(content)) || first === 'echo' || first === 'printf';
  return named || VARIABLE_WORD.test(first) || CASE_PATTERN.test(content) || first === ''; // `;;`
}
