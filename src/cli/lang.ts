import { LANGS, type Lang } from '../core/i18n/catalog';
import { UsageError, type ParsedArgs } from './args';

/** `--lang en|zh-CN`; without it, the environment's locale (LANG/LC_ALL) decides. */
export function langOption(args: ParsedArgs): Lang {
  const v = args.options.get('lang');
  if (v === undefined)
    return /^zh/i.test(process.env.LC_ALL || process.env.LC_MESSAGES || process.env.LANG || '') ? 'zh-CN' : 'en';
  const found = LANGS.find((l) => l.toLowerCase() === v.toLowerCase());
  if (!found) throw new UsageError(`--lang must be one of ${LANGS.join(', ')}`);
  return found;
}
