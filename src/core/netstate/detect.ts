/** Tells which network output a text mostly is, for the engine's format detector. */
import { countFormats, parseNetworkDetails } from './parse';
import type { NetworkFormat } from './types';

export interface NetworkFormatDetection {
  /** The kind most lines are; undefined when too few lines are network output at all. */
  format?: NetworkFormat;
  /** Share of the text's output lines (not blank, prompt, elision or comment lines) that are of `format`, 0..1. */
  confidence: number;
  /** Lines read as each kind. */
  counts: Record<NetworkFormat, number>;
  /** Share of the output lines that are network output of any kind, 0..1 (a session of `ip route` and `ip rule`). */
  share: number;
}

/** Below this share of readable lines the text is not called network output. */
const MIN_CONFIDENCE = 0.3;

const NOT_OUTPUT = new Set(['blank', 'command', 'elision', 'comment']);

export function detectNetworkFormat(text: string): NetworkFormatDetection {
  const { state, lineKinds } = parseNetworkDetails(text);
  const counts = countFormats(lineKinds);
  const outputLines = lineKinds.filter((k) => k === undefined || !NOT_OUTPUT.has(k)).length;
  const best = state.formats[0];
  const confidence = best && outputLines > 0 ? counts[best] / outputLines : 0;
  const read = Object.values(counts).reduce((a, b) => a + b, 0);
  const share = outputLines > 0 ? Math.min(1, read / outputLines) : 0;
  return { ...(best && confidence >= MIN_CONFIDENCE ? { format: best } : {}), confidence, counts, share };
}
