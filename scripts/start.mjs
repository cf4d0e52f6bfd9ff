// `npm start`: the product on its bundled samples. Installs and builds what it needs, packages the VSIX
// (scripts/package.mjs), generates a node's kube-proxy rules from samples/cluster.json, then parses, lints, traces
// and explains them with the real CLI. As root, with the lab's tools present, it brings up the lab
// `seed-gateway-bypass` (its own state folder), runs `kpp diagnose svc/kubernetes -n default --from pod/client`
// against it, prints the verdict and takes the lab down. Ends with the command that installs the VSIX.
// KPP_START_NO_LAB=1 (or KPP_E2E_NO_LAB=1) leaves the lab out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
  });
  if (r.status !== 0 && !opts.allowFail) {
    console.error(`start: ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  return r;
};
const kpp = (...args) => {
  console.log(`\n$ kpp ${args.join(' ')}`);
  run(process.execPath, ['dist/cli.js', ...args], { allowFail: true });
};
const heading = (text) => console.log(`\n==== ${text} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

if (!existsSync(join(root, 'node_modules', 'esbuild')) || !existsSync(join(root, 'node_modules', '@vscode', 'vsce'))) {
  heading('installing the locked dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}
heading('building');
run(process.execPath, ['scripts/build.mjs']);
heading('packaging the VS Code extension');
run(process.execPath, ['scripts/package.mjs']);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = join(root, `${pkg.name}-${pkg.version}.vsix`);

heading('the CLI on the bundled samples');
const dir = mkdtempSync(join(tmpdir(), 'kpp-start-'));
const dump = join(dir, 'node-a.iptables');
const generated = run(
  process.execPath,
  ['dist/cli.js', 'generate', 'samples/cluster.json', '--cluster-cidr', '10.244.0.0/16'],
  { capture: true },
);
writeFileSync(dump, generated.stdout);
console.log(`\nGenerated ${dump}: the rules kube-proxy would write for samples/cluster.json`);

kpp('parse', dump);
kpp('lint', dump);
kpp('trace', dump, '--src', '10.244.1.5', '--dst', '172.16.0.1:443');
const lines = generated.stdout.split('\n');
const svcLine =
  lines.findIndex((l) => l.includes('default/kubernetes:https cluster IP') && l.startsWith('-A KUBE-SERVICES')) + 1;
kpp('explain', dump, '--line', String(svcLine), '--column', String(lines[svcLine - 1].indexOf('KUBE-SVC-') + 1));
kpp('explain', dump, '--line', String(svcLine), '--lang', 'zh-CN');
kpp('parse', 'samples/node-a.ipvs');
kpp('trace', 'samples/node-a.ipvs', '--src', '10.244.1.5', '--dst', '172.16.20.10:80');
// kube-proxy in nftables mode: Services read from the maps of `nft list ruleset`.
kpp('parse', 'samples/kube-proxy-nftables.nft');
kpp(
  'trace',
  'samples/kube-proxy-nftables.nft',
  '--src',
  '10.244.1.9',
  '--dst',
  '10.96.0.10:53',
  '--proto',
  'udp',
  '--in-iface',
  'cali0',
  '--local-ip',
  '192.168.0.11',
);
kpp('parse', 'samples/client-pod-routes.txt');
// The seed incident from the pod's side: where the kernel sends the kubernetes Service's ClusterIP.
kpp('explain', 'samples/client-pod-routes.txt', '--line', '5');

await seedLab();

heading('done');
console.log(`\nOpen ${dump} in VS Code with this extension for hovers, outline, code lenses and "Trace Packet...".`);
console.log(`\nInstall the extension into VS Code with:\n\n  code --install-extension ${vsix}\n`);

/** The seed incident for real: the lab's client pod cannot reach the kubernetes Service; kpp diagnose says why. */
async function seedLab() {
  const { labUnavailable, startLab } = await import('./e2e/codeserver.mjs');
  const why = process.env.KPP_START_NO_LAB === '1' ? 'KPP_START_NO_LAB=1' : labUnavailable();
  if (why) {
    console.log(`\n(lab: not started, ${why}: the lab needs root, iproute2 and iptables; see test/lab/README.md)`);
    return;
  }
  heading('the seed incident in the lab (seed-gateway-bypass)');
  const labDir = mkdtempSync(join(tmpdir(), 'kpp-start-lab-'));
  let lab;
  const cleanup = () => {
    if (lab) console.log(`lab: down (exit ${lab.stop()})`);
    lab = undefined;
    rmSync(labDir, { recursive: true, force: true });
  };
  const onSignal = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    lab = startLab(labDir);
    console.log(`lab: up (kubeconfig ${lab.kubeconfig})`);
    console.log('\n$ kpp diagnose svc/kubernetes -n default --from pod/client');
    const r = run(
      process.execPath,
      ['dist/cli.js', 'diagnose', 'svc/kubernetes', '-n', 'default', '--from', 'pod/client'],
      { capture: true, allowFail: true, env: { KUBECONFIG: lab.kubeconfig } },
    );
    const report = r.stdout ?? '';
    const reportFile = join(dir, 'diagnose-kubernetes.md');
    writeFileSync(reportFile, report);
    // The report's head: what was checked, the verdict and its one-paragraph reason.
    const head = report.split('\n## Evidence')[0].trim();
    console.log(head || '(no report)');
    const verdict = /## Verdict: .*\(`([\w-]+)`\)/.exec(report)?.[1] ?? 'none';
    console.log(`\nverdict: ${verdict} (kpp exit ${r.status ?? r.signal}; the whole report: ${reportFile})`);
  } catch (error) {
    console.log(`lab: ${error.message}`);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    cleanup();
  }
}
