// Trace Packet... as a person runs it: the palette, a source IP, a Service picked from the dump, and the paths in
// the Packet Trace view.
import * as assert from 'node:assert/strict';
import { SAMPLES } from '../support/samples';
import type { UiCheck } from './check';
import { answerQuickInput, foldView, openFile, runCommand, settle, sideBarRows, SIDE_BAR_WIDTH, widenSideBar } from './workbench';

export const checks: UiCheck[] = [
  {
    name: 'Trace Packet... shows the three paths to demo/web in the Packet Trace view',
    async run({ page, screenshot, log }) {
      await openFile(page, SAMPLES.iptables);
      await runCommand(page, 'Kube Packet Path: Trace Packet...');
      await answerQuickInput(page, '10.244.1.9');
      await answerQuickInput(page, '172.16.45.20', /172\.16\.45\.20:80/);
      const rows = await settle(
        () => sideBarRows(page),
        (texts) => texts.some((t) => t.includes('3 path(s)')) && texts.some((t) => t.includes('33.33% ACCEPT DNAT to')),
        60_000,
      );
      // Room for the Packet Trace view: the Cluster view above it folded, the side bar wider.
      await foldView(page, 'Cluster');
      await widenSideBar(page);
      await page.waitForTimeout(500);
      log(`trace: ${rows.filter((t) => /DNAT|%/.test(t)).slice(0, 6).join(' | ')}`);
      await screenshot('trace-view', { x: 0, y: 30, width: 1000, height: 560 });
      await widenSideBar(page, SIDE_BAR_WIDTH);
      // The summary names the three endpoints; the path rows (as many as fit) each take a third.
      const summary = rows.find((t) => t.includes('3 path(s)')) ?? '';
      for (const ip of ['10.244.1.5:8080', '10.244.2.7:8080', '10.244.3.9:8080']) assert.ok(summary.includes(ip), `${ip} in the summary: ${summary}`);
      assert.ok(rows.some((t) => /^33\.33% ACCEPT DNAT to 10\.244\.\d\.\d:8080/.test(t)), `a 33.33% path row among: ${rows.join(' | ')}`);
    },
  },
];
