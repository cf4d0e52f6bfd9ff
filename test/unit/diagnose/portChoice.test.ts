// `kpp diagnose --port P` where P is no port of the Service: the container's port (the Service's targetPort) is
// what a user who knows the pods types, so it picks the one Service port that sends there; when several do, or none,
// the error names the Service's ports with their targetPorts. Before, a targetPort was "has no port" like a typo.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pickPort } from '../../../src/cluster/diagnose';
import { isClusterError } from '../../../src/cluster/errors';
import { PLANS, service } from './fixtures';

function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(isClusterError(e), String(e));
    return e.oneLine();
  }
  assert.fail('no error');
}

for (const p of PLANS) {
  describe(`--port on plan ${p.name} (${p.clusterIP})`, () => {
    const svc = service(p, {
      ports: [
        { name: 'web', port: p.port, protocol: 'TCP', targetPort: p.targetPort },
        { name: 'admin', port: p.port + 1, protocol: 'TCP', targetPort: 'admin-http' },
        { name: 'syslog', port: 1514, protocol: 'UDP', targetPort: 5514 },
        { name: 'syslog-tcp', port: 1515, protocol: 'TCP', targetPort: 5514 },
      ],
    });

    it('picks the port whose numeric targetPort it is', () => {
      assert.equal(pickPort(svc, String(p.targetPort)).name, 'web');
      assert.equal(pickPort(svc, p.targetPort).name, 'web');
    });

    it('picks the port whose named targetPort it is', () => {
      assert.equal(pickPort(svc, 'admin-http').name, 'admin');
    });

    it('a port number or name still wins over a targetPort', () => {
      assert.equal(pickPort(svc, String(p.port)).name, 'web');
      assert.equal(pickPort(svc, 'syslog').port, 1514);
    });

    it('names the ports when a targetPort is shared by several', () => {
      const msg = thrown(() => pickPort(svc, '5514'));
      assert.match(msg, /targetPort of ports syslog:1514\/UDP \(targetPort 5514\), syslog-tcp:1515\/TCP/);
      assert.match(msg, /pass --port with one of them: syslog, syslog-tcp/);
    });

    it('lists every port with its targetPort when nothing matches', () => {
      const msg = thrown(() => pickPort(svc, '9'));
      assert.ok(msg.includes(`web:${p.port}/TCP (targetPort ${p.targetPort})`), msg);
      assert.ok(msg.includes('admin:'), msg);
    });
  });
}
