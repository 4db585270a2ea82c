import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { BookError } from './errors.js';
import { isInsideFolder } from './paths.js';

/** The real path of `target`, resolving links in the part of it that exists. */
export function realPathOf(target: string): string {
  const missing: string[] = [];
  let existing = path.resolve(target);
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    missing.unshift(path.basename(existing));
    existing = parent;
  }
  try {
    return path.join(realpathSync(existing), ...missing);
  } catch {
    return path.resolve(target);
  }
}

/**
 * A folder of the project that pybook reads (the chapters, the static files, the fixtures):
 * `relative` resolved against the project root, links included, and required to stay inside it.
 * A folder that is a link, or runs through one, is fine while it ends inside the project; one
 * that leads out of it (`ln -s ~/.ssh book/static`, `"staticDir": "../x"`, an absolute path) is an
 * error naming `field`, so nothing outside the project is ever read, let alone published.
 */
export function projectFolder(root: string, relative: string, field: string, configFile: string): string {
  if (path.isAbsolute(relative))
    throw new BookError(
      `field "${field}" is an absolute path (${relative}): it must name a folder inside the project`,
      { file: configFile },
    );
  const folder = path.resolve(root, relative);
  const realRoot = realPathOf(root);
  const real = realPathOf(folder);
  if (real !== realRoot && !isInsideFolder(real, realRoot)) {
    const via = real === folder ? '' : ` (it resolves to ${real}, through a link)`;
    throw new BookError(
      `field "${field}" names ${folder}, outside the project folder ${realRoot}${via}: pybook reads only folders inside the project`,
      { file: configFile },
    );
  }
  return folder;
}
