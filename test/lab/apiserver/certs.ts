// A throwaway CA and a server certificate for 127.0.0.1/localhost, made with the openssl CLI at start.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LabCerts {
  caPem: string;
  certPem: string;
  keyPem: string;
}

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 20_000 });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`openssl ${args[0]} failed: ${(err.stderr ?? err.message).trim()}`);
  }
}

const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export async function makeLabCerts(dir: string): Promise<LabCerts> {
  await fs.mkdir(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  await openssl([
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    '2',
    '-subj',
    '/CN=kpp-lab-ca',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await openssl([
    'req',
    '-new',
    ...ecKey,
    '-keyout',
    file('apiserver.key'),
    '-out',
    file('apiserver.csr'),
    '-subj',
    '/CN=kpp-lab-apiserver',
  ]);
  // Go clients check only the SAN, never the CN.
  await fs.writeFile(
    file('apiserver.ext'),
    [
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      '',
    ].join('\n'),
  );
  await openssl([
    'x509',
    '-req',
    '-in',
    file('apiserver.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('apiserver.crt'),
    '-days',
    '2',
    '-extfile',
    file('apiserver.ext'),
  ]);
  await Promise.all([fs.chmod(file('ca.key'), 0o600), fs.chmod(file('apiserver.key'), 0o600)]);
  const [caPem, certPem, keyPem] = await Promise.all(
    ['ca.crt', 'apiserver.crt', 'apiserver.key'].map((n) => fs.readFile(file(n), 'utf8')),
  );
  return { caPem, certPem, keyPem };
}
