import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerStartError, startStaticServer, type RunningServer } from '../../src/server/static-server.js';
import { createFixtureSite, serveFixtureSite, type FixtureSite } from './site-fixture.js';

const BASE = '/python-guide-for-javascript-engineers/';
const SECRET = 'TOP-SECRET-do-not-serve-4c1e';
const LARGE_CSS = `${'body { color: #222; margin: 0 auto; max-width: 72ch; }\n'.repeat(400)}`;

/** A temp folder with the site inside and a secret file next to it (outside the site). */
function createServeSite() {
  return createFixtureSite('pybook-serve-', {
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
    '.pybook-output': JSON.stringify({ generator: 'pybook', note: '', contentNamed: ['assets/app.3f9a8c1b.js', 'assets/chunk-AB12CD34.js'] }),
    'assets/engine.wasm': '\u0000asm',
    'sitemap.xml': '<urlset/>',
    'robots.txt': 'User-agent: *',
    '.env': SECRET,
  }, SECRET, { 'leak.txt': 'secret.txt' });
}

interface SimpleResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http rather than fetch: fetch would follow redirects and silently decompress. */
function request(url: string, options: { method?: string; headers?: Record<string, string> | undefined } = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
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
    ['sitemap.xml', 'application/xml; charset=utf-8'],
    ['robots.txt', 'text/plain; charset=utf-8'],
  ])('serves %s as %s with nosniff', async (relativePath, contentType) => {
    const response = await at(BASE + relativePath);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('conditional requests', () => {
  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await at(`${BASE}dictionary/`);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    const second = await at(`${BASE}dictionary/`, { 'If-None-Match': etag! });
    expect(second.status).toBe(304);
    expect(second.body.length).toBe(0);
    expect(second.headers.etag).toBe(etag);
  });

  it('accepts the ETag of the compressed variant and a list of tags', async () => {
    const brotli = await at(`${BASE}assets/style.css`, { 'Accept-Encoding': 'br' });
    expect(brotli.headers.etag).toMatch(/-br"$/);
    const revalidated = await at(`${BASE}assets/style.css`, { 'Accept-Encoding': 'gzip', 'If-None-Match': `"other", ${brotli.headers.etag!}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toMatch(/-gzip"$/);
  });

  it('answers If-Modified-Since at or after Last-Modified with 304', async () => {
    const first = await at(`${BASE}robots.txt`);
    const lastModified = first.headers['last-modified']!;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    expect((await at(`${BASE}robots.txt`, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await at(`${BASE}robots.txt`, { 'If-Modified-Since': 'Thu, 01 Jan 2004 00:00:00 GMT' })).status).toBe(200);
    const atRoot = await at('/robots.txt');
    expect(atRoot.status).toBe(200);
    expect(atRoot.body.toString()).toBe('User-agent: *');
  });

  it('prefers If-None-Match over If-Modified-Since', async () => {
    const first = await at(`${BASE}robots.txt`);
    const response = await at(`${BASE}robots.txt`, { 'If-None-Match': '"stale"', 'If-Modified-Since': first.headers['last-modified']! });
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
  it.each(['assets/app.3f9a8c1b.js', 'assets/chunk-AB12CD34.js'])('marks %s, which pybook named by its content, immutable', async (relativePath) => {
    const response = await at(BASE + relativePath);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  // diagram-FLOWCHART.svg looks hashed, but an author named it: a new version keeps the name.
  it.each(['', 'dictionary/', 'assets/style.css', 'assets/logo.svg', 'robots.txt', 'img/diagram-FLOWCHART.svg'])('makes %s revalidate with no-cache', async (relativePath) => {
    const response = await at(BASE + relativePath);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['last-modified']).toBeDefined();
    expect(response.headers.etag).toBeDefined();
  });
});

describe('the marker file', () => {
  it('is not served, and a rebuild that names other files is picked up', async () => {
    expect((await at(`${BASE}.pybook-output`)).status).toBe(404);
    const marker = path.join(fixture.site, '.pybook-output');
    const before = await fs.readFile(marker, 'utf8');
    await fs.writeFile(marker, JSON.stringify({ generator: 'pybook', note: '', contentNamed: ['assets/module.mjs'] }));
    try {
      expect((await at(`${BASE}assets/module.mjs`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    } finally {
      await fs.writeFile(marker, before);
    }
  });
});

describe('compression', () => {
  const cssUrl = `${BASE}assets/style.css`;

  it('prefers brotli and the body decompresses to the file', async () => {
    const response = await at(cssUrl, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(LARGE_CSS.length / 5);
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(LARGE_CSS);
  });

  it('uses gzip when brotli is not accepted', async () => {
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip;q=0.8', 'br;q=0, *']) {
      const response = await at(cssUrl, { 'Accept-Encoding': acceptEncoding });
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(response.body).toString()).toBe(LARGE_CSS);
    }
  });

  it('sends identity when nothing acceptable is offered', async () => {
    for (const headers of [{} as Record<string, string>, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }]) {
      const response = await at(cssUrl, headers);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body.toString()).toBe(LARGE_CSS);
      expect(response.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('serves the same compressed bytes again from the cache', async () => {
    const first = await at(cssUrl, { 'Accept-Encoding': 'br' });
    const second = await at(cssUrl, { 'Accept-Encoding': 'br' });
    expect(second.body.equals(first.body)).toBe(true);
  });

  it('compresses HTML pages and the 404 page too', async () => {
    const page = await at(`${BASE}dictionary/`, { 'Accept-Encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.body).toString()).toContain('dict() and {} literals');
  });

  it('leaves small files and images alone', async () => {
    for (const relativePath of ['robots.txt', 'assets/image.png']) {
      const response = await at(BASE + relativePath, { 'Accept-Encoding': 'br, gzip' });
      expect(response.headers['content-encoding']).toBeUndefined();
    }
  });
});

describe('large files', () => {
  it('streams files too big to buffer, with validators and without compression', async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 'a');
    await fs.writeFile(path.join(fixture.site, 'assets', 'big.txt'), big);
    const response = await at(`${BASE}assets/big.txt`, { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.equals(big)).toBe(true);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const revalidated = await at(`${BASE}assets/big.txt`, { 'If-None-Match': response.headers.etag! });
    expect(revalidated.status).toBe(304);
    const head = await request(origin + `${BASE}assets/big.txt`, { method: 'HEAD' });
    expect(head.headers['content-length']).toBe(String(big.length));
    expect(head.body.length).toBe(0);
  });
});

describe('methods', () => {
  it('answers HEAD with the GET headers and no body', async () => {
    const headers = { 'Accept-Encoding': 'br' };
    const get = await at(`${BASE}assets/style.css`, headers);
    const head = await request(origin + `${BASE}assets/style.css`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'last-modified']) {
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
      const changed = await request(`${watchOrigin}${BASE}dictionary/`, { headers: { 'If-None-Match': page.headers.etag! } });
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
