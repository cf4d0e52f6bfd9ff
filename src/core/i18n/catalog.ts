/**
 * Explanation and message texts, English and Simplified Chinese. Each domain keeps its texts in
 * `messages/<domain>.ts` with both languages side by side; this module merges them into one catalog per language.
 */
import { ownEntry } from '../common/own';
import { clusterMessages } from './messages/clusterErrors';
import { diagnoseMessages } from './messages/diagnose';
import { iptablesMessages } from './messages/iptables';
import { ipvsMessages } from './messages/ipvs';
import { lintMessages } from './messages/lint';
import { parseMessages } from './messages/parse';
import { netstateMessages } from './messages/netstate';
import { traceMessages } from './messages/trace';
import { uiMessages } from './messages/ui';

import { LANGS, type Lang, type MessageBundle, type Messages } from './lang';

export { LANGS };
export type { Lang, MessageBundle, Messages };

const bundles: MessageBundle[] = [
  clusterMessages,
  diagnoseMessages,
  iptablesMessages,
  ipvsMessages,
  lintMessages,
  parseMessages,
  netstateMessages,
  traceMessages,
  uiMessages,
];

function merge(lang: Lang): Messages {
  const out: Messages = {};
  for (const b of bundles) {
    for (const [k, v] of Object.entries(b[lang])) {
      if (k in out) throw new Error(`i18n key defined twice: ${k}`);
      out[k] = v;
    }
  }
  return out;
}

const merged: Partial<Record<Lang, Messages>> = {};

/** Each language's catalog, merged when first read: an English command never needs the Chinese one. */
export const catalogs: Readonly<Record<Lang, Messages>> = {
  get en() {
    return (merged.en ??= merge('en'));
  },
  get 'zh-CN'() {
    return (merged['zh-CN'] ??= merge('zh-CN'));
  },
};

/** Maps a VS Code / LSP locale (`zh-cn`, `zh-Hans`, `en-US`, ...) to a catalog language. */
export function normalizeLang(locale: string | undefined): Lang {
  const l = (locale ?? '').toLowerCase();
  if (l.startsWith('zh')) return 'zh-CN';
  return 'en';
}

/** English counts one thing apart from the rest; Chinese has no plural forms and reads `other`. */
function pluralForm(lang: Lang, count: number): 'one' | 'other' {
  return lang === 'en' && count === 1 ? 'one' : 'other';
}

/**
 * The template of `key` in `lang`. A text kept as counted forms (`<key>.one` / `<key>.other`) is picked by a numeric
 * `count`, so the generic message paths (lint findings, parse problems, trace messages) count without knowing it;
 * without a count it reads `other`.
 */
function template(lang: Lang, key: string, count: unknown): string | undefined {
  const form = typeof count === 'number' ? pluralForm(lang, count) : 'other';
  return ownEntry(catalogs[lang], key) ?? ownEntry(catalogs[lang], `${key}.${form}`);
}

/**
 * Looks up `key` and fills `{name}` placeholders. Falls back to English, then to the key itself,
 * so a missing text never breaks a hover.
 */
export function t(lang: Lang, key: string, params?: Record<string, string | number>): string {
  const text = template(lang, key, params?.count) ?? template('en', key, params?.count) ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * A text with a count: English picks `<key>.one` for 1 and `<key>.other` otherwise; Chinese has no plural forms
 * and reads `<key>.other`. `{count}` is filled in.
 */
export function tn(lang: Lang, key: string, count: number, params: Record<string, string | number> = {}): string {
  return t(lang, key, { ...params, count });
}

export function hasKey(key: string): boolean {
  return ownEntry(catalogs.en, key) !== undefined || ownEntry(catalogs.en, `${key}.other`) !== undefined;
}
