import { bytesOf, type FileContents } from '../../src/output/copied-file.js';

/** A built file's text (its bytes read as UTF-8); an error when the build wrote no such file. */
export function textOf(files: ReadonlyMap<string, FileContents>, name: string): string {
  const contents = files.get(name);
  if (contents === undefined) throw new Error(`the build wrote no ${name}`);
  return typeof contents === 'string' ? contents : Buffer.from(bytesOf(contents)).toString('utf8');
}
