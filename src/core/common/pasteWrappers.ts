/**
 * What people wrap around an output when they paste it, unwrapped in the order the wrappers were put on: a quote
 * of a chat or a mail outermost, then a log collector's prefixes, then kube-proxy's own log of its iptables-restore
 * input. Every face (the detector, the engines) reads the same unwrapped text.
 */
import { readKubeProxyLog, type LoggedRestoreInput } from './kubeProxyLog';
import { blankLogPrefixes } from './logPrefix';
import { blankQuoteMarks, type BlankedQuoteMarks } from './quoteMarks';

export interface UnwrappedPaste {
  /** The text the engines read. */
  text: string;
  quote?: BlankedQuoteMarks;
  /** The first line with a log prefix and where the prefix is on it. */
  log?: { line: number; column: number; length: number };
  kubeProxy?: LoggedRestoreInput;
}

/** The paste unwrapped, or undefined when nothing was wrapped around it. */
export function unwrapPaste(text: string): UnwrappedPaste | undefined {
  const quote = blankQuoteMarks(text);
  const quoted = quote?.text ?? text;
  // A log quoted in a chat: its prefixes follow the blanked quote marks.
  const blanked = blankLogPrefixes(quoted, !!quote);
  const logged = blanked?.text ?? quoted;
  const kubeProxy = readKubeProxyLog(logged);
  if (!quote && !blanked && !kubeProxy) return undefined;
  const log = blanked && { line: blanked.firstLine, column: blanked.column, length: blanked.length };
  return {
    text: kubeProxy?.text ?? logged,
    ...(quote ? { quote } : {}),
    ...(log ? { log } : {}),
    ...(kubeProxy ? { kubeProxy } : {}),
  };
}
