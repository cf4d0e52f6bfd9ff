import type { MessageBundle } from '../catalog';

/** iptables texts. Keys are namespaced `iptables.*`; every key exists in both languages (a unit test checks). */
export const iptablesMessages: MessageBundle = {
  en: {},
  'zh-CN': {},
};
