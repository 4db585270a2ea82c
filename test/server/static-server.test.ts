import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/cache/disk-cache.js';
import { addPrecompressedSiblings } from '../../src/generator/precompress.js';
import { createFileSender } from '../../src/server/file-sender.js';
import type { SiteFiles } from '../../src/server/site-files.js';
import { ServerStartError, startStaticServer, type RunningServer } from '../../src/server/static-server.js';
import { createFixtureSite, serveFixtureSite, type FixtureSite } from './site-fixture.js';

const BASE = '/python-guide-for-javascript-engineers/';
const SECRET = 'TOP-SECRET-do-not-serve-4c1e';
const LARGE_CSS = `${'body { color: #222; margin: 0 auto; max-width: 72ch; }\n'.repeat(400)}`;

/** A wasm the size of Pyodide's (9.6 MB), compressible as a real one is. */
const WASM = Buffer.concat([
  Buffer.from('\u0000asm\u0001\u0000\u0000\u0000'),
  ...Array.from({ length: 9600 }, (_, i) =>
    Buffer.from(`(func $f${i} (result i32) i32.const ${(i * 7919) % 65536})`.padEnd(1000, ' ')),
  ),
]);

/** The files `pybook build` writes siblings for (see precompress.ts), here those over 1 KB. */
async function siblingsOf(files: Record<string, string | Buffer>): Promise<Record<string, string | Buffer>> {
  const site = new Map(Object.entries(files));
  await addPrecompressedSiblings(site, new DiskCache(undefined));
  return Object.fromEntries(site);
}

/** A temp folder with the site inside and a secret file next to it (outside the site). */
async function createServeSite() {
  return createFixtureSite(
    'pybook-serve-',
    await siblingsOf({
      'index.html': '<!doctype html><title>Home</title><h1>Python guide</h1>',
      'dictionary/index.html': `<!doctype html><title>Dictionary</title>${'<p>dict() and {} literals</p>'.repeat(100)}`,
      '404.html': '<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>',
      'zh-cn/index.html': '<!doctype html><title>首页</title>',
      'zh-cn/404.html': '<!doctype html><title>找不到页面</title><h1>找不到页面</h1>',
      'assets/app.3f9a8c1b.js': `console.log("app");\n${'export const x = 1;\n'.repeat(200)}`,
      'assets/chunk-AB12CD34.js': 'export const chunk = true;\n',
      'assets/style.css': LARGE_CSS,
      'assets/data.json': '{"small":true}',
      'assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'assets/font.woff2': 'wOF2',
      'assets/image.png': '\u0089PNG',
      'assets/module.mjs': 'export {};',
      'assets/app.js.map': '{"version":3}',
      'assets/site.webmanifest': '{"name":"pybook"}',
      'assets/unknown.bin': 'bytes',
      'img/diagram-FLOWCHART.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      // What pybook build writes: the files it named by their content may be cached for good.
      '.pybook-output': JSON.stringify({
        generator: 'pybook',
        note: '',
        contentNamed: ['assets/app.3f9a8c1b.js', 'assets/chunk-AB12CD34.js'],
      }),
      'assets/engine.wasm': '\u0000asm',
      'assets/pyodide/pyodide.asm.wasm': WASM,
      'sitemap.xml': '<urlset/>',
      'robots.txt': 'User-agent: *',
      '.env': SECRET,
    }),
    SECRET,
    { 'leak.txt': 'secret.txt' },
  );
}

interface SimpleResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch: fetch would follow redirects and silently decompress. */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string> | undefined } = {},
): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

let fixture: FixtureSite;
let server: RunningServer;
let origin: string;
const logLines: string[] = [];

function at(pathAndQuery: string, headers?: Record<string, string>): Promise<SimpleResponse> {
  return request(origin + pathAndQuery, { headers });
}

beforeAll(async () => {
  fixture = await createServeSite();
  server = await serveFixtureSite(fixture, BASE, logLines);
  origin = new URL(server.url).origin;
});

afterAll(async () => {
  await server.close();
  await fs.rm(fixture.root, { recursive: true, force: true });
});

describe('startup', () => {
  it('reports the URL with host, port and basePath', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}${BASE}`);
    expect(logLines.some((line) => line.includes(server.url))).toBe(true);
  });
});

describe('redirects', () => {
  it.each([
    ['/', BASE],
    ['/favicon.ico', BASE],
    ['/some/other/page/?q=1', BASE],
    ['/python-guide-for-javascript', BASE],
  ])('sends %s outside basePath to basePath with 302', async (requestPath, location) => {
    const response = await at(requestPath);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(location);
  });

  it('adds the trailing slash to basePath, keeping the query', async () => {
    const response = await at('/python-guide-for-javascript-engineers?from=home');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(`${BASE}?from=home`);
  });

  it.each([
    [`${BASE}index.html`, BASE],
    [`${BASE}dictionary/index.html`, `${BASE}dictionary/`],
    [`${BASE}dictionary/index.html?x=1&y=2`, `${BASE}dictionary/?x=1&y=2`],
    [`${BASE}a/b.html`, `${BASE}a/b/`],
    [`${BASE}dictionary.html?lang=en`, `${BASE}dictionary/?lang=en`],
  ])('redirects %s to the clean path %s with 301', async (requestPath, location) => {
    const response = await at(requestPath);
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(location);
  });

  it('redirects a folder URL without trailing slash when the folder has index.html', async () => {
    const response = await at(`${BASE}dictionary?tab=2`);
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe(`${BASE}dictionary/?tab=2`);
  });
});

describe('clean paths', () => {
  it('serves basePath from index.html', async () => {
    const response = await at(BASE);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain('<h1>Python guide</h1>');
  });

  it('serves a chapter folder from its index.html', async () => {
    const response = await at(`${BASE}dictionary/`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain('dict() and {} literals');
  });

  it('serves the locale home page', async () => {
    const response = await at(`${BASE}zh-cn/`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain('首页');
  });
});

describe('404 pages', () => {
  it('answers unknown English paths with 404.html', async () => {
    const before = logLines.length;
    const response = await at(`${BASE}no-such-chapter/`);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body.toString()).toContain('Page Not Found');
    expect(logLines.length).toBe(before + 1);
    expect(logLines.at(-1)).toMatch(/^404 GET .*no-such-chapter/);
  });

  it('answers unknown paths under zh-cn/ with zh-cn/404.html', async () => {
    for (const requestPath of [`${BASE}zh-cn/no-such-chapter/`, `${BASE}zh-cn/missing.png`]) {
      const response = await at(requestPath);
      expect(response.status).toBe(404);
      expect(response.body.toString()).toContain('找不到页面');
    }
  });

  it('answers a folder without index.html and an unknown file with 404', async () => {
    expect((await at(`${BASE}assets/`)).status).toBe(404);
    expect((await at(`${BASE}assets`)).status).toBe(404);
    expect((await at(`${BASE}assets/missing.js`)).status).toBe(404);
  });
});

describe('content types', () => {
  it.each([
    ['', 'text/html; charset=utf-8'],
    ['assets/style.css', 'text/css; charset=utf-8'],
    ['assets/app.3f9a8c1b.js', 'text/javascript; charset=utf-8'],
    ['assets/module.mjs', 'text/javascript; charset=utf-8'],
    ['assets/data.json', 'application/json; charset=utf-8'],
    ['assets/app.js.map', 'application/json; charset=utf-8'],
    ['assets/site.webmanifest', 'application/manifest+json; charset=utf-8'],
    ['assets/logo.svg', 'image/svg+xml; charset=utf-8'],
    ['assets/image.png', 'image/png'],
    ['assets/font.woff2', 'font/woff2'],
    ['assets/engine.wasm', 'application/wasm'],
    ['assets/unknown.bin', 'application/octet-stream'],
    ['sitemap.xml', 'text/xml; charset=utf-8'],
    ['robots.txt', 'text/plain; charset=utf-8'],
  ])('serves %s as %s with nosniff', async (relativePath, contentType) => {
    const response = await at(BASE + relativePath);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('conditional requests', () => {
  it('answers a matching If-None-Match with 304, no body, and the headers a cache updates', async () => {
    const first = await at(`${BASE}assets/data.json`);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"[^"]+"$/);
    const second = await at(`${BASE}assets/data.json`, { 'If-None-Match': etag! });
    expect(second.status).toBe(304);
    expect(second.body.length).toBe(0);
    expect(second.headers.etag).toBe(etag);
    expect(second.headers['cache-control']).toBe('no-cache');
    expect(second.headers.vary).toBe('Accept-Encoding');
  });

  it('gives the brotli sibling its own ETag, which revalidates only that representation', async () => {
    const plain = await at(`${BASE}assets/style.css`);
    const brotli = await at(`${BASE}assets/style.css`, { 'Accept-Encoding': 'br' });
    expect(brotli.headers.etag).not.toBe(plain.headers.etag);
    expect(
      (await at(`${BASE}assets/style.css`, { 'Accept-Encoding': 'br', 'If-None-Match': brotli.headers.etag! })).status,
    ).toBe(304);
    const other = await at(`${BASE}assets/style.css`, {
      'Accept-Encoding': 'identity',
      'If-None-Match': brotli.headers.etag!,
    });
    expect(other.status).toBe(200);
    expect(other.body.toString()).toBe(LARGE_CSS);
  });

  it("sends Last-Modified as an HTTP date, and the site's robots.txt at the origin's root too", async () => {
    const first = await at(`${BASE}robots.txt`);
    const lastModified = first.headers['last-modified']!;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    const atRoot = await at('/robots.txt');
    expect(atRoot.status).toBe(200);
    expect(atRoot.body.toString()).toBe('User-agent: *');
  });

  it('answers a stale If-None-Match with the file', async () => {
    const first = await at(`${BASE}robots.txt`);
    const response = await at(`${BASE}robots.txt`, {
      'If-None-Match': '"stale"',
      'If-Modified-Since': first.headers['last-modified']!,
    });
    expect(response.status).toBe(200);
  });

  it('serves the new content and a new ETag after a rebuild changes a file', async () => {
    const file = path.join(fixture.site, 'assets', 'data.json');
    const before = await at(`${BASE}assets/data.json`);
    await fs.writeFile(file, '{"small":false,"rebuilt":1}');
    const after = await at(`${BASE}assets/data.json`, { 'If-None-Match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe('{"small":false,"rebuilt":1}');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('cache headers', () => {
  it.each(['assets/app.3f9a8c1b.js', 'assets/chunk-AB12CD34.js'])(
    'marks %s, which pybook named by its content, immutable',
    async (relativePath) => {
      const response = await at(BASE + relativePath);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    },
  );

  // diagram-FLOWCHART.svg looks hashed, but an author named it: a new version keeps the name.
  it.each(['', 'dictionary/', 'assets/style.css', 'assets/logo.svg', 'robots.txt', 'img/diagram-FLOWCHART.svg'])(
    'makes %s revalidate with no-cache',
    async (relativePath) => {
      const response = await at(BASE + relativePath);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['last-modified']).toBeDefined();
      expect(response.headers.etag).toBeDefined();
    },
  );
});

describe('the marker file', () => {
  it('is not served, and a rebuild that names other files is picked up', async () => {
    expect((await at(`${BASE}.pybook-output`)).status).toBe(404);
    const marker = path.join(fixture.site, '.pybook-output');
    const before = await fs.readFile(marker, 'utf8');
    await fs.writeFile(marker, JSON.stringify({ generator: 'pybook', note: '', contentNamed: ['assets/module.mjs'] }));
    try {
      expect((await at(`${BASE}assets/module.mjs`)).headers['cache-control']).toBe(
        'public, max-age=31536000, immutable',
      );
    } finally {
      await fs.writeFile(marker, before);
    }
  });
});

describe('precompressed siblings', () => {
  const cssUrl = `${BASE}assets/style.css`;

  it('sends the .br sibling with Content-Encoding: br and Vary when brotli is accepted', async () => {
    const response = await at(cssUrl, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.equals(await fs.readFile(path.join(fixture.site, 'assets', 'style.css.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(LARGE_CSS);
  });

  it('uses the .gz sibling when brotli is not accepted', async () => {
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip;q=0.8', 'br;q=0, *']) {
      const response = await at(cssUrl, { 'Accept-Encoding': acceptEncoding });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(response.body).toString()).toBe(LARGE_CSS);
    }
  });

  it('sends the plain file when nothing acceptable is offered', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'Accept-Encoding': 'identity' },
      { 'Accept-Encoding': 'br;q=0, gzip;q=0' },
    ]) {
      const response = await at(cssUrl, headers);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.toString()).toBe(LARGE_CSS);
      expect(response.headers.vary).toBe('Accept-Encoding');
    }
  });

  it("sends a page's sibling too, and the wasm's, with the plain file's type", async () => {
    const page = await at(`${BASE}dictionary/`, { 'Accept-Encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zlib.gunzipSync(page.body).toString()).toContain('dict() and {} literals');
    const wasm = await at(`${BASE}assets/pyodide/pyodide.asm.wasm`, { 'Accept-Encoding': 'br' });
    expect(wasm.headers['content-encoding']).toBe('br');
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(zlib.brotliDecompressSync(wasm.body).equals(WASM)).toBe(true);
  });

  it('leaves files without a sibling (small ones, images) alone', async () => {
    for (const relativePath of ['robots.txt', 'assets/image.png']) {
      const response = await at(BASE + relativePath, { 'Accept-Encoding': 'br, gzip' });
      expect(response.headers['content-encoding']).toBeUndefined();
    }
  });
});

describe('files without a sibling, compressed as they are sent', () => {
  const url = `${BASE}assets/no-sibling.js`;
  const source = `export const rows = [\n${'  { name: "row", value: 42 },\n'.repeat(300)}];\n`;
  beforeAll(() => fs.writeFile(path.join(fixture.site, 'assets', 'no-sibling.js'), source));

  it('sends brotli or gzip, as accepted, with Vary', async () => {
    const brotli = await at(url, { 'Accept-Encoding': 'gzip, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('Accept-Encoding');
    expect(brotli.body.length).toBeLessThan(source.length / 10);
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(source);
    const gzip = await at(url, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(source);
    const plain = await at(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(source);
  });

  it('leaves byte ranges and HEAD unencoded', async () => {
    const range = await at(url, { 'Accept-Encoding': 'gzip, br', Range: 'bytes=0-99' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.body.toString()).toBe(source.slice(0, 100));
    const head = await request(origin + url, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
  });
});

describe('a file that cannot be read after sirv found it', () => {
  it('ends that response and keeps the server running', async () => {
    // A socket passes sirv's stat but cannot be opened (ENXIO): the read stream fails after the
    // headers. The server no longer offers such a sibling (below), so the sender is driven here
    // with a site that calls nothing unsafe, as a file that turns unreadable after the check would.
    await fs.writeFile(path.join(fixture.site, 'assets', 'broken.css'), LARGE_CSS);
    const socketServer = net.createServer();
    await new Promise<void>((resolve) =>
      socketServer.listen(path.join(fixture.site, 'assets', 'broken.css.br'), resolve),
    );
    const root = await fs.realpath(fixture.site);
    const sendFile = createFileSender(root, { isUnsafe: () => false } as unknown as SiteFiles);
    const sender = http.createServer((req, res) => {
      sendFile(req, res, (req.url ?? '/').slice(1));
    });
    await new Promise<void>((resolve) => sender.listen(0, '127.0.0.1', resolve));
    const senderOrigin = `http://127.0.0.1:${(sender.address() as net.AddressInfo).port}`;
    try {
      await expect(
        request(`${senderOrigin}/assets/broken.css`, { headers: { 'Accept-Encoding': 'br' } }),
      ).rejects.toThrow();
      expect((await request(`${senderOrigin}/assets/style.css`)).status).toBe(200);
      // The server itself sends the file plain: a sibling that is not a regular file is not offered.
      const served = await at(`${BASE}assets/broken.css`, { 'Accept-Encoding': 'br' });
      expect([served.status, served.headers['content-encoding'], served.body.toString()]).toEqual([
        200,
        undefined,
        LARGE_CSS,
      ]);
      expect((await at(`${BASE}assets/style.css`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => socketServer.close(resolve));
      await new Promise((resolve) => sender.close(resolve));
    }
  });
});

describe('byte ranges', () => {
  const wasmUrl = `${BASE}assets/pyodide/pyodide.asm.wasm`;

  it('answers a range with 206, Content-Range and Accept-Ranges: bytes', async () => {
    const response = await at(wasmUrl, { Range: 'bytes=100-199' });
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 100-199/${WASM.length}`);
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.body.equals(WASM.subarray(100, 200))).toBe(true);
    expect((await at(wasmUrl)).headers['accept-ranges']).toBe('bytes');
  });

  it.each([
    ['bytes=-1000', WASM.length - 1000, WASM.length],
    ['bytes=9000000-', 9_000_000, WASM.length],
  ])('answers %s with the right bytes', async (range, start, end) => {
    const response = await at(wasmUrl, { Range: range });
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${end - 1}/${WASM.length}`);
    expect(response.body.equals(WASM.subarray(start, end))).toBe(true);
  });

  it('sends the whole file for ranges it does not serve, and 416 past the end', async () => {
    for (const range of ['bytes=0-0', 'bytes=5-2', 'bytes=0-1,5-6', 'pages=1-2']) {
      const response = await at(wasmUrl, { Range: range });
      expect(response.status).toBe(200);
      expect(response.body.length).toBe(WASM.length);
    }
    const past = await at(wasmUrl, { Range: `bytes=${WASM.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${WASM.length}`);
  });

  /** The first half of a download, then the connection drops (as a browser's may). */
  function interruptedDownload(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, { headers, agent: false }, (res) => {
        const half = Math.floor(Number(res.headers['content-length']) / 2);
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received < half) return;
          req.destroy();
          resolve({ headers: res.headers, body: Buffer.concat(chunks).subarray(0, half) });
        });
        res.on('end', () => reject(new Error('the download ended before it was interrupted')));
        res.on('error', () => {});
      });
      req.on('error', (error) => {
        if (!req.destroyed) reject(error);
      });
    });
  }

  it.each([
    ['identity', (body: Buffer) => body],
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
  ])('resumes an interrupted download of the 9.6 MB wasm (%s)', async (encoding, decode) => {
    const first = await interruptedDownload(origin + wasmUrl, { 'Accept-Encoding': encoding });
    const from = first.body.length;
    const rest = await at(wasmUrl, {
      'Accept-Encoding': encoding,
      Range: `bytes=${from}-`,
      'If-Range': first.headers['last-modified']!,
    });
    expect(rest.status).toBe(206);
    expect(rest.headers['content-encoding']).toBe(first.headers['content-encoding']);
    expect(rest.headers['content-range']).toBe(
      `bytes ${from}-${Number(first.headers['content-length']) - 1}/${first.headers['content-length']}`,
    );
    expect(decode(Buffer.concat([first.body, rest.body])).equals(WASM)).toBe(true);
  });

  it('sends the whole file again when it changed since the interrupted download (If-Range)', async () => {
    const response = await at(wasmUrl, { Range: 'bytes=1000000-', 'If-Range': 'Thu, 01 Jan 2004 00:00:00 GMT' });
    expect(response.status).toBe(200);
    expect(response.body.equals(WASM)).toBe(true);
  });
});

describe('methods', () => {
  it('answers HEAD with the GET headers and no body', async () => {
    const headers = { 'Accept-Encoding': 'br' };
    const get = await at(`${BASE}assets/style.css`, headers);
    const head = await request(origin + `${BASE}assets/style.css`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      'content-type',
      'content-length',
      'content-encoding',
      'etag',
      'cache-control',
      'last-modified',
    ]) {
      expect(head.headers[name]).toBe(get.headers[name]);
    }
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s with 405 and Allow', async (method) => {
    const before = logLines.length;
    const response = await request(origin + BASE, { method });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(logLines.length).toBe(before + 1);
  });
});

describe('start errors', () => {
  it('reports a port in use clearly', async () => {
    const attempt = startStaticServer({ dir: fixture.site, basePath: BASE, port: server.port, log: () => {} });
    await expect(attempt).rejects.toBeInstanceOf(ServerStartError);
    await expect(attempt).rejects.toThrow(
      `Port ${server.port} on 127.0.0.1 is already in use. Stop the other process or pass --port <n>.`,
    );
  });

  it('reports a missing site folder and asks for a build', async () => {
    const missing = path.join(fixture.root, 'not-built');
    const attempt = startStaticServer({ dir: missing, basePath: BASE, port: 0, log: () => {} });
    await expect(attempt).rejects.toBeInstanceOf(ServerStartError);
    await expect(attempt).rejects.toThrow(missing);
    await expect(attempt).rejects.toThrow('npx pybook build');
  });

  it('reports a site folder without index.html', async () => {
    const empty = path.join(fixture.root, 'empty');
    await fs.mkdir(empty);
    const attempt = startStaticServer({ dir: empty, basePath: BASE, port: 0, log: () => {} });
    await expect(attempt).rejects.toThrow(/empty has no index\.html.*npx pybook build/);
  });
});

describe('watch-mode hooks and shutdown', () => {
  it('lets handleExtra answer first and transforms every HTML body without caching it', async () => {
    let reloadScript = '<script>/*v1*/</script>';
    const watchServer = await startStaticServer({
      dir: fixture.site,
      basePath: BASE,
      port: 0,
      localeDirs: ['zh-cn'],
      log: () => {},
      handleExtra: (req, res) => {
        if (req.url !== '/__pybook/events') return false;
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end('data: hello\n\n');
        return true;
      },
      transformHtml: (html, urlPath) => html.replace('</title>', `</title>${reloadScript}<!--${urlPath}-->`),
    });
    try {
      const watchOrigin = new URL(watchServer.url).origin;
      const events = await request(`${watchOrigin}/__pybook/events`);
      expect(events.body.toString()).toBe('data: hello\n\n');

      const page = await request(`${watchOrigin}${BASE}dictionary/`);
      expect(page.body.toString()).toContain(`<script>/*v1*/</script><!--${BASE}dictionary/-->`);
      const notFound = await request(`${watchOrigin}${BASE}zh-cn/missing/`);
      expect(notFound.status).toBe(404);
      expect(notFound.body.toString()).toContain('<script>/*v1*/</script>');

      reloadScript = '<script>/*v2*/</script>';
      const changed = await request(`${watchOrigin}${BASE}dictionary/`, {
        headers: { 'If-None-Match': page.headers.etag! },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.toString()).toContain('/*v2*/');

      const css = await request(`${watchOrigin}${BASE}assets/style.css`);
      expect(css.body.toString()).toBe(LARGE_CSS);
    } finally {
      await watchServer.close();
    }
  });

  it('close() ends idle keep-alive connections at once', async () => {
    const closingServer = await startStaticServer({ dir: fixture.site, basePath: BASE, port: 0, log: () => {} });
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      http.get(closingServer.url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    const started = Date.now();
    await closingServer.close();
    expect(Date.now() - started).toBeLessThan(1000);
    agent.destroy();
  });
});
