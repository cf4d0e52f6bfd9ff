import { before, describe, it } from 'node:test';
import type { IGrammar } from 'vscode-textmate';
import { assertNotScope, assertScope, assertToken, loadGrammar, tokenizeLine, type Token } from './tokenize';

let grammar: IGrammar;
const line = (text: string): Token[] => tokenizeLine(grammar, text);

before(async () => {
  grammar = await loadGrammar('source.ipvs');
});

describe('ipvs grammar: ipvsadm -Ln', () => {
  it('scopes the version header and the column headers', () => {
    const version = line('IP Virtual Server version 1.2.1 (size=4096)');
    assertToken(version, 'IP Virtual Server version', 'keyword.other.header.ipvs');
    assertToken(version, '1.2.1', 'constant.numeric.version.ipvs');
    assertToken(version, '4096', 'constant.numeric.size.ipvs');
    for (const header of [
      'Prot LocalAddress:Port Scheduler Flags',
      '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
      'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
      'IPVS connection entries',
      'pro expire state       source             virtual            destination',
    ]) {
      assertScope(line(header), header.trim(), 'markup.heading.columns.ipvs');
    }
  });

  it('scopes a virtual service: protocol, address, port, scheduler', () => {
    const t = line('TCP  10.96.0.1:443 rr');
    assertToken(t, 'TCP', 'keyword.other.protocol.ipvs');
    assertToken(t, '10.96.0.1', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(t, ':', 'punctuation.separator.port.ipvs');
    assertToken(t, '443', 'constant.numeric.port.ipvs');
    assertToken(t, 'rr', 'support.function.scheduler.ipvs');
    for (const proto of ['UDP', 'SCTP'])
      assertToken(line(`${proto}  10.96.0.10:53 rr`), proto, 'keyword.other.protocol.ipvs');
  });

  it('scopes every scheduler name', () => {
    for (const scheduler of ['rr', 'wrr', 'lc', 'wlc', 'lblc', 'lblcr', 'dh', 'sh', 'sed', 'nq', 'fo', 'ovf', 'mh']) {
      assertToken(line(`TCP  10.96.0.1:443 ${scheduler}`), scheduler, 'support.function.scheduler.ipvs');
    }
  });

  it('scopes persistence, netmask, persistence engine and flags', () => {
    const t = line('TCP  10.254.0.1:443 rr persistent 10800 mask 255.255.255.0 pe sip ops');
    assertToken(t, 'persistent', 'keyword.other.persistent.ipvs');
    assertToken(t, '10800', 'constant.numeric.timeout.ipvs');
    assertToken(t, '255.255.255.0', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(t, 'sip', 'support.constant.persistence-engine.ipvs');
    assertToken(t, 'ops', 'support.constant.flag.ipvs');
    const flags = line('UDP  10.96.0.10:53 sh sh-fallback,sh-port');
    assertToken(flags, 'sh-fallback', 'support.constant.flag.ipvs');
    assertToken(flags, 'sh-port', 'support.constant.flag.ipvs');
  });

  it('scopes IPv6 virtual services in brackets and fwmark services', () => {
    const v6 = line('TCP  [fd00:4000::c698]:5001 rr');
    assertToken(v6, '[', 'punctuation.definition.ip-address.begin.ipvs');
    assertToken(v6, 'fd00:4000::c698', 'constant.numeric.ip-address.v6.ipvs');
    assertToken(v6, '5001', 'constant.numeric.port.ipvs');
    const fwm = line('FWM  1481 rr');
    assertToken(fwm, 'FWM', 'keyword.other.protocol');
    assertToken(fwm, '1481', 'constant.numeric.fwmark.ipvs');
    assertToken(fwm, 'rr', 'support.function.scheduler.ipvs');
  });

  it('scopes real servers: arrow, address, forward method, weight, counters', () => {
    const t = line('  -> 10.244.0.2:53                Masq    1      0          12K');
    assertToken(t, '->', 'keyword.operator.arrow.ipvs');
    assertToken(t, '10.244.0.2', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(t, '53', 'constant.numeric.port.ipvs');
    assertToken(t, 'Masq', 'support.constant.forward-method.ipvs');
    assertToken(t, '1', 'constant.numeric.weight.ipvs');
    assertToken(t, '0', 'constant.numeric.counter.ipvs');
    assertToken(t, '12K', 'constant.numeric.counter.ipvs');
    for (const method of ['Route', 'Tunnel', 'Local']) {
      assertToken(line(`  -> 10.0.0.1:80 ${method}  3  0  0`), method, 'support.constant.forward-method.ipvs');
    }
    assertToken(
      line('  -> [fd00:3000:1::2]:5001        Masq    1      0          0'),
      'fd00:3000:1::2',
      'constant.numeric.ip-address.v6',
    );
  });

  it('scopes --stats / --rate rows with K/M/G counters', () => {
    const t = line('TCP  10.3.0.42:80                    14209   111769    74613  7207K    8334M');
    assertToken(t, '14209', 'constant.numeric.counter.ipvs');
    assertToken(t, '7207K', 'constant.numeric.counter.ipvs');
    assertToken(t, '8334M', 'constant.numeric.counter.ipvs');
    assertToken(line('  -> 10.2.1.22:80    2    12    8    774    3G'), '3G', 'constant.numeric.counter.ipvs');
  });

  it('scopes host:service names printed without -n', () => {
    const t = line('TCP  kubernetes.default:https rr');
    assertToken(t, 'kubernetes.default', 'string.unquoted.host.ipvs');
    assertToken(t, 'https', 'constant.other.port-name.ipvs');
  });
});

describe('ipvs grammar: connection entries (-Lnc)', () => {
  it('scopes protocol, expiry, state and the three endpoints', () => {
    const t = line('TCP 14:59  ESTABLISHED 169.60.24.86:52470 169.46.7.238:27234 10.48.180.244:27234');
    assertToken(t, 'TCP', 'keyword.other.protocol.ipvs');
    assertToken(t, '14:59', 'constant.numeric.time.expire.ipvs');
    assertToken(t, 'ESTABLISHED', 'support.constant.state.ipvs');
    assertToken(t, '169.60.24.86', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(t, '10.48.180.244', 'constant.numeric.ip-address.v4.ipvs');
    assertNotScope(t, '14:59', 'constant.numeric.ip-address');
    for (const state of ['TIME_WAIT', 'CLOSE', 'NONE', 'SYN_RECV', 'FIN_WAIT', 'CLOSE_WAIT']) {
      assertToken(line(`TCP 00:24  ${state}   1.2.3.4:1 5.6.7.8:80 9.9.9.9:80`), state, 'support.constant.state.ipvs');
    }
  });
});

describe('ipvs grammar: save format (ipvsadm -S)', () => {
  it('scopes service and real-server rules', () => {
    const service = line('-A -t 10.96.0.1:443 -s rr -p 10800');
    assertToken(service, '-A', 'keyword.control.command.ipvs');
    assertToken(service, '-t', 'variable.parameter.option.ipvs');
    assertToken(service, '10.96.0.1', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(service, '443', 'constant.numeric.port.ipvs');
    assertToken(service, 'rr', 'support.function.scheduler.ipvs');
    assertToken(service, '10800', 'constant.numeric.timeout.ipvs');
    const server = line('-a -t 10.96.0.1:443 -r 172.18.0.5:6443 -m -w 1');
    assertToken(server, '-a', 'keyword.control.command.ipvs');
    assertToken(server, '-r', 'variable.parameter.option.ipvs');
    assertToken(server, '172.18.0.5', 'constant.numeric.ip-address.v4.ipvs');
    assertToken(server, '-m', 'variable.parameter.option.forward-method.ipvs');
    assertToken(server, '1', 'constant.numeric.weight.ipvs');
    const fwm = line('-A -f 1481 -s wrr');
    assertToken(fwm, '1481', 'constant.numeric.fwmark.ipvs');
    assertToken(fwm, 'wrr', 'support.function.scheduler.ipvs');
    assertToken(
      line('-a -u [fd00::10]:53 -r [fd00:1::2]:53 -g -w 2'),
      'fd00:1::2',
      'constant.numeric.ip-address.v6.ipvs',
    );
  });
});

describe('ipvs grammar: pasted text', () => {
  it('colours comment lines, prompts, indentation and elisions', () => {
    assertScope(line('#  IPVS service port 443 to pod port 5443'), 'IPVS service', 'comment.line.number-sign.ipvs');
    const prompt = line('[root@vm01 ~]# ipvsadm -L -n');
    assertToken(prompt, '[root@vm01 ~]#', 'entity.other.prompt-prefix.ipvs');
    assertToken(prompt, 'ipvsadm', 'support.function.builtin.shell.ipvs');
    assertToken(line('sudo ipvsadm -Ln -c'), 'ipvsadm', 'support.function.builtin.shell.ipvs');
    const indented = line('   TCP  10.96.0.10:53 rr');
    assertToken(indented, 'TCP', 'keyword.other.protocol.ipvs');
    assertToken(indented, 'rr', 'support.function.scheduler.ipvs');
    assertToken(line('     -> 10.244.0.4:53   Masq  1  0  0'), 'Masq', 'support.constant.forward-method.ipvs');
    assertScope(line('...'), '...', 'comment.other.elision.ipvs');
  });
});
