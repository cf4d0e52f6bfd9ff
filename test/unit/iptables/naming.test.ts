import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointChainName, kubeChainKind, serviceChainName, verifyServiceChain } from '../../../src/core/iptables/naming';

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
