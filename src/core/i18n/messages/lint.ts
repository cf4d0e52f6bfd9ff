import type { MessageBundle } from '../catalog';

/** lint texts. Keys are namespaced `lint.*`; every key exists in both languages (a unit test checks). */
export const lintMessages: MessageBundle = {
  en: {},
  'zh-CN': {},
};
