import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startStaticServer, type RunningServer } from '../../src/server/static-server.js';

export interface FixtureSite {
  root: string;
  site: string;
  secretPath: string;
}

/**
 * A temp folder holding a small built site (`files`, relative path -> contents) and, outside it,
 * secret.txt, which the site reaches only through the symlinks listed in `links` (site path ->
 * target inside root). Server tests prove those contents are never served.
 */
export async function createFixtureSite(
  prefix: string,
  files: Record<string, string | Uint8Array>,
  secret: string,
  links: Record<string, string> = {},
): Promise<FixtureSite> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const site = path.join(root, 'site');
  for (const [relativePath, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(site, relativePath)), { recursive: true });
    await fs.writeFile(path.join(site, relativePath), content);
  }
  const secretPath = path.join(root, 'secret.txt');
  await fs.writeFile(secretPath, secret);
  for (const [linkPath, target] of Object.entries(links)) {
    await fs.mkdir(path.dirname(path.join(site, linkPath)), { recursive: true });
    await fs.symlink(path.join(root, target), path.join(site, linkPath));
  }
  return { root, site, secretPath };
}

/** The static server over a fixture site at the book's base path, logging into `logLines`. */
export function serveFixtureSite(fixture: FixtureSite, basePath: string, logLines: string[]): Promise<RunningServer> {
  return startStaticServer({
    dir: fixture.site,
    basePath,
    port: 0,
    localeDirs: ['zh-cn'],
    log: (line) => logLines.push(line),
  });
}
