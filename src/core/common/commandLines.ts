/**
 * Shell command lines in a paste, read the same way by every engine: a prompt and what was typed after it
 * (`$ sudo iptables-save`, `[root@node ~]# ipvsadm -Ln`, `node:~# ip route`, a prompt alone as `sh-4.4#`), a root
 * prompt shortened to `#` as docs print it, a Windows prompt (`PS C:\> kubectl exec ...`, `C:\Users\ops>kubectl ...`) (`# ip route`), and a command typed with no prompt at all
 * (`sudo -E iptables -t nat -S`, `host1 sudo ip r`). Which tools announce output is each engine's own list.
 * Only the words are read; nothing is ever run.
 */

export interface ShellCommand {
  /** What was typed (empty after a prompt alone). */
  command: string;
  /** Column of `command` in the content it was read from. */
  column: number;
}

/** A shell prompt ending in `#` or `$` followed by a command, e.g. `root@node:~# iptables-save`. */
const PROMPT = /^(?:\[[^\]]*\]|[\w.@:~/-]*[\w~\]/)])\s*[#$](?:\s+(?=\S)|$)/;
/** What makes the text before `#`/`$` a prompt rather than a word: user@host, [user@host dir], host:dir, a bare
 * path (`/ #` in busybox, `~ $`), or a shell's own (`sh-4.4#` in `oc debug node`, `bash-5.1#` in a container). */
const PROMPT_OWNER = /[@\]]|^[\w.-]+:|^[/~]|^[a-z]*sh-\d+(?:\.\d+)*\s*[#$]/;
/** A prompt with nothing after it, whose directory may hold any character: `root@node:~/a+b#`, `host:#`. */
const EMPTY_PROMPT = /^(?:\[[^\]]*\]|[\w.-]+@[\w.-]+(?::\S*)?|[\w.-]+:\S*|[a-z]*sh-\d+(?:\.\d+)*)\s*[#$]$/;
/**
 * A Windows prompt before a command (kubectl run from a workstation): PowerShell's `PS C:\Users\ops> ` (pwsh's
 * `PS /home/ops> `) and cmd's `C:\Users\ops>`, whose command follows the `>` without a blank.
 */
const WINDOWS_PROMPT = /^(?:PS (?:[A-Za-z]:\\|[/~])[^<>|\n]*|[A-Za-z]:\\[^<>|:*?"\n]*)>[ \t]*/;
/** A root prompt reduced to `#` (`# ip route`, `#ipvsadm -Ln`); only a known tool after it makes it one. */
const HASH_PROMPT = /^#\s*(\S.*)$/;
/** What may come before the tool on a line typed without a prompt: `sudo`, its options, a host (`host1 sudo ip r`). */
const SUDO_PREFIX = String.raw`(?:(?:[\w.-]+\s+)?sudo\s+(?:-\S+\s+)*)?`;

/** The command after a shell prompt (`user@host:~$ cmd`, `[root@h ~]# cmd`, `$ cmd`), '' after a prompt alone. */
export function promptCommand(content: string): string | undefined {
  return readPrompt(content)?.command;
}

/**
 * A shell prompt line and the command typed after it; undefined when the line starts with no prompt.
 * `content` is the line without indentation and trailing blanks.
 */
export function readPrompt(content: string): ShellCommand | undefined {
  if (content === '$' || EMPTY_PROMPT.test(content)) return { command: '', column: content.length };
  const windows = WINDOWS_PROMPT.exec(content);
  if (windows) return { command: content.slice(windows[0].length), column: windows[0].length };
  const dollar = /^[$]\s+(\S.*)$/.exec(content);
  const m = dollar ? undefined : PROMPT.exec(content);
  const command = dollar
    ? dollar[1]
    : m && PROMPT_OWNER.test(content.slice(0, m[0].length))
      ? content.slice(m[0].length).trim()
      : undefined;
  return command === undefined ? undefined : { command, column: content.length - command.length };
}

/** `# cmd` as docs print a root prompt: the command when the test accepts it (a `#` line is a comment otherwise). */
export function readHashPrompt(content: string, isCommand: (command: string) => boolean): ShellCommand | undefined {
  const hashed = HASH_PROMPT.exec(content);
  if (!hashed || !isCommand(hashed[1])) return undefined;
  return { command: hashed[1], column: content.length - hashed[1].length };
}

/**
 * A test for commands typed without a prompt that run one of `tools` (sources of regular expressions for one
 * word each, e.g. `ip6?tables\b\S*`), through `sudo` and its options.
 */
export function commandOfTools(tools: readonly string[]): (command: string) => boolean {
  const pattern = new RegExp(`^${SUDO_PREFIX}(?:${tools.join('|')})(?=\\s|$)`);
  return (command) => pattern.test(command);
}

/**
 * A command line as any engine reads it: after a prompt (any command), after a bare `#` or with no prompt (only
 * a command `isCommand` accepts, since such lines are otherwise comments and output).
 */
export function readShellCommand(content: string, isCommand: (command: string) => boolean): ShellCommand | undefined {
  return (
    readPrompt(content) ?? (isCommand(content) ? { command: content, column: 0 } : readHashPrompt(content, isCommand))
  );
}
