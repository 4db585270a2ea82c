import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServerStartError } from './errors.js';
import { hostChecker } from './allowed-hosts.js';
import { createRequestHandler } from './request-handler.js';
import { basePathSegments, normalizeBasePath } from './route.js';
import { resolveSiteFolder } from './site-folder.js';

export { ServerStartError } from './errors.js';

export interface StaticServerOptions {
  /** The built site folder; its contents are served at basePath. */
  dir: string;
  /** e.g. '/python-guide-for-javascript-engineers/' (leading and trailing slash). */
  basePath: string;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 3000; 0 picks any free port. */
  port?: number;
  /** Non-default locale folders inside dir, e.g. ['zh-cn'], each with its own 404.html. */
  localeDirs?: string[];
  /** One line per request problem (400/404/405) and at startup; default console.error. */
  log?: (line: string) => void;
  /** Called first for every request; returns true if it answered (watch mode's event stream). */
  handleExtra?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** Applied to every HTML body served; when set, HTML is not cached in memory. */
  transformHtml?: (html: string, urlPath: string) => string;
}

export interface RunningServer {
  /** e.g. 'http://127.0.0.1:3000/python-guide-for-javascript-engineers/'. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 3000;

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ServerStartError(
        `Port ${port} on ${host} is already in use. Stop the other process or pass --port <n>.`,
        { cause: error },
      );
    case 'EACCES':
      return new ServerStartError(
        `Not allowed to listen on port ${port} on ${host}. Pass --port <n> with a port above 1023.`,
        {
          cause: error,
        },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ServerStartError(`Cannot listen on host ${host}: no such local address. Pass --host 127.0.0.1.`, {
        cause: error,
      });
    default:
      return new ServerStartError(`Cannot start the server on ${host}:${port}: ${error.message}`, { cause: error });
  }
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => reject(listenError(error, host, port));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** IPv6 literals need brackets inside a URL. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startStaticServer(options: StaticServerOptions): Promise<RunningServer> {
  const rootRealPath = await resolveSiteFolder(options.dir);
  const basePath = normalizeBasePath(options.basePath);
  const host = options.host ?? DEFAULT_HOST;
  const requestedPort = options.port ?? DEFAULT_PORT;
  const log = options.log ?? ((line: string) => console.error(line));

  const server = http.createServer(
    createRequestHandler({
      allowHost: hostChecker(host),
      rootRealPath,
      baseSegments: basePathSegments(basePath),
      localeDirs: options.localeDirs ?? [],
      log,
      handleExtra: options.handleExtra,
      transformHtml: options.transformHtml,
    }),
  );

  // Requests Node cannot even parse (bad request line, huge headers) never reach the handler.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    log(`400 unparsable request (${error.code ?? error.message})`);
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });

  const port = await listen(server, host, requestedPort);
  const url = `http://${urlHost(host)}:${port}${basePath}`;
  log(`Serving ${rootRealPath} at ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive and event-stream connections would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
