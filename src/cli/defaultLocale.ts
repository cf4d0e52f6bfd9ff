/** What the CLI can tell about the process's default locale without asking ICU (which costs milliseconds to set up). */
import { LOCALES_KEEPING_ROOT_ORDER } from '../core/common/textOrder';

/**
 * Whether the default locale that `localeCompare` uses keeps the root order of names (LOCALES_KEEPING_ROOT_ORDER).
 * ICU takes it from LC_ALL, else LC_MESSAGES, else LANG (C and POSIX give en-US, an empty value the root); all three
 * are checked, so that which of them wins (ICU and the C library choose differently) does not matter. A Node started
 * with `--icu-locale`, or built without ICU, is answered no: `localeCompare` is asked.
 */
export function defaultLocaleKeepsRootOrder(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  // A Node built without ICU compares code units.
  if (typeof Intl === 'undefined' || execArgv.some((a) => a.startsWith('--icu-locale'))) return false;
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value && !keepsRootOrder(value)) return false;
  }
  return true;
}

/** A POSIX locale name (`en_US.UTF-8`, `C.utf8`); one with a modifier (`@...`) may name another collation. */
function keepsRootOrder(posixLocale: string): boolean {
  if (posixLocale.includes('@')) return false;
  const language = /^[A-Za-z]*/.exec(posixLocale)![0];
  return language === 'C' || language === 'POSIX' || LOCALES_KEEPING_ROOT_ORDER.includes(language.toLowerCase());
}
