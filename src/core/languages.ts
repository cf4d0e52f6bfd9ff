/**
 * The editor languages the engine reads, and which dump kind each one is: the one place the extension, the
 * language server and the detector take these ids from. Kept free of imports so the extension bundle can name
 * the languages without carrying the engine.
 */

/** Editor language id of each family the engine reads. `netstate` is "Linux network state". */
export const LANGUAGE_OF_KIND = { iptables: 'iptables', ipvs: 'ipvs', network: 'netstate' } as const;

export type DumpLanguageId = (typeof LANGUAGE_OF_KIND)[keyof typeof LANGUAGE_OF_KIND];

/** Every language the language server serves. */
export const DUMP_LANGUAGE_IDS: readonly DumpLanguageId[] = Object.values(LANGUAGE_OF_KIND);

/** The languages a packet can be traced in: the rules dumps (network state is read, not traced). */
export const TRACE_LANGUAGE_IDS: readonly DumpLanguageId[] = [LANGUAGE_OF_KIND.iptables, LANGUAGE_OF_KIND.ipvs];

/** The dump kind of an editor language, undefined for any other language. */
export function kindOfLanguage(languageId: string): keyof typeof LANGUAGE_OF_KIND | undefined {
  for (const [kind, id] of Object.entries(LANGUAGE_OF_KIND))
    if (id === languageId) return kind as keyof typeof LANGUAGE_OF_KIND;
  return undefined;
}

/** The detector reads this many lines from the top of a text; a client asking for a detection sends no more. */
export const DETECTION_SAMPLE_LINES = 400;
