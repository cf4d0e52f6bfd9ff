/**
 * A dump that went through a word processor, a mail client or a wiki has “ ” for its quotes: on rule lines they read
 * as iptables' straight quotes, columns unchanged; prose keeps its own (Chinese quotes with them).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeText, diagnosticsOf } from '../../../src/core/analyze';
import { straightenRuleQuotes } from '../../../src/core/common/typographicQuotes';
import { readingOf } from '../../helpers/reading';

const SAVE = `*nat
:PREROUTING ACCEPT [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-SVC-NPX46M4PTMTKRN6Y - [0:0]
:KUBE-SEP-V2PECCYPB6X2GSCW - [0:0]
-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES
-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y
-A KUBE-SVC-NPX46M4PTMTKRN6Y -m comment --comment "default/kubernetes:https -> 172.18.0.2:6443" -j KUBE-SEP-V2PECCYPB6X2GSCW
-A KUBE-SEP-V2PECCYPB6X2GSCW -p tcp -m comment --comment default/kubernetes:https -m tcp -j DNAT --to-destination 172.18.0.2:6443
COMMIT
`;

const typographic = (text: string) => text.replace(/ "/g, ' \u201c').replace(/" /g, '\u201d ');

test('a dump with typographic quotes reads as the dump: Service names from the comments, columns, one note', () => {
  const text = typographic(SAVE);
  assert.notEqual(text, SAVE);
  assert.equal(readingOf(text), readingOf(SAVE));
  const a = analyzeText(text);
  assert.equal(a.iptables!.kube.services[0].name, 'default/kubernetes:https');
  const plain = analyzeText(SAVE);
  assert.deepEqual(
    a.iptables!.dump.rules.map((r) => [r.span, r.comment]),
    plain.iptables!.dump.rules.map((r) => [r.span, r.comment]),
  );
  const notes = diagnosticsOf(a, 'en').filter((d) => d.code === 'typographic-quotes');
  assert.deepEqual(
    notes.map((d) => d.span),
    [{ line: 5, column: SAVE.split('\n')[5].indexOf('"'), length: 1 }],
  );
  assert.match(diagnosticsOf(a, 'zh-CN').find((d) => d.code === 'typographic-quotes')!.message, /排版引号/);
});

test('prose keeps its quotes: a Chinese ticket around a dump with straight quotes has nothing to straighten', () => {
  const ticket = `客户说 Pod 访问“kubernetes”服务超时，节点上正常。\n${SAVE}\n请检查“路由”。\n`;
  assert.equal(straightenRuleQuotes(ticket), undefined);
  assert.equal(
    diagnosticsOf(analyzeText(ticket), 'en').some((d) => d.code === 'typographic-quotes'),
    false,
  );
});
