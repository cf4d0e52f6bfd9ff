/** The `source.netstate` grammar (Linux network state): what each kind of output line is coloured as. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { IGrammar } from 'vscode-textmate';
import {
  assertNotScope,
  assertScope,
  assertToken,
  loadGrammar,
  tokenizeLine,
  tokenizeText,
  type Token,
} from './tokenize';

let grammar: IGrammar;
const line = (text: string): Token[] => tokenizeLine(grammar, text);

before(async () => {
  grammar = await loadGrammar('source.netstate');
});

describe('netstate grammar: ip route and ip route get', () => {
  it('scopes a route: default, gateway, device, protocol, scope, source, metric', () => {
    const t = line('default via 192.168.100.1 dev eth0 proto dhcp src 192.168.100.23 metric 100');
    assertToken(t, 'default', 'constant.language.default.netstate');
    assertToken(t, 'via', 'keyword.other.attribute.netstate');
    assertToken(t, '192.168.100.1', 'constant.numeric.ip-address.v4.netstate');
    assertToken(t, 'eth0', 'variable.other.interface.netstate');
    assertToken(t, 'dhcp', 'support.constant.value.netstate');
    assertToken(t, '100', 'constant.numeric.netstate');
  });

  it('scopes prefixes, tables and route types that drop packets', () => {
    const t = line('10.244.0.0/16 dev cni0 proto kernel scope link src 10.244.0.1 linkdown');
    assertToken(t, '10.244.0.0', 'constant.numeric.ip-address.v4.netstate');
    assertToken(t, '16', 'constant.numeric.prefix-length.netstate');
    assertToken(t, 'link', 'support.constant.value.netstate');
    assertToken(t, 'linkdown', 'support.constant.flag.netstate');
    const local = line('local 10.244.0.1 dev cni0 table local proto kernel scope host src 10.244.0.1');
    assertToken(local, 'local', 'keyword.control.route-type.netstate');
    assertToken(local, 'local', 'entity.name.table.netstate', 1);
    assertToken(line('blackhole 10.9.0.0/16 proto bird'), 'blackhole', 'keyword.control.route-type.reject.netstate');
  });

  it("scopes an ip route get answer and its cache line, and the kernel's refusal", () => {
    const t = line('172.16.0.1 via 192.168.100.1 dev eth0 src 192.168.100.23 uid 0');
    assertToken(t, '172.16.0.1', 'constant.numeric.ip-address.v4.netstate');
    assertToken(t, 'uid', 'keyword.other.attribute.netstate');
    assertToken(line('    cache'), 'cache', 'keyword.other.attribute.netstate');
    const err = line('RTNETLINK answers: Network is unreachable');
    assertToken(err, 'RTNETLINK answers:', 'keyword.other.error.netstate');
    assertToken(err, 'Network is unreachable', 'invalid.illegal.error-message.netstate');
  });

  it('scopes IPv6 routes', () => {
    const t = line('fd00:10:244::/64 dev eth0 proto kernel metric 256 pref medium');
    assertToken(t, 'fd00:10:244::', 'constant.numeric.ip-address.v6.netstate');
    assertToken(t, '64', 'constant.numeric.prefix-length.netstate');
    assertToken(t, 'medium', 'support.constant.value.netstate');
  });
});

describe('netstate grammar: prompts and commands', () => {
  it('scopes pasted prompts (user@host, [root@node ~]#, $, busybox /#) and their commands', () => {
    for (const [text, prefix] of [
      ['$ ip route get 172.16.0.1', '$'],
      ['[root@node ~]# ip rule', '[root@node ~]#'],
      ['user@node-1:~$ sudo conntrack -L', 'user@node-1:~$'],
      ['/ # ip route', '/ #'],
    ] as const) {
      const t = line(text);
      assertScope(t, prefix, 'entity.other.prompt-prefix.netstate');
    }
    const t = line('$ ip route get 172.16.0.1');
    assertToken(t, 'ip', 'support.function.builtin.shell.netstate');
    assertToken(t, '172.16.0.1', 'constant.numeric.ip-address.v4.netstate');
    assertToken(line('sudo ipset list KUBE-CLUSTER-IP'), 'ipset', 'support.function.builtin.shell.netstate');
  });

  it('a # line is a comment, and a comment does not run into the next line', () => {
    const lines = tokenizeText(grammar, '# taken inside the pod\ndefault via 10.0.0.1 dev eth0');
    assertScope(lines[0].tokens, '# taken inside the pod', 'comment.line.number-sign.netstate');
    assert.equal(lines[0].depthAfter, 1);
    assertToken(lines[1].tokens, 'default', 'constant.language.default.netstate');
  });
});

describe('netstate grammar: ip rule, ip addr, conntrack, ipset', () => {
  it('scopes a policy rule: priority, selector, table', () => {
    const t = line('32766:\tfrom all lookup main');
    assertToken(t, '32766', 'constant.numeric.priority.netstate');
    assertToken(t, 'from', 'keyword.other.attribute.netstate');
    assertToken(t, 'main', 'entity.name.table.netstate');
    const mark = line('100:\tfrom all fwmark 0x200/0xf00 lookup 100');
    assertToken(mark, '0x200/0xf00', 'constant.numeric.netstate');
  });

  it('scopes an interface header, its link line and its addresses', () => {
    const h = line('2: eth0@if12: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default');
    assertToken(h, '2', 'constant.numeric.ifindex.netstate');
    assertToken(h, 'eth0', 'entity.name.interface.netstate');
    assertToken(h, 'if12', 'variable.other.interface.peer.netstate');
    assertToken(h, 'LOWER_UP', 'support.constant.flag.netstate');
    assertToken(h, 'UP', 'support.constant.value.netstate', 1);
    assertToken(
      line('3: eth1: <NO-CARRIER,BROADCAST,UP> mtu 1500 state DOWN'),
      'NO-CARRIER',
      'invalid.deprecated.flag.netstate',
    );
    const link = line('    link/ether 0a:58:0a:f4:01:05 brd ff:ff:ff:ff:ff:ff link-netnsid 0');
    assertToken(link, 'link/ether', 'support.type.link-type.netstate');
    assertToken(link, '0a:58:0a:f4:01:05', 'constant.numeric.mac.netstate');
    const addr = line('    inet 10.244.1.5/24 brd 10.244.1.255 scope global eth0');
    assertToken(addr, 'inet', 'keyword.other.attribute.netstate');
    assertToken(addr, '10.244.1.5', 'constant.numeric.ip-address.v4.netstate');
    assertToken(addr, 'global', 'support.constant.value.netstate');
  });

  it('scopes a conntrack entry: protocol, timeout, state, tuples, flags', () => {
    const t = line(
      'tcp      6 431999 ESTABLISHED src=10.244.1.5 dst=10.96.0.1 sport=5555 dport=443 src=10.0.1.11 dst=10.244.1.5 sport=6443 dport=5555 [ASSURED] mark=0 use=1',
    );
    assertToken(t, 'tcp', 'keyword.other.protocol.netstate');
    assertToken(t, '431999', 'constant.numeric.timeout.netstate');
    assertToken(t, 'ESTABLISHED', 'constant.language.state.netstate');
    assertToken(t, 'src', 'variable.parameter.key.netstate');
    assertToken(t, '10.96.0.1', 'constant.numeric.ip-address.v4.netstate');
    assertToken(t, '[ASSURED]', 'support.constant.flag.netstate');
    const unreplied = line(
      'udp      17 29 src=10.244.1.5 dst=10.96.0.10 sport=41000 dport=53 [UNREPLIED] src=10.96.0.10 dst=10.244.1.5 sport=53 dport=41000 mark=0 use=1',
    );
    assertToken(unreplied, '[UNREPLIED]', 'invalid.deprecated.flag.netstate');
    const event = line(
      '[NEW] tcp      6 120 SYN_SENT src=10.0.0.1 dst=10.96.0.1 sport=1 dport=443 [UNREPLIED] src=10.0.1.1 dst=10.0.0.1 sport=443 dport=1',
    );
    assertToken(event, '[NEW]', 'keyword.control.event.netstate');
  });

  it('scopes ipset list headers and members', () => {
    const name = line('Name: KUBE-CLUSTER-IP');
    assertToken(name, 'Name', 'keyword.other.header.netstate');
    assertToken(name, 'KUBE-CLUSTER-IP', 'entity.name.set.netstate');
    assertToken(line('Type: hash:ip,port'), 'hash:ip,port', 'support.type.set-type.netstate');
    assertToken(
      line('Header: family inet hashsize 1024 maxelem 65536'),
      'hashsize',
      'keyword.other.attribute.netstate',
    );
    const member = line('10.96.0.1,tcp:443');
    assertToken(member, '10.96.0.1', 'constant.numeric.ip-address.v4.netstate');
    assertNotScope(member, 'tcp:443', 'constant.numeric.ip-address');
  });
});
