// A node's firewall script of `sudo iptables ...` commands (a `.sh`, `\` continuations) read as the rules it makes,
// once Detect Dump Language has set it to an iptables dump: a hover on a jump target on a continuation line explains
// the chain and its rule, Go to Definition (F12) lands on the chain's `-N`, the Outline lists the tables and chains
// the commands build, and Problems has one note for the ip6tables command (another family, not applied), in
// English and Chinese. The checks run in order on the one open editor. A second script, which loads the node's saved
// rules with iptables-restore and opens ports in a shell loop, has one note for its shell lines and one for the rules
// file the text does not show, in both languages; set to iptables, it is iptables again when closed and reopened.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiCheck } from './check';
import {
  activeEditor,
  aroundHover,
  closeAllEditors,
  foldView,
  hoverText,
  openFile,
  problemRows,
  runCommand,
  setEnumSetting,
  settle,
  sideBarRows,
  statusBarLanguage,
} from './workbench';

const SCRIPT = 'node-firewall.sh';
/**
 * A script that reloads the node's saved rules (`iptables-restore < rules.v4`) and opens ports in a loop through a
 * variable set to the tool: five lines of shell around its commands.
 */
const RELOAD_SCRIPT = 'node-firewall-reload.sh';
/** The chain the script makes with `-N` on line 4 and jumps to from the rule continued onto line 7. */
const CHAIN = 'METRICS-FWD';

/** The chain's name in the jump on its own continuation line (`    -j METRICS-FWD`). */
function jumpTarget(page: Page) {
  return activeEditor(page)
    .locator('.view-lines .view-line', { hasText: new RegExp(`^\\s*-j\\s+${CHAIN}\\s*$`) })
    .first()
    .locator('span span', { hasText: CHAIN })
    .first();
}

export const checks: UiCheck[] = [
  {
    name: 'a firewall script of sudo iptables commands, set by Detect Dump Language: a hover on a jump target on a continuation line explains it',
    async run({ page, screenshot, log }) {
      // No other document's problems in the panel later.
      await closeAllEditors(page);
      await openFile(page, SCRIPT);
      // A .sh is a shell script to VS Code (never switched on its own): the person asks.
      assert.equal(await statusBarLanguage(page), 'Shell Script');
      await runCommand(page, 'Kube Packet Path: Detect Dump Language');
      const language = await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      assert.equal(language, 'iptables dump');
      const { text, hover } = await hoverText(page, jumpTarget(page), (t) => t.includes(`Jump to chain ${CHAIN}`));
      log(`hover: ${text.replace(/\n+/g, ' | ')}`);
      await screenshot('script-hover-jump', await aroundHover(hover));
      // The rule is the three lines of one command, in the table its -t names.
      assert.match(text, /Protocol tcp, destination port 9100: jump to METRICS-FWD/);
      assert.match(text, /In chain PREROUTING \(nat\), rule 1 of 1/);
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'with kubePacketPath.language zh-CN, the hover on the script is in Simplified Chinese',
    async run({ page, screenshot, log }) {
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        const { text, hover } = await hoverText(page, jumpTarget(page), (t) => t.includes(`跳转到链 ${CHAIN}`));
        log(`hover (zh-CN): ${text.replace(/\n+/g, ' | ')}`);
        await screenshot('script-hover-jump-zh-CN', await aroundHover(hover));
        assert.match(text, /位于链 PREROUTING（nat），第 1\/1 条规则/);
      } finally {
        await page.keyboard.press('Escape');
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
    },
  },
  {
    name: "Go to Definition (F12) on the script's jump target lands on the line whose -N makes the chain",
    async run({ page, screenshot, log }) {
      const cursor = (line: number) =>
        settle(
          async () => (await page.locator('[id="status.editor.selection"]').innerText()).trim(),
          (s) => s.startsWith(`Ln ${line},`),
        );
      await jumpTarget(page).click();
      // The status bar follows the click a moment later.
      const before = await cursor(7);
      await page.keyboard.press('F12');
      const at = await cursor(4);
      log(`cursor: ${before} -> ${at}`);
      await screenshot('script-definition', { x: 300, y: 30, width: 1100, height: 300 });
      assert.match(before, /^Ln 7,/);
      // At the chain's name in `sudo iptables -t nat -N METRICS-FWD`.
      assert.match(at, /^Ln 4, Col 25\b/);
      const line = await activeEditor(page)
        .locator('.view-lines .view-line', { hasText: new RegExp(`-N\\s+${CHAIN}`) })
        .first()
        .innerText();
      assert.match(line.replace(/\u00a0/g, ' '), /^sudo iptables -t nat -N METRICS-FWD$/);
    },
  },
  {
    name: 'the Outline of the script lists the tables and the chains its commands build, in both languages',
    async run({ page, screenshot, log }) {
      await page.keyboard.press('Control+Home');
      await runCommand(page, 'Explorer: Focus on Outline View');
      // Room for the outline: fold the file list above it (as the outline check leaves it).
      await foldView(page, 'workspace');
      const built = (rules: RegExp) => (rows: string[]) =>
        ['*nat', 'PREROUTING', CHAIN, '*filter', 'INPUT'].every((name) => rows.some((r) => r.startsWith(name))) &&
        rows.some((r) => r.startsWith('NODE-INPUT') && rules.test(r));
      const en = await settle(() => sideBarRows(page), built(/4 rules/), 60_000);
      log(`outline: ${en.join(' | ')}`);
      await screenshot('script-outline', { x: 0, y: 0, width: 900, height: 420 });
      assert.ok(built(/4 rules/)(en), en.join(' | '));
      assert.ok(
        en.some((r) => /^INPUT\s*DROP, 1 rule/.test(r)),
        `INPUT's policy and its one rule: ${en.join(' | ')}`,
      );
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        const zh = await settle(() => sideBarRows(page), built(/4 条规则/), 30_000);
        log(`outline (zh-CN): ${zh.join(' | ')}`);
        await screenshot('script-outline-zh-CN', { x: 0, y: 0, width: 900, height: 420 });
        assert.ok(built(/4 条规则/)(zh), zh.join(' | '));
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
    },
  },
  {
    name: "the script's ip6tables command is one note in Problems (another family, not applied), in both languages",
    async run({ page, screenshot, log }) {
      try {
        for (const [lang, noted, shot] of [
          ['auto', /This ip6tables -A changes IPv6 rules/, 'script-other-family-problems'],
          ['zh-CN', /此处的 ip6tables -A 修改的是 IPv6 规则/, 'script-other-family-problems-zh-CN'],
        ] as const) {
          await setEnumSetting(page, 'kubePacketPath.language', lang);
          const rows = await problemRows(page, (all) => all.some((r) => noted.test(r)));
          log(`problems (${lang}): ${rows.join(' | ')}`);
          await screenshot(shot, page.locator('.markers-panel'));
          // The only problem of the script: its commands, continuations and comments read cleanly.
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 1, problems.join(' | '));
          assert.match(problems[0], /^Info: .* at line 20 /);
        }
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await closeAllEditors(page);
        await runCommand(page, 'View: Hide Panel');
      }
    },
  },
  {
    name: 'a script that loads a rules file and loops over ports: one note for its shell lines, one for the file iptables-restore loads, in both languages',
    async run({ page, screenshot, log }) {
      await openFile(page, RELOAD_SCRIPT);
      assert.equal(await statusBarLanguage(page), 'Shell Script');
      await runCommand(page, 'Kube Packet Path: Detect Dump Language');
      assert.equal(
        await settle(
          () => statusBarLanguage(page),
          (l) => l === 'iptables dump',
          60_000,
        ),
        'iptables dump',
      );
      try {
        for (const [lang, shell, restore, shot] of [
          [
            'auto',
            /^Info: 5 lines of shell around the iptables commands \(the first here\) are not run: .* at line 3 /,
            /^Info: iptables-restore loads the rules of rules\.v4, which the text does not show: .* at line 7 /,
            'script-shell-lines-problems',
          ],
          [
            'zh-CN',
            /^Info: iptables 命令周围的 5 行 shell 代码（第一行在此）不会运行：.* at line 3 /,
            /^Info: iptables-restore 加载 rules\.v4 中的规则，文本里没有这些规则：.* at line 7 /,
            'script-shell-lines-problems-zh-CN',
          ],
        ] as const) {
          await setEnumSetting(page, 'kubePacketPath.language', lang);
          const rows = await problemRows(
            page,
            (all) => all.some((r) => shell.test(r)) && all.some((r) => restore.test(r)),
          );
          log(`problems (${lang}): ${rows.join(' | ')}`);
          await screenshot(shot, page.locator('.markers-panel'));
          // Said once each: the loop, the variables and `set` are not a warning apiece, and nothing else is noted.
          const problems = rows.filter((r) => /^(Error|Warning|Info)/.test(r));
          assert.equal(problems.length, 2, problems.join(' | '));
          assert.ok(
            problems.some((r) => shell.test(r)),
            problems.join(' | '),
          );
          assert.ok(
            problems.some((r) => restore.test(r)),
            problems.join(' | '),
          );
        }
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await runCommand(page, 'View: Hide Panel');
      }
    },
  },
  {
    name: 'a .sh set to iptables with Detect Dump Language is an iptables dump again when closed and opened again',
    async run({ page, screenshot, log }) {
      await closeAllEditors(page);
      await openFile(page, RELOAD_SCRIPT);
      // VS Code opens a .sh as Shell Script; the extension gives it the language the person chose for this file.
      const language = await settle(
        () => statusBarLanguage(page),
        (l) => l === 'iptables dump',
        60_000,
      );
      log(`status bar after reopening: ${language}`);
      // Read as the rules again: the note about the rules file is back in Problems.
      const rows = await problemRows(page, (all) => all.some((r) => /loads the rules of rules\.v4/.test(r)));
      await screenshot('script-reopened', page.locator('.part.editor'));
      assert.equal(language, 'iptables dump');
      assert.ok(
        rows.some((r) => /^Info: iptables-restore loads the rules of rules\.v4/.test(r)),
        rows.join(' | '),
      );
      await setEnumSetting(page, 'kubePacketPath.language', 'zh-CN');
      try {
        const zh = await problemRows(page, (all) => all.some((r) => /加载 rules\.v4 中的规则/.test(r)));
        log(`problems after reopening (zh-CN): ${zh.join(' | ')}`);
        await screenshot('script-reopened-zh-CN', page.locator('.part.editor'));
        assert.equal(await statusBarLanguage(page), 'iptables dump');
        assert.ok(
          zh.some((r) => /加载 rules\.v4 中的规则/.test(r)),
          zh.join(' | '),
        );
      } finally {
        await setEnumSetting(page, 'kubePacketPath.language', 'auto');
        await closeAllEditors(page);
        await runCommand(page, 'View: Hide Panel');
      }
    },
  },
];
