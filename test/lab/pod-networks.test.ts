// The lab's newer faults and options, each on a fresh lab seen through kubectl: a macvlan (ipvlan) pod on the node
// network (ClusterIPs time out, the node never counts), bridge pod networking (flannel-style cni0: everything
// works), a distroless pod (exec 127; an ephemeral debug container works), the exec-denied kubeconfig, the API
// server going away, and the same verdict-relevant facts under another address plan. Needs root, `ip` and kubectl.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { removeLabNamespaces, removeStaleLabs } from './dataplane/cleanup';
import { startLab, type Lab } from './dataplane/lab';
import { kubeProxyPodName } from './dataplane/plan';
import { kubectl, labSkipReason, serviceRulePackets, type CommandResult } from './dataplane/probe';
import { listNetns } from './dataplane/sys';
import { loadScenario } from './scenario';

const skipReason = labSkipReason();
const OUR_PREFIX = `kpp-p${process.pid}r`;
const FAIL_FAST = ['--max-time', '3'];
const PATIENT = ['--max-time', '15'];
type K = (...args: string[]) => Promise<CommandResult>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

if (skipReason) {
  test('lab pod networks and faults', { skip: `lab tests skipped: ${skipReason}` }, () => undefined);
} else {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kpp-lab-kubectl-'));
  before(() => {
    removeStaleLabs();
  });
  after(() => {
    removeLabNamespaces(listNetns().filter((n) => n.startsWith(OUR_PREFIX)));
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  const scenario = (name: string, body: (lab: () => Lab, k: K) => void) => {
    describe(name, () => {
      let current: Lab | undefined;
      const lab = () => {
        if (!current) throw new Error(`lab ${name} did not start`);
        return current;
      };
      const k: K = (...args) => kubectl(lab().kubeconfig, ['--cache-dir', cacheDir, ...args]);
      before(async () => {
        const started = Date.now();
        current = await startLab(loadScenario(name));
        process.stderr.write(`# ${name} up in ${Date.now() - started} ms\n`);
      });
      after(async () => {
        await current?.stop();
        current = undefined;
      });
      body(lab, k);
    });
  };

  const counter = async (lab: Lab, node: string, ip: string, port: number): Promise<number> => {
    const save = await lab.onNode(node, ['iptables-save', '-c', '-t', 'nat']);
    const packets = serviceRulePackets(save.stdout, ip, port);
    assert.notEqual(packets, undefined, `no KUBE-SERVICES rule for ${ip}:${port} on ${node}`);
    return packets!;
  };

  const segmentPod = (name: string, kind: 'macvlan', ip: string) =>
    scenario(name, (lab, k) => {
      it(`the client's eth0 is a ${kind} link on the node network, gateway the router; no veth into node-a`, async () => {
        const [link, route, wide] = await Promise.all([
          k('exec', 'client', '--', 'ip', '-d', 'link', 'show', 'eth0'),
          k('exec', 'client', '--', 'ip', 'route', 'get', '172.16.0.80'),
          k('get', 'pod', 'client', '-o', 'wide'),
        ]);
        assert.equal(link.code, 0, link.stderr);
        assert.match(link.stdout, /\n\s+macvlan mode bridge /);
        assert.doesNotMatch(link.stdout, /veth/);
        assert.match(route.stdout, /^172\.16\.0\.80 via 192\.168\.10\.1 dev eth0 src /m);
        assert.match(
          wide.stdout,
          new RegExp(`^client\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+${ip.replace(/\./g, '\\.')}\\s+node-a\\s`, 'm'),
        );
        // The router is not node-a: node-a's addresses do not include it.
        const nodeAddrs = await lab().onNode('node-a', ['ip', '-o', '-4', 'addr']);
        assert.doesNotMatch(nodeAddrs.stdout, /inet 192\.168\.10\.1\//);
      });

      it("ClusterIPs time out (curl 28) and node-a's counters stay still; pod IPs answer through the router", async () => {
        const before = await counter(lab(), 'node-a', '172.16.0.80', 80);
        const [svc, pod] = await Promise.all([
          k('exec', 'client', '--', 'curl', '-sS', ...FAIL_FAST, 'http://172.16.0.80/'),
          k('exec', 'client', '--', 'curl', '-sS', ...PATIENT, 'http://10.244.2.20:8080/'),
        ]);
        assert.equal(svc.code, 28, svc.stderr);
        assert.equal(pod.code, 0, pod.stderr);
        assert.equal(pod.stdout, 'web-1\n');
        assert.equal(await counter(lab(), 'node-a', '172.16.0.80', 80), before);
      });

      it('other pods still reach web through their node', async () => {
        const r = await k('exec', 'web-0', '--', 'wget', '-qO-', '-T', '15', 'http://172.16.0.80/');
        assert.equal(r.code, 0, r.stderr);
      });
    });

  segmentPod('macvlan-pod', 'macvlan', '192.168.10.50');

  describe('ipvlan-pod', () => {
    let lab: Lab | undefined;
    let noDriver: string | undefined;
    before(async () => {
      try {
        lab = await startLab(loadScenario('ipvlan-pod'));
      } catch (e) {
        if (!/lacks a link driver/.test((e as Error).message)) throw e;
        noDriver = 'this kernel has no ipvlan driver';
      }
    });
    after(async () => {
      await lab?.stop();
    });

    it('the client is an ipvlan L2 link on the node network; ClusterIPs time out', async (t) => {
      if (noDriver) {
        t.skip(noDriver);
        return;
      }
      const k: K = (...args) => kubectl(lab!.kubeconfig, ['--cache-dir', cacheDir, ...args]);
      const [link, svc] = await Promise.all([
        k('exec', 'client', '--', 'ip', '-d', 'link', 'show', 'eth0'),
        k('exec', 'client', '--', 'curl', '-sS', ...FAIL_FAST, 'http://172.16.0.80/'),
      ]);
      assert.match(link.stdout, /\n\s+ipvlan\s+mode l2 /);
      assert.equal(svc.code, 28, svc.stderr);
    });

    it('without the driver, the lab says so and leaves nothing behind', (t) => {
      if (!noDriver) {
        t.skip('this kernel has the ipvlan driver');
        return;
      }
      assert.deepEqual(
        listNetns().filter((n) => n.startsWith(OUR_PREFIX)),
        [],
      );
    });
  });

  scenario('bridge-healthy', (lab, k) => {
    const proxyA = kubeProxyPodName('node-a');
    it("the client's gateway is node-a's cni0 address; its eth0 is a veth on cni0", async () => {
      const [route, addr, bridge, ports] = await Promise.all([
        k('exec', 'client', '--', 'ip', 'route', 'get', '172.16.0.80'),
        k('exec', 'client', '--', 'ip', '-o', '-4', 'addr', 'show', 'dev', 'eth0'),
        k('exec', '-n', 'kube-system', proxyA, '--', 'ip', '-o', '-4', 'addr', 'show', 'dev', 'cni0'),
        k('exec', '-n', 'kube-system', proxyA, '--', 'ip', '-o', 'link', 'show', 'master', 'cni0'),
      ]);
      assert.match(route.stdout, /^172\.16\.0\.80 via 10\.244\.1\.1 dev eth0 src 10\.244\.1\.10/m);
      assert.match(addr.stdout, /inet 10\.244\.1\.10\/24 /);
      assert.match(bridge.stdout, /inet 10\.244\.1\.1\/24 /);
      assert.equal(ports.stdout.trim().split('\n').length, 4, ports.stdout); // client, web-0, two apiservers
    });

    it('every Service works, also to a backend on the same bridge; the node counts the packets', async () => {
      const before = await counter(lab(), 'node-a', '172.16.0.80', 80);
      const seen = new Set<string>();
      for (let i = 0; i < 12 && seen.size < 3; i++) {
        const r = await k('exec', 'client', '--', 'curl', '-sS', ...PATIENT, 'http://web/');
        assert.equal(r.code, 0, r.stderr);
        seen.add(r.stdout.trim());
      }
      assert.ok(seen.has('web-0') || seen.size >= 2, [...seen].join(','));
      const api = await k('exec', 'client', '--', 'curl', '-sSk', ...PATIENT, 'https://172.16.0.1/');
      assert.equal(api.code, 0, api.stderr);
      assert.ok((await counter(lab(), 'node-a', '172.16.0.80', 80)) > before);
    });

    it('web-0 (same bridge as the client) answers through the ClusterIP from its own node', async () => {
      const r = await k('exec', 'web-0', '--', 'wget', '-qO-', '-T', '15', 'http://172.16.0.80/');
      assert.equal(r.code, 0, r.stderr);
    });
  });

  scenario('no-tools', (lab, k) => {
    it('every exec into the client exits 127, sh included', async () => {
      const results = await Promise.all([
        k('exec', 'client', '--', 'sh', '-c', 'true'),
        k('exec', 'client', '--', 'true'),
        k('exec', 'client', '--', '/bin/sh'),
        k('exec', 'client', '--', 'cat', '/etc/resolv.conf'),
      ]);
      for (const r of results) {
        assert.equal(r.code, 127, r.stderr);
        assert.match(
          r.stderr,
          /OCI runtime exec failed: .*(executable file not found in \$PATH|no such file or directory)/,
        );
      }
      const image = await k('get', 'pod', 'client', '-o', 'jsonpath={.spec.containers[0].image}');
      assert.match(image.stdout, /distroless/);
    });

    it('kubectl debug adds an ephemeral container with every tool, sharing the pod network', async () => {
      const debug = await k('debug', 'client', '--image=nicolaka/netshoot', '-c', 'dbg', '--', 'sleep', '3600');
      assert.equal(debug.code, 0, debug.stderr);
      const deadline = Date.now() + 20_000;
      let r = await k('exec', 'client', '-c', 'dbg', '--', 'curl', '-sS', ...PATIENT, 'http://web/');
      while (r.code !== 0 && Date.now() < deadline) {
        await sleep(300);
        r = await k('exec', 'client', '-c', 'dbg', '--', 'curl', '-sS', ...PATIENT, 'http://web/');
      }
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^web-\d\n$/);
      const addr = await k('exec', 'client', '-c', 'dbg', '--', 'ip', '-o', '-4', 'addr', 'show', 'dev', 'eth0');
      assert.match(addr.stdout, /inet 10\.244\.1\.10\/32/);
      const got = await k('get', 'pod', 'client', '-o', 'jsonpath={.status.ephemeralContainerStatuses[0].name}');
      assert.equal(got.stdout, 'dbg');
      // The regular container stays toolless.
      assert.equal((await k('exec', 'client', '-c', 'client', '--', 'true')).code, 127);
    });

    it('a PUT of pods/client/ephemeralcontainers works too (kubectl replace --raw), and exec by container= name', async () => {
      const pod = JSON.parse((await k('get', 'pod', 'client', '-o', 'json')).stdout) as {
        spec: { ephemeralContainers?: object[] };
      };
      pod.spec.ephemeralContainers = [
        ...(pod.spec.ephemeralContainers ?? []),
        { name: 'dbg2', image: 'busybox', command: ['sleep', '3600'], targetContainerName: 'client' },
      ];
      const r = await kubectl(
        lab().kubeconfig,
        [
          '--cache-dir',
          cacheDir,
          'replace',
          '--raw',
          '/api/v1/namespaces/default/pods/client/ephemeralcontainers',
          '-f',
          '-',
        ],
        { input: JSON.stringify(pod) },
      );
      assert.equal(r.code, 0, r.stderr);
      const deadline = Date.now() + 20_000;
      let e = await k('exec', 'client', '-c', 'dbg2', '--', 'ip', 'route', 'get', '172.16.0.80');
      while (e.code !== 0 && Date.now() < deadline) {
        await sleep(300);
        e = await k('exec', 'client', '-c', 'dbg2', '--', 'ip', 'route', 'get', '172.16.0.80');
      }
      assert.equal(e.code, 0, e.stderr);
      assert.match(e.stdout, /via 169\.254\.1\.1 dev eth0/);
    });
  });

  scenario('exec-denied', (lab, k) => {
    it("the kubeconfig's current context is kpp-lab-viewer: reads work, exec and pod creation are forbidden", async () => {
      const [ctx, pods, exec] = await Promise.all([
        k('config', 'current-context'),
        k('get', 'pods', '-o', 'wide'),
        k('exec', 'client', '--', 'true'),
      ]);
      assert.equal(ctx.stdout.trim(), 'kpp-lab-viewer');
      assert.equal(pods.code, 0, pods.stderr);
      assert.match(pods.stdout, /^client\s+1\/1\s+Running/m);
      assert.equal(exec.code, 1);
      assert.match(
        exec.stderr,
        /Error from server \(Forbidden\): pods "client" is forbidden: User "viewer" cannot create resource "pods\/exec" in API group "" in the namespace "default"/,
      );
      const debugPod = JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'node-debug', namespace: 'default' },
        spec: { nodeName: 'node-a', hostNetwork: true, containers: [{ name: 'd', image: 'busybox' }] },
      });
      const create = await kubectl(lab().kubeconfig, ['--cache-dir', cacheDir, 'create', '-f', '-'], {
        input: debugPod,
      });
      assert.equal(create.code, 1);
      assert.match(create.stderr, /pods is forbidden: User "viewer" cannot create resource "pods"/);
    });

    it('context kpp-lab still execs', async () => {
      const r = await k('--context', 'kpp-lab', 'exec', 'client', '--', 'curl', '-sS', ...PATIENT, 'http://web/');
      assert.equal(r.code, 0, r.stderr);
    });
  });

  scenario('api-goes-away', (lab, k) => {
    it('answers 10 requests, then kubectl is refused while the data plane keeps working; resume brings it back', async () => {
      const results: CommandResult[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await k('get', 'pods');
        results.push(r);
        if (r.code !== 0) break;
      }
      const failed = results.at(-1)!;
      assert.ok(results.length > 1, 'the first calls work');
      assert.equal(failed.code, 1, 'then it goes away');
      assert.match(failed.stderr, /connection to the server 127\.0\.0\.1:\d+ was refused|connection reset|EOF/);
      assert.equal(lab().api.listening, false);
      const data = await lab().onNode('node-a', ['curl', '-sS', ...PATIENT, 'http://172.16.0.80/']);
      assert.equal(data.code, 0, data.stderr);
      await lab().api.resume();
      const back = await k('get', 'pods');
      assert.equal(back.code, 0, back.stderr);
    });
  });

  scenario('healthy-alt-addresses', (lab, k) => {
    it('shop/toolbox on worker-2 (bridge, gateway 100.64.20.1) reaches shop/web and kubernetes through its node', async () => {
      const before = await counter(lab(), 'worker-2', '10.100.7.7', 8080);
      const [route, web, api] = await Promise.all([
        k('exec', '-n', 'shop', 'toolbox', '--', 'ip', 'route', 'get', '10.100.7.7'),
        k('exec', '-n', 'shop', 'toolbox', '--', 'curl', '-sS', ...PATIENT, 'http://web:8080/'),
        k('exec', '-n', 'shop', 'toolbox', '--', 'curl', '-sSk', ...PATIENT, 'https://kubernetes.default/'),
      ]);
      assert.match(route.stdout, /^10\.100\.7\.7 via 100\.64\.20\.1 dev eth0 src 100\.64\.20\.107/m);
      assert.equal(web.code, 0, web.stderr);
      assert.match(web.stdout, /^web-\d\n$/);
      assert.equal(api.code, 0, api.stderr);
      assert.ok((await counter(lab(), 'worker-2', '10.100.7.7', 8080)) > before);
      const proxies = await k('get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-proxy', '-o', 'wide');
      assert.match(proxies.stdout, /10\.10\.0\.22\s+worker-2/);
    });
  });

  scenario('seed-gateway-bypass-alt-addresses', (lab, k) => {
    it("only the Service CIDR goes via net1's gateway: ClusterIPs time out, pod IPs work, worker-2 counts nothing", async () => {
      const before = await counter(lab(), 'worker-2', '10.100.7.7', 8080);
      const [route, routeDefault, svc, pod] = await Promise.all([
        k('exec', '-n', 'shop', 'toolbox', '--', 'ip', 'route', 'get', '10.100.7.7'),
        k('exec', '-n', 'shop', 'toolbox', '--', 'ip', 'route', 'show', 'default'),
        k('exec', '-n', 'shop', 'toolbox', '--', 'curl', '-sS', ...FAIL_FAST, 'http://10.100.7.7:8080/'),
        k('exec', '-n', 'shop', 'toolbox', '--', 'curl', '-sS', ...PATIENT, 'http://100.64.10.107:9376/'),
      ]);
      assert.match(route.stdout, /^10\.100\.7\.7 via 172\.31\.200\.1 dev net1 src 172\.31\.200\.10/m);
      assert.match(routeDefault.stdout, /^default via 169\.254\.1\.1 dev eth0/m);
      assert.equal(svc.code, 28, svc.stderr);
      assert.equal(pod.code, 0, pod.stderr);
      assert.equal(await counter(lab(), 'worker-2', '10.100.7.7', 8080), before);
    });
  });

  test('no namespace of this run is left', () => {
    assert.deepEqual(
      listNetns().filter((n) => n.startsWith(OUR_PREFIX)),
      [],
    );
  });
}
