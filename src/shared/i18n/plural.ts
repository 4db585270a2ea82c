import type { Plural } from './types.js';

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** One Intl.PluralRules per language: making one (some 30 µs) costs a hundred times more than asking it, several times a page. */
const rulesByLanguage = new Map<string, Intl.PluralRules>();

/** Picks the singular or plural form for `count` by the locale's plural rules. */
export function plural(
  forms: Plural,
  count: number,
  htmlLang: string,
  values: Record<string, string | number> = {},
): string {
  let rules = rulesByLanguage.get(htmlLang);
  if (!rules) rulesByLanguage.set(htmlLang, (rules = new Intl.PluralRules(htmlLang)));
  const rule = rules.select(count);
  return format(rule === 'one' ? forms.one : forms.other, { count, ...values });
}
