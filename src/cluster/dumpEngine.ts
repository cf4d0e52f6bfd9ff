/**
 * The dump engine's part of the cluster flows (core/diagnose/engine.ts), loaded on first use. The extension gets it
 * from dist/dump-engine.js beside its own bundle (scripts/build.mjs), so activating the extension loads no parser
 * and the first Diagnose or capture loads them once; elsewhere (the CLI's bundle, tests) it is the module itself.
 */
import type * as engine from '../core/diagnose/engine';

export type DumpEngine = typeof engine;

/** Set by scripts/build.mjs in the extension bundle: the file name of the separate engine bundle. */
declare const KPP_DUMP_ENGINE_BUNDLE: string | undefined;

let loaded: DumpEngine | undefined;

export function dumpEngine(): DumpEngine {
  loaded ??=
    typeof KPP_DUMP_ENGINE_BUNDLE === 'string'
      ? (require(require('node:path').join(__dirname, KPP_DUMP_ENGINE_BUNDLE)) as DumpEngine)
      : (require('../core/diagnose/engine') as DumpEngine);
  return loaded;
}
