// One rules file for iptables-restore and ip6tables-restore, its ICMP rules marked `-4` and `-6`: a hover on either
// option says which tool skips the rule and reads the rule's condition as the family, in English and Chinese.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiCheck } from './check';
import { activeEditor, aroundHover, hoverText, openFile, setEnumSetting } from './workbench';

const RULES = 'host-rules-both-families.iptables';

/** The family option (`-4`, `-6`) in the rule `-A INPUT <option> -p <protocol> -j ACCEPT`. */
function familyOption(page: Page, option: '-4' | '-6', protocol: string) {
  return (
    activeEditor(page)
      // Rendered spaces are U+00A0 (\s matches them).
      .locator('.view-lines .view-line', {
        hasText: new RegExp(`^-A\\sINPUT\\s${option}\\s-p\\s${protocol}\\s-j\\sACCEPT\\s*$`),
      })
      .first()
      .locator('span span', { hasText: new RegExp(`^\\s*${option}\\s*$`) })
      .first()
  );
}

export const checks: UiCheck[] = [
  {
    name: 'a hover on -4 or -6 in one rules file for both tools says which restore skips the rule, in both languages',
    async run({ page, screenshot, log }) {
      await openFile(page, RULES);
      const cases = [
        {
          lang: 'auto',
          shot: 'hover-ipv4-only',
          option: '-4',
          protocol: 'icmp',
          said: /IPv4 only: no effect in iptables' rules; ip6tables-restore skips this rule/,
          rule: /IPv4 only, protocol icmp: accept\./,
        },
        {
          lang: 'auto',
          shot: 'hover-ipv6-only',
          option: '-6',
          protocol: 'ipv6-icmp',
          said: /IPv6 only: no effect in ip6tables' rules; iptables-restore skips this rule/,
          rule: /IPv6 only, protocol ipv6-icmp: accept\./,
        },
        {
          lang: 'zh-CN',
          shot: 'hover-ipv4-only-zh-CN',
          option: '-4',
          protocol: 'icmp',
          said: /仅限 IPv4：在 iptables 的规则中不起作用；ip6tables-restore 会跳过这条规则/,
          rule: /仅限 IPv4，协议 icmp：放行。/,
        },
        {
          lang: 'zh-CN',
          shot: 'hover-ipv6-only-zh-CN',
          option: '-6',
          protocol: 'ipv6-icmp',
          said: /仅限 IPv6：在 ip6tables 的规则中不起作用；iptables-restore 会跳过这条规则/,
          rule: /仅限 IPv6，协议 ipv6-icmp：放行。/,
        },
      ] as const;
      let language = 'auto';
      try {
        for (const c of cases) {
          if (c.lang !== language) await setEnumSetting(page, 'kubePacketPath.language', (language = c.lang));
          const { text, hover } = await hoverText(page, familyOption(page, c.option, c.protocol), (t) =>
            c.said.test(t),
          );
          log(`hover on ${c.option} (${c.lang}): ${text.replace(/\n+/g, ' | ')}`);
          await screenshot(c.shot, await aroundHover(hover));
          assert.match(text, c.said);
          // The rule's own sentence names the family as its condition.
          assert.match(text, c.rule);
          await page.keyboard.press('Escape');
        }
      } finally {
        await page.keyboard.press('Escape');
        if (language !== 'auto') await setEnumSetting(page, 'kubePacketPath.language', 'auto');
      }
    },
  },
];
