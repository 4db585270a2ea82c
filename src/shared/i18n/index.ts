import { en } from './en.js';
import type { InterfaceStrings } from './types.js';
import { zhCn } from './zh-cn.js';

export type { InterfaceStrings, Plural } from './types.js';

const tables: Record<string, InterfaceStrings> = { en, 'zh-cn': zhCn };

/** The interface strings of a locale (unknown locales use English). */
export function stringsFor(locale: string): InterfaceStrings {
  return tables[locale] ?? en;
}

export { format, plural } from './plural.js';
