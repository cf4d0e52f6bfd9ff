/**
 * The program a lab pod runs: `node pod-server.js CONFIG.json`, started inside the pod's network namespace.
 * Serves HTTP / HTTPS answering with the pod's name, the cluster DNS over UDP and TCP, or a UDP echo, on the
 * configured ports; prints `ready` once every port listens. Exits when its parent closes stdin, so a crashed lab
 * leaves no server behind.
 */
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { answerDnsQuery, frameTcpMessage, splitTcpMessages, type DnsZone } from './dns';
import type { Listener } from './plan';

export interface PodServerConfig {
  pod: string;
  listeners: Listener[];
  tls?: { certFile: string; keyFile: string };
  dns?: DnsZone;
}

function reply(_req: http.IncomingMessage, res: http.ServerResponse, pod: string): void {
  res.writeHead(200, { 'content-type': 'text/plain', 'x-pod-name': pod });
  res.end(`${pod}\n`);
}

function listenTcp(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
}

function listenUdp(socket: dgram.Socket, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, '0.0.0.0', () => resolve());
  });
}

async function serve(l: Listener, cfg: PodServerConfig): Promise<void> {
  switch (l.kind) {
    case 'http':
      return listenTcp(
        http.createServer((q, s) => reply(q, s, cfg.pod)),
        l.port,
      );
    case 'https': {
      if (!cfg.tls) throw new Error('https listener without tls files');
      const options = { cert: fs.readFileSync(cfg.tls.certFile), key: fs.readFileSync(cfg.tls.keyFile) };
      return listenTcp(
        https.createServer(options, (q, s) => reply(q, s, cfg.pod)),
        l.port,
      );
    }
    case 'udp-echo': {
      const socket = dgram.createSocket('udp4');
      socket.on('message', (_msg, from) => socket.send(`${cfg.pod}\n`, from.port, from.address));
      return listenUdp(socket, l.port);
    }
    case 'dns-udp': {
      const zone = cfg.dns!;
      const socket = dgram.createSocket('udp4');
      socket.on('message', (msg, from) => {
        const answer = answerDnsQuery(msg, zone);
        if (answer) socket.send(answer, from.port, from.address);
      });
      return listenUdp(socket, l.port);
    }
    case 'dns-tcp': {
      const zone = cfg.dns!;
      const server = net.createServer((conn) => {
        let pending: Buffer = Buffer.alloc(0);
        conn.on('error', () => conn.destroy());
        conn.on('data', (chunk) => {
          const { messages, rest } = splitTcpMessages(Buffer.concat([pending, chunk]));
          pending = rest;
          for (const m of messages) {
            const answer = answerDnsQuery(m, zone);
            if (answer) conn.write(frameTcpMessage(answer));
          }
        });
      });
      return listenTcp(server, l.port);
    }
  }
}

async function main(): Promise<void> {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as PodServerConfig;
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('close', () => process.exit(0));
  process.stdin.resume();
  await Promise.all(cfg.listeners.map((l) => serve(l, cfg)));
  process.stdout.write('ready\n');
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`pod-server: ${e.message}\n`);
    process.exit(1);
  });
}
