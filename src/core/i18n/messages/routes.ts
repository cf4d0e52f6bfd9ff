import type { MessageBundle } from '../catalog';

/** routes texts. Keys are namespaced `routes.*`; every key exists in both languages (a unit test checks). */
export const routesMessages: MessageBundle = {
  en: {},
  'zh-CN': {},
};
