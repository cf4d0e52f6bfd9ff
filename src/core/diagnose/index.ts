/** The pure half of the diagnosis: check plans, reading results, node counters, the verdict and its report. */
export * from './types';
export {
  toolProbeCheck,
  readTools,
  planChecks,
  connectOutcome,
  resolvedAddresses,
  hasConnectTool,
  emptyToolSet,
  safeIp,
  serviceDnsName,
  connectArgv,
  dnsArgv,
  toolOf,
  TOOL_NAMES,
  MAX_ENDPOINT_CHECKS,
  DEFAULT_CLUSTER_DOMAIN,
  BASH_CONNECT_SCRIPT,
  type ConnectOutcome,
} from './plan';
export { classifyCheck } from './classify';
export {
  nodeCaptureChecks,
  nodeRulesCheck,
  compareCounters,
  serviceClusterIPs,
  NODE_RULE_CHECK_IDS,
  type ProxyMode,
  type CounterChange,
} from './node';
export { nodeModeOf, ruleCounters, serviceEntryRules } from './nodeDumps';
export {
  decideVerdict,
  gatherFacts,
  classifyRoute,
  type DiagnoseFacts,
  type RouteClass,
  type NodeView,
  type CounterState,
  type TraceState,
} from './verdict';
export { reportMarkdown, shellQuote } from './report';
export {
  routeTo,
  podInterfaces,
  parseProcNetRoute,
  parseFibTrieLocal,
  parseNeighbours,
  parseResolvConf,
  type RouteFact,
  type PodInterface,
} from './podnet';
