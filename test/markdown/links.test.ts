import { describe, expect, it } from 'vitest';
import { parseLinkTarget } from '../../src/markdown/plugins/links.js';
import { compileBody, renderBody } from '../fixtures/render.js';

const BASE = '/fixture-guide/';
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);

describe('links between chapters', () => {
  const body = [
    '[file](./basic-types.mdx)',
    '[file with anchor](./basic-types.mdx#numbers)',
    '[bare file](basic-types.md)',
    '[route](/fixture-guide/basic-types/)',
    '[route without base](/basic-types)',
    '[localized route](/fixture-guide/zh-cn/basic-types/)',
    '[html route](/fixture-guide/basic-types/index.html)',
    '[home](./index.mdx)',
    '[anchor here](#a-section)',
    '[external](https://peps.python.org/pep-0008/)',
    '[mail](mailto:someone@example.com)',
  ].join('\n\n');

  it('resolve to the English URLs in English', () => {
    expect(hrefs(renderBody(body))).toEqual([
      `${BASE}basic-types/`,
      `${BASE}basic-types/#numbers`,
      `${BASE}basic-types/`,
      `${BASE}basic-types/`,
      `${BASE}basic-types/`,
      `${BASE}basic-types/`,
      `${BASE}basic-types/`,
      BASE,
      '#a-section',
      'https://peps.python.org/pep-0008/',
      'mailto:someone@example.com',
    ]);
  });

  it('resolve to the same chapter in Chinese', () => {
    expect(hrefs(renderBody(body, 'zh-cn'))).toEqual([
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/basic-types/#numbers`,
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/basic-types/`,
      `${BASE}zh-cn/`,
      '#a-section',
      'https://peps.python.org/pep-0008/',
      'mailto:someone@example.com',
    ]);
  });

  it('are recorded with their position for the link check; external links are not', () => {
    const links = compileBody(
      'Intro.\n\nSee [types](./basic-types.mdx#numbers) and [PEP 8](https://peps.python.org/).',
    ).links;
    expect(links).toEqual([
      { targetSlug: 'basic-types', anchor: 'numbers', written: './basic-types.mdx#numbers', line: 7, column: 5 },
    ]);
  });

  it('Chinese anchors are encoded in the URL and decoded for the check', () => {
    const compiled = compileBody('[x](./basic-types.mdx#可变默认参数)');
    expect(compiled.links[0].anchor).toBe('可变默认参数');
    expect(hrefs(renderBody('[x](./basic-types.mdx#%E5%8F%AF%E5%8F%98)'))).toEqual([
      `${BASE}basic-types/#%E5%8F%AF%E5%8F%98`,
    ]);
  });

  it('links to static files get the base path and are not taken for chapters', () => {
    const compiled = compileBody('[cover](/img/cover.svg) [data](./files/data.zip) [cdn](//cdn.example.com/x.js)');
    // Recorded as files (the link check looks for them in the static folder), never as chapters.
    expect(compiled.links.map((l) => [l.staticFile, l.targetSlug])).toEqual([
      ['/img/cover.svg', undefined],
      ['./files/data.zip', undefined],
    ]);
    expect(hrefs(renderBody('[cover](/img/cover.svg) [data](./files/data.zip) [cdn](//cdn.example.com/x.js)'))).toEqual(
      [`${BASE}img/cover.svg`, './files/data.zip', '//cdn.example.com/x.js'],
    );
  });

  it('a query string is kept and does not change the target page', () => {
    const compiled = compileBody('[search for dict](/search/?q=dict) [here](?tab=a#intro)');
    expect(compiled.links.map((l) => [l.targetSlug, l.anchor])).toEqual([
      ['search', undefined],
      ['test-chapter', 'intro'],
    ]);
    expect(hrefs(renderBody('[search for dict](/search/?q=dict)', 'zh-cn'))).toEqual([`${BASE}zh-cn/search/?q=dict`]);
  });

  it('an anchor that is not valid percent-encoding is kept as written', () => {
    expect(compileBody('[x](#100%)').links[0].anchor).toBe('100%');
  });

  it('absolute image paths get the base path', () => {
    expect(renderBody('![logo](/img/logo.svg)')).toContain(`<img src="${BASE}img/logo.svg" alt="logo"/>`);
    expect(renderBody(`![logo](${BASE}img/logo.svg)`)).toContain(`<img src="${BASE}img/logo.svg" alt="logo"/>`);
  });
});

describe('parseLinkTarget', () => {
  const options = { slug: 'here', basePath: BASE, localePaths: ['zh-cn'] };
  it('reads slugs and anchors from the forms authors write', () => {
    expect(parseLinkTarget('../en/dictionary.mdx#keys', options)).toEqual({ targetSlug: 'dictionary', anchor: 'keys' });
    expect(parseLinkTarget('#top', options)).toEqual({ targetSlug: 'here', anchor: 'top' });
    expect(parseLinkTarget('/fixture-guide/', options)).toEqual({ targetSlug: '', anchor: undefined });
    expect(parseLinkTarget('/fixture-guide/zh-cn/set', options)).toEqual({ targetSlug: 'set', anchor: undefined });
    expect(parseLinkTarget('https://example.com/a.mdx', options)).toBeUndefined();
    expect(parseLinkTarget('//cdn.example.com/x', options)).toBeUndefined();
  });
});
