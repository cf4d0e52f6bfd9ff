// The commands in the next steps name the right namespace when the client pod and the Service live in different
// ones (the usual case: a debug pod in its own namespace checking an app's Service): the Service's selector and
// EndpointSlices are read in the Service's namespace, a debug container is added to the pod in the pod's. Before,
// every step said the pod's namespace (`kubectl get endpointslices -n <client ns>` lists nothing), and the debug
// step wrote `kubectl debug -it NS/NAME`, which kubectl reads as resource type NS.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideVerdict } from '../../../src/core/diagnose/verdict';
import {
  calicoPod,
  connects,
  counters,
  secondInterfacePod,
  NSLOOKUP_TIMEOUT,
  endpoints,
  nodeDump,
  PLANS,
  pod,
  scenario,
  service,
  toolsProbe,
  type AddressPlan,
} from './fixtures';

const CLIENT_NS = 'netdebug-tools';

function client(p: AddressPlan) {
  return pod(p, { namespace: CLIENT_NS });
}

for (const p of PLANS) {
  describe(`next steps from namespace ${CLIENT_NS} to ${p.svcNamespace}/${p.svcName} (plan ${p.name})`, () => {
    it('no endpoints: the selector and the pods are looked up in the Service namespace', () => {
      for (const lang of ['en', 'zh-CN'] as const) {
        const v = decideVerdict(scenario({ plan: p, pod: client(p), eps: [], outputs: calicoPod(p) }), lang);
        assert.equal(v.code, 'no-endpoints');
        const step = v.nextSteps.find((s) => s.includes('jsonpath={.spec.selector}'))!;
        assert.ok(step.includes(`kubectl get svc ${p.svcName} -n ${p.svcNamespace} `), step);
        assert.ok(step.includes(`kubectl get pods -n ${p.svcNamespace} -l`), step);
        assert.ok(!step.includes(CLIENT_NS), step);
      }
    });

    it("internalTrafficPolicy Local: the EndpointSlices are listed in the Service's namespace", () => {
      const svc = service(p, { internalTrafficPolicy: 'Local' });
      const eps = endpoints(p);
      const input = scenario({
        plan: p,
        svc,
        eps,
        pod: client(p),
        outputs: calicoPod(p),
        nodeEvidence: { name: p.nodeName, before: nodeDump(p, { svc, eps }) },
      });
      const v = decideVerdict(input, 'en');
      assert.equal(v.code, 'no-endpoints', v.summary);
      const step = v.nextSteps.find((s) => s.includes('endpointslices'))!;
      assert.ok(step.includes(`kubectl get endpointslices -n ${p.svcNamespace} -l`), step);
    });

    it('no tool: kubectl debug gets the pod name and its namespace as -n', () => {
      for (const lang of ['en', 'zh-CN'] as const) {
        const input = scenario({ plan: p, pod: client(p), outputs: {}, toolsResult: toolsProbe(['cat']) });
        const v = decideVerdict(input, lang);
        assert.equal(v.code, 'tool-missing', v.summary);
        assert.ok(v.nextSteps[0].includes(`kubectl debug -it ${p.podName} -n ${CLIENT_NS} --image=`), v.nextSteps[0]);
      }
    });
  });
}

for (const p of PLANS) {
  describe(`the DNS next step from namespace ${CLIENT_NS} (plan ${p.name})`, () => {
    it('names the kpp diagnose command for the DNS Service from this very pod', () => {
      for (const lang of ['en', 'zh-CN'] as const) {
        const outputs = { ...calicoPod(p), ...connects(p, 'ok', 'ok'), dns: NSLOOKUP_TIMEOUT };
        const v = decideVerdict(scenario({ plan: p, pod: client(p), outputs }), lang);
        assert.equal(v.code, 'dns-failure', v.summary);
        const step = v.nextSteps.find((s) => s.includes('kpp diagnose svc/kube-dns'));
        assert.ok(
          step?.includes(`-n kube-system --port 53/udp --from pod/${p.podName} --from-namespace ${CLIENT_NS}`),
          v.nextSteps.join('\n'),
        );
      }
    });
  });
}

for (const p of PLANS) {
  describe(`the route-bypass next step from namespace ${CLIENT_NS} (plan ${p.name})`, () => {
    it("gives the commands that show this pod's routes and rules, with its namespace", () => {
      for (const lang of ['en', 'zh-CN'] as const) {
        const input = scenario({
          plan: p,
          pod: client(p),
          outputs: { ...secondInterfacePod(p), ...connects(p, 'timeout', 'ok') },
          nodeEvidence: counters(p, 7, 7),
        });
        const v = decideVerdict(input, lang);
        assert.equal(v.code, 'pod-route-bypasses-node', v.summary);
        for (const what of ['route', 'rule'])
          assert.ok(
            v.nextSteps[1].includes(`\`kubectl exec -n ${CLIENT_NS} ${p.podName} -- ip ${what}\``),
            v.nextSteps[1],
          );
      }
    });
  });
}
