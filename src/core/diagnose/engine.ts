/**
 * What the cluster flows ask of the dump engine: whether a check went well (route checks read `ip route get`),
 * kube-proxy's mode and rule counters in node dumps, and the verdict. The entry of dist/dump-engine.js, the bundle
 * the extension loads only when a Diagnose or a capture runs (src/cluster/dumpEngine.ts), so that its own bundle
 * carries no parser.
 */
export { classifyCheck } from './classify';
export { nodeModeOf, ruleCounters } from './nodeDumps';
export { decideVerdict } from './verdict';
