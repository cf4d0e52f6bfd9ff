/** `ipvsadm -Lnc` connection entries: `TCP 14:59  ESTABLISHED 10.0.0.9:52470 10.96.0.1:443 10.244.1.5:6443`. */
import type { SourceLine } from '../common/lines';
import type { ParseContext } from './context';
import { parseEndpoint } from './endpoint';
import { endpointTokens } from './parseList';
import type { ConnectionEndpoint, ConnectionEntry, EndpointRole } from './types';
import type { Word } from './words';

export const EXPIRE = /^(\d+):([0-5]\d)$/;
const ROLES: readonly EndpointRole[] = ['source', 'virtual', 'destination'];

export function isConnectionLine(words: Word[]): boolean {
  return words.length >= 2 && /^[A-Z][A-Z0-9_]*$/.test(words[0].text) && EXPIRE.test(words[1].text);
}

export function parseConnectionLine(ctx: ParseContext, sl: SourceLine, words: Word[]): void {
  const m = EXPIRE.exec(words[1].text)!;
  const index = ctx.dump.connections.length;
  const entry: ConnectionEntry = {
    protocol: words[0].text,
    expire: Number(m[1]) * 60 + Number(m[2]),
    state: words[2]?.text ?? '',
    line: sl.line,
    span: ctx.lineSpan(sl),
  };
  ctx.dump.connections.push(entry);
  const owner = { connection: index };
  ctx.token('protocol', sl.line, words[0], owner);
  ctx.token('expire', sl.line, words[1], owner);
  if (words[2]) ctx.token('state', sl.line, words[2], owner);
  ROLES.forEach((role, i) => {
    const w = words[3 + i];
    if (!w) return;
    const ep = parseEndpoint(w.text);
    if (!ep) {
      ctx.diag('bad-address', 'warning', { line: sl.line, column: w.column, length: w.text.length }, { text: w.text });
      return;
    }
    const value: ConnectionEndpoint =
      ep.port === undefined ? { address: ep.address } : { address: ep.address, port: ep.port };
    if (role === 'source') entry.source = value;
    else if (role === 'virtual') entry.virtual = value;
    else entry.destination = value;
    endpointTokens(ctx, sl.line, w, ep, role, owner);
  });
  if (words.length < 6) {
    entry.truncated = true;
    const missing = ['state', 'source', 'virtual', 'destination'].slice(Math.max(0, words.length - 2));
    ctx.diag('truncated-line', 'info', ctx.lineSpan(sl), { missing: missing.join(', ') });
  }
  // `-c --persistent-conn` adds the persistence engine name and its data.
  if (words[6]) {
    entry.peName = words[6].text;
    ctx.token('pe', sl.line, words[6], owner);
  }
  if (words.length > 7) {
    const last = words[words.length - 1];
    const first = words[7];
    entry.peData = sl.raw.slice(first.column, last.column + last.text.length);
    ctx.tokenAt('pe', entry.peData, { line: sl.line, column: first.column, length: entry.peData.length }, owner);
  }
  ctx.sawData('connections');
  ctx.setLine(sl, { kind: 'connection', layout: 'connections', connection: index });
}
