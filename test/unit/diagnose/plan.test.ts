import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyCheck } from '../../../src/core/diagnose/classify';
import {
  BASH_CONNECT_SCRIPT,
  connectOutcome,
  emptyToolSet,
  MAX_ENDPOINT_CHECKS,
  planChecks,
  readTools,
  resolvedAddresses,
  toolProbeCheck,
} from '../../../src/core/diagnose/plan';
import type { CheckResult, CheckSpec, PlanRequest, ToolSet } from '../../../src/core/diagnose/types';
import { ALL_TOOLS, endpoints, PLAN_A, PLAN_B, pod, service, servicePort, type AddressPlan } from './fixtures';

function request(p: AddressPlan, tools: Partial<ToolSet>, over: Partial<PlanRequest> = {}): PlanRequest {
  const svc = service(p);
  return {
    service: svc,
    port: servicePort(p),
    endpoints: endpoints(p),
    source: pod(p),
    tools: { ...emptyToolSet(), ...tools },
    timeoutMs: 3000,
    clusterDomain: p.clusterDomain,
    ...over,
  };
}

function raw(
  argv: string[],
  exitCode: number | null,
  stdout = '',
  stderr = '',
  error?: string,
): Omit<CheckResult, 'ok'> {
  return { id: 'x', argv, exitCode, durationMs: 5, stdout, stderr, ...(error ? { error } : {}) };
}

const SHELLS = new Set(['sh', 'bash']);

/** Every `-c` script in the plan is fixed text; cluster data only ever appears as its own argv element. */
function assertNoSplicing(plan: CheckSpec[], ...values: string[]): void {
  for (const c of plan) {
    if (SHELLS.has(c.argv[0]) || (c.argv[0] === 'timeout' && SHELLS.has(c.argv[2]))) {
      const script = c.argv[c.argv.indexOf('-c') + 1];
      for (const v of values) assert.ok(!script.includes(v), `${v} spliced into ${script}`);
    }
  }
}

describe('tool probe', () => {
  test('a fixed sh script that always exits 0', () => {
    const c = toolProbeCheck();
    assert.equal(c.id, 'tools');
    assert.equal(c.kind, 'tools');
    assert.deepEqual(c.argv.slice(0, 2), ['sh', '-c']);
    assert.match(
      c.argv[2],
      /^for t in curl wget nc bash ip nslookup getent cat timeout; do command -v "\$t"; done; exit 0$/,
    );
  });

  test('readTools reads paths, busybox applet names and ignores the rest', () => {
    const r = classifyCheck(
      toolProbeCheck(),
      raw(
        toolProbeCheck().argv,
        0,
        '/usr/bin/curl\n/bin/busybox-extras\nnc\n/sbin/ip\n/usr/bin/timeout\ncat\n/opt/evil/curl2\n',
      ),
    );
    assert.ok(r.ok);
    assert.deepEqual(readTools(r), { ...emptyToolSet(), curl: true, nc: true, ip: true, timeout: true, cat: true });
  });

  test('a failed probe says nothing is known', () => {
    for (const r of [
      raw(toolProbeCheck().argv, 126, '', 'exec: "sh": executable file not found in $PATH'),
      raw(toolProbeCheck().argv, null, '', '', 'forbidden'),
      raw(toolProbeCheck().argv, null, '/usr/bin/curl\n', '', 'timeout'),
    ]) {
      const c = classifyCheck(toolProbeCheck(), r);
      assert.equal(c.ok, false);
      assert.deepEqual(readTools(c), emptyToolSet());
    }
  });
});

describe('planChecks', () => {
  for (const p of [PLAN_A, PLAN_B]) {
    test(`plan ${p.name}: curl, ip, nslookup, cat`, () => {
      const plan = planChecks(request(p, { curl: true, ip: true, nslookup: true, cat: true, timeout: true }));
      const ids = plan.map((c) => c.id);
      assert.deepEqual(ids, [
        'connect-clusterip',
        ...p.endpoints.map((ip) => `connect-endpoint:${ip}:${p.targetPort}`),
        'dns',
        'route-clusterip',
        'route-endpoint',
        'addresses',
        'links',
        'neighbours',
        'routes',
        'resolv-conf',
      ]);
      const cip = plan[0];
      assert.equal(cip.argv[0], 'curl');
      assert.equal(cip.argv[cip.argv.length - 1], `http://${p.clusterIP}:${p.port}/`);
      assert.ok(cip.argv.includes('--connect-timeout') && cip.argv.includes('--noproxy'));
      assert.equal(cip.target, `${p.clusterIP}:${p.port}`);
      assert.ok(cip.timeoutMs > 3000, 'the check outlives the tool');
      assert.deepEqual(plan.find((c) => c.id === 'dns')?.argv, [
        'nslookup',
        `${p.svcName}.${p.svcNamespace}.svc.${p.clusterDomain}`,
      ]);
      assert.deepEqual(plan.find((c) => c.id === 'route-clusterip')?.argv, ['ip', 'route', 'get', p.clusterIP]);
      assert.deepEqual(plan.find((c) => c.id === 'route-endpoint')?.argv, ['ip', 'route', 'get', p.endpoints[0]]);
      assert.deepEqual(plan.find((c) => c.id === 'links')?.argv, ['ip', '-d', 'link']);
      assert.deepEqual(plan.find((c) => c.id === 'addresses')?.argv, ['ip', '-o', 'addr']);
      assert.deepEqual(plan.find((c) => c.id === 'resolv-conf')?.argv, ['cat', '/etc/resolv.conf']);
      for (const c of plan) assert.equal(c.kind, c.id.split(':')[0]);
    });
  }

  test('fallback order: wget, then nc, then bash /dev/tcp (bash wrapped in timeout when there is one)', () => {
    const p = PLAN_B;
    const first = (tools: Partial<ToolSet>) => planChecks(request(p, tools))[0].argv;
    assert.deepEqual(first({ curl: true, wget: true, nc: true, bash: true })[0], 'curl');
    assert.deepEqual(first({ wget: true, nc: true, timeout: true }), [
      'wget',
      '-T',
      '3',
      '-t',
      '1',
      '-O',
      '/dev/null',
      `http://${p.clusterIP}:${p.port}/`,
    ]);
    assert.deepEqual(first({ nc: true, bash: true }), ['nc', '-v', '-z', '-w', '3', p.clusterIP, String(p.port)]);
    assert.deepEqual(first({ bash: true, timeout: true }), [
      'timeout',
      '4',
      'bash',
      '-c',
      BASH_CONNECT_SCRIPT,
      '_',
      p.clusterIP,
      String(p.port),
    ]);
    assert.deepEqual(first({ bash: true }), [
      'bash',
      '-c',
      'exec 3<>"/dev/tcp/$1/$2"',
      '_',
      p.clusterIP,
      String(p.port),
    ]);
    assert.equal(
      planChecks(request(p, { ip: true, cat: true })).some((c) => c.kind === 'connect-clusterip'),
      false,
    );
  });

  test('no ip: /proc/net/route and /proc/net/fib_trie; getent for DNS', () => {
    const plan = planChecks(request(PLAN_A, { wget: true, cat: true, getent: true }));
    assert.deepEqual(plan.find((c) => c.id === 'routes')?.argv, ['cat', '/proc/net/route']);
    assert.deepEqual(plan.find((c) => c.id === 'addresses')?.argv, ['cat', '/proc/net/fib_trie']);
    assert.deepEqual(plan.find((c) => c.id === 'dns')?.argv, ['getent', 'hosts', 'web.shop.svc.cluster.local']);
    assert.ok(!plan.some((c) => c.kind === 'route-clusterip' || c.kind === 'links'));
  });

  test('nothing known: nothing planned', () => {
    assert.deepEqual(planChecks(request(PLAN_A, {})), []);
  });

  test(`endpoint connects are capped at ${MAX_ENDPOINT_CHECKS}, ready ones first, duplicates once`, () => {
    const p = PLAN_A;
    const many = Array.from({ length: 30 }, (_, i) => ({
      ip: `10.42.${i % 5}.${i + 10}`,
      port: 8080,
      protocol: 'TCP' as const,
      ready: i >= 25,
      serving: true,
      terminating: false,
    }));
    many.push({ ...many[26] });
    const plan = planChecks(request(p, { curl: true }, { endpoints: many }));
    const eps = plan.filter((c) => c.kind === 'connect-endpoint');
    assert.equal(eps.length, MAX_ENDPOINT_CHECKS);
    assert.deepEqual(
      eps.slice(0, 5).map((c) => c.target),
      many.slice(25, 30).map((e) => `${e.ip}:8080`),
    );
    assert.equal(new Set(eps.map((c) => c.id)).size, eps.length);
  });

  test('UDP 53: a DNS query against the address; other UDP and SCTP ports: no connect', () => {
    const p = PLAN_A;
    const dnsSvc = service(p, {
      namespace: 'kube-system',
      name: 'kube-dns',
      clusterIP: '10.96.0.10',
      clusterIPs: ['10.96.0.10'],
      ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 }],
    });
    const eps = [
      { ip: '10.42.2.3', port: 53, protocol: 'UDP' as const, ready: true, serving: true, terminating: false },
    ];
    const plan = planChecks({
      ...request(p, { curl: true, nslookup: true, ip: true }),
      service: dnsSvc,
      port: dnsSvc.ports[0],
      endpoints: eps,
    });
    assert.deepEqual(plan.find((c) => c.id === 'connect-clusterip')?.argv, [
      'nslookup',
      'kube-dns.kube-system.svc.cluster.local',
      '10.96.0.10',
    ]);
    assert.deepEqual(plan.find((c) => c.id === 'connect-endpoint:10.42.2.3:53')?.argv, [
      'nslookup',
      'kube-dns.kube-system.svc.cluster.local',
      '10.42.2.3',
    ]);
    const getentOnly = planChecks({
      ...request(p, { curl: true, getent: true }),
      service: dnsSvc,
      port: dnsSvc.ports[0],
      endpoints: eps,
    });
    assert.ok(!getentOnly.some((c) => c.kind === 'connect-clusterip'), 'getent cannot ask a given server');
    for (const protocol of ['UDP', 'SCTP'] as const) {
      const svc = service(p, { ports: [{ name: 'x', port: 514, protocol }] });
      const plan2 = planChecks({
        ...request(p, ALL_TOOLS),
        service: svc,
        port: svc.ports[0],
        endpoints: [{ ip: '10.42.2.3', port: 514, protocol, ready: true, serving: true, terminating: false }],
      });
      assert.ok(!plan2.some((c) => c.kind === 'connect-clusterip' || c.kind === 'connect-endpoint'), protocol);
      assert.ok(plan2.some((c) => c.kind === 'route-clusterip'));
    }
  });

  test('IPv6: bracketed URL with curl -g, bare address for nc and ip', () => {
    const p = PLAN_A;
    const svc = service(p, { clusterIP: 'fd00:10:96::1f', clusterIPs: ['fd00:10:96::1f'] });
    const eps = [
      { ip: 'fd00:10:42:2::15', port: 8080, protocol: 'TCP' as const, ready: true, serving: true, terminating: false },
    ];
    const plan = planChecks({ ...request(p, { curl: true, ip: true }), service: svc, endpoints: eps });
    const c = plan[0];
    assert.ok(c.argv.includes('-g'));
    assert.equal(c.argv[c.argv.length - 1], 'http://[fd00:10:96::1f]:80/');
    assert.equal(plan[1].id, 'connect-endpoint:[fd00:10:42:2::15]:8080');
    assert.deepEqual(plan.find((x) => x.id === 'route-clusterip')?.argv, ['ip', 'route', 'get', 'fd00:10:96::1f']);
    const nc = planChecks({ ...request(p, { nc: true }), service: svc, endpoints: eps })[0];
    assert.deepEqual(nc.argv.slice(-2), ['fd00:10:96::1f', '80']);
  });
});

describe('hostile cluster data never reaches a shell', () => {
  const HOSTILE = ['web;reboot', '$(curl evil)', '`id`', 'a b', 'web\nrm -rf /', "x' || true '", 'ns|sh', '../../etc'];

  test('hostile Service and namespace names: no DNS check, no argv holds them', () => {
    for (const name of HOSTILE) {
      for (const field of ['name', 'namespace'] as const) {
        const p = PLAN_A;
        const svc = service(p, { [field]: name });
        const plan = planChecks({ ...request(p, ALL_TOOLS), service: svc });
        assert.ok(!plan.some((c) => c.kind === 'dns'), `${field}=${JSON.stringify(name)}`);
        for (const c of plan)
          for (const a of c.argv) assert.ok(!a.includes(name), `${JSON.stringify(name)} in ${JSON.stringify(c.argv)}`);
        assertNoSplicing(plan, name);
        assert.ok(
          plan.some((c) => c.kind === 'connect-clusterip'),
          'the validated ClusterIP is still probed',
        );
      }
    }
  });

  test('hostile cluster domain, ClusterIP, endpoint addresses and ports are left out', () => {
    const p = PLAN_B;
    const domainPlan = planChecks(request(p, ALL_TOOLS, { clusterDomain: 'cluster.local;id' }));
    assert.ok(!domainPlan.some((c) => c.kind === 'dns'));
    for (const bad of [
      '10.0.0.1;reboot',
      '10.0.0.1 ',
      '$(id)',
      '010.0.0.1',
      '10.0.0.256',
      '[::1]',
      'fe80::1%eth0',
      '',
    ]) {
      const svc = service(p, { clusterIP: bad, clusterIPs: [bad] });
      const eps = [
        { ip: bad, port: 8080, protocol: 'TCP' as const, ready: true, serving: true, terminating: false },
        { ip: '100.65.9.4', port: 70000, protocol: 'TCP' as const, ready: true, serving: true, terminating: false },
      ];
      const plan = planChecks({ ...request(p, ALL_TOOLS), service: svc, endpoints: eps });
      assert.ok(
        !plan.some(
          (c) =>
            c.kind === 'connect-clusterip' ||
            c.kind === 'route-clusterip' ||
            c.kind === 'connect-endpoint' ||
            c.kind === 'route-endpoint',
        ),
        JSON.stringify(bad),
      );
      for (const c of plan)
        for (const a of c.argv)
          if (bad) assert.ok(!a.includes(bad) || ['/dev/null', '*'].includes(a), `${bad} in ${a}`);
      assertNoSplicing(plan, bad || 'x-none');
    }
    const odd = planChecks(
      request(p, ALL_TOOLS, { service: service(p, { clusterIP: '172.030.44.5', clusterIPs: [] }) }),
    );
    assert.ok(!odd.some((c) => c.kind === 'connect-clusterip'));
  });

  test('the bash connect passes addresses as arguments', () => {
    const plan = planChecks(request(PLAN_A, { bash: true }));
    for (const c of plan.filter((x) => x.kind.startsWith('connect'))) {
      assert.equal(c.argv[2], BASH_CONNECT_SCRIPT);
      assert.equal(c.argv[3], '_');
      assert.match(c.argv[4], /^\d+\.\d+\.\d+\.\d+$/);
      assert.match(c.argv[5], /^\d+$/);
    }
  });
});

describe('reading connect results', () => {
  const curl = [
    'curl',
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    'connect=%{time_connect} code=%{http_code}\\n',
    'http://10.100.12.34:80/',
  ];
  const cases: [string, string[], number | null, string, string, string][] = [
    ['curl 0', curl, 0, 'connect=0.000512 code=200\n', '', 'connected'],
    [
      'curl 7 refused (-v style message)',
      curl,
      7,
      'connect=0.000000 code=000\n',
      'curl: (7) Failed to connect to 10.100.12.34 port 80: Connection refused\n',
      'refused',
    ],
    [
      'curl 7 (7.88 message)',
      curl,
      7,
      'connect=0.000000 code=000\n',
      "curl: (7) Failed to connect to 10.100.12.34 port 80 after 0 ms: Couldn't connect to server\n",
      'no-connect',
    ],
    [
      'curl 7 no route',
      curl,
      7,
      '',
      'curl: (7) Failed to connect to 10.100.12.34 port 80 after 3 ms: No route to host\n',
      'unreachable',
    ],
    [
      'curl 28 connect timeout',
      curl,
      28,
      'connect=0.000000 code=000\n',
      'curl: (28) Connection timed out after 3001 milliseconds\n',
      'timeout',
    ],
    [
      'curl 28 after connect (no -w)',
      ['curl', 'http://x/'],
      28,
      '',
      'curl: (28) Operation timed out after 4001 milliseconds with 0 bytes received\n',
      'connected',
    ],
    [
      'curl 28 after connect (-w)',
      curl,
      28,
      'connect=0.001200 code=000\n',
      'curl: (28) Operation timed out after 4001 milliseconds with 0 bytes received\n',
      'connected',
    ],
    [
      'curl 52 empty reply',
      curl,
      52,
      'connect=0.000300 code=000\n',
      'curl: (52) Empty reply from server\n',
      'connected',
    ],
    [
      'curl 56 reset after connect',
      ['curl', 'http://x/'],
      56,
      '',
      'curl: (56) Recv failure: Connection reset by peer\n',
      'connected',
    ],
    [
      'curl 35 TLS',
      ['curl', 'https://x/'],
      35,
      '',
      'curl: (35) OpenSSL/3.0.11: error:0A00010B:SSL routines::wrong version number\n',
      'connected',
    ],
    [
      'curl 60 certificate',
      ['curl', 'https://x/'],
      60,
      '',
      'curl: (60) SSL certificate problem: self-signed certificate in certificate chain\n',
      'connected',
    ],
    [
      'busybox wget refused',
      ['wget', '-T', '3', 'http://x/'],
      1,
      '',
      "Connecting to 10.100.12.34:80 (10.100.12.34:80)\nwget: can't connect to remote host (10.100.12.34): Connection refused\n",
      'refused',
    ],
    [
      'busybox wget 404',
      ['wget', 'http://x/'],
      1,
      '',
      'Connecting to 10.100.12.34:80 (10.100.12.34:80)\nwget: server returned error: HTTP/1.1 404 Not Found\n',
      'connected',
    ],
    [
      'busybox wget timeout (wrapped)',
      ['timeout', '4', 'wget', 'http://x/'],
      1,
      '',
      'Connecting to 10.100.12.34:80 (10.100.12.34:80)\nwget: download timed out\n',
      'timeout',
    ],
    [
      'GNU wget connected then 500',
      ['wget', 'http://x/'],
      8,
      '',
      'Connecting to 10.100.12.34:80... connected.\nHTTP request sent, awaiting response... 500 Internal Server Error\n2026-12-05 10:00:01 ERROR 500: Internal Server Error.\n',
      'connected',
    ],
    [
      'GNU wget refused',
      ['wget', 'http://x/'],
      4,
      '',
      'Connecting to 10.100.12.34:80... failed: Connection refused.\n',
      'refused',
    ],
    ['timeout kills the tool', ['timeout', '4', 'wget', 'http://x/'], 124, '', '', 'timeout'],
    [
      'openbsd nc ok',
      ['nc', '-v', '-z', '-w', '3', '10.100.12.34', '80'],
      0,
      '',
      'Connection to 10.100.12.34 80 port [tcp/http] succeeded!\n',
      'connected',
    ],
    [
      'openbsd nc timeout',
      ['nc', '-v', '-z', '-w', '3', '10.100.12.34', '80'],
      1,
      '',
      'nc: connect to 10.100.12.34 port 80 (tcp) timed out: Operation now in progress\n',
      'timeout',
    ],
    [
      'busybox nc refused',
      ['nc', '-v', '-z', '-w', '3', '10.100.12.34', '80'],
      1,
      '',
      'nc: 10.100.12.34 (10.100.12.34:80): Connection refused\n',
      'refused',
    ],
    [
      'busybox nc without -z',
      ['nc', '-v', '-z', '-w', '3', '10.100.12.34', '80'],
      1,
      '',
      "nc: invalid option -- 'z'\nBusyBox v1.36.1 multi-call binary.\n\nUsage: nc [-iN] [-wN] [-l] [-p PORT] [-f FILE|IPADDR PORT] [-e PROG]\n",
      'error',
    ],
    [
      'bash /dev/tcp refused',
      ['bash', '-c', BASH_CONNECT_SCRIPT, '_', '10.100.12.34', '80'],
      1,
      '',
      'bash: connect: Connection refused\nbash: line 1: /dev/tcp/10.100.12.34/80: Connection refused\n',
      'refused',
    ],
    [
      'bash /dev/tcp ok',
      ['timeout', '4', 'bash', '-c', BASH_CONNECT_SCRIPT, '_', '10.100.12.34', '80'],
      0,
      '',
      '',
      'connected',
    ],
    [
      'tool not found (exit 127)',
      ['curl', 'http://x/'],
      127,
      '',
      'OCI runtime exec failed: exec: "curl": executable file not found in $PATH',
      'error',
    ],
    [
      'nslookup against a server: NXDOMAIN means it answered',
      ['nslookup', 'kube-dns.kube-system.svc.cluster.local', '10.96.0.10'],
      1,
      "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find kube-dns.kube-system.svc.cluster.local: NXDOMAIN\n",
      '',
      'connected',
    ],
    [
      'nslookup against a server: no answer',
      ['nslookup', 'x', '10.96.0.10'],
      1,
      ';; connection timed out; no servers could be reached\n',
      '',
      'timeout',
    ],
  ];
  for (const [name, argv, code, stdout, stderr, want] of cases) {
    test(name, () => {
      assert.equal(connectOutcome(raw(argv, code, stdout, stderr)), want);
      const spec: CheckSpec = {
        id: 'connect-clusterip',
        kind: 'connect-clusterip',
        argv,
        timeoutMs: 6000,
        target: '10.100.12.34:80',
      };
      const r = classifyCheck(spec, raw(argv, code, stdout, stderr));
      assert.equal(r.ok, want === 'connected');
      assert.equal(r.kind, 'connect-clusterip');
      assert.equal(r.target, '10.100.12.34:80');
    });
  }

  test('the runner timing the exec out, or exec failing to start', () => {
    assert.equal(connectOutcome(raw(curl, null, '', '', 'timeout')), 'timeout');
    assert.equal(connectOutcome(raw(curl, null, '', '', 'not-found')), 'error');
    assert.equal(connectOutcome(raw(curl, null, '', '', 'websocket closed')), 'not-run');
  });
});

test("a connect check keeps curl -v's connect lines, never the backend's headers (the report is pasted into tickets)", () => {
  const spec: CheckSpec = {
    id: 'connect-clusterip',
    kind: 'connect-clusterip',
    argv: ['curl', '-sS', '-v', '-o', '/dev/null', 'http://10.100.12.34:80/'],
    timeoutMs: 5000,
  };
  const verbose = [
    '*   Trying 10.100.12.34:80...',
    '* Connected to 10.100.12.34 (10.100.12.34) port 80 (#0)',
    '> GET / HTTP/1.1',
    '> Host: 10.100.12.34',
    '< HTTP/1.1 200 OK',
    '< Set-Cookie: session=s3cr3t-token; HttpOnly',
    '< X-Internal-Build: payments-7f9c',
    '* Connection #0 to host 10.100.12.34 left intact',
  ].join('\n');
  const raw = { id: spec.id, argv: spec.argv, durationMs: 9, stdout: 'connect=0.0005 code=200\n' };
  const result = classifyCheck(spec, { ...raw, exitCode: 0, stderr: verbose });
  assert.equal(result.ok, true);
  assert.equal(result.stderr, '* Connected to 10.100.12.34 (10.100.12.34) port 80 (#0)');
  // An exec the API refused: its message is kept whole.
  const refused = classifyCheck(spec, {
    ...raw,
    exitCode: null,
    error: 'forbidden',
    stderr: 'pods "x" is forbidden\n',
  });
  assert.equal(refused.stderr, 'pods "x" is forbidden\n');
});

describe('reading DNS and routes', () => {
  test('nslookup (busybox, bind, old busybox) and getent', () => {
    assert.deepEqual(
      resolvedAddresses({
        argv: ['nslookup', 'web'],
        exitCode: 0,
        stdout:
          'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.shop.svc.cluster.local\nAddress: 10.100.12.34\n',
      }),
      ['10.100.12.34'],
    );
    assert.deepEqual(
      resolvedAddresses({
        argv: ['nslookup', 'web'],
        exitCode: 0,
        stdout:
          'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tweb.shop.svc.cluster.local\nAddress: 10.100.12.34\nName:\tweb.shop.svc.cluster.local\nAddress: fd00:10:96::1f\n',
      }),
      ['10.100.12.34', 'fd00:10:96::1f'],
    );
    assert.deepEqual(
      resolvedAddresses({
        argv: ['nslookup', 'web'],
        exitCode: 0,
        stdout:
          'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      web.shop.svc.cluster.local\nAddress 1: 10.100.12.34 web.shop.svc.cluster.local\n',
      }),
      ['10.100.12.34'],
    );
    assert.deepEqual(
      resolvedAddresses({
        argv: ['getent', 'hosts', 'web'],
        exitCode: 0,
        stdout: '10.100.12.34    web.shop.svc.cluster.local\n',
      }),
      ['10.100.12.34'],
    );
    assert.deepEqual(
      resolvedAddresses({
        argv: ['nslookup', 'web'],
        exitCode: 1,
        stdout: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find web: NXDOMAIN\n",
      }),
      [],
    );
    const dns: CheckSpec = { id: 'dns', kind: 'dns', argv: ['nslookup', 'web'], timeoutMs: 5000 };
    assert.equal(
      classifyCheck(
        dns,
        raw(dns.argv, 0, 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb\nAddress: 10.100.12.34\n'),
      ).ok,
      true,
    );
    assert.equal(classifyCheck(dns, raw(dns.argv, 0, 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n')).ok, false);
  });

  test('ip route get: found, unreachable', () => {
    const spec: CheckSpec = {
      id: 'route-clusterip',
      kind: 'route-clusterip',
      argv: ['ip', 'route', 'get', '10.100.12.34'],
      timeoutMs: 5000,
    };
    assert.equal(
      classifyCheck(
        spec,
        raw(spec.argv, 0, '10.100.12.34 via 169.254.1.1 dev eth0 src 10.42.1.17 uid 0 \n    cache \n'),
      ).ok,
      true,
    );
    assert.equal(classifyCheck(spec, raw(spec.argv, 2, '', 'RTNETLINK answers: Network is unreachable\n')).ok, false);
  });
});
