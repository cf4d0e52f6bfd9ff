/**
 * The house rules that lint enforces (eslint.config.mjs): src/core imports neither vscode, nor I/O modules, nor the
 * Kubernetes client, nor any face; src/cluster, src/server and src/cli never import vscode. Each rule is shown
 * failing on a deliberate violation, linted as if it were a file at that path, and passing on the same import
 * where it belongs.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { repoRoot } from '../../helpers/corpus';

const root = repoRoot();
const eslint = new ESLint({ cwd: root });

async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(root, file) });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const CORE_VIOLATIONS = [
  "import * as vscode from 'vscode';",
  "import { readFileSync } from 'node:fs';",
  "import { spawn } from 'child_process';",
  "import * as http from 'node:https';",
  "import { KubeConfig } from '@kubernetes/client-node';",
  "import { WebSocket } from 'ws';",
  "import { createConnection } from 'vscode-languageserver/node';",
  "import { ClusterSession } from '../../cluster/session';",
  "import { Ctx } from '../../extension/ctx';",
  // Loads the import rules cannot check: refused as such.
  "const fs = require('node:fs');",
  "export const later = import('node:fs');",
];

for (const source of CORE_VIOLATIONS) {
  test(`src/core refuses: ${source}`, async () => {
    const messages = await restricted('src/core/iptables/fixture.ts', `${source}\nexport const x = 1;\n`);
    assert.equal(messages.length, 1, `expected one layering error, got ${JSON.stringify(messages)}`);
  });
}

test('src/core may import its own modules and pure node modules', async () => {
  assert.deepEqual(
    await restricted(
      'src/core/iptables/fixture.ts',
      "import { parseIp } from '../common/ip';\nimport { createHash } from 'node:crypto';\nexport const x = [parseIp, createHash];\n",
    ),
    [],
  );
});

for (const file of ['src/cluster/fixture.ts', 'src/server/fixture.ts', 'src/cli/fixture.ts']) {
  test(`${file.split('/')[1]} refuses vscode`, async () => {
    assert.equal((await restricted(file, "import * as vscode from 'vscode';\nexport const x = vscode;\n")).length, 1);
  });
}

test('src/extension may import vscode', async () => {
  assert.deepEqual(
    await restricted('src/extension/fixture.ts', "import * as vscode from 'vscode';\nexport const x = vscode;\n"),
    [],
  );
});
