import type { MessageBundle } from '../catalog';

/** trace texts. Keys are namespaced `trace.*`; every key exists in both languages (a unit test checks). */
export const traceMessages: MessageBundle = {
  en: {},
  'zh-CN': {},
};
