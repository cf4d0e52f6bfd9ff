/** `kpp generate CLUSTER.json [--cluster-cidr CIDR] [--masquerade-all]`: the iptables-restore text kube-proxy would write. */
import { parseCidr } from '../../core/common/ip';
import { generateIptablesRestore } from '../../core/iptables/generate';
import { parseClusterJson } from '../../core/kube/objects';
import { parseArgs, UsageError } from '../args';
import { readInput } from '../io';

export function runGenerate(argv: string[]): number {
  const args = parseArgs(argv, ['cluster-cidr', 'node-name', 'node-ip'], ['masquerade-all']);
  const text = readInput(args.positionals[0]);
  const clusterCidr = args.options.get('cluster-cidr');
  if (clusterCidr !== undefined && !parseCidr(clusterCidr))
    throw new UsageError(`--cluster-cidr: "${clusterCidr}" is not a CIDR`);
  const snapshot = parseClusterJson(text);
  const fatal = snapshot.issues.find((i) => i.code === 'invalid-json');
  if (fatal)
    throw new UsageError(
      `${args.positionals[0]} is not Kubernetes JSON (kubectl get svc,endpoints -A -o json): ${fatal.message}`,
    );
  const nodeIP = args.options.get('node-ip');
  const result = generateIptablesRestore(snapshot, {
    ...(clusterCidr ? { clusterCidr } : {}),
    masqueradeAll: args.flags.has('masquerade-all'),
    ...(args.options.has('node-name') ? { nodeName: args.options.get('node-name') } : {}),
    ...(nodeIP ? { nodeIPs: nodeIP.split(',') } : {}),
  });
  process.stdout.write(result.text);
  for (const w of [...snapshot.warnings, ...result.warnings]) process.stderr.write(`kpp generate: warning: ${w}\n`);
  return 0;
}
