// Errors in words a person can act on, exec status frames, and the CLI's kubectl-style arguments. No network.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { httpError, readExecStatus, transportError } from '../../../src/cluster';
import { checkImage, checkPodName } from '../../../src/cluster/validate';
import { expandShortOptions, resourceName } from '../../../src/cli/commands/clusterArgs';

const status = (code: number, message: string, reason = 'Forbidden') =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason, code });

describe('cluster errors', () => {
  it('403 on a list names the verb, resource and namespace, and keeps the API message as the hint', () => {
    const e = httpError(
      403,
      status(
        403,
        'services is forbidden: User "dev" cannot list resource "services" in API group "" in the namespace "kube-system"',
      ),
      { verb: 'list', resource: 'services', namespace: 'kube-system' },
    );
    assert.equal(e.code, 'forbidden');
    assert.equal(e.message, '403: you may not list services in kube-system');
    assert.match(e.hint, /cannot list resource "services"/);
    assert.equal(e.reason, 'Forbidden');
    assert.equal(e.status, 403);
  });

  it('403 on pods/exec is exec-forbidden with the API message', () => {
    const e = httpError(
      403,
      status(403, 'pods "client" is forbidden: User "viewer" cannot create resource "pods/exec"'),
      {
        verb: 'exec into',
        resource: 'pods/exec',
        namespace: 'default',
        name: 'client',
      },
    );
    assert.equal(e.code, 'exec-forbidden');
    assert.match(e.message, /^403: you may not exec into pods in default: pods "client" is forbidden/);
    assert.equal(e.detail, 'pods "client" is forbidden: User "viewer" cannot create resource "pods/exec"');
  });

  it('401 says the credentials were refused or expired, and what to do', () => {
    const e = httpError(401, status(401, 'Unauthorized', 'Unauthorized'), { verb: 'list', resource: 'pods' }, 'alice');
    assert.equal(e.code, 'unauthorized');
    assert.equal(e.message, '401: the cluster refused the credentials of user "alice" (expired or invalid)');
    assert.match(e.hint, /log in again/);
  });

  it('404 of a named object, of a resource, and other statuses', () => {
    assert.equal(
      httpError(404, status(404, 'services "x" not found', 'NotFound'), {
        verb: 'get',
        resource: 'services',
        namespace: 'a',
        name: 'x',
      }).message,
      '404: service a/x not found',
    );
    const e = httpError(500, 'oops', { verb: 'list', resource: 'nodes' });
    assert.equal(e.code, 'api');
    assert.equal(e.message, '500: could not list nodes (cluster-wide): oops');
  });

  it('transport failures: unreachable with the address, TLS, cancelled', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    const e = transportError(refused, 'https://127.0.0.1:6443');
    assert.equal(e.code, 'unreachable');
    assert.equal(e.message, 'cluster unreachable: connect ECONNREFUSED 127.0.0.1:6443');
    const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    assert.equal(transportError(tls, 'https://k').code, 'tls');
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    assert.equal(transportError(abort, 'https://k').code, 'cancelled');
  });
});

describe('exec status frames', () => {
  it('Success, NonZeroExitCode, a missing executable, and the pre-v4 plain text', () => {
    assert.deepEqual(readExecStatus('{"status":"Success"}', true), { exitCode: 0 });
    assert.deepEqual(
      readExecStatus(
        '{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"7"}]}}',
        true,
      ),
      { exitCode: 7 },
    );
    assert.deepEqual(
      readExecStatus('{"status":"Failure","message":"exec: \\"curl\\": executable file not found in $PATH"}', true),
      { exitCode: 127, error: 'not-found' },
    );
    assert.deepEqual(readExecStatus('', false), { exitCode: 0 });
    assert.deepEqual(readExecStatus('command terminated', false), { exitCode: null, error: 'command terminated' });
  });
});

describe('names and arguments', () => {
  it('shell metacharacters never pass as names or images', () => {
    for (const bad of ['a;b', '$(id)', '`id`', 'a b', 'a|b', 'A', '../x', '']) {
      assert.throws(
        () => checkPodName(bad),
        (e: Error) => /is not a valid pod name/.test(e.message),
      );
    }
    assert.equal(checkImage('nicolaka/netshoot:v0.13'), 'nicolaka/netshoot:v0.13');
    assert.throws(() => checkImage('netshoot; rm -rf /'));
  });

  it('kubectl-style -n / -A, and kind/NAME', () => {
    assert.deepEqual(expandShortOptions(['-n', 'kube-system', '--json']), ['--namespace', 'kube-system', '--json']);
    assert.deepEqual(expandShortOptions(['-nfoo', '-A']), ['--namespace', 'foo', '--all-namespaces']);
    assert.deepEqual(expandShortOptions(['-n=bar']), ['--namespace', 'bar']);
    assert.throws(() => expandShortOptions(['-x']), /unknown option -x/);
    assert.equal(resourceName('svc/web', ['svc', 'service'], 'Service'), 'web');
    assert.equal(resourceName('service/web', ['svc', 'service'], 'Service'), 'web');
    assert.equal(resourceName('client', ['pod'], 'pod', true), 'client');
    assert.throws(() => resourceName('deploy/web', ['svc'], 'Service'), /expected svc\/NAME/);
    assert.throws(() => resourceName('web', ['svc'], 'Service'), /expected svc\/NAME/);
  });
});
