// `npm start`: the product on its bundled samples. Installs and builds what it needs, generates a node's
// kube-proxy rules from samples/cluster.json, then parses, lints, traces and explains them with the real CLI.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit' });
  if (r.status !== 0 && !opts.allowFail) {
    console.error(`start: ${cmd} ${args.join(' ')} failed (exit ${r.status})`);
    process.exit(1);
  }
  return r;
};
const kpp = (...args) => {
  console.log(`\n$ kpp ${args.join(' ')}`);
  run(process.execPath, ['dist/cli.js', ...args], { allowFail: true });
};

if (!existsSync(join(root, 'node_modules', 'esbuild'))) run('npm', ['ci', '--no-audit', '--no-fund']);
run(process.execPath, ['scripts/build.mjs']);

const dir = mkdtempSync(join(tmpdir(), 'kpp-start-'));
const dump = join(dir, 'node-a.iptables');
const generated = run(process.execPath, ['dist/cli.js', 'generate', 'samples/cluster.json', '--cluster-cidr', '10.244.0.0/16'], { capture: true });
writeFileSync(dump, generated.stdout);
console.log(`\nGenerated ${dump}: the rules kube-proxy would write for samples/cluster.json`);

kpp('parse', dump);
kpp('lint', dump);
kpp('trace', dump, '--src', '10.244.1.5', '--dst', '172.16.0.1:443');
const lines = generated.stdout.split('\n');
const svcLine = lines.findIndex((l) => l.includes('default/kubernetes:https cluster IP') && l.startsWith('-A KUBE-SERVICES')) + 1;
kpp('explain', dump, '--line', String(svcLine), '--column', String(lines[svcLine - 1].indexOf('KUBE-SVC-') + 1));
kpp('explain', dump, '--line', String(svcLine), '--lang', 'zh-CN');
kpp('parse', 'samples/node-a.ipvs');
kpp('trace', 'samples/node-a.ipvs', '--src', '10.244.1.5', '--dst', '172.16.20.10:80');
// kube-proxy in nftables mode: Services read from the maps of `nft list ruleset`.
kpp('parse', 'samples/kube-proxy-nftables.nft');
kpp('trace', 'samples/kube-proxy-nftables.nft', '--src', '10.244.1.9', '--dst', '10.96.0.10:53', '--proto', 'udp', '--in-iface', 'cali0', '--local-ip', '192.168.0.11');
kpp('parse', 'samples/client-pod-routes.txt');
// The seed incident from the pod's side: where the kernel sends the kubernetes Service's ClusterIP.
kpp('explain', 'samples/client-pod-routes.txt', '--line', '5');
console.log(`\nOpen ${dump} in VS Code with this extension for hovers, outline, code lenses and "Trace Packet...".`);
