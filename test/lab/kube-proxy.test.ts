// kube-proxy pods: one hostNetwork pod per node in kube-system, listed by the API like kubeadm's DaemonSet pods,
// whose exec runs in the node's namespace with a kube-proxy image's tools (iptables-save, iptables, nft, ip). And
// the read-only kubeconfig user, seen on a real lab. Needs root, `ip` and kubectl; skips with the reason otherwise.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { removeLabNamespaces, removeStaleLabs } from './dataplane/cleanup';
import { startLab, type Lab } from './dataplane/lab';
import { kubeProxyPodName } from './dataplane/plan';
import { kubectl, labSkipReason, serviceRulePackets } from './dataplane/probe';
import { listNetns } from './dataplane/sys';
import { loadScenario } from './scenario';

const skipReason = labSkipReason();
const OUR_PREFIX = `kpp-p${process.pid}r`;

if (skipReason) {
  test('kube-proxy pods', { skip: `lab tests skipped: ${skipReason}` }, () => undefined);
} else {
  describe('kube-proxy pods (healthy)', () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-kubectl-'));
    let lab: Lab | undefined;
    const k = (...args: string[]) => kubectl(lab!.kubeconfig, ['--cache-dir', cacheDir, ...args]);
    const names = { a: kubeProxyPodName('node-a'), b: kubeProxyPodName('node-b') };

    before(async () => {
      removeStaleLabs();
      lab = await startLab(loadScenario('healthy'));
    });
    after(async () => {
      await lab?.stop();
      removeLabNamespaces(listNetns().filter((n) => n.startsWith(OUR_PREFIX)));
      fs.rmSync(cacheDir, { recursive: true, force: true });
    });

    it('kubectl lists one per node, on the node IP, by the k8s-app=kube-proxy label', async () => {
      const r = await k('get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-proxy', '-o', 'wide');
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(`^${names.a}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+192\\.168\\.10\\.11\\s+node-a\\s`, 'm'),
      );
      assert.match(
        r.stdout,
        new RegExp(`^${names.b}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+192\\.168\\.10\\.12\\s+node-b\\s`, 'm'),
      );
      assert.equal(r.stdout.trim().split('\n').length, 3, r.stdout);
      assert.match(names.a, /^kube-proxy-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      const spec = await k('get', 'pod', '-n', 'kube-system', names.a, '-o', 'json');
      const pod = JSON.parse(spec.stdout) as {
        spec: { hostNetwork: boolean; nodeName: string; containers: { name: string; image: string }[] };
        metadata: { ownerReferences: { kind: string; name: string }[] };
      };
      assert.equal(pod.spec.hostNetwork, true);
      assert.equal(pod.spec.nodeName, 'node-a');
      assert.equal(pod.spec.containers[0].name, 'kube-proxy');
      assert.match(pod.spec.containers[0].image, /^registry\.k8s\.io\/kube-proxy:v1\./);
      assert.deepEqual(
        pod.metadata.ownerReferences.map((o) => `${o.kind}/${o.name}`),
        ['DaemonSet/kube-proxy'],
      );
    });

    it("exec iptables-save -c prints the node's own rules, with counters that move", async () => {
      const save = () => k('exec', '-n', 'kube-system', names.a, '--', 'iptables-save', '-c');
      const direct = await lab!.onNode('node-a', ['iptables-save', '-t', 'nat']);
      const r = await save();
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^\*nat$/m);
      // The same rules as the node's namespace (counters aside).
      const rules = (s: string) =>
        s
          .split('\n')
          .map((l) => l.replace(/^\[\d+:\d+\] /, ''))
          .filter((l) => l.startsWith('-A '));
      const nat = r.stdout.slice(r.stdout.indexOf('*nat'));
      assert.deepEqual(rules(nat.slice(0, nat.indexOf('COMMIT'))), rules(direct.stdout));
      const before = serviceRulePackets(r.stdout, '172.16.0.80', 80);
      assert.notEqual(before, undefined);
      const curl = await k('exec', 'client', '--', 'curl', '-sS', '--max-time', '15', 'http://172.16.0.80/');
      assert.equal(curl.code, 0, curl.stderr);
      const after = serviceRulePackets((await save()).stdout, '172.16.0.80', 80);
      assert.ok(after! > before!, `counter ${before} -> ${after}`);
    });

    it('has iptables, nft and ip on PATH, in the node namespace; not curl', async () => {
      const [addr, nft, list, curl, route] = await Promise.all([
        k('exec', '-n', 'kube-system', names.a, '--', 'ip', '-o', '-4', 'addr', 'show', 'dev', 'eth0'),
        k('exec', '-n', 'kube-system', names.a, '--', 'nft', 'list', 'tables'),
        k('exec', '-n', 'kube-system', names.a, '--', 'iptables', '-t', 'nat', '-S', 'KUBE-SERVICES'),
        k('exec', '-n', 'kube-system', names.a, '--', 'curl', '-sS', 'http://172.16.0.80/'),
        k('exec', '-n', 'kube-system', names.a, '--', 'ip', 'route', 'show', '10.244.2.0/24'),
      ]);
      assert.equal(addr.code, 0, addr.stderr);
      assert.match(addr.stdout, /inet 192\.168\.10\.11\/24/);
      assert.equal(nft.code, 0, nft.stderr);
      assert.match(nft.stdout, /table ip nat/);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.stdout, /^-A KUBE-SERVICES .*-d 172\.16\.0\.80\/32/m);
      assert.equal(curl.code, 127);
      assert.match(curl.stderr, /exec: "curl": executable file not found in \$PATH/);
      assert.match(route.stdout, /^10\.244\.2\.0\/24 via 192\.168\.10\.12 dev eth0/);
    });

    it('the viewer context may list them but not exec into them (403)', async () => {
      const [list, exec] = await Promise.all([
        k('--context', 'kpp-lab-viewer', 'get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-proxy', '-o', 'name'),
        k('--context', 'kpp-lab-viewer', 'exec', 'client', '--', 'true'),
      ]);
      assert.equal(list.code, 0, list.stderr);
      assert.equal(list.stdout.trim().split('\n').length, 2);
      assert.equal(exec.code, 1);
      assert.match(
        exec.stderr,
        /\(Forbidden\): pods "client" is forbidden: User "viewer" cannot create resource "pods\/exec" in API group "" in the namespace "default"/,
      );
    });
  });

  describe('kubeProxyPods: false', () => {
    it('a cluster without kube-proxy pods lists none', async () => {
      const scenario = { ...loadScenario('healthy'), kubeProxyPods: false };
      const lab = await startLab(scenario);
      try {
        const r = await kubectl(lab.kubeconfig, ['get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-proxy']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /No resources found in kube-system namespace/);
      } finally {
        await lab.stop();
      }
    });
  });
}
