/**
 * Real pasted dumps (shared corpus, not in the repo) must tokenise cleanly and mostly colour.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT, loadGrammar, tokenizeText } from './tokenize';
import { corpusDir } from '../../helpers/corpus';

const CORPUS = corpusDir() ?? path.resolve(REPO_ROOT, '../shared/corpus');
/** Share of non-blank lines that must get at least one scope besides the grammar's root. */
const MIN_COLOURED_SHARE = 0.9;

const SUITES: Array<{ folder: string; scopeName: string }> = [
  { folder: 'iptables', scopeName: 'source.iptables' },
  { folder: 'ipvs', scopeName: 'source.ipvs' },
];

for (const { folder, scopeName } of SUITES) {
  const dir = path.join(CORPUS, folder);
  describe(`${scopeName} on corpus/${folder}`, () => {
    if (!existsSync(dir)) {
      it('corpus files', (t) => t.skip(`shared corpus not found at ${dir}`));
      return;
    }
    const files = readdirSync(dir).filter((f) => f.endsWith('.txt'));
    it('has files to check', () => assert.ok(files.length > 0, `no .txt files in ${dir}`));
    for (const file of files) {
      it(file, async () => {
        const grammar = await loadGrammar(scopeName);
        const lines = tokenizeText(grammar, readFileSync(path.join(dir, file), 'utf8'));
        const leaking = lines.findIndex((l) => l.depthAfter !== 1);
        assert.equal(leaking, -1, `a rule stays open after line ${leaking + 1}: ${lines[leaking]?.line}`);
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
      });
    }
  });
}
