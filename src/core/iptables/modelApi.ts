/**
 * What a built model answers: the interface every face and the kube view read. model.ts builds it; kept apart so
 * the kube view (which the model includes) can read a model without the two modules importing each other.
 */
import type { KubeProxyView } from './kubeServices';
import type { NftElement } from '../nft/objects';
import type { Chain, IptablesDump, Rule, Token } from './dump';

export interface ChainRef {
  table: string;
  name: string;
}

export interface IptablesModel {
  dump: IptablesDump;
  /** Built when first read (a trace that reaches a DNAT never asks). */
  readonly kube: KubeProxyView;
  chain(table: string, name: string): Chain | undefined;
  /** Chains with this name in any table (nat and filter both have KUBE-SERVICES). */
  chainsNamed(name: string): Chain[];
  /** Rules whose target is this chain (jump or goto), or whose inline verdict map names it, in dump order. */
  references(table: string, name: string): Rule[];
  /** Elements of nft maps (`map service-ips { ... : goto CHAIN }`) that jump or go to this chain. */
  mapReferences(table: string, name: string): NftElement[];
  /** Rules that look up a named nft map (`vmap @service-ips`) whose elements go to this chain: its callers. */
  namedMapCallers(table: string, name: string): Rule[];
  /** Chains this chain's rules jump or go to. */
  callees(table: string, name: string): ChainRef[];
  ruleAtLine(line: number): Rule | undefined;
  tokensOnLine(line: number): readonly Token[];
  tokenAt(line: number, column: number): Token | undefined;
}
