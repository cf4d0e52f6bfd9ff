/**
 * Shell command lines in a paste (`root@node:~# ip route`, `$ sudo conntrack -L | grep x`, a bare `ip addr show`)
 * and what output they announce. Only the words are read; nothing is ever run.
 */
import { commandOfTools, readShellCommand } from '../common/commandLines';
import { tableName } from './ipRoute';
import type { NetworkFormat } from './types';

export interface CommandInfo {
  /** The command text after the prompt. */
  command: string;
  /** Column of `command` in the content it was found in. */
  column: number;
  /** Output kind the command prints; undefined for commands that print nothing we read (`ip link add ...`). */
  format?: NetworkFormat;
  /** `table X` of `ip route show table X`. */
  table?: string;
  /** `-6` / `-4` given to `ip`. */
  family?: 4 | 6;
  /** The address of `ip route get ADDR`. */
  destination?: string;
}

/** Tools a command typed without a prompt may run: `ip addr show dev x`, `sudo ipset list`, `host1 sudo ip r`. */
const isNetworkCommand = commandOfTools([
  'ip',
  'route',
  'netstat',
  'conntrack',
  'ipset',
  'nsenter',
  'kubectl',
  'crictl',
  'docker',
]);

const CONNTRACK_STDERR = /^conntrack v\S+ \(conntrack-tools\)/;

const TOOLS = new Set(['ip', 'route', 'netstat', 'conntrack', 'ipset', 'cat']);

/**
 * Recognises a command line. Returns undefined for output lines.
 * `content` is the line without indentation and trailing blanks.
 */
export function readCommandLine(content: string): CommandInfo | undefined {
  // conntrack's own stderr line (`conntrack v1.4.4 (conntrack-tools): ...`) starts like a command but is output.
  if (CONNTRACK_STDERR.test(content)) return undefined;
  const line = readShellCommand(content, isNetworkCommand);
  return line && { ...line, ...describeCommand(line.command) };
}

/** Finds the tool that produced the output (looking through sudo, nsenter, `ip netns exec`, kubectl exec, ...). */
export function describeCommand(command: string): Omit<CommandInfo, 'command' | 'column'> {
  const producer = command.split(/\||;|&&/)[0];
  const words = producer
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    const tool = words[i].replace(/^.*\//, '');
    if (!TOOLS.has(tool)) continue;
    const args = words.slice(i + 1);
    if (tool === 'ip') {
      const netnsExec = ipNetnsExecLength(args);
      if (netnsExec > 0) {
        i += netnsExec;
        continue;
      }
      return describeIp(args);
    }
    if (tool === 'route') return isModifyingRoute(args) ? {} : { format: 'route-n' };
    if (tool === 'netstat') return args.some((a) => /^-\w*r/.test(a)) ? { format: 'route-n' } : {};
    if (tool === 'conntrack') return describeConntrack(args);
    if (tool === 'ipset')
      return /^(?:list|-L|-l|--list|save|-S|-s|--save)$/.test(args[0] ?? '') ? { format: 'ipset' } : {};
    if (tool === 'cat') return args.some((a) => a.includes('nf_conntrack')) ? { format: 'conntrack' } : {};
  }
  return {};
}

/** `ip netns exec NAME ...`: the number of words to skip so that scanning continues at the inner command. */
function ipNetnsExecLength(args: string[]): number {
  const objIndex = args.findIndex((a) => !a.startsWith('-'));
  if (objIndex < 0 || !'netns'.startsWith(args[objIndex]) || args[objIndex].length < 3) return 0;
  if (args[objIndex + 1] !== 'exec') return 0;
  return objIndex + 3;
}

/** iproute2 accepts any prefix of an object name; the first object in its table that matches wins. */
function ipObject(word: string): 'route' | 'rule' | 'address' | 'link' | 'other' {
  if (word === 'r' || (word.length >= 2 && 'route'.startsWith(word))) return 'route';
  if (word.length >= 2 && 'rule'.startsWith(word)) return 'rule';
  if (word === 'a' || (word.length >= 2 && 'address'.startsWith(word))) return 'address';
  if (word === 'l' || (word.length >= 2 && 'link'.startsWith(word))) return 'link';
  return 'other';
}

/** `ip` global options that take a value. */
const IP_OPTIONS_WITH_VALUE = new Set(['-n', '-netns', '--netns', '-f', '-family', '-b', '-batch', '-rc', '-rcvbuf']);

function describeIp(args: string[]): Omit<CommandInfo, 'command' | 'column'> {
  let family: 4 | 6 | undefined;
  let i = 0;
  for (; i < args.length && args[i].startsWith('-'); i++) {
    const opt = args[i];
    if (opt === '-6' || ((opt === '-f' || opt === '-family') && args[i + 1] === 'inet6')) family = 6;
    if (opt === '-4' || ((opt === '-f' || opt === '-family') && args[i + 1] === 'inet')) family = 4;
    if (IP_OPTIONS_WITH_VALUE.has(opt)) i++;
  }
  const object = ipObject(args[i] ?? '');
  const rest = args.slice(i + 1);
  const verb = rest[0] ?? '';
  const base = family ? { family } : {};
  if (object === 'route') {
    if (verb === 'get' || verb === 'g') {
      const target = rest.slice(1).find((w, k, all) => w !== 'to' && !/^-/.test(w) && all[k - 1] !== 'from');
      return { ...base, format: 'ip-route-get', ...(target ? { destination: target } : {}) };
    }
    if (/^(?:add|del|delete|change|chg|replace|append|prepend|flush|save|restore|test|help)$/.test(verb)) return base;
    const tableIndex = rest.indexOf('table');
    const named = tableIndex >= 0 ? rest[tableIndex + 1] : undefined;
    // `table all` (or 0) lists every table, and then each line names its own (main lines name none).
    const table = named === undefined || named === 'all' || named === '0' ? undefined : tableName(named);
    return { ...base, format: 'ip-route', ...(table ? { table } : {}) };
  }
  if (object === 'rule') {
    if (/^(?:add|del|delete|flush|save|restore|help)$/.test(verb)) return base;
    // Without -6, `ip rule` lists the IPv4 rules.
    return { ...base, family: family ?? 4, format: 'ip-rule' };
  }
  if (object === 'address' || object === 'link') {
    if (/^(?:add|del|delete|change|replace|set|flush|save|restore|help|afstats|xstats)$/.test(verb)) return base;
    return { ...base, format: 'ip-addr' };
  }
  return base;
}

function isModifyingRoute(args: string[]): boolean {
  return args.some((a) => a === 'add' || a === 'del' || a === 'flush');
}

function describeConntrack(args: string[]): Omit<CommandInfo, 'command' | 'column'> {
  const lists = args.some((a) => /^(?:-L|--dump|-E|--event|-G|--get)$/.test(a) || /^-[A-Za-z]*[LEG]/.test(a));
  return lists ? { format: 'conntrack' } : {};
}
