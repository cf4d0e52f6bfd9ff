// A dump opened in the editor is coloured by the grammar and named in the status bar.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import { openFile, settle, statusBarLanguage, tokenClasses } from './workbench';

export const checks: UiCheck[] = [
  {
    name: 'an iptables dump shows coloured tokens and its language in the status bar',
    async run({ page, screenshot, log }) {
      await openFile(page, SAMPLES.iptables);
      const language = await settle(
        () => statusBarLanguage(page),
        (text) => /iptables/i.test(text),
      );
      const distinct = await settle(
        async () => new Set(await tokenClasses(page)),
        (classes) => classes.size >= 2,
      );
      log(`status bar language "${language}", ${distinct.size} token colours: ${[...distinct].join(' ')}`);
      await screenshot('editor-iptables');
      assert.match(language, /iptables/i, 'status bar names the iptables language');
      assert.ok(
        distinct.size >= 2,
        `expected tokens of at least 2 colours, found ${[...distinct].join(', ') || 'none'}`,
      );
    },
  },
];
