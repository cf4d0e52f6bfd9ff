/** Where each node capture lands: one file name per capture check, named so the editor recognises the dump. */
import type { CheckResult } from '../core/diagnose/types';

const FILES: Record<string, string> = {
  'node-iptables': 'iptables-save-c.txt',
  'node-ipvs': 'ipvsadm-Ln-stats.ipvs',
  'node-nft': 'nft-list-ruleset.nft',
  'node-addresses': 'ip-o-addr.txt',
  'node-routes': 'ip-route.txt',
};

export interface CaptureFile {
  /** `<node>.<kind file name>`. */
  name: string;
  text: string;
  argv: string[];
  /** Whether this file is a rules dump (iptables, IPVS or nft), the one to open first. */
  rules: boolean;
}

/** The files of a capture: only commands that succeeded and printed something. */
export function captureFiles(node: string, results: readonly CheckResult[]): CaptureFile[] {
  const out: CaptureFile[] = [];
  for (const r of results) {
    const name = Object.prototype.hasOwnProperty.call(FILES, r.id) ? FILES[r.id] : undefined;
    if (!name || r.exitCode !== 0 || !r.stdout.trim()) continue;
    out.push({ name: `${node}.${name}`, text: r.stdout, argv: r.argv, rules: /^node-(iptables|ipvs|nft)$/.test(r.id) });
  }
  return out;
}
