// The lab cluster for real: every scenario's data plane in network namespaces with the engine's kube-proxy rules,
// looked at with kubectl (an independent client) through the lab API server. Needs root, `ip` and kubectl; skips
// with the reason otherwise. Run serially: npx tsx --test --test-concurrency=1 test/lab/*.test.ts
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { NETNS_ETC, removeLabNamespaces, removeStaleLabs } from './dataplane/cleanup';
import { startLab, type Lab } from './dataplane/lab';
import { kubectl, labSkipReason, serviceRulePackets, type CommandResult } from './dataplane/probe';
import { listNetns } from './dataplane/sys';
import { loadScenario } from './scenario';

const skipReason = labSkipReason();
/** Every namespace this test process creates starts with this (run ids carry the owner pid). */
const OUR_PREFIX = `kpp-p${process.pid}r`;
const KUBERNETES = '172.16.0.1';
const WEB = '172.16.0.80';
/** A failure we expect to be a timeout must not wait long; a success may take a while on a loaded machine. */
const FAIL_FAST = ['--max-time', '3'];
const PATIENT = ['--max-time', '15'];

if (skipReason) {
  test('lab cluster', { skip: `lab tests skipped: ${skipReason}` }, () => undefined);
} else {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-kubectl-'));
  const running = new Set<Lab>();

  before(() => {
    removeStaleLabs();
  });

  after(async () => {
    for (const lab of running) await lab.stop();
    removeLabNamespaces(listNetns().filter((n) => n.startsWith(OUR_PREFIX)));
    removeStaleLabs(); // also drops /etc/netns when nothing else is left in it
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  /** One scenario: a fresh lab for its tests, torn down after them, plus the checks every scenario must pass. */
  const scenario = (name: string, body: (lab: () => Lab, k: (...args: string[]) => Promise<CommandResult>) => void) => {
    describe(name, () => {
      let current: Lab | undefined;
      const lab = () => {
        if (!current) throw new Error(`lab ${name} did not start`);
        return current;
      };
      const k = (...args: string[]) => kubectl(lab().kubeconfig, args, { cacheDir });

      before(async () => {
        current = await startLab(loadScenario(name));
        running.add(current);
      });
      after(async () => {
        if (current) {
          await current.stop();
          running.delete(current);
        }
      });

      it('kubectl lists the Services, Endpoints and Pods', async () => {
        const [svc, eps, pods] = await Promise.all([
          k('get', 'svc', '-A'),
          k('get', 'endpoints'),
          k('get', 'pods', '-o', 'wide'),
        ]);
        for (const r of [svc, eps, pods]) assert.equal(r.code, 0, r.stderr);
        assert.match(svc.stdout, /default\s+kubernetes\s+ClusterIP\s+172\.16\.0\.1\s+<none>\s+443\/TCP/);
        assert.match(svc.stdout, /default\s+web\s+(ClusterIP|NodePort)\s+172\.16\.0\.80\s/);
        assert.match(svc.stdout, /kube-system\s+kube-dns\s+ClusterIP\s+172\.16\.0\.10\s+<none>\s+53\/UDP,53\/TCP/);
        const apiEndpoints = /^kubernetes\s+(\S+)/m.exec(eps.stdout)?.[1] ?? '';
        assert.equal(apiEndpoints.split(',').filter((e) => /^10\.244\.\d+\.\d+:6443$/.test(e)).length, 3, eps.stdout);
        assert.match(pods.stdout, /^client\s+1\/1\s+Running\s+0\s+\S+\s+10\.244\.1\.10\s+node-a\s/m);
      });

      body(lab, k);
    });
  };

  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const waitRunning = async (k: (...args: string[]) => Promise<CommandResult>, pod: string) => {
    const deadline = Date.now() + 20_000;
    let phase = '';
    while (phase !== 'Running' && Date.now() < deadline) {
      phase = (await k('get', 'pod', pod, '-o', 'jsonpath={.status.phase}')).stdout;
      if (phase !== 'Running') await sleep(200);
    }
    assert.equal(phase, 'Running', `pod ${pod} is not running`);
  };
  const curl = (k: (...args: string[]) => Promise<CommandResult>, timing: string[], ...args: string[]) =>
    k('exec', 'client', '--', 'curl', '-sS', ...timing, ...args);
  const counter = async (lab: Lab, node: string, ip: string, port: number): Promise<number> => {
    const save = await lab.onNode(node, ['iptables-save', '-c', '-t', 'nat']);
    const packets = serviceRulePackets(save.stdout, ip, port);
    assert.notEqual(packets, undefined, `no KUBE-SERVICES rule for ${ip}:${port} on ${node}`);
    return packets!;
  };

  scenario('healthy', (lab, k) => {
    it('the client reaches the kubernetes Service through node-a, whose KUBE-SERVICES counter moves', async () => {
      const before = await counter(lab(), 'node-a', KUBERNETES, 443);
      const r = await curl(k, PATIENT, '-k', `https://${KUBERNETES}/`);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^kube-apiserver-\d\n$/);
      assert.ok((await counter(lab(), 'node-a', KUBERNETES, 443)) > before, 'the DNAT rule saw the packet');
    });

    it('the client reaches web by name through the cluster DNS', async () => {
      const [web, dns] = await Promise.all([
        curl(k, PATIENT, 'http://web/'),
        k('exec', 'client', '--', 'nslookup', 'web'),
      ]);
      assert.equal(web.code, 0, web.stderr);
      assert.match(web.stdout, /^web-\d\n$/);
      assert.equal(dns.code, 0, dns.stdout + dns.stderr);
      assert.match(dns.stdout, /Name:\s+web\.default\.svc\.cluster\.local\s+Address: 172\.16\.0\.80/);
    });

    it('serves discovery.k8s.io/v1 EndpointSlices (unlike legacy-1.20)', async () => {
      const slices = await k('get', 'endpointslices.v1.discovery.k8s.io');
      assert.equal(slices.code, 0, slices.stderr);
      assert.match(slices.stdout, /^web-\S+\s+IPv4\s+8080\s+10\.244\./m);
    });

    it('a tool the image lacks exits 127 with the runtime message; one it has works', async () => {
      const missing = await k('exec', 'web-0', '--', 'curl', '-sS', `http://${WEB}/`);
      assert.equal(missing.code, 127);
      assert.match(missing.stderr, /exec: "curl": executable file not found in \$PATH/);
      const wget = await k('exec', 'web-0', '--', 'wget', '-qO-', '-T', '15', `http://${WEB}/`);
      assert.equal(wget.code, 0, wget.stderr);
      assert.match(wget.stdout, /^web-\d\n$/);
    });

    it('a debug pod gets its own pod IP on its node; an ephemeral container has the tools the image lacks', async () => {
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'debug-b', namespace: 'default' },
        spec: { nodeName: 'node-b', containers: [{ name: 'debug', image: 'kpp-lab/debug:1' }] },
      };
      const created = await kubectl(lab().kubeconfig, ['create', '-f', '-'], { input: JSON.stringify(pod), cacheDir });
      assert.equal(created.code, 0, created.stderr);
      await waitRunning(k, 'debug-b');
      const netns = lab().podNetns('default', 'debug-b');
      const [wide, fromDebug] = await Promise.all([
        k('get', 'pod', 'debug-b', '-o', 'wide'),
        k('exec', 'debug-b', '--', 'curl', '-sS', ...PATIENT, `http://${WEB}/`),
      ]);
      assert.match(wide.stdout, /^debug-b\s+1\/1\s+Running\s+0\s+\S+\s+10\.244\.2\.\d+\s+node-b\s/m);
      assert.equal(fromDebug.code, 0, fromDebug.stderr);
      assert.match(fromDebug.stdout, /^web-\d\n$/);
      assert.equal((await k('delete', 'pod', 'debug-b')).code, 0);
      assert.ok(!listNetns().includes(netns), 'the debug pod namespace is removed');

      const debug = await k('debug', 'web-0', '--image=kpp-lab/debug:1', '-c', 'dbg', '--', 'sleep', '3600');
      assert.equal(debug.code, 0, debug.stderr);
      // The ephemeral container starts asynchronously; exec into it until it runs.
      const deadline = Date.now() + 20_000;
      const curlFromDebugger = () => k('exec', 'web-0', '-c', 'dbg', '--', 'curl', '-sS', ...PATIENT, `http://${WEB}/`);
      let r = await curlFromDebugger();
      while (r.code !== 0 && Date.now() < deadline) {
        await sleep(300);
        r = await curlFromDebugger();
      }
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^web-\d\n$/);
    });
  });

  scenario('seed-gateway-bypass', (lab, k) => {
    const debugPod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'node-debug-a', namespace: 'default' },
      spec: {
        nodeName: 'node-a',
        hostNetwork: true,
        containers: [{ name: 'debug', image: 'kpp-lab/debug:1', securityContext: { privileged: true } }],
      },
    };
    const onDebugPod = (...argv: string[]) => k('exec', 'node-debug-a', '--', ...argv);

    it('a privileged hostNetwork pod on node-a runs in the node', async () => {
      const created = await kubectl(lab().kubeconfig, ['create', '-f', '-'], {
        input: JSON.stringify(debugPod),
        cacheDir,
      });
      assert.equal(created.code, 0, created.stderr);
      await waitRunning(k, 'node-debug-a');
      const addr = await onDebugPod('ip', '-o', '-4', 'addr', 'show', 'dev', 'eth0');
      assert.match(addr.stdout, /inet 192\.168\.10\.11\/24/);
    });

    it("the client's route to 172.16.0.1 goes via the custom gateway, not the node", async () => {
      const r = await k('exec', 'client', '--', 'ip', 'route', 'get', KUBERNETES);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /via 192\.168\.100\.1 dev eth1/);
    });

    it("the client's curl to 172.16.0.1:443 times out and node-a's KUBE-SERVICES counter does not move", async () => {
      const save = () => onDebugPod('iptables-save', '-c', '-t', 'nat');
      const before = serviceRulePackets((await save()).stdout, KUBERNETES, 443);
      assert.notEqual(before, undefined, 'node-a has the rule');
      const r = await curl(k, FAIL_FAST, '-k', `https://${KUBERNETES}/`);
      assert.equal(r.code, 28, `curl should time out: ${r.stderr}`);
      assert.equal(serviceRulePackets((await save()).stdout, KUBERNETES, 443), before);
      const flows = await onDebugPod('conntrack', '-L', '-s', '10.244.1.10', '-d', KUBERNETES);
      assert.equal(flows.code, 0, flows.stderr);
      assert.doesNotMatch(flows.stdout, /src=10\.244\.1\.10/);
    });

    it('node-a itself reaches 172.16.0.1:443 (and its counter moves)', async () => {
      const before = serviceRulePackets(
        (await onDebugPod('iptables-save', '-c', '-t', 'nat')).stdout,
        KUBERNETES,
        443,
      )!;
      const r = await onDebugPod('curl', '-sSk', ...PATIENT, `https://${KUBERNETES}/`);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^kube-apiserver-\d\n$/);
      const after = serviceRulePackets((await onDebugPod('iptables-save', '-c', '-t', 'nat')).stdout, KUBERNETES, 443)!;
      assert.ok(after > before);
    });

    it('the client reaches the apiserver endpoints directly on both nodes', async () => {
      const results = await Promise.all(
        ['10.244.1.30', '10.244.2.30'].map((ip) => curl(k, PATIENT, '-k', `https://${ip}:6443/`)),
      );
      assert.deepEqual(
        results.map((r) => [r.code, r.stdout]),
        [
          [0, 'kube-apiserver-0\n'],
          [0, 'kube-apiserver-1\n'],
        ],
      );
    });

    it('the debug pod is deleted', async () => {
      const r = await k('delete', 'pod', 'node-debug-a');
      assert.equal(r.code, 0, r.stderr);
    });
  });

  scenario('no-endpoints', (_lab, k) => {
    it('web has no endpoints and its ClusterIP refuses at once (REJECT)', async () => {
      const eps = await k('get', 'endpoints', 'web');
      assert.match(eps.stdout, /^web\s+<none>\s/m);
      const r = await curl(k, FAIL_FAST, '-v', `http://${WEB}/`);
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr, /Connection refused/);
    });
  });

  scenario('endpoints-not-ready', (_lab, k) => {
    it('web pods are not ready, the ClusterIP refuses, the pods themselves answer', async () => {
      const pods = await k('get', 'pods', '-l', 'app=web');
      assert.equal(pods.stdout.split('\n').filter((l) => /^web-\d\s+0\/1\s+Running/.test(l)).length, 3, pods.stdout);
      const viaService = await curl(k, FAIL_FAST, '-v', `http://${WEB}/`);
      assert.equal(viaService.code, 7, viaService.stderr);
      assert.match(viaService.stderr, /Connection refused/);
      const direct = await curl(k, PATIENT, 'http://10.244.2.20:8080/');
      assert.deepEqual([direct.code, direct.stdout], [0, 'web-1\n']);
    });
  });

  scenario('backend-down', (lab, k) => {
    it('web keeps its endpoints; the connection is DNATed on node-a and refused by the pod', async () => {
      const eps = await k('get', 'endpoints', 'web');
      assert.match(eps.stdout, /^web\s+10\.244\.\d+\.\d+:8080,/m);
      const before = await counter(lab(), 'node-a', WEB, 80);
      const r = await curl(k, FAIL_FAST, '-v', `http://${WEB}/`);
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr, /Connection refused/);
      assert.ok((await counter(lab(), 'node-a', WEB, 80)) > before, 'the packet went through the DNAT rule');
    });
  });

  scenario('stale-rules', (lab, k) => {
    it('node-a lacks the web rules, node-b has them', async () => {
      const [a, b] = await Promise.all(
        ['node-a', 'node-b'].map((n) => lab().onNode(n, ['iptables-save', '-t', 'nat'])),
      );
      assert.doesNotMatch(a.stdout, /default\/web/);
      assert.match(b.stdout, /default\/web:http cluster IP/);
    });

    it('from the client on node-a web times out; from node-b it works; other Services work', async () => {
      const [fromClient, fromNodeB, kubernetes] = await Promise.all([
        curl(k, FAIL_FAST, `http://${WEB}/`),
        lab().onNode('node-b', ['curl', '-sS', ...PATIENT, `http://${WEB}/`]),
        curl(k, PATIENT, '-k', `https://${KUBERNETES}/`),
      ]);
      assert.equal(fromClient.code, 28, fromClient.stderr);
      assert.equal(fromNodeB.code, 0, fromNodeB.stderr);
      assert.match(fromNodeB.stdout, /^web-\d\n$/);
      assert.equal(kubernetes.code, 0, kubernetes.stderr);
    });
  });

  scenario('dns-broken', (_lab, k) => {
    it('names do not resolve while the ClusterIP works', async () => {
      const [dns, web] = await Promise.all([
        k('exec', 'client', '--', 'nslookup', '-timeout=2', '-retry=1', 'web'),
        curl(k, PATIENT, `http://${WEB}/`),
      ]);
      assert.notEqual(dns.code, 0, dns.stdout);
      assert.doesNotMatch(dns.stdout, /Address: 172\.16\.0\.80/);
      assert.equal(web.code, 0, web.stderr);
      assert.match(web.stdout, /^web-\d\n$/);
    });
  });

  scenario('nodeport', (_lab, k) => {
    it('web answers on 30080 of both node IPs', async () => {
      const svc = await k('get', 'svc', 'web');
      assert.match(svc.stdout, /^web\s+NodePort\s+172\.16\.0\.80\s+<none>\s+80:30080\/TCP/m);
      const results = await Promise.all(
        ['192.168.10.11', '192.168.10.12'].map((ip) => curl(k, PATIENT, `http://${ip}:30080/`)),
      );
      for (const r of results) {
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /^web-\d\n$/);
      }
    });
  });

  scenario('legacy-1.20', (_lab, k) => {
    it('acts like 1.20: no discovery.k8s.io/v1 EndpointSlices, Endpoints work', async () => {
      const [slices, eps, version] = await Promise.all([
        k('get', 'endpointslices.v1.discovery.k8s.io'),
        k('get', 'endpoints', 'web'),
        k('version', '-o', 'json'),
      ]);
      assert.notEqual(slices.code, 0, slices.stdout);
      assert.match(slices.stderr, /doesn't have a resource type "endpointslices"/);
      assert.equal(eps.code, 0, eps.stderr);
      assert.match(eps.stdout, /^web\s+10\.244\./m);
      const server = (JSON.parse(version.stdout) as { serverVersion?: { gitVersion?: string } }).serverVersion;
      assert.match(server?.gitVersion ?? '', /^v1\.20\./);
    });
  });

  test('no namespace or /etc/netns folder of this run is left', () => {
    assert.deepEqual(
      listNetns().filter((n) => n.startsWith(OUR_PREFIX)),
      [],
    );
    const folders = fs.existsSync(NETNS_ETC) ? fs.readdirSync(NETNS_ETC).filter((n) => n.startsWith(OUR_PREFIX)) : [];
    assert.deepEqual(folders, []);
  });
}
