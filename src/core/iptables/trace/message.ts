/** Builds and renders the tracer's coded messages (catalog keys `trace.<code>` in `i18n/messages/trace.ts`). */
import { t, type Lang } from '../../i18n/catalog';
import type { TraceMessage } from './types';

export function msg(code: string, params: Record<string, string | number> = {}): TraceMessage {
  return { code, params };
}

/**
 * An undecided fact a path took a side on, as the condition its alternative holds under ("if 10.96.0.10 is an
 * address of this node"): `assume.X` becomes `if.X`.
 */
export function givenCode(message: TraceMessage): TraceMessage {
  return message.code.startsWith('assume.')
    ? { code: `if.${message.code.slice('assume.'.length)}`, params: message.params }
    : message;
}

export function renderTraceMessage(message: TraceMessage, lang: Lang): string {
  return t(lang, `trace.${message.code}`, message.params);
}

export function formatMark(mark: number): string {
  return `0x${(mark >>> 0).toString(16)}`;
}
