import fs from 'node:fs/promises';
import path from 'node:path';
import { ServerStartError } from './errors.js';

const BUILD_HINT = 'Run `npx pybook build` first.';

/**
 * Checks that the built site exists before the server starts, so a typo or a
 * forgotten build gives one clear message instead of a 404 on every page.
 * Returns the folder's real path, the anchor for all containment checks.
 */
export async function resolveSiteFolder(dir: string): Promise<string> {
  const absoluteDir = path.resolve(dir);
  let realDir: string;
  try {
    realDir = await fs.realpath(absoluteDir);
  } catch {
    throw new ServerStartError(`The site folder ${absoluteDir} does not exist. ${BUILD_HINT}`);
  }
  const stats = await fs.stat(realDir);
  if (!stats.isDirectory()) {
    throw new ServerStartError(`The site folder ${absoluteDir} is not a folder. ${BUILD_HINT}`);
  }
  const index = await fs.stat(path.join(realDir, 'index.html')).catch(() => undefined);
  if (index === undefined || !index.isFile()) {
    throw new ServerStartError(`The site folder ${absoluteDir} has no index.html. ${BUILD_HINT}`);
  }
  return realDir;
}
