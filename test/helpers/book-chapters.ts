import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every chapter file of the real book, named `locale/file` for failure messages. */
export function bookChapters(): Array<{ name: string; source: string }> {
  const bookDir = path.join(import.meta.dirname, '..', '..', 'book');
  return ['en', 'zh-cn'].flatMap((locale) => readdirSync(path.join(bookDir, locale))
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => ({ name: `${locale}/${file}`, source: readFileSync(path.join(bookDir, locale, file), 'utf8') })));
}
