/**
 * Packet tracer: follows one packet (the first of its connection) through an iptables dump in kernel order,
 * forking at `statistic` rules and at facts the dump cannot decide, and reports every path with its probability,
 * verdict, NAT and the steps (table, chain, line, rule) it took. Steps paths have in common are kept once
 * (`sharedSteps`, each path's `prefix` and `ownSteps`); limits on paths, evaluations, steps and time end a trace
 * early with `truncated` set.
 *
 * Messages: every note, assumption and warning is both rendered (in `options.lang`, default English) and kept as
 * `{code, params}` (`noteMessage`, `assumptionMessages`, `warningMessages`); `renderTraceMessage(m, lang)` renders
 * one again in another language. Codes are the catalog keys of `i18n/messages/trace.ts` without the `trace.` prefix.
 *
 * Implementation in `trace/`: packet state, conditions per match module, targets, per-dump index, engine, tree.
 */
export { tracePacket } from './engine';
export { formatTraceTree } from './format';
export { renderTraceMessage } from './message';
export { distinctSteps } from './steps';
export type {
  Packet,
  TraceAction,
  TraceHook,
  TraceMessage,
  TraceOptions,
  TracePath,
  TraceProto,
  TraceResult,
  TraceLimit,
  TraceRoute,
  TraceSharedStep,
  TraceStep,
  TraceTruncation,
  TraceVerdict,
} from './types';
