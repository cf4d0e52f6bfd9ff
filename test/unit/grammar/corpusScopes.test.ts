/**
 * Real pasted dumps (shared corpus, not in the repo) must tokenise cleanly, mostly colour, and give every chain
 * declaration, jump, DNAT address, comment, counter, ipvsadm virtual service and route the scope the grammar
 * promises (the expectations of scopeExpectations.ts; sampleScopes.test.ts checks them without the corpus).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadGrammar, tokenizeText } from './tokenize';
import { CORPUS_MISSING, corpusDir } from '../../helpers/corpus';
import {
  IPTABLES_EXPECTATIONS,
  IPVS_EXPECTATIONS,
  NETSTATE_EXPECTATIONS,
  checkScopes,
  describeMisses,
  type ScopeExpectation,
} from './scopeExpectations';

const CORPUS = corpusDir();
/** Share of non-blank lines that must get at least one scope besides the grammar's root. */
const MIN_COLOURED_SHARE = 0.9;

const SUITES: Array<{
  folder: string;
  scopeName: string;
  expectations: ScopeExpectation[];
  /** Netstate pastes mix outputs the grammar colours only in part (`ipset list` members, wrapped conntrack). */
  checkColouredShare: boolean;
  /** Fragments the folder's real pastes must contain, so that the scope checks cannot pass on nothing. */
  mustFind: string[];
}> = [
  {
    folder: 'iptables',
    scopeName: 'source.iptables',
    expectations: IPTABLES_EXPECTATIONS,
    checkColouredShare: true,
    mustFind: ['chain declaration name', 'jump to a kube-proxy chain', 'DNAT address', 'quoted rule comment'],
  },
  {
    folder: 'ipvs',
    scopeName: 'source.ipvs',
    expectations: IPVS_EXPECTATIONS,
    checkColouredShare: true,
    mustFind: ['virtual service line', 'real server address'],
  },
  {
    folder: 'routes',
    scopeName: 'source.netstate',
    expectations: NETSTATE_EXPECTATIONS,
    checkColouredShare: false,
    mustFind: ['route destination address', 'default route', 'route device'],
  },
];

for (const { folder, scopeName, expectations, checkColouredShare, mustFind } of SUITES) {
  describe(`${scopeName} on corpus/${folder}`, () => {
    const dir = CORPUS && path.join(CORPUS, folder);
    if (!dir || !existsSync(dir)) {
      it('corpus files', (t) => t.skip(CORPUS_MISSING));
      return;
    }
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt'));
    const found = new Map(expectations.map((e) => [e.what, 0]));
    it('has files to check', () => assert.ok(files.length > 0, `no .txt files in ${dir}`));
    for (const file of files) {
      it(file, async () => {
        const grammar = await loadGrammar(scopeName);
        const text = readFileSync(path.join(dir, file), 'utf8');
        const lines = tokenizeText(grammar, text);
        const leaking = lines.findIndex((l) => l.depthAfter !== 1);
        assert.equal(leaking, -1, `a rule stays open after line ${leaking + 1}: ${lines[leaking]?.line}`);
        if (checkColouredShare) {
          const nonBlank = lines.filter((l) => l.line.trim() !== '');
          const bare = nonBlank.filter((l) => l.tokens.every((t) => t.scopes.length === 1));
          const share = (nonBlank.length - bare.length) / nonBlank.length;
          assert.ok(
            share >= MIN_COLOURED_SHARE,
            `only ${(share * 100).toFixed(0)}% of lines coloured; uncoloured e.g.:\n${bare
              .slice(0, 5)
              .map((l) => l.line)
              .join('\n')}`,
          );
        }
        const check = checkScopes(grammar, text, expectations);
        for (const [what, n] of check.found) found.set(what, found.get(what)! + n);
        assert.equal(check.misses.length, 0, describeMisses(check.misses));
      });
    }
    it('the pastes contain the fragments the scope checks look for', () => {
      assert.deepEqual(
        mustFind.filter((what) => !found.get(what)),
        [],
      );
    });
  });
}
