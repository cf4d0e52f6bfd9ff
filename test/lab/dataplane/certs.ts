/** A self-signed serving certificate for the lab's apiserver endpoints, made with openssl (argv, no shell). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from './sys';

export interface ServingCert {
  certFile: string;
  keyFile: string;
}

/** `ips` and `dnsNames` become the certificate's subjectAltNames. */
export async function makeServingCert(dir: string, ips: string[], dnsNames: string[]): Promise<ServingCert> {
  fs.mkdirSync(dir, { recursive: true });
  const certFile = path.join(dir, 'serving.crt');
  const keyFile = path.join(dir, 'serving.key');
  const san = [...ips.map((ip) => `IP:${ip}`), ...dnsNames.map((n) => `DNS:${n}`)].join(',');
  await run([
    'openssl',
    'req',
    '-x509',
    '-nodes',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '2',
    '-subj',
    '/CN=kube-apiserver',
    '-addext',
    `subjectAltName=${san}`,
  ]);
  fs.chmodSync(keyFile, 0o600);
  return { certFile, keyFile };
}
