import fs from 'node:fs/promises';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/static-server.js';
import { createFixtureSite, serveFixtureSite, type FixtureSite } from './site-fixture.js';

/**
 * Requests are written byte for byte on a raw socket: HTTP clients (fetch,
 * node:http with a URL) normalise '..' and escape characters before sending,
 * which would hide exactly the inputs these tests are about.
 */

const BASE = '/python-guide-for-javascript-engineers/';
const SECRET = 'TOP-SECRET-hostile-9b2d77';
const ALLOWED_STATUSES = [301, 302, 400, 404, 405];

/** The site inside, the secret outside, reachable only via symlinks (one an index.html a clean URL would find). */
function createHostileSite() {
  return createFixtureSite(
    'pybook-hostile-',
    {
      'index.html': '<!doctype html><h1>Home</h1>',
      'dictionary/index.html': '<!doctype html><h1>Dictionary</h1>',
      '404.html': '<!doctype html><h1>Page Not Found</h1>',
      'zh-cn/404.html': '<!doctype html><h1>找不到页面</h1>',
      'assets/app.3f9a8c1b.js': 'console.log(1);',
      'assets/style.css': 'body{}'.repeat(500),
      '.env': SECRET,
      'assets/.hidden': SECRET,
    },
    SECRET,
    {
      'leak.txt': 'secret.txt',
      'leak-dir': '.',
      'dictionary/index.css': 'secret.txt',
      'trap/index.html': 'secret.txt',
    },
  );
}

interface RawResponse {
  status: number | undefined;
  text: string;
}

function sendRaw(port: number, requestBytes: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5000, () =>
      socket.destroy(new Error(`no response to ${JSON.stringify(requestBytes.slice(0, 80))}`)),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : undefined, text });
    });
    socket.write(Buffer.from(requestBytes, 'latin1'));
  });
}

function requestLine(method: string, target: string): string {
  return `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`;
}

let fixture: FixtureSite;
let server: RunningServer;
const logLines: string[] = [];

beforeAll(async () => {
  fixture = await createHostileSite();
  server = await serveFixtureSite(fixture, BASE, logLines);
});

afterAll(async () => {
  await server.close();
  await fs.rm(fixture.root, { recursive: true, force: true });
});

const HOSTILE_PATHS: string[] = [
  // Plain traversal
  `${BASE}../secret.txt`,
  `${BASE}../../secret.txt`,
  '/../secret.txt',
  `${BASE}dictionary/../../secret.txt`,
  `${BASE}./../secret.txt`,
  `${BASE}.../secret.txt`,
  `${BASE}....//secret.txt`,
  `/python-guide-for-javascript-engineers/..`,
  // Percent-encoded traversal and separators
  `${BASE}%2e%2e/secret.txt`,
  `${BASE}%2E%2E/secret.txt`,
  `${BASE}.%2e/secret.txt`,
  `${BASE}%2e%2e%2fsecret.txt`,
  `${BASE}..%2fsecret.txt`,
  `${BASE}..%2Fsecret.txt`,
  `${BASE}%2e%2e%2f%2e%2e%2fsecret.txt`,
  // Double encoding
  `${BASE}%252e%252e/secret.txt`,
  `${BASE}%252e%252e%252fsecret.txt`,
  `${BASE}..%252fsecret.txt`,
  // Backslashes, raw and encoded
  `${BASE}..\\secret.txt`,
  `${BASE}..\\..\\secret.txt`,
  `${BASE}..%5csecret.txt`,
  `${BASE}%5c..%5csecret.txt`,
  `${BASE}%2e%2e%5csecret.txt`,
  // NUL bytes and malformed encodings
  `${BASE}leak.txt%00`,
  `${BASE}index.html%00.txt`,
  `${BASE}%00`,
  `${BASE}%`,
  `${BASE}%zz`,
  `${BASE}%e0%a4%a`,
  `${BASE}%c0%ae%c0%ae/secret.txt`,
  `${BASE}%u002e%u002e/secret.txt`,
  `${BASE}..;/secret.txt`,
  // Symlinks pointing outside the site folder
  `${BASE}leak.txt`,
  `${BASE}leak.txt/`,
  `${BASE}leak-dir/secret.txt`,
  `${BASE}leak-dir/site/index.html`,
  `${BASE}dictionary/index.css`,
  `${BASE}trap/`,
  `${BASE}trap`,
  // Dotfiles
  `${BASE}.env`,
  `${BASE}.%65nv`,
  `${BASE}%2eenv`,
  `${BASE}assets/.hidden`,
  // Absolute paths and odd request targets
  '//etc/passwd',
  `${BASE}/../secret.txt`,
  'http://127.0.0.1/python-guide-for-javascript-engineers/../secret.txt',
  'secret.txt',
  '*',
  // Overlong URL
  `${BASE}${'a'.repeat(3000)}`,
  `${BASE}${'../'.repeat(800)}secret.txt`,
];

describe('hostile requests', () => {
  it('has a broad catalogue of attacks', () => {
    expect(HOSTILE_PATHS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(
    HOSTILE_PATHS.map((target) => [
      target.length > 80 ? `${target.slice(0, 60)}... (${target.length} chars)` : target,
      target,
    ]),
  )('GET %s never reveals the secret', async (_label, target) => {
    const before = logLines.length;
    const response = await sendRaw(server.port, requestLine('GET', target));
    expect(response.text).not.toContain(SECRET);
    expect(response.text).not.toContain(fixture.secretPath);
    expect(ALLOWED_STATUSES).toContain(response.status);
    if (response.status === 400 || response.status === 404) expect(logLines.length).toBeGreaterThan(before);
  });

  it.each([
    ['POST', `${BASE}leak.txt`],
    ['PUT', `${BASE}secret.txt`],
    ['DELETE', BASE],
    ['PATCH', `${BASE}../secret.txt`],
    ['OPTIONS', '*'],
    ['TRACE', `${BASE}leak.txt`],
    ['PROPFIND', `${BASE}`],
  ])('%s %s is refused with 405 or 400', async (method, target) => {
    const response = await sendRaw(server.port, requestLine(method, target));
    expect(response.text).not.toContain(SECRET);
    expect([400, 405]).toContain(response.status);
    if (response.status === 405) expect(response.text).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
  });

  it('HEAD on a hostile path sends no body', async () => {
    const response = await sendRaw(server.port, requestLine('HEAD', `${BASE}leak.txt`));
    expect(response.status).toBe(404);
    expect(response.text.split('\r\n\r\n')[1]).toBe('');
  });

  it('rejects raw NUL and control bytes in the request line', async () => {
    for (const target of [`${BASE}leak.txt\u0000`, `${BASE}\u0001`, `${BASE}%0d%0aSet-Cookie:x=1`]) {
      const response = await sendRaw(server.port, requestLine('GET', target));
      expect(response.text).not.toContain(SECRET);
      expect([400, 404]).toContain(response.status);
      expect(response.text).not.toMatch(/\r\nSet-Cookie/i);
    }
  });

  it('keeps an echoed query string inside one Location header line', async () => {
    const response = await sendRaw(
      server.port,
      requestLine('GET', `${BASE}index.html?x=<b>&y=%0d%0aSet-Cookie:%20a=1`),
    );
    expect(response.status).toBe(301);
    expect(response.text).toContain(`\r\nLocation: ${BASE}?x=<b>&y=%0d%0aSet-Cookie:%20a=1\r\n`);
    expect(response.text).not.toMatch(/\r\nSet-Cookie/i);
  });

  it('still serves normal pages on the same server', async () => {
    const response = await sendRaw(server.port, requestLine('GET', `${BASE}dictionary/`));
    expect(response.status).toBe(200);
    expect(response.text).toContain('<h1>Dictionary</h1>');
  });
});

describe('hostile requests with watch mode in front (the live-reload stream handler)', () => {
  let watchServer: RunningServer;
  beforeAll(async () => {
    const { startStaticServer } = await import('../../src/server/static-server.js');
    const { LiveReloadHub } = await import('../../src/watch/live-reload.js');
    const hub = new LiveReloadHub(BASE, () => undefined);
    watchServer = await startStaticServer({
      dir: fixture.site,
      basePath: BASE,
      port: 0,
      localeDirs: ['zh-cn'],
      log: () => {},
      handleExtra: hub.handle,
    });
  });
  afterAll(() => watchServer.close());

  const ODD_TARGETS = [
    ...HOSTILE_PATHS,
    'http://evil.example/python-guide-for-javascript-engineers/',
    'http://[::1/x',
    '//[',
    'http://%zz/',
  ];
  it.each(ODD_TARGETS.map((target) => [target.length > 80 ? `${target.slice(0, 60)}...` : target, target]))(
    'GET %s answers like serve, never 500',
    async (_label, target) => {
      const response = await sendRaw(watchServer.port, requestLine('GET', target));
      expect(response.text).not.toContain(SECRET);
      expect([...ALLOWED_STATUSES, 200]).toContain(response.status);
      if (target.startsWith('http://') && response.status !== 200) expect([400, 404, 301]).toContain(response.status);
    },
  );
});
