import type { MessageBundle } from '../catalog';

/** ipvs texts. Keys are namespaced `ipvs.*`; every key exists in both languages (a unit test checks). */
export const ipvsMessages: MessageBundle = {
  en: {},
  'zh-CN': {},
};
