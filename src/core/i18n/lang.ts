/**
 * The languages and the shape of a domain's texts, apart from the catalog that merges them: every
 * `messages/<domain>.ts` needs the shape and the catalog needs every domain, so the shape lives here.
 */
export type Lang = 'en' | 'zh-CN';
export const LANGS: readonly Lang[] = ['en', 'zh-CN'];

export type Messages = Record<string, string>;
export interface MessageBundle {
  en: Messages;
  'zh-CN': Messages;
}
