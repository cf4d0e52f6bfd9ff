/**
 * Names in the order `localeCompare` gives them under the process's default locale. Setting up ICU's collator for
 * that costs ~6 ms, a good part of `kpp` on a small dump; names of ASCII letters, digits and `_-:./` (Service port
 * names, chain names) have the root collation's order in the locales of LOCALES_KEEPING_ROOT_ORDER, and that order is
 * computed here once a face has said that the default locale is one of those.
 */

/** Languages whose collation orders ROOT_ORDER_ALPHABET as the root collation does (checked by the unit test). */
export const LOCALES_KEEPING_ROOT_ORDER: readonly string[] = [
  'en',
  'zh',
  'ja',
  'ko',
  'fr',
  'de',
  'it',
  'pt',
  'es',
  'nl',
  'pl',
  'ru',
  'uk',
];

/** The characters the root order is known for here, in that order (each letter before its capital). */
export const ROOT_ORDER_ALPHABET = '_-:./0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ';

/** Primary weight by character code (0: not in the alphabet); a letter and its capital weigh the same. */
const PRIMARY = new Uint8Array(128);
for (let i = 0, weight = 0; i < ROOT_ORDER_ALPHABET.length; i++) {
  const c = ROOT_ORDER_ALPHABET.charCodeAt(i);
  if (!(c >= 65 && c <= 90)) weight++;
  PRIMARY[c] = weight;
}

let defaultLocaleKeepsRootOrder = false;

/** Said by a face that knows the process's default locale (the CLI reads the environment as ICU does). */
export function assumeDefaultLocaleKeepsRootOrder(keeps: boolean): void {
  defaultLocaleKeepsRootOrder = keeps;
}

/** Sorts `items` by `key` as `key(a).localeCompare(key(b))` does; returns `items`. */
export function sortByName<T>(items: T[], key: (item: T) => string): T[] {
  if (defaultLocaleKeepsRootOrder && items.every((item) => inRootOrderAlphabet(key(item))))
    return items.sort((a, b) => compareInRootOrder(key(a), key(b)));
  return items.sort((a, b) => key(a).localeCompare(key(b)));
}

/** Whether every character of `text` is in ROOT_ORDER_ALPHABET. */
function inRootOrderAlphabet(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || PRIMARY[c] === 0) return false;
  }
  return true;
}

/**
 * The root collation's comparison of two names of ROOT_ORDER_ALPHABET: letters, digits and punctuation by their
 * primary weights, a shorter name before a longer one with the same start, and then, only for names equal but for
 * case, the first lower-case letter before its capital.
 */
export function compareInRootOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let caseOrder = 0;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const difference = PRIMARY[x] - PRIMARY[y];
    if (difference !== 0) return difference;
    if (caseOrder === 0) caseOrder = x > y ? -1 : 1;
  }
  return a.length !== b.length ? a.length - b.length : caseOrder;
}
