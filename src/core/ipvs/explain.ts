/**
 * Hover texts for a parsed ipvsadm dump: what the token under the cursor means, followed by what its whole line
 * says (e.g. a virtual service's scheduling in one sentence). English and Simplified Chinese from `ipvs.*`.
 */
import type { Span } from '../common/diagnostics';
import { hasKey, t, type Lang } from '../i18n/catalog';
import { describeRealServer, describeService, humanDuration, schedulerName } from './describe';
import { formatEndpoint } from './endpoint';
import { realServerLabel, serviceLabel } from './identity';
import { isKnownScheduler, KUBE_PROXY_AFFINITY_TIMEOUT, NODE_PORT_RANGE } from './schedulers';
import { parseCounter, parseUint } from './numbers';
import { EXPIRE } from './parseConnection';
import { refusalCode } from './parse';
import { forwardMethod } from './parseList';
import { saveOptionName } from './parseSave';
import type { ConnectionEndpoint, ConnectionEntry, IpvsDump, IpvsToken, RealServer, VirtualService } from './types';
import { ownEntry } from '../common/own';

export interface IpvsExplanation {
  markdown: string;
  span: Span;
}

const SAVE_FORWARD: Record<string, string> = {
  '-m': 'Masq',
  '--masquerading': 'Masq',
  '-g': 'Route',
  '--gatewaying': 'Route',
  '-i': 'Tunnel',
  '--ipip': 'Tunnel',
};
/** Token kinds that describe the line itself, so the line sentence would only repeat them. */
const LINE_LEVEL = new Set(['prompt', 'command', 'comment', 'ellipsis', 'header', 'columnHeader', 'daemon', 'error']);

function serviceOf(dump: IpvsDump, tok: { service?: number }): VirtualService | undefined {
  return tok.service === undefined ? undefined : dump.services[tok.service];
}

function realServerOf(
  dump: IpvsDump,
  tok: { service?: number; realServer?: number; orphan?: number },
): RealServer | undefined {
  if (tok.orphan !== undefined) return dump.orphanRealServers[tok.orphan];
  const svc = serviceOf(dump, tok);
  return svc && tok.realServer !== undefined ? svc.realServers[tok.realServer] : undefined;
}

function flagText(flag: string, lang: Lang): string {
  return hasKey(`ipvs.flag.${flag}`) ? t(lang, `ipvs.flag.${flag}`) : t(lang, 'ipvs.flag.generic', { flag });
}

function portText(dump: IpvsDump, tok: IpvsToken, lang: Lang): string {
  const port = parseUint(tok.text);
  if (port === undefined) return t(lang, 'ipvs.tok.port.unknown', { name: tok.text });
  if (port === 0) return t(lang, 'ipvs.tok.port.zero');
  if (tok.role === 'service') {
    const base = t(lang, 'ipvs.tok.port.service', { port });
    const nodePort = port >= NODE_PORT_RANGE.min && port <= NODE_PORT_RANGE.max;
    return nodePort ? `${base} ${t(lang, 'ipvs.tok.port.nodePort', { port })}` : base;
  }
  if (tok.role === 'real') return t(lang, 'ipvs.tok.port.real', { port });
  return t(lang, 'ipvs.tok.port.conn', { port });
}

function counterText(tok: IpvsToken, lang: Lang): string {
  const column = tok.column ?? '';
  const meaning = t(lang, `ipvs.col.${column}`);
  const c = parseCounter(tok.text);
  if (c?.approximate)
    return t(lang, 'ipvs.tok.counter.approx', {
      column,
      meaning,
      text: tok.text,
      value: c.value.toLocaleString('en-US'),
    });
  return t(lang, 'ipvs.tok.counter', { column, meaning, value: c ? c.value.toLocaleString('en-US') : tok.text });
}

function tokenText(dump: IpvsDump, tok: IpvsToken, lang: Lang): string {
  const line = dump.lines[tok.span.line];
  switch (tok.kind) {
    case 'prompt':
    case 'comment':
    case 'ellipsis':
    case 'arrow':
      return t(lang, `ipvs.tok.${tok.kind}`);
    case 'error': {
      const refusal = refusalCode(tok.text);
      return refusal ? t(lang, `ipvs.diag.${refusal}`, { text: tok.text }) : t(lang, 'ipvs.diag.module-not-loaded');
    }
    case 'command': {
      if (line?.kind === 'saveService' || line?.kind === 'saveRealServer' || line?.kind === 'saveOther')
        return t(lang, 'ipvs.tok.command.rule');
      return line?.layout ? t(lang, `ipvs.tok.command.${line.layout}`) : t(lang, 'ipvs.tok.command.other');
    }
    case 'header': {
      const m = /version (\S+) \(size=(\d+)\)/.exec(tok.text);
      return t(lang, 'ipvs.tok.header', { version: m?.[1] ?? '?', size: m?.[2] ?? '?' });
    }
    case 'columnHeader':
      return t(lang, `ipvs.tok.columns.${line?.layout ?? 'list'}`);
    case 'protocol':
      return hasKey(`ipvs.tok.protocol.${tok.text}`) && tok.connection === undefined
        ? t(lang, `ipvs.tok.protocol.${tok.text}`)
        : t(lang, 'ipvs.tok.protocol.other', { name: tok.text });
    case 'address':
      return t(lang, `ipvs.tok.address.${tok.role ?? 'real'}`, { address: tok.text.replace(/^\[|\]$/g, '') });
    case 'port':
      return portText(dump, tok, lang);
    case 'fwmark': {
      const mark = parseUint(tok.text) ?? 0;
      return t(lang, 'ipvs.tok.fwmark', { mark, hex: `0x${mark.toString(16)}` });
    }
    case 'family':
      return t(lang, 'ipvs.tok.family6');
    case 'scheduler':
      return isKnownScheduler(tok.text)
        ? `**${tok.text}**: ${schedulerName(tok.text, lang)}\n\n${t(lang, `ipvs.sched.${tok.text}.desc`)}`
        : t(lang, 'ipvs.sched.unknown', { name: tok.text });
    case 'flag':
      return tok.text
        .replace(/^\(|\)$/g, '')
        .split(',')
        .filter((f) => f)
        .map((f) => flagText(f, lang))
        .join('\n\n');
    case 'keyword':
      return hasKey(`ipvs.tok.keyword.${tok.text}`) ? t(lang, `ipvs.tok.keyword.${tok.text}`) : tok.text;
    case 'persistentTimeout': {
      const seconds = parseUint(tok.text) ?? 0;
      const key = seconds === KUBE_PROXY_AFFINITY_TIMEOUT ? 'ipvs.tok.persistent.kube' : 'ipvs.tok.persistent';
      return t(lang, key, { seconds, human: humanDuration(seconds, lang) });
    }
    case 'netmask':
      return t(lang, 'ipvs.tok.netmask', { mask: tok.text });
    case 'pe':
      return tok.text === 'sip' ? t(lang, 'ipvs.tok.pe.sip') : t(lang, 'ipvs.tok.pe', { name: tok.text });
    case 'forward': {
      const method = realServerOf(dump, tok)?.forward ?? forwardMethod(tok.text) ?? ownEntry(SAVE_FORWARD, tok.text);
      return method ? t(lang, `ipvs.fwd.${method}`) : tok.text;
    }
    case 'weight': {
      const weight = parseUint(tok.text);
      return weight === 0 ? t(lang, 'ipvs.tok.weight.zero') : t(lang, 'ipvs.tok.weight', { weight: tok.text });
    }
    case 'activeConn':
    case 'inactConn':
    case 'persistConn':
      return t(lang, `ipvs.tok.${tok.kind}`, { count: parseCounter(tok.text)?.value ?? tok.text });
    case 'counter':
      return counterText(tok, lang);
    case 'threshold':
      return t(lang, 'ipvs.tok.threshold', {
        column: t(lang, `ipvs.col.${tok.column ?? 'Uthreshold'}`),
        value: tok.text,
      });
    case 'expire': {
      const m = EXPIRE.exec(tok.text);
      const seconds = m ? Number(m[1]) * 60 + Number(m[2]) : 0;
      return t(lang, 'ipvs.tok.expire', { text: tok.text, seconds });
    }
    case 'state':
      return hasKey(`ipvs.state.${tok.text}`)
        ? t(lang, `ipvs.state.${tok.text}`)
        : t(lang, 'ipvs.state.unknown', { state: tok.text });
    case 'timeout':
      return t(lang, 'ipvs.tok.timeout', { meaning: t(lang, `ipvs.col.${tok.column ?? 'tcp'}`), seconds: tok.text });
    case 'option': {
      const name = saveOptionName(tok.text);
      const meaning = name && hasKey(`ipvs.opt.${name}`) ? t(lang, `ipvs.opt.${name}`) : '';
      return t(lang, 'ipvs.tok.option', { option: tok.text, meaning });
    }
    case 'daemon':
      return t(lang, 'ipvs.tok.daemon', { state: tok.text.split(/\s+/)[0] });
    default:
      return tok.text;
  }
}

function endpointText(ep: ConnectionEndpoint | undefined): string {
  return ep ? formatEndpoint(ep.address, ep.port) : '?';
}

function describeConnection(conn: ConnectionEntry, lang: Lang): string {
  const params = {
    protocol: conn.protocol,
    source: endpointText(conn.source),
    virtual: endpointText(conn.virtual),
    destination: endpointText(conn.destination),
    expire: humanDuration(conn.expire, lang),
    state: conn.state,
  };
  // Persistence templates carry no TCP state and port 0 on the client side.
  const template = conn.state === 'NONE' && conn.source?.port === 0;
  return t(lang, template ? 'ipvs.line.template' : 'ipvs.line.connection', params);
}

/** A `-D`/`-d` line says what it took out; the `-A`/`-a` line of an entry taken out says where it went. */
function removalText(dump: IpvsDump, line: number, removalIndex: number, lang: Lang): string {
  const removal = dump.removals[removalIndex];
  const service = serviceLabel(removal.service);
  const server = removal.realServer ? realServerLabel(removal.realServer) : undefined;
  if (removal.line === line) {
    const added = (removal.realServer ?? removal.service).line + 1;
    return server
      ? t(lang, 'ipvs.line.deleteServer', { service, server, line: added })
      : t(lang, 'ipvs.line.deleteService', { service, line: added });
  }
  const what = server
    ? t(lang, 'ipvs.line.removedServer', { service, server })
    : t(lang, 'ipvs.line.removedService', { service });
  return t(lang, 'ipvs.line.removedLater', { what, line: removal.line + 1 });
}

function lineText(dump: IpvsDump, line: number, lang: Lang): string | undefined {
  const info = dump.lines[line];
  if (!info) return undefined;
  if (info.removal !== undefined) return removalText(dump, line, info.removal, lang);
  switch (info.kind) {
    case 'service':
    case 'saveService':
      return info.service === undefined ? undefined : describeService(dump.services[info.service], lang);
    case 'realServer':
    case 'saveRealServer':
    case 'orphanRealServer': {
      const rs = realServerOf(dump, info);
      return rs ? describeRealServer(serviceOf(dump, info), rs, lang) : undefined;
    }
    case 'connection':
      return info.connection === undefined ? undefined : describeConnection(dump.connections[info.connection], lang);
    case 'timeout': {
      const to = dump.timeouts;
      return to && to.line === line
        ? t(lang, 'ipvs.line.timeout', { tcp: to.tcp ?? '?', tcpfin: to.tcpFin ?? '?', udp: to.udp ?? '?' })
        : undefined;
    }
    case 'saveOther': {
      // `-C` says how many virtual services it took out.
      const cleared = dump.removals.filter((r) => r.line === line && !r.realServer).length;
      return cleared > 0 ? t(lang, 'ipvs.line.clear', { count: cleared }) : t(lang, 'ipvs.line.saveOther');
    }
    case 'foreign':
      return t(lang, 'ipvs.line.foreign');
    case 'blank':
    case 'unknown':
      return undefined;
    default: {
      const onLine = dump.tokens.onLine(line);
      const first = onLine.find((tok) => LINE_LEVEL.has(tok.kind) && tok.kind !== 'prompt') ?? onLine[0];
      return first ? tokenText(dump, first, lang) : undefined;
    }
  }
}

/** What a whole line says, in one or two sentences. */
export function explainIpvsLine(dump: IpvsDump, line: number, lang: Lang = 'en'): IpvsExplanation | undefined {
  const markdown = lineText(dump, line, lang);
  const info = dump.lines[line];
  return markdown && info ? { markdown, span: info.span } : undefined;
}

function tokenAt(dump: IpvsDump, line: number, column: number): IpvsToken | undefined {
  const onLine = dump.tokens.onLine(line);
  return (
    onLine.find((tok) => column >= tok.span.column && column < tok.span.column + tok.span.length) ??
    onLine.find((tok) => column === tok.span.column + tok.span.length)
  );
}

/** Hover at a 0-based position: the token's meaning, then its line's sentence; the line alone between tokens. */
export function explainIpvsAt(
  dump: IpvsDump,
  line: number,
  column: number,
  lang: Lang = 'en',
): IpvsExplanation | undefined {
  const tok = tokenAt(dump, line, column);
  if (!tok) return explainIpvsLine(dump, line, lang);
  const own = tokenText(dump, tok, lang);
  const context = LINE_LEVEL.has(tok.kind) ? undefined : lineText(dump, line, lang);
  return { markdown: context && context !== own ? `${own}\n\n---\n\n${context}` : own, span: tok.span };
}
