/**
 * The live-reload stream's catch-up rule: a tab that connects showing an older version of its
 * page than the one just built (it reloaded while a rebuild ran) is told to reload at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVENTS_PATH,
  LiveReloadHub,
  liveReloadCode,
  liveReloadScript,
  PAGE_FINGERPRINT_PLACEHOLDER,
  routeModuleJson,
} from '../../src/watch/live-reload.js';

const BASE = '/book/';
const hub = new LiveReloadHub(BASE, (page) => (page === `${BASE}alpha/` ? 'current' : undefined));
const server = http.createServer((req, res) => {
  if (!hub.handle(req, res)) res.writeHead(404).end();
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hub.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The first frames the stream sends on connection (read until the stream goes quiet). */
async function firstFrames(query: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${origin}${BASE}${EVENTS_PATH}?${query}`, { signal: controller.signal });
  const reader = response.body!.getReader();
  let text = '';
  const timer = setTimeout(() => controller.abort(), 300);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
  } catch {
    // aborted after the quiet period: what arrived so far is the answer
  } finally {
    clearTimeout(timer);
  }
  return text;
}

describe('LiveReloadHub catch-up', () => {
  it('tells a tab showing an older version of its page to reload', async () => {
    const frames = await firstFrames(`page=${encodeURIComponent(`${BASE}alpha/`)}&fingerprint=older`);
    expect(frames).toContain('event: reload');
    expect(frames).toContain(JSON.stringify({ type: 'reload', routes: [`${BASE}alpha/`] }));
  });

  it('leaves a tab showing the current version, or a page it does not know, alone', async () => {
    expect(await firstFrames(`page=${encodeURIComponent(`${BASE}alpha/`)}&fingerprint=current`)).not.toContain(
      'event: reload',
    );
    expect(await firstFrames(`page=${encodeURIComponent(`${BASE}unknown/`)}&fingerprint=x`)).not.toContain(
      'event: reload',
    );
  });

  it('sends the build error instead while the build is broken', async () => {
    hub.send({ type: 'build-error', message: 'beta.mdx:3:1: boom' });
    const frames = await firstFrames(`page=${encodeURIComponent(`${BASE}alpha/`)}&fingerprint=older`);
    expect(frames).toContain('event: build-error');
    expect(frames).not.toContain('event: reload');
    hub.send({ type: 'clear' });
  });

  it('sends a changed page with its reload event, as JSON on one data line', async () => {
    const response = await fetch(`${origin}${BASE}${EVENTS_PATH}`);
    const reader = response.body!.getReader();
    const page = { page: { route: `${BASE}alpha/`, title: 'Alpha' }, html: '<p>Line one\nline two \u2028 </p>' };
    hub.send({
      type: 'reload',
      routes: [`${BASE}alpha/`],
      module: routeModuleJson(`export default ${JSON.stringify(page)};\n`),
    });
    let text = '';
    while (!text.includes('event: reload')) text += new TextDecoder().decode((await reader.read()).value);
    while (!text.endsWith('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    // Split on \n only, as EventSource does (U+2028 is no line break there, unlike in a RegExp).
    const lines = text.split('\n');
    const data = lines[lines.indexOf('event: reload') + 1].slice('data: '.length);
    expect(JSON.parse(data)).toEqual({ type: 'reload', routes: [`${BASE}alpha/`], module: page });
  });

  it('takes the JSON of a route module, and nothing that is not one', () => {
    expect(routeModuleJson('export default {"page":{},"html":""};\n')).toBe('{"page":{},"html":""}');
    expect(routeModuleJson('export default {"page":{},\n"html":""};\n')).toBeUndefined();
    expect(routeModuleJson('console.log(1);\n')).toBeUndefined();
  });

  it('gives every page the same code, and its element the stream and the placeholder for the fingerprint', async () => {
    const code = await liveReloadCode();
    const script = liveReloadScript(code, BASE);
    expect(script.data).toEqual({
      base: BASE,
      events: `${BASE}${EVENTS_PATH}`,
      fingerprint: PAGE_FINGERPRINT_PLACEHOLDER,
    });
    // The page's fingerprint goes into the element, never into the code: the policy allows the code by its hash.
    expect(code).not.toContain(PAGE_FINGERPRINT_PLACEHOLDER);
    expect(liveReloadScript(code, '/elsewhere/').code).toBe(code);
  });
});
