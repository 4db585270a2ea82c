import { describe, expect, it } from 'vitest';
import { parseRequestPath, type ParsedRequestPath } from '../../src/server/resolve-path.js';
import { basePathSegments, normalizeBasePath, routeRequest } from '../../src/server/route.js';

function parsed(url: string): ParsedRequestPath {
  const result = parseRequestPath(url);
  if (!result.ok) throw new Error(`unexpectedly rejected ${url}: ${result.reason}`);
  return result;
}

describe('parseRequestPath', () => {
  it('decodes segments and keeps the raw query', () => {
    expect(parsed('/base/caf%C3%A9/?q=a%20b')).toEqual({
      ok: true,
      segments: ['base', 'café'],
      trailingSlash: true,
      query: '?q=a%20b',
    });
    expect(parsed('/')).toEqual({ ok: true, segments: [], trailingSlash: true, query: '' });
    expect(parsed('/base/x.css')).toMatchObject({ segments: ['base', 'x.css'], trailingSlash: false });
  });

  it.each([
    ['/a/../b', 400],
    ['/a/%2e%2E/b', 400],
    ['/a%2fb', 400],
    ['/a%5cb', 400],
    ['/a\\b', 400],
    ['/a%00', 400],
    ['/a%0a', 400],
    ['/%E0%A4%A', 400],
    ['/a%252e', 400],
    ['/a%', 400],
    ['relative', 400],
    [`/${'x'.repeat(2048)}`, 400],
    ['/.git/config', 404],
    ['/a//b', 404],
  ])('rejects %s with %d', (url, status) => {
    expect(parseRequestPath(url)).toMatchObject({ ok: false, status });
  });
});

describe('routeRequest', () => {
  const base = basePathSegments('/guide/');

  it('normalises basePath spellings', () => {
    expect(normalizeBasePath('guide')).toBe('/guide/');
    expect(normalizeBasePath('/guide')).toBe('/guide/');
    expect(normalizeBasePath('/')).toBe('/');
  });

  it.each([
    ['/', 302, '/guide/'],
    ['/elsewhere/x.html?q=1', 302, '/guide/'],
    ['/guide?q=1', 301, '/guide/?q=1'],
    ['/guide/index.html', 301, '/guide/'],
    ['/guide/a/index.html?x', 301, '/guide/a/?x'],
    ['/guide/a/b.html', 301, '/guide/a/b/'],
    ['/guide/a/B.HTML', 301, '/guide/a/B/'],
    ['/guide/caf%C3%A9.html', 301, '/guide/caf%C3%A9/'],
  ])('redirects %s with %d to %s', (url, status, location) => {
    expect(routeRequest(parsed(url), base)).toEqual({ kind: 'redirect', status, location });
  });

  it('passes site paths through relative to basePath', () => {
    expect(routeRequest(parsed('/guide/zh-cn/dictionary/?x=1'), base)).toEqual({
      kind: 'site',
      relativeSegments: ['zh-cn', 'dictionary'],
      trailingSlash: true,
      query: '?x=1',
    });
  });

  it("answers /robots.txt at the origin root with the site's own (crawlers look only there)", () => {
    expect(routeRequest(parsed('/robots.txt'), base)).toEqual({
      kind: 'site',
      relativeSegments: ['robots.txt'],
      trailingSlash: false,
      query: '',
    });
    expect(routeRequest(parsed('/other.txt'), base)).toMatchObject({ kind: 'redirect', status: 302 });
  });

  it('works with a root basePath', () => {
    expect(routeRequest(parsed('/index.html'), [])).toEqual({ kind: 'redirect', status: 301, location: '/' });
    expect(routeRequest(parsed('/a/'), [])).toMatchObject({ kind: 'site', relativeSegments: ['a'] });
  });
});
