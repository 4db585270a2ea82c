/**
 * The languages the search has word rules for: English (words, stemmed) and Chinese (jieba's
 * words). A locale is searched in its language, the first part of its code ("zh-cn": zh); the
 * config's `search.languages` lists the languages the book's search serves, and a locale in
 * another is refused when the config is read (config/load-config.ts), not indexed with the wrong rules.
 */
export const SEARCH_LANGUAGES = ['en', 'zh'] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

/** The language of a locale's code: its first subtag, lower-cased ("zh-CN", "zh-cn": "zh"). */
export const languageOfLocale = (code: string): string => code.toLowerCase().split('-')[0];
