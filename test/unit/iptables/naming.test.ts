import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  endpointChainName,
  kubeChainKind,
  serviceChainName,
  verifyServiceChain,
  verifyServiceChains,
} from '../../../src/core/iptables/chainHashes';

test('chain hashes match kube-proxy for known Services', () => {
  // Values that appear in real dumps for these well-known Services.
  assert.equal(serviceChainName('KUBE-SVC-', 'default/kubernetes:https', 'TCP'), 'KUBE-SVC-NPX46M4PTMTKRN6Y');
  assert.equal(serviceChainName('KUBE-SVC-', 'kube-system/kube-dns:dns', 'udp'), 'KUBE-SVC-TCOU7JCQXEZGVUNU');
  assert.equal(serviceChainName('KUBE-SVC-', 'kube-system/kube-dns:dns-tcp', 'tcp'), 'KUBE-SVC-ERIFXISQEP7F7OF4');
  assert.equal(endpointChainName('ns1/svc1:p80', 'tcp', '10.180.0.1:80'), 'KUBE-SEP-SXIVWICOYRO3J4NJ');
});

test('verification accepts the old unnamed-port form and rejects other services', () => {
  const chain = serviceChainName('KUBE-SVC-', 'kube-system/heapster:', 'tcp');
  assert.equal(verifyServiceChain(chain, 'kube-system/heapster:', 'tcp'), true);
  assert.equal(verifyServiceChain(chain, 'kube-system/heapster', 'tcp'), true);
  assert.equal(verifyServiceChain(chain, 'kube-system/other', 'tcp'), false);
  assert.equal(verifyServiceChain(serviceChainName('KUBE-EXT-', 'a/b:c', 'udp'), 'a/b:c', 'udp'), true);
});

test("a Service's chains verify together: every one must carry the port's hash", () => {
  const names = (spn: string, protocol: string) =>
    ['KUBE-SVC-', 'KUBE-SVL-', 'KUBE-EXT-', 'KUBE-FW-', 'KUBE-XLB-'].map((p) =>
      serviceChainName(p as 'KUBE-SVC-', spn, protocol),
    );
  assert.equal(verifyServiceChains(names('ns/web:http', 'tcp'), 'ns/web:http', 'TCP'), true);
  // One chain hashed for another port or protocol spoils the set.
  assert.equal(
    verifyServiceChains(
      [...names('ns/web:http', 'tcp'), serviceChainName('KUBE-FW-', 'ns/web:https', 'tcp')],
      'ns/web:http',
      'tcp',
    ),
    false,
  );
  assert.equal(
    verifyServiceChains([names('ns/web:http', 'tcp')[0], names('ns/web:http', 'udp')[2]], 'ns/web:http', 'tcp'),
    false,
  );
  // Each chain may use either form of an unnamed port (old and new kube-proxy in one paste).
  assert.equal(
    verifyServiceChains(
      [serviceChainName('KUBE-SVC-', 'ns/db:', 'tcp'), serviceChainName('KUBE-EXT-', 'ns/db', 'tcp')],
      'ns/db',
      'tcp',
    ),
    true,
  );
  // A name one character longer or with an unknown prefix is no kube-proxy chain.
  assert.equal(verifyServiceChains([names('ns/web:http', 'tcp')[0] + 'A'], 'ns/web:http', 'tcp'), false);
  assert.equal(
    verifyServiceChains(['KUBE-ABC-' + names('ns/web:http', 'tcp')[0].slice(9)], 'ns/web:http', 'tcp'),
    false,
  );
});

test('chain kinds', () => {
  assert.equal(kubeChainKind('KUBE-SVC-X'), 'service');
  assert.equal(kubeChainKind('KUBE-SEP-X'), 'endpoint');
  assert.equal(kubeChainKind('KUBE-SERVICES'), 'kube-fixed');
  assert.equal(kubeChainKind('cali-FORWARD'), undefined);
  const kinds: [string, string | undefined][] = [
    ['KUBE-SVL-ABC', 'service-local'],
    ['KUBE-EXT-ABC', 'external'],
    ['KUBE-FW-ABC', 'firewall'],
    ['KUBE-FW--X', 'firewall'],
    ['KUBE-XLB-ABC', 'external-local'],
    ['KUBE-SVC-', 'service'],
    ['KUBE-SVCX-1', 'kube-fixed'],
    ['KUBE-FWX', 'kube-fixed'],
    ['KUBE-FW', 'kube-fixed'],
    ['KUBE-MARK-MASQ', 'kube-fixed'],
    ['KUBE-', 'kube-fixed'],
    ['KUBE', undefined],
    ['kube-svc-abc', undefined],
  ];
  for (const [name, kind] of kinds) assert.equal(kubeChainKind(name), kind, name);
});
