/**
 * Prose people write around an output they paste (a ticket's sentences, a caption, Markdown), read the same way by
 * every engine: such a line is the paste's, not the tool's, and is noted quietly rather than warned about.
 */

/** A few words ending in a colon that introduce what follows (`iptables-save:`, `command:`, `On node-1:`). */
export const CAPTION = /^[A-Za-z][\w.'\u2019-]*(?:\s+[\w.'\u2019()/-]+){0,5}:$/;
/** Markdown around a dump: a bold label (`**Output:**`, `__Node A__`) or a list item of words (`* raw table`). */
const MARKDOWN_PROSE = /^(?:\*\*|__)[A-Za-z]|^[*\u2022]\s+[A-Za-z][\w'\u2019,]*\s+[A-Za-z]/;

const SENTENCE_START = /^[A-Za-z][\w'\u2019,]*\s+\S+\s+\S/;
/** A word or two asked or exclaimed (`Any idea?`, `Thanks!`): no tool's line ends so. */
const SHORT_QUESTION = /^[A-Za-z][\w'\u2019,]*(?:\s+[A-Za-z][\w'\u2019,]*)?[?!]+$/;
/**
 * A chat's line of who wrote and when, above each message copied (Teams: `[9:14 PM] Jane Doe`). Not iptables-save's
 * counters before a rule or a chain (`[1:60] -A X ...`, `[5:300] :X`): a name follows, not an option or a colon.
 */
const CHAT_HEADER = /^\[\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?\]\s+[^\s:-]/;
/**
 * tmux's status line, copied with a pane's scrollback: `[session] 0:bash* 1:vim-  "node-1" 21:03 07-Dec-26` (its
 * windows, then the pane's title, the time and the date as tmux shows them by default).
 */
const TMUX_STATUS = /^\[[^\]\s]+\]\s+\d+:\S+.*\s"[^"]*"\s+\d{1,2}:\d{2}\s+\d{1,2}-[A-Za-z]{3}-\d{2}$/;
/**
 * A YAML key and its one-word value or block scalar around an output kept in a manifest (`kind: ConfigMap`,
 * `rules.v4: |`). Not a host prefix before a dump's word (`node1: COMMIT`): a value of capitals alone is no key's.
 */
const YAML_KEY = /^[a-z][\w.-]*:\s+(?:[|>][-+]?\d?|(?=\S*[a-z\d])[\w./:@-]+)$/;
/** A mail's greeting or closing word on a line of its own (`Hi,`, `Thanks,`, `Best regards,`). */
const GREETING = /^[A-Z][a-z'\u2019]+(?:\s+[A-Za-z][a-z'\u2019]+)?,$/;
/** sudo's prompt for the password, left in a terminal's paste above the output. */
const SUDO_PROMPT = /^\[sudo\] password for \S+:$/;

/**
 * A program's own message around the output, its name and a colon before it: `sudo: unable to resolve host node-a:
 * Name or service not known` (a host whose name is not in /etc/hosts: above every command run with sudo), `bash:
 * ipvsadm: command not found`, kubectl's `error: ...`. Not the output's, whatever the engine. Two words after the colon at least (as below, the
 * start says it: the line has no trailing blanks).
 */
const PROGRAM_MESSAGE = /^[A-Za-z][\w.+-]*:\s+\S+\s+\S/;
/**
 * What after such a colon is the output's, not a message: a host prefix (pdsh, clush: `node1: -A KUBE-SERVICES ...`,
 * `node1: :KUBE-SVC-X - [0:0]`, `node1: TCP 10.96.0.1:443 rr`) puts a rule, a declaration or an address there.
 */
const OUTPUT_AFTER_NAME = /^[^:]*:\s+(?:[-:*[#]|(?:TCP|UDP|SCTP|FWM)\s+\S*(?:\d+\.\d+\.\d+\.\d+|[\da-f]*:[\da-f]*:))/i;

/**
 * A sentence of prose around a dump, also as a list item (`- The default rule is changed to ...`, `2. Then ...`),
 * a caption or Markdown. `content` is the line without indentation and trailing blanks.
 */
export function isProse(content: string): boolean {
  if (CAPTION.test(content) || MARKDOWN_PROSE.test(content) || SUDO_PROMPT.test(content)) return true;
  if (CHAT_HEADER.test(content) || GREETING.test(content) || TMUX_STATUS.test(content)) return true;
  if (YAML_KEY.test(content)) return true;
  if (PROGRAM_MESSAGE.test(content) && !OUTPUT_AFTER_NAME.test(content)) return true;
  const prose = content.replace(/^(?:[-*\u2022]|\d{1,2}[.)])\s+/, '');
  // A list item's caption (`1. iptables-save:`), a short question.
  if ((prose !== content && CAPTION.test(prose)) || SHORT_QUESTION.test(prose)) return true;
  // Three words or more: the line has no trailing blanks, so a third word's first character says it. (A group
  // repeated per word, `(?:\s+\S+){2,}$`, kept a backtrack entry per word: a flattened paste of 3M words overflowed.)
  return SENTENCE_START.test(prose) && !/\s-[jgAmsd]\s/.test(prose);
}
