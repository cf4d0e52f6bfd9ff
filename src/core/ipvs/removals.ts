/**
 * Restore input's `-D`, `-d` and `-C` take entries out of the table. While the dump is read, lines and tokens
 * refer to services and real servers by index, so removed entries stay in place until the end; then the arrays
 * keep only what is left and every index is renumbered. A line or token of a removed entry loses its index and
 * the line points to the removal instead, so it can say what happened to it.
 */
import type { ParseContext } from './context';
import type { IpvsLine, RealServer, VirtualService } from './types';

export function applyRemovals(ctx: ParseContext): void {
  if (ctx.dump.removals.length === 0) return;
  const dump = ctx.dump;
  // Old index -> new index (-1: removed), for services and, per old service index, their real servers.
  const serviceIndex: number[] = [];
  const serverIndex: number[][] = [];
  const kept: VirtualService[] = [];
  for (let s = 0; s < dump.services.length; s++) {
    const svc = dump.services[s];
    const servers: number[] = [];
    const left: RealServer[] = [];
    for (let r = 0; r < svc.realServers.length; r++) {
      if (ctx.removedRealServer.has(`${s}|${r}`)) servers.push(-1);
      else servers.push(left.push(svc.realServers[r]) - 1);
    }
    svc.realServers = left;
    serverIndex.push(servers);
    serviceIndex.push(ctx.removedService.has(s) ? -1 : kept.push(svc) - 1);
  }
  dump.services = kept;
  for (const line of dump.lines) if (line) renumber(line, ctx, serviceIndex, serverIndex, true);
  for (let i = 0; i < dump.tokens.length; i++) {
    const owner = dump.tokens.ownerOf(i);
    if (owner.service === undefined) continue;
    renumber(owner, ctx, serviceIndex, serverIndex, false);
    dump.tokens.setOwner(i, owner.service, owner.realServer);
  }
}

function renumber(
  entry: IpvsLine | { service?: number; realServer?: number },
  ctx: ParseContext,
  serviceIndex: number[],
  serverIndex: number[][],
  isLine: boolean,
): void {
  const s = entry.service;
  if (s === undefined) return;
  const r = entry.realServer;
  const removal =
    r !== undefined ? (ctx.removedRealServer.get(`${s}|${r}`) ?? ctx.removedService.get(s)) : ctx.removedService.get(s);
  if (serviceIndex[s] < 0 || (r !== undefined && serverIndex[s][r] < 0)) {
    delete entry.service;
    delete entry.realServer;
    if (isLine && removal !== undefined) (entry as IpvsLine).removal = removal;
    return;
  }
  entry.service = serviceIndex[s];
  if (r !== undefined) entry.realServer = serverIndex[s][r];
}
