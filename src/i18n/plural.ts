import type { Plural } from './types.js';

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** Picks the singular or plural form for `count` by the locale's plural rules. */
export function plural(forms: Plural, count: number, htmlLang: string, values: Record<string, string | number> = {}): string {
  const rule = new Intl.PluralRules(htmlLang).select(count);
  return format(rule === 'one' ? forms.one : forms.other, { count, ...values });
}
