/** The IPVS engine: parse pasted ipvsadm output, explain it, lint it, resolve a virtual service, export JSON. */
export type * from './types';
export { parseIpvs, type ParseIpvsOptions } from './parse';
export { ipvsToJson, type IpvsJson, type IpvsJsonService, type IpvsJsonRealServer } from './json';
export { resolveVirtual, findVirtual, explainNoVirtual, type VirtualQuery, type VirtualResolution } from './resolve';
export { distribute, overloadOf, type Distribution, type ShareEntry } from './distribution';
export { ipvsTracePaths, type IpvsTracePath } from './tracePaths';
export { explainIpvsAt, explainIpvsLine, type IpvsExplanation } from './explain';
export { describeService, describeRealServer } from './describe';
export { lintIpvs } from './lint';
export { looksLikeIpvs } from './detect';
export {
  ipvsSemanticTokens,
  IPVS_SEMANTIC_TOKEN_TYPES,
  type IpvsSemanticToken,
  type IpvsSemanticType,
} from './semanticTokens';
export { serviceLabel, realServerLabel, serviceKey } from './identity';
export { KNOWN_SCHEDULERS, schedulerPolicy, type SchedulerPolicy } from './schedulers';
