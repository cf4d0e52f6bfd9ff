// Small HTTP helpers: JSON answers, Status answers (also raw, on a socket that asked for an upgrade), bodies.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, errors, type V1Status } from './status';

const maxBodyBytes = 4 * 1024 * 1024;

function commonHeaders(contentType: string, length: number): Record<string, string | number> {
  return {
    'Content-Type': contentType,
    'Content-Length': length,
    'Cache-Control': 'no-cache, private',
    'Audit-Id': randomUUID(),
  };
}

export function sendJson(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(code, commonHeaders(contentType, Buffer.byteLength(text)));
  res.end(text);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, commonHeaders('text/plain; charset=utf-8', Buffer.byteLength(text)));
  res.end(text);
}

export function statusOf(e: unknown): V1Status {
  if (e instanceof ApiError) return e.status;
  return errors.internal(e instanceof Error ? e.message : String(e)).status;
}

export function sendStatus(res: ServerResponse, status: V1Status): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status.code, status);
}

/** Answers a request that arrived on the upgrade path (WebSocket or SPDY) with a plain HTTP v1.Status. */
export function writeRawStatus(socket: Duplex, status: V1Status): void {
  if (socket.destroyed) return;
  const text = JSON.stringify(status);
  const headers = { ...commonHeaders('application/json', Buffer.byteLength(text)), Connection: 'close' };
  const head = [
    `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code] ?? 'Error'}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${text}`);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw errors.badRequest(`request body larger than ${maxBodyBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`the request body is not valid JSON: ${(e as Error).message}`);
  }
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1] : undefined;
}
