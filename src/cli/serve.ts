import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { localesOf } from '../book/load-book.js';
import { loadConfig } from '../config/load-config.js';
import { startStaticServer, type RunningServer } from '../server/static-server.js';

export interface ServeCommandOptions {
  dir: string;
  config: string;
  port: number;
  host: string;
  open?: boolean;
}

/** Opens a URL with the platform's opener; a missing opener only prints the URL. */
export function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'start' : 'xdg-open';
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true, shell: process.platform === 'win32' });
  child.on('error', () => process.stderr.write(`Open ${url} in your browser.\n`));
  child.unref();
}

/** Ctrl+C (and SIGTERM) close the server and its open connections, then exit. */
export function closeOnSignals(
  server: RunningServer | (() => RunningServer),
  extra?: () => Promise<void> | void,
): void {
  const stop = async () => {
    await extra?.();
    await (typeof server === 'function' ? server() : server).close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** `pybook serve`: serves the built folder at the configured base path. */
export async function runServe(options: ServeCommandOptions): Promise<void> {
  // The config gives the base path and locale folders; without one, the book's own defaults.
  const config = existsSync(options.config) ? loadConfig(options.config) : undefined;
  const basePath = config?.basePath ?? '/python-guide-for-javascript-engineers/';
  const localeDirs = config
    ? localesOf(config)
        .filter((l) => !l.isDefault)
        .map((l) => l.path)
    : ['zh-cn'];
  const server = await startStaticServer({
    dir: options.dir,
    basePath,
    host: options.host,
    port: options.port,
    localeDirs,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`Serving ${options.dir}/ at ${server.url} (Ctrl+C to stop)\n`);
  if (options.open) openInBrowser(server.url);
  closeOnSignals(server);
}
