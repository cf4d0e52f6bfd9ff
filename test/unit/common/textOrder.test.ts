/**
 * The order of names without ICU (textOrder.ts) is `localeCompare`'s under every locale it is used for, and the CLI
 * uses it only for locales it knows keep that order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LOCALES_KEEPING_ROOT_ORDER,
  ROOT_ORDER_ALPHABET,
  assumeDefaultLocaleKeepsRootOrder,
  compareInRootOrder,
  sortByName,
} from '../../../src/core/common/textOrder';
import { defaultLocaleKeepsRootOrder } from '../../../src/cli/defaultLocale';

/** Names of the alphabet with what some locales tailor (ch, aa, ll, y, cs, ...), capitals, and shared starts. */
function names(count: number): string[] {
  const pieces = [
    'ch',
    'cs',
    'aa',
    'll',
    'dz',
    'ij',
    'ng',
    'th',
    'lj',
    'nj',
    'sz',
    'zs',
    'ny',
    'ae',
    'ss',
    'y',
    'i',
    'I',
  ];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const word = () => {
    let s = '';
    const length = 1 + random(10);
    for (let i = 0; i < length; i++)
      s += random(3) === 0 ? pieces[random(pieces.length)] : ROOT_ORDER_ALPHABET[random(ROOT_ORDER_ALPHABET.length)];
    return s;
  };
  const out = ['kube-system/kube-dns:dns', 'kube-system/kube-dns:dns-tcp', 'default/kubernetes:https', 'KUBE-SVC-X'];
  while (out.length < count) {
    const a = word();
    out.push(a);
    const variant = random(4);
    if (variant === 0) out.push(a.toUpperCase());
    else if (variant === 1) out.push(a.slice(0, random(a.length + 1)) + word());
    else if (variant === 2) out.push(a.replace(/[a-z]/, (c) => c.toUpperCase()));
  }
  return out;
}

const sign = (n: number) => Math.sign(n) || 0;

test('names compare as each locale that keeps the root order compares them', () => {
  const list = names(3000);
  const inRootOrder = [...list].sort(compareInRootOrder);
  for (const locale of ['und', ...LOCALES_KEEPING_ROOT_ORDER]) {
    const collator = new Intl.Collator(locale);
    assert.deepEqual([...list].sort(collator.compare), inRootOrder, locale);
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1], list[i]];
      assert.equal(sign(compareInRootOrder(a, b)), sign(collator.compare(a, b)), `${locale}: ${a} vs ${b}`);
    }
  }
});

test('a locale that orders these names otherwise is not in the list (the check can tell)', () => {
  const list = names(3000);
  const inRootOrder = [...list].sort(compareInRootOrder);
  for (const locale of ['da', 'lt', 'tr', 'hu', 'cy']) {
    assert.ok(!LOCALES_KEEPING_ROOT_ORDER.includes(locale));
    assert.notDeepEqual([...list].sort(new Intl.Collator(locale).compare), inRootOrder, locale);
  }
});

test('sortByName sorts as localeCompare, also with names outside the alphabet', () => {
  const byLocale = (list: string[]) => [...list].sort((a, b) => a.localeCompare(b));
  const list = names(500);
  const withOthers = [...list, 'ns/café:p', 'ns/a b', 'ns/x+y', `ns/${'a'.repeat(5000)}`];
  try {
    for (const keeps of [true, false]) {
      assumeDefaultLocaleKeepsRootOrder(keeps);
      // Equal names keep their order, as in a stable sort by localeCompare.
      const items = [...list, ...list.slice(0, 50)].map((name, i) => ({ name, i }));
      assert.deepEqual(
        sortByName([...items], (x) => x.name),
        [...items].sort((a, b) => a.name.localeCompare(b.name)),
      );
      assert.deepEqual(
        sortByName([...withOthers], (x) => x),
        byLocale(withOthers),
      );
    }
  } finally {
    assumeDefaultLocaleKeepsRootOrder(false);
  }
});

test('the default locale read from the environment as ICU reads it', () => {
  const keeps = (env: NodeJS.ProcessEnv, argv: string[] = []) => defaultLocaleKeepsRootOrder(env, argv);
  assert.equal(keeps({}), true);
  assert.equal(keeps({ LANG: 'C.UTF-8' }), true);
  assert.equal(keeps({ LANG: 'POSIX' }), true);
  assert.equal(keeps({ LANG: '' }), true);
  assert.equal(keeps({ LANG: 'en_US.UTF-8', LC_ALL: 'zh_CN.UTF-8' }), true);
  assert.equal(keeps({ LANG: 'de_DE.UTF-8', LC_MESSAGES: 'fr_FR' }), true);
  assert.equal(keeps({ LANG: 'da_DK.UTF-8' }), false);
  assert.equal(keeps({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'lt_LT' }), false);
  // Whichever of them ICU picks: one that would not keep the order is enough to ask ICU.
  assert.equal(keeps({ LC_ALL: '', LANG: 'tr_TR.UTF-8' }), false);
  assert.equal(keeps({ LANG: 'de_DE.UTF-8@collation=phonebook' }), false);
  assert.equal(keeps({ LANG: 'c' }), false);
  assert.equal(keeps({ LANG: 'en_US.UTF-8' }, ['--icu-locale=da']), false);
});
