/**
 * The kube-proxy view of a dump: which Services and endpoints the rules implement, each chain's role, the
 * probability ladder's effective shares, the masquerade mark, and hints about the kube-proxy version.
 * Derived from chain names, comments and DNAT targets; chain hashes are recomputed to verify comments.
 */
import { grownColumn } from '../common/columns';
import { isDigitCode } from '../common/chars';
import { joinHostPort, parseIp } from '../common/ip';
import { sortByName } from '../common/textOrder';
import { readNftablesModeView } from '../nft/kubeView';
import type { KubeEndpoint, KubeProxyView, KubeService, TrafficPolicy, VersionHint } from './kubeServices';
import { parseServiceComment, type ServiceComment } from './kubeServices';
import type { IptablesModel } from './modelApi';
import { DumpNames, NameKeyedMap } from './nameIdTable';
import { kubeChainKind, verifyEndpointChain, verifyNamedServiceChains, type KubeChainKind } from './chainHashes';
import { optionValue, ruleHasModule, ruleTargetName, type Chain, type Rule } from './dump';
import { modelKubeFacts, type KubeFacts } from './kubeFacts';

export type { KubeEndpoint, KubeProxyView, KubeService, TrafficPolicy, VersionHint } from './kubeServices';
export { parseServiceComment } from './kubeServices';

function splitSpn(spn: string): { namespace: string; service: string; portName: string } {
  const slash = spn.indexOf('/');
  const rest = spn.slice(slash + 1);
  const colon = rest.indexOf(':');
  return {
    namespace: spn.slice(0, slash),
    service: colon >= 0 ? rest.slice(0, colon) : rest,
    portName: colon >= 0 ? rest.slice(colon + 1) : '',
  };
}

function stripHostPrefix(cidr: string | undefined): string | undefined {
  if (!cidr) return undefined;
  // endsWith, not a pattern: asked of every entry rule.
  return cidr.endsWith('/32') ? cidr.slice(0, -3) : cidr.endsWith('/128') ? cidr.slice(0, -4) : cidr;
}

function parseProbability(p: string | undefined): number | undefined {
  if (!p) return undefined;
  const v = Number(p);
  return Number.isFinite(v) ? v : undefined;
}

function probabilityOf(rule: Rule): number | undefined {
  return parseProbability(optionValue(rule, 'probability', 'statistic', true));
}

/** One rule of a service chain's probability ladder and its share of the chain's new connections. */
export interface LadderStep {
  rule: Rule;
  probability?: number;
  share: number;
}

/**
 * The probability ladder of a service chain (KUBE-SVC/SVL/XLB): its rules that jump to endpoint chains (not the
 * `recent` affinity checks), each taking p of what the rules before it left. `whole` is false when the rules show
 * that some are missing, as in a grep'd paste: the last one still has a statistic match, or the first has
 * kube-proxy's 1/m over a ladder of other than m rules.
 */
export function chainLadder(
  chain: Chain,
  probability: (rule: Rule) => number | undefined = probabilityOf,
): { steps: LadderStep[]; whole: boolean } {
  const rows = new LadderRows<Rule>();
  const rules = chain.rules;
  const whole = rows.read(rules.length, (i) => rules[i], probability, isLadderStep);
  const steps: LadderStep[] = [];
  for (let i = 0; i < rows.count; i++) {
    const p = rows.probabilities[i];
    // One shape for every step (a spread literal builds each one slowly); `probability` stays absent when unknown.
    const step: LadderStep = { rule: rows.rules[i], share: rows.shares[i] };
    if (!Number.isNaN(p)) step.probability = p;
    steps.push(step);
  }
  return { steps, whole };
}

/**
 * The steps of a ladder as rows (probability NaN when the rule has none). The view reads 10,000 ladders of a big
 * dump into one reused set of rows instead of building a step object per endpoint.
 */
class LadderRows<R> {
  readonly rules: R[] = [];
  readonly probabilities: number[] = [];
  readonly shares: number[] = [];
  count = 0;

  private remaining = 1;

  /** Reads the ladder of a chain's `count` rules (see chainLadder) whose steps are the rules `isStep` says; returns `whole`. */
  read(
    count: number,
    ruleAt: (i: number) => R,
    probability: (rule: R) => number | undefined,
    isStep: (rule: R) => boolean,
  ): boolean {
    this.begin();
    // Indexed loops: the view walks 100k+ rules, and a for-of allocates an iterator result per rule until optimized.
    for (let i = 0; i < count; i++) {
      const rule = ruleAt(i);
      if (isStep(rule)) this.add(rule, probability(rule));
    }
    return this.finish();
  }

  /** A ladder read rule by rule (`read` in steps): `begin`, `add` for each step in order, `finish`. */
  begin(): void {
    this.count = 0;
    this.remaining = 1;
  }

  add(rule: R, p: number | undefined): void {
    const share = this.remaining * (p === undefined ? 1 : Math.min(1, Math.max(0, p)));
    this.remaining -= share;
    const k = this.count++;
    this.rules[k] = rule;
    this.probabilities[k] = p ?? NaN;
    this.shares[k] = share;
  }

  /** `whole` (see chainLadder) of the steps added. */
  finish(): boolean {
    if (this.count === 0) return false;
    const lastP = this.probabilities[this.count - 1];
    const firstP = this.probabilities[0];
    const m = firstP ? 1 / firstP : undefined;
    const countFromFirst =
      m !== undefined && !Number.isNaN(m) && Math.abs(m - Math.round(m)) < 0.01 ? Math.round(m) : undefined;
    return Number.isNaN(lastP) && (countFromFirst === undefined || countFromFirst === this.count);
  }
}

/** A rule of a ladder: a jump to an endpoint chain that is not a `recent` affinity check. */
function isLadderStep(rule: Rule): boolean {
  const target = ruleTargetName(rule);
  return target !== undefined && kubeChainKind(target) === 'endpoint' && !ruleHasModule(rule, 'recent');
}

/** The kinds `kubeChainKind` answers, by code (0: not read yet). */
const KINDS: readonly KubeChainKind[] = [
  undefined,
  undefined,
  'service',
  'service-local',
  'external',
  'firewall',
  'external-local',
  'endpoint',
  'kube-fixed',
];

/** `kubeChainKind` by name id, each name read once: the view asks 200k+ times about 60k names of a big dump. */
class KindsById {
  private codes: Uint8Array;

  constructor(private readonly names: DumpNames) {
    this.codes = new Uint8Array(names.count);
  }

  /** The kind of the name with this id (undefined for -1, no name). */
  of(id: number): KubeChainKind {
    if (id < 0) return undefined;
    // Names added after the view began (rules outside the store) are read each time.
    if (id >= this.codes.length) return kubeChainKind(this.names.nameOf(id));
    const code = this.codes[id];
    if (code !== 0) return KINDS[code];
    const kind = kubeChainKind(this.names.nameOf(id));
    // A kind missing from KINDS is answered every time instead of cached as a wrong code.
    const found = KINDS.indexOf(kind, 1);
    if (found > 0) this.codes[id] = found;
    return kind;
  }
}

export function buildKubeView(model: IptablesModel): KubeProxyView {
  const { dump } = model;
  // kube-proxy's nftables mode keeps its Services in maps of an nft ruleset: read only where nft was pasted.
  return kubeViewOf(modelKubeFacts(model), dump.format === 'nft' ? readNftablesModeView(dump) : undefined);
}

/** The view of the rules `facts` answers for (and of an nft ruleset's Services, `nft`). */
export function kubeViewOf<R, C>(facts: KubeFacts<R, C>, nft?: ReturnType<typeof readNftablesModeView>): KubeProxyView {
  const names = facts.names;
  const kinds = new KindsById(names);
  const numbers = new EndpointNumbers();
  const members = new ServiceMembers(facts);
  // A Service's comment repeats on its rules: read each distinct one once (null: read, not a Service's).
  const comments: (ServiceComment | null | undefined)[] = new Array(names.count);
  const parseCommentId = (id: number): ServiceComment | undefined => {
    if (id < 0) return undefined;
    let parsed = comments[id];
    if (parsed === undefined) comments[id] = parsed = parseServiceComment(names.nameOf(id)) ?? null;
    return parsed ?? undefined;
  };
  const parseComment = (rule: R): ServiceComment | undefined => parseCommentId(facts.comment(rule));
  const services = new Map<string, ServiceRecord<C>>();
  const serviceByChain = new NameKeyedMap<KubeService, ServiceRecord<C>>(names);
  const endpointByChain = new NameKeyedMap<{ service: KubeService; endpoint: KubeEndpoint }, EndpointRecord>(
    names,
    (e) => e,
  );

  const serviceFor = (spn: string, chain?: string): ServiceRecord<C> => {
    const keyName = spn || `chain:${chain}`;
    let s = services.get(keyName);
    if (!s) services.set(keyName, (s = new ServiceRecord(spn, members)));
    return s;
  };
  const attachChain = (s: ServiceRecord<C>, chainId: number, kind: KubeChainKind) => {
    if (!kind || kind === 'endpoint' || kind === 'kube-fixed') return;
    const chain = names.nameOf(chainId);
    s.addChain(kind, chain);
    if (kind === 'service' || (kind === 'service-local' && !s.chain)) s.chain = chain;
    if (kind === 'service-local' || kind === 'external-local') s.trafficPolicy = 'Local';
    serviceByChain.setId(chainId, s);
  };

  // 1. Entry rules: KUBE-SERVICES (cluster/external/LB IPs), KUBE-NODEPORTS, filter "no endpoints" rules.
  const nodePortsId = names.id('KUBE-NODEPORTS');
  const servicesId = names.id('KUBE-SERVICES');
  const externalServicesId = names.id('KUBE-EXTERNAL-SERVICES');
  const markMasqId = names.id('KUBE-MARK-MASQ');
  const dnatId = names.id('DNAT');
  const recentId = names.id('recent');
  for (let i = 0, ruleCount = facts.ruleCount; i < ruleCount; i++) {
    const r = facts.rule(i);
    const chainId = facts.chainOf(r);
    const inNodePorts = chainId === nodePortsId;
    if (!inNodePorts && chainId !== servicesId && chainId !== externalServicesId) continue;
    const targetId = facts.target(r);
    if (targetId === markMasqId || targetId === nodePortsId) continue;
    // Each entry rule has a comment of its own: read as text, not added to the name table for the cache.
    const info = parseServiceComment(facts.commentText(r));
    const targetKind = kinds.of(targetId);
    const isServiceJump =
      targetKind === 'service' ||
      targetKind === 'service-local' ||
      targetKind === 'external' ||
      targetKind === 'firewall' ||
      targetKind === 'external-local';
    const kind = info?.kind;
    const isNoEndpoints = kind === 'has no endpoints' || kind === 'has no local endpoints';
    if (!isServiceJump && !isNoEndpoints) continue;
    const s = serviceFor(info?.spn ?? '', targetId < 0 ? '' : names.nameOf(targetId));
    s.addLine(facts.line(r));
    if (isServiceJump) attachChain(s, targetId, targetKind);
    if (s.protocol === undefined) {
      const proto = facts.protocol(r);
      if (proto) s.protocol = proto;
    }
    const dst = stripHostPrefix(facts.destination(r));
    if (inNodePorts || (!dst && facts.dstType(r) === 'LOCAL')) {
      const dport = facts.table(r) === 'nat' ? facts.dport(r) : undefined;
      if (dport) s.nodePort = Number(dport);
    } else if (kind === 'external IP') {
      if (dst && !s.externalIPs.includes(dst)) s.externalIPs.push(dst);
    } else if (kind === 'loadbalancer IP') {
      if (dst && !s.loadBalancerIPs.includes(dst)) s.loadBalancerIPs.push(dst);
    } else if (kind === 'has no local endpoints') {
      s.noLocalEndpoints = true;
      s.trafficPolicy = 'Local';
    } else if (dst && (kind === 'cluster IP' || kind === 'has no endpoints' || !kind)) {
      if (kind === 'has no endpoints') s.noEndpoints = true;
      s.clusterIP ??= dst;
      if (s.port === undefined) {
        const dport = facts.dport(r);
        if (dport) s.port = Number(dport);
      }
    }
  }

  // Every chain's kube-proxy role, read once: the passes below go by it.
  const kindOfChain = (chain: C): KubeChainKind => kinds.of(facts.chainNameId(chain));
  const { chains: kubeChains, kinds: kubeKinds } = kubeChainsOf(facts, kindOfChain);
  const spnOfRules = (chain: C): string => {
    for (let i = 0, n = facts.chainRuleCount(chain); i < n; i++) {
      const spn = parseComment(facts.chainRule(chain, i))?.spn;
      if (spn) return spn;
    }
    return '';
  };

  // 2. Service chains: the probability ladder to endpoint chains, session affinity.
  /** Endpoints read from ladders: a ladder comment's `-> ip:port` gives the address when no DNAT tells. */
  const laddered: EndpointRecord[] = [];
  const ladder = new LadderRows<R>();
  const probability = (rule: R) => parseProbability(facts.probabilityText(rule));
  const isStep = (rule: R) => kinds.of(facts.target(rule)) === 'endpoint' && !facts.hasModule(rule, recentId, 'recent');
  /** The endpoints one ladder adds to its Service's list (added at once: one array of the right size). */
  const listedNow: EndpointRecord[] = [];
  for (let i = 0; i < kubeChains.length; i++) {
    const kind = kubeKinds[i];
    if (kind !== 'service' && kind !== 'service-local') continue;
    const chain = kubeChains[i];
    const chainId = facts.chainNameId(chain);
    let svc = serviceByChain.getId(chainId);
    if (!svc) {
      svc = serviceFor(spnOfRules(chain), facts.chainName(chain));
      attachChain(svc, chainId, kind);
    }
    svc.addChainLines(chain);
    const ruleCount = facts.chainRuleCount(chain);
    // The ladder is read in the same pass over the rules: the index reads a rule's line once for both.
    ladder.begin();
    for (let k = 0; k < ruleCount; k++) {
      const r = facts.chainRule(chain, k);
      if (facts.hasModule(r, recentId, 'recent')) {
        const secs = facts.recentSeconds(r);
        if (secs) svc.sessionAffinitySeconds = Number(secs);
      }
      if (!svc.protocol) svc.protocol = facts.protocol(r);
      if (!svc.clusterIP && facts.target(r) === markMasqId) {
        const dst = stripHostPrefix(facts.destination(r));
        if (dst) svc.clusterIP = dst;
        const dport = facts.dport(r);
        if (dport && !svc.port) svc.port = Number(dport);
      }
      if (isStep(r)) ladder.add(r, probability(r));
    }
    const whole = ladder.finish();
    if (ladder.count === 0) continue;
    // Only the service chain's endpoints are the Service's list; SVL repeats the local ones.
    const listsEndpoints = kind === 'service' || !svc.chains.some((c) => c.kind === 'service');
    let listedCount = 0;
    // A long ladder (a Service of thousands of endpoints) looks its chains up in a set: scanning the ones listed so
    // far at each step was quadratic (80,000 endpoints: 47 s).
    const listedChains =
      listsEndpoints && ladder.count > LONG_LADDER ? new Set(svc.endpoints.map((e) => e.chain)) : undefined;
    for (let k = 0; k < ladder.count; k++) {
      const r = ladder.rules[k];
      const p = ladder.probabilities[k];
      const sepId = facts.target(r);
      const sep = names.nameOf(sepId);
      const endpoint = new EndpointRecord(
        numbers,
        svc,
        sep,
        whole ? ladder.shares[k] : undefined,
        facts.line(r),
        Number.isNaN(p) ? undefined : p,
      );
      laddered.push(endpoint);
      const listed =
        listsEndpoints &&
        (listedChains
          ? !listedChains.has(sep)
          : !listsChain(svc.endpoints, svc.endpoints.length, sep) && !listsChain(listedNow, listedCount, sep));
      if (listed) {
        listedNow[listedCount++] = endpoint.listed();
        listedChains?.add(sep);
      }
      // The Service's own list wins over an SVL chain's copy read earlier: the DNAT address goes to it.
      const known = endpointByChain.getId(sepId);
      if (!known || (listed && !known.isListed)) endpointByChain.setId(sepId, endpoint);
    }
    if (listedCount > 0) svc.addEndpoints(listedNow, listedCount);
  }
  listedNow.length = 0;
  ladder.rules.length = 0;

  // 3. Endpoint chains: DNAT targets give the address; also endpoint chains no service chain reached.
  const withoutAddress: EndpointRecord[] = [];
  const withoutAddressChains: C[] = [];
  for (let i = 0; i < kubeChains.length; i++) {
    if (kubeKinds[i] !== 'endpoint') continue;
    const chain = kubeChains[i];
    const chainId = facts.chainNameId(chain);
    let endpoint = endpointByChain.getId(chainId);
    if (!endpoint) {
      const spn = spnOfRules(chain);
      if (!spn) continue;
      const s = serviceFor(spn);
      endpoint = new EndpointRecord(numbers, s, facts.chainName(chain), undefined);
      s.addEndpoint(endpoint.listed());
      // The ladder rule that picks this endpoint is not in the paste: the shares of the rest are not known either.
      for (const e of s.endpoints) e.share = undefined;
      endpointByChain.setId(chainId, endpoint);
    }
    const service = endpoint.service as ServiceRecord<C>;
    service.addChainLines(chain);
    for (let k = 0, n = facts.chainRuleCount(chain); k < n; k++) {
      const r = facts.chainRule(chain, k);
      if (facts.target(r) !== dnatId) continue;
      const to = facts.toDestination(r);
      if (to) setEndpointAddress(endpoint, to);
      endpoint.dnatLine = facts.line(r);
      if (!service.protocol) service.protocol = facts.protocol(r);
    }
    if (!endpoint.ip) {
      withoutAddress.push(endpoint);
      withoutAddressChains.push(chain);
    }
  }
  // The ladder comment's `-> ip:port` fills what no DNAT said (a paste without the endpoint chains).
  for (let k = 0; k < laddered.length; k++) {
    const endpoint = laddered[k];
    if (endpoint.ip && endpoint.port !== undefined) continue;
    const rule = facts.ruleAtLine(endpoint.ruleLine!);
    const commentId = rule === undefined ? -1 : facts.comment(rule);
    const arrow =
      commentId >= 0 && names.nameOf(commentId).includes('->') ? parseCommentId(commentId)?.endpoint : undefined;
    if (!arrow) continue;
    const fromArrow: { ip: string; port?: number } = { ip: '' };
    setEndpointAddress(fromArrow, arrow);
    if (!endpoint.ip) endpoint.ip = fromArrow.ip;
    if (endpoint.port === undefined && fromArrow.port !== undefined) endpoint.port = fromArrow.port;
  }
  // An endpoint chain whose DNAT the paste cut: its hairpin rule `-s IP/32 -j KUBE-MARK-MASQ` still gives the
  // address (the port stays unknown).
  for (let k = 0; k < withoutAddress.length; k++)
    if (!withoutAddress[k].ip) withoutAddress[k].ip = hairpinAddress(facts, withoutAddressChains[k], markMasqId) ?? '';

  // 4. Services are complete: their chain hashes are verified when first read, as endpoints' are.
  for (const s of services.values()) {
    if (!s.trafficPolicy && s.chains.length) s.trafficPolicy = 'Cluster';
    s.compact();
  }

  // 5. Marks; version hints when first read (only the outline's hovers and lint show them), unless the mode needs
  // them now: IPVS-mode chains tell a dump without Services.
  let masqueradeMark: string | undefined;
  let dropMark: string | undefined;
  readMarks(facts, (chain, mark) => {
    if (chain === 'KUBE-MARK-MASQ') masqueradeMark = mark;
    else dropMark = mark;
  });
  const anyService = services.size > 0 || kubeKinds.includes('service');
  const readHints = () => versionHints(facts, kindOfChain, endpointByChain);
  let hints = anyService ? undefined : readHints();

  const nftServices = nft?.services.length ? nft : undefined;
  const list: KubeService[] = sortByName([...services.values(), ...(nftServices?.services ?? [])], serviceSortName);
  const mode =
    hints?.some((h) => h.code === 'ipvs-mode') && !anyService
      ? 'ipvs'
      : anyService
        ? 'iptables'
        : nftServices
          ? 'nftables'
          : 'none';
  return {
    mode,
    services: list,
    serviceByChain: nftServices ? new Map([...serviceByChain, ...nftServices.serviceByChain]) : serviceByChain,
    endpointByChain: nftServices ? new Map([...endpointByChain, ...nftServices.endpointByChain]) : endpointByChain,
    ...(masqueradeMark ? { masqueradeMark } : {}),
    ...(dropMark ? { dropMark } : {}),
    get versionHints(): VersionHint[] {
      return (hints ??= readHints());
    },
  };
}

/** A Service's place in the view's list: its name, else its chain's. */
function serviceSortName(s: KubeService): string {
  return s.name || s.chain || '';
}

/** The chains of the dump kube-proxy names, with their kinds, in table and declaration order. */
function kubeChainsOf<R, C>(
  facts: KubeFacts<R, C>,
  kindOf: (chain: C) => KubeChainKind,
): { chains: C[]; kinds: KubeChainKind[] } {
  const chains: C[] = [];
  const kinds: KubeChainKind[] = [];
  facts.forEachChain((chain) => {
    const kind = kindOf(chain);
    if (!kind) return;
    chains.push(chain);
    kinds.push(kind);
  });
  return { chains, kinds };
}

/** Each MARK rule of KUBE-MARK-MASQ and KUBE-MARK-DROP: the mark it sets (without a mask) and how. */
function readMarks<R, C>(
  facts: KubeFacts<R, C>,
  visit: (chain: 'KUBE-MARK-MASQ' | 'KUBE-MARK-DROP', mark: string, option: string, line: number) => void,
): void {
  for (const name of ['KUBE-MARK-MASQ', 'KUBE-MARK-DROP'] as const) {
    for (const c of facts.chainsNamed(name)) {
      for (let i = 0, n = facts.chainRuleCount(c); i < n; i++) {
        const r = facts.chainRule(c, i);
        const o = facts.markOption(r);
        const v = o?.value?.split('/')[0];
        if (!v) continue;
        visit(name, v, o!.name, facts.line(r));
      }
    }
  }
}

/** What tells the kube-proxy version (or mode) that wrote the dump, each kind once, at its first line. */
function versionHints<R, C>(
  facts: KubeFacts<R, C>,
  kindOf: (chain: C) => KubeChainKind,
  endpointByChain: ReadonlyMap<string, unknown>,
): VersionHint[] {
  const names = facts.names;
  const hints: VersionHint[] = [];
  const hinted = new Set<string>();
  const hint = (code: string, line: number) => {
    if (hinted.has(code)) return;
    hinted.add(code);
    hints.push({ code, line });
  };
  readMarks(facts, (chain, mark, option, line) => {
    if (chain === 'KUBE-MARK-DROP') hint('mark-drop', line);
    if (option === 'or-mark') hint('or-mark', line);
    if (/^0x4d415351$/i.test(mark)) hint('masq-ascii-mark', line);
  });
  let sepWithoutComments = false;
  const { chains, kinds } = kubeChainsOf(facts, kindOf);
  const withoutComments = (c: C): boolean => {
    for (let i = 0, n = facts.chainRuleCount(c); i < n; i++)
      if (facts.commentText(facts.chainRule(c, i)) !== undefined) return false;
    return true;
  };
  for (let i = 0; i < chains.length; i++) {
    const c = chains[i];
    const kind = kinds[i];
    const name = facts.chainName(c);
    if (kind === 'endpoint') {
      // Large clusters' kube-proxy leaves comments out: an endpoint chain of the view with none on its rules.
      if (!sepWithoutComments && facts.chainRuleCount(c) > 0 && withoutComments(c) && endpointByChain.has(name))
        sepWithoutComments = true;
      continue;
    }
    if (kind === 'service') continue;
    const line = facts.chainLine(c);
    if (kind === 'external-local') hint('xlb-chains', line);
    else if (kind === 'external' || kind === 'service-local') hint('ext-chains', line);
    else if (name === 'KUBE-PROXY-FIREWALL') hint('proxy-firewall', line);
    else if (name === 'KUBE-MARK-DROP' && facts.chainRuleCount(c) === 0) hint('mark-drop', line);
    else if (/^KUBE-(?:NODE-PORT|LOAD-BALANCER|LOOP-BACK|CLUSTER-IP)$/.test(name)) hint('ipvs-mode', line);
  }
  const statisticId = names.id('statistic');
  const setModuleId = names.id('set');
  // Ladders repeat a handful of probabilities: each distinct text is read once.
  const eraByText = new Map<string, ReturnType<typeof probabilityEra> | null>();
  for (let k = 0, ruleCount = facts.ruleCount; k < ruleCount; k++) {
    const r = facts.rule(k);
    if (facts.hasModule(r, statisticId, 'statistic')) {
      const text = facts.probabilityText(r);
      let era = text === undefined ? undefined : eraByText.get(text);
      if (text !== undefined && era === undefined) {
        const p = parseProbability(text);
        eraByText.set(text, (era = (p === undefined ? undefined : probabilityEra(p)) ?? null));
      }
      if (era) hint(era, facts.line(r));
    }
    if (facts.hasModule(r, setModuleId, 'set') && facts.matchesKubeSet(r)) hint('ipvs-mode', facts.line(r));
  }
  if (sepWithoutComments) hint('comments-elided', 0);
  return hints;
}

/**
 * The entry rule lines and member chains of every Service of a view, as lists threaded through shared columns:
 * a 10k-Service dump would otherwise keep 20,000 small arrays (each pushed-to one with room for 17) only for the
 * `lines` that the outline and the tracer ask of a few.
 */
class ServiceMembers<C> {
  private entryLines: Int32Array = new Int32Array(1024);
  private nextEntry: Int32Array = new Int32Array(1024);
  private entryCount = 0;
  private readonly chains: C[] = [];
  private nextChain: Int32Array = new Int32Array(1024);

  constructor(private readonly facts: KubeFacts<unknown, C>) {}

  /** Adds an entry line in front of the list whose first item is `first`; returns the new first. */
  addLine(first: number, line: number): number {
    const k = this.entryCount++;
    if (k === this.entryLines.length) {
      this.entryLines = grownColumn(this.entryLines, k * 2);
      this.nextEntry = grownColumn(this.nextEntry, k * 2);
    }
    this.entryLines[k] = line;
    this.nextEntry[k] = first;
    return k;
  }

  /** Adds a chain in front of the list whose first item is `first`; returns the new first. */
  addChain(first: number, chain: C): number {
    const k = this.chains.push(chain) - 1;
    if (k === this.nextChain.length) this.nextChain = grownColumn(this.nextChain, k * 2);
    this.nextChain[k] = first;
    return k;
  }

  /** Every line of the two lists: the entry lines and the lines of each chain's rules. */
  lines(firstEntry: number, firstChain: number): number[] {
    const all: number[] = [];
    const facts = this.facts;
    for (let k = firstEntry; k >= 0; k = this.nextEntry[k]) all.push(this.entryLines[k]);
    for (let k = firstChain; k >= 0; k = this.nextChain[k]) {
      const chain = this.chains[k];
      for (let i = 0, n = facts.chainRuleCount(chain); i < n; i++) all.push(facts.line(facts.chainRule(chain, i)));
    }
    return all;
  }
}

/**
 * A Service port of the view. Its `lines` (every rule line that belongs to it: entry rules and its chains' rules)
 * are gathered when first read: a 10k-Service dump has 170k of them, and only the outline and the tracer ask.
 */
class ServiceRecord<C> implements KubeService {
  namespace?: string;
  service?: string;
  portName?: string;
  protocol?: string;
  clusterIP?: string;
  port?: number;
  nodePort?: number;
  externalIPs: string[] = [];
  loadBalancerIPs: string[] = [];
  trafficPolicy?: TrafficPolicy;
  sessionAffinitySeconds?: number;
  chain?: string;
  chains: { kind: string; name: string }[] = [];
  /** The names in `chains`, once it is long (see addChain). */
  private chainNames: Set<string> | undefined;
  endpoints: KubeEndpoint[] = [];
  noEndpoints = false;
  noLocalEndpoints = false;
  /** First items of this Service's lists in `members` (-1: none). */
  private firstEntry = -1;
  private firstChain = -1;
  /** `endpoints` was pushed to (it has room to give back). */
  private endpointsGrown = false;
  private gathered: number[] | undefined = undefined;
  /** `hashVerified` once computed (undefined: not yet). */
  private verified: boolean | null | undefined = undefined;

  constructor(
    readonly name: string,
    private readonly members: ServiceMembers<C>,
  ) {
    if (name) {
      const { namespace, service, portName } = splitSpn(name);
      this.namespace = namespace;
      this.service = service;
      this.portName = portName;
    }
  }

  addLine(line: number): void {
    this.firstEntry = this.members.addLine(this.firstEntry, line);
    this.gathered = undefined;
  }

  /** Every rule of `chain` belongs to this Service. */
  addChainLines(chain: C): void {
    this.firstChain = this.members.addChain(this.firstChain, chain);
    this.gathered = undefined;
  }

  /**
   * A chain of this Service (once per name), in a list of its exact size while short; past LONG_LADDER chains
   * (thousands of chains with one Service's comment) the names are kept in a set and the list grows in place:
   * scanning and copying it per chain was quadratic (40,000 chains: 10 s).
   */
  addChain(kind: string, name: string): void {
    const chains = this.chains;
    if (this.chainNames) {
      if (this.chainNames.has(name)) return;
      this.chainNames.add(name);
      chains.push({ kind, name });
      return;
    }
    for (let i = 0; i < chains.length; i++) if (chains[i].name === name) return;
    // concat, not a spread: a spread walks the iterator protocol, slow in code not optimized yet.
    this.chains = chains.length === 0 ? [{ kind, name }] : chains.concat([{ kind, name }]);
    if (this.chains.length > LONG_LADDER) this.chainNames = new Set(this.chains.map((c) => c.name));
  }

  /** The first `count` of `endpoints`, after the ones listed before. */
  addEndpoints(endpoints: readonly KubeEndpoint[], count: number): void {
    const added = endpoints.slice(0, count);
    this.endpoints = this.endpoints.length === 0 ? added : this.endpoints.concat(added);
  }

  addEndpoint(endpoint: KubeEndpoint): void {
    this.endpoints.push(endpoint);
    this.endpointsGrown = true;
  }

  /** Gives back the room a pushed-to array keeps for growth once the view is built (17 slots for a few). */
  compact(): void {
    if (this.endpointsGrown) this.endpoints = this.endpoints.slice();
    this.endpointsGrown = false;
  }

  /**
   * Whether the Service's chain names are the hashes of its name and protocol (null: nothing to hash). Computed
   * when first read: a 10k-Service dump has 10,000 of these hashes, and they matter where a Service is shown or
   * linted. The view is complete by then, so the answer does not change.
   */
  get hashVerified(): boolean | null {
    if (this.verified === undefined) {
      // `chains` holds no kube-fixed chain: attachChain keeps only a Service's own.
      this.verified =
        this.name && this.protocol && this.chains.length
          ? verifyNamedServiceChains(this.chains, this.name, this.protocol)
          : null;
    }
    return this.verified;
  }

  get lines(): number[] {
    if (!this.gathered) this.gathered = sortedUnique(this.members.lines(this.firstEntry, this.firstChain));
    return this.gathered;
  }

  toJSON(): KubeService {
    const {
      gathered: _g,
      firstEntry: _e,
      firstChain: _c,
      endpointsGrown: _n,
      members: _m,
      verified: _v,
      ...fields
    } = this;
    return { ...fields, hashVerified: this.hashVerified, lines: this.lines };
  }
}

/**
 * An endpoint of the view. `hashVerified` is computed when first read: a 10k-Service dump has 50k endpoint chains,
 * and their hashes matter only where an endpoint is shown.
 */
class EndpointRecord implements KubeEndpoint {
  ip = '';
  port: number | undefined = undefined;
  ruleLine: number | undefined;
  dnatLine: number | undefined = undefined;
  private state = 0;
  private readonly row: number;

  constructor(
    private readonly numbers: EndpointNumbers,
    readonly service: KubeService,
    readonly chain: string,
    share: number | undefined,
    ruleLine?: number,
    probability?: number,
  ) {
    this.ruleLine = ruleLine;
    this.row = numbers.addRow(share, probability);
  }

  /** The ladder's `--probability`; doubles live in the view's columns, not as a boxed number per field. */
  get probability(): number | undefined {
    return this.numbers.read(this.row * 2 + 1);
  }

  get share(): number | undefined {
    return this.numbers.read(this.row * 2);
  }

  set share(share: number | undefined) {
    this.numbers.values[this.row * 2] = share ?? NaN;
  }

  get hashVerified(): boolean | null {
    if (!(this.state & LISTED)) return null;
    if (!(this.state & VERIFIED)) {
      const result = verifyEndpoint(this.service, this);
      this.state |= VERIFIED | (result === null ? HASH_UNKNOWN : result ? HASH_OK : 0);
    }
    return this.state & HASH_UNKNOWN ? null : (this.state & HASH_OK) !== 0;
  }

  listed(): this {
    this.state |= LISTED;
    return this;
  }

  get isListed(): boolean {
    return (this.state & LISTED) !== 0;
  }

  /** An endpoint is its own `endpointByChain` entry (`{service, endpoint}`): 50,000 fewer objects in a big dump. */
  get endpoint(): KubeEndpoint {
    return this;
  }

  toJSON(): KubeEndpoint {
    const { ip, port, chain, probability, share, ruleLine, dnatLine, hashVerified } = this;
    return {
      ip,
      ...(port !== undefined ? { port } : {}),
      chain,
      ...(probability !== undefined ? { probability } : {}),
      ...(share !== undefined ? { share } : {}),
      ...(ruleLine !== undefined ? { ruleLine } : {}),
      ...(dnatLine !== undefined ? { dnatLine } : {}),
      hashVerified,
    };
  }
}

// EndpointRecord state bits. Only endpoints in their Service's list are verified (an SVL chain's unlisted copy
// says null); the hash is computed when first read.
const LISTED = 1;
const VERIFIED = 2;
const HASH_OK = 4;
const HASH_UNKNOWN = 8; // no address or protocol to hash

/** Share and probability of every endpoint of a view, by row (NaN: unknown). */
class EndpointNumbers {
  values = new Float64Array(2 * 1024);
  private rows = 0;

  addRow(share: number | undefined, probability: number | undefined): number {
    const k = this.rows++;
    if (2 * k + 2 > this.values.length) this.values = grownColumn(this.values, this.values.length * 2);
    this.values[2 * k] = share ?? NaN;
    this.values[2 * k + 1] = probability ?? NaN;
    return k;
  }

  read(at: number): number | undefined {
    const v = this.values[at];
    return Number.isNaN(v) ? undefined : v;
  }
}

/** The endpoint's own address in its chain's `-s IP/32 -j KUBE-MARK-MASQ` rule (`/128` for IPv6), if it has one. */
function hairpinAddress<R, C>(facts: KubeFacts<R, C>, chain: C, markMasqId: number): string | undefined {
  for (let k = 0, n = facts.chainRuleCount(chain); k < n; k++) {
    const r = facts.chainRule(chain, k);
    if (facts.target(r) !== markMasqId) continue;
    const m = /^([^/]+)\/(?:32|128)$/.exec(facts.source(r) ?? '');
    if (m && parseIp(m[1])) return m[1];
  }
  return undefined;
}

function verifyEndpoint(s: KubeService, e: KubeEndpoint): boolean | null {
  if (!s.name || !s.protocol || !e.ip || e.port === undefined) return null;
  // kube-proxy hashes IPv6 endpoints with brackets in newer releases, without in older ones.
  const forms = e.ip.includes(':') ? [joinHostPort(e.ip, e.port), `${e.ip}:${e.port}`] : [joinHostPort(e.ip, e.port)];
  return forms.some((ep) => verifyEndpointChain(e.chain, s.name, s.protocol!, ep));
}

/** Past this many steps a ladder's listed chains are kept in a set (below it a scan is cheaper than the set). */
const LONG_LADDER = 32;

/** Whether one of the first `count` endpoints of the list has this chain. */
function listsChain(endpoints: readonly KubeEndpoint[], count: number, chain: string): boolean {
  for (let i = 0; i < count; i++) if (endpoints[i].chain === chain) return true;
  return false;
}

/** Ascending line numbers without repeats (rules are mostly added in order). */
function sortedUnique(lines: number[]): number[] {
  let sorted = true;
  for (let i = 1; i < lines.length && sorted; i++) if (lines[i] < lines[i - 1]) sorted = false;
  if (!sorted) lines.sort((a, b) => a - b);
  const out: number[] = [];
  for (const l of lines) if (out.length === 0 || out[out.length - 1] !== l) out.push(l);
  return out;
}

function setEndpointAddress(e: { ip: string; port?: number }, text: string): void {
  if (setIpv4Endpoint(e, text)) return;
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:]+|[0-9a-fA-F:]+(?=:\d+$)|.+)(?::(\d+))?$/.exec(text);
  if (!m) return;
  // `ip:port`, `[v6]:port`, a bare ip, or a range `a-b:port` (first address kept).
  const v4 = /^(\d+\.\d+\.\d+\.\d+)(?:-[\d.]+)?(?::(\d+)(?:-\d+)?)?$/.exec(text);
  if (v4) {
    e.ip = v4[1];
    if (v4[2]) e.port = Number(v4[2]);
    return;
  }
  e.ip = m[1];
  if (m[2]) e.port = Number(m[2]);
}

/**
 * `a.b.c.d` or `a.b.c.d:port` read by characters into `e` (DNAT targets of every endpoint); false for other
 * shapes, which go to the patterns.
 */
function setIpv4Endpoint(e: { ip: string; port?: number }, text: string): boolean {
  let i = 0;
  for (let part = 0; part < 4; part++) {
    const start = i;
    while (i < text.length && isDigitCode(text.charCodeAt(i))) i++;
    if (i === start) return false;
    if (part < 3) {
      if (text.charCodeAt(i) !== 46) return false;
      i++;
    }
  }
  if (i === text.length) {
    e.ip = text;
    return true;
  }
  if (text.charCodeAt(i) !== 58) return false;
  const ipEnd = i++;
  let port = 0;
  const portStart = i;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isDigitCode(c)) return false;
    port = port * 10 + (c - 48);
  }
  if (i === portStart) return false;
  e.ip = text.slice(0, ipEnd);
  e.port = port;
  return true;
}

/**
 * kube-proxy before 1.17 wrote ladder probabilities with 5 decimals (1/3 -> 0.33333, shown by iptables-save as
 * 0.33332999982); later versions write 10 (0.3333333333). Values exact in both (1/2, 1/4) tell nothing.
 */
export function probabilityEra(p: number): 'five-decimal-probability' | 'ten-decimal-probability' | undefined {
  if (!(p > 0 && p < 1)) return undefined;
  const k = Math.round(1 / p);
  const exact = 1 / k;
  const five = Math.round(exact * 1e5) / 1e5;
  if (Math.abs(five - exact) < 1e-10) return undefined;
  if (Math.abs(p - exact) < 1e-9) return 'ten-decimal-probability';
  if (Math.abs(p - five) < 1e-9) return 'five-decimal-probability';
  return undefined;
}
