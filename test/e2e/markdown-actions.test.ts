/**
 * A chapter's Markdown in the browser (src/llms/): the head links it, the header's "View as
 * Markdown" leads to it (served as text/markdown) also without JavaScript, and "Copy page as
 * Markdown" puts exactly that file on the clipboard, its code fetched only on the first click; it
 * follows client-side navigation, speaks both languages, and says when copying failed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { builtSiteDir } from '../helpers/browser.js';
import { BASE_PATH, gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();
const { siteUrl } = loadConfig(path.join(import.meta.dirname, '..', '..', 'book.config.json'));
const markdownFile = (file: string) => readFileSync(path.join(builtSiteDir(), file), 'utf8');
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

describe("a chapter's Markdown in the browser", () => {
  for (const { prefix, view, copy, copied } of [
    { prefix: '', view: 'View as Markdown', copy: 'Copy page as Markdown', copied: 'Copied' },
    { prefix: 'zh-cn/', view: '以 Markdown 格式查看', copy: '复制本页 Markdown', copied: '已复制' },
  ]) {
    it(`is linked from the head and the header, and copied whole by the button (${prefix || 'en/'})`, async () => {
      const { context, page, problems } = await openPage(site, CLIPBOARD);
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      await gotoHydrated(page, site.url(`${prefix}dictionary/`));
      const file = `${prefix}dictionary.md`;
      const href = await page.locator('head link[rel="alternate"][type="text/markdown"]').getAttribute('href');
      expect(href).toBe(`${siteUrl}${BASE_PATH}${file}`);

      const link = page.locator('.chapter-header a.markdown-link');
      expect(await link.textContent()).toBe(view);
      expect(await link.getAttribute('href')).toBe(`${BASE_PATH}${file}`);
      const response = await page.request.get(site.url(file));
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8');
      expect(await response.text()).toBe(markdownFile(file));

      const button = page.locator('.chapter-header button.markdown-copy');
      expect(await button.textContent()).toBe(copy);
      // What the page loads by itself once it is idle (the offline feature's module and its chunks)
      // comes first: on a busy machine it came after the click, and was counted with it.
      await expect
        .poll(() => scripts.some((url) => /\/assets\/offline\.[^/]+\.js$/.test(url)), { timeout: 30_000 })
        .toBe(true);
      await page.waitForLoadState('networkidle');
      const before = scripts.length;
      await button.click();
      await expect.poll(() => button.textContent()).toBe(copied);
      expect(await page.locator('.markdown-actions [role="status"]').textContent()).toBe(copied);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdownFile(file));
      // Its code came with the click: one chunk, not part of the first load.
      const fetched = scripts.slice(before);
      expect(fetched).toHaveLength(1);
      expect(scripts.slice(0, before)).not.toContain(fetched[0]);
      // The label comes back, and the status empties.
      await expect.poll(() => button.textContent(), { timeout: 4000 }).toBe(copy);
      expect(await page.locator('.markdown-actions [role="status"]').textContent()).toBe('');
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('follows client-side navigation: the next chapter copies its own Markdown', async () => {
    const { context, page, problems } = await openPage(site, CLIPBOARD);
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.pagination-next').click();
    await page.waitForURL(site.url('set/'));
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Sets');
    expect(await page.locator('.chapter-header a.markdown-link').getAttribute('href')).toBe(`${BASE_PATH}set.md`);
    await page.locator('.chapter-header button.markdown-copy').click();
    await expect.poll(() => page.locator('.chapter-header button.markdown-copy').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(markdownFile('set.md'));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says so when the Markdown cannot be fetched', async () => {
    const { context, page } = await openPage(site, CLIPBOARD);
    await page.route('**/hello-world.md', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await gotoHydrated(page, site.url('hello-world/'));
    const button = page.locator('.chapter-header button.markdown-copy');
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copy failed');
    expect(await page.locator('.markdown-actions [role="status"]').textContent()).toBe('Copy failed');
    await context.close();
  });

  it('offers the link without JavaScript, and no button that would need it', async () => {
    const { context, page } = await openPage(site, { javaScriptEnabled: false });
    await page.goto(site.url('hello-world/'));
    await expect.poll(() => page.locator('.chapter-header a.markdown-link').isVisible()).toBe(true);
    expect(await page.locator('.chapter-header button.markdown-copy').isVisible()).toBe(false);
    await page.locator('.chapter-header a.markdown-link').click();
    await page.waitForURL(site.url('hello-world.md'));
    expect(await page.locator('body').textContent()).toContain('# Hello, world');
    await context.close();
  });

  it('is served with the right types: chapters as text/markdown, llms.txt and llms-full.txt as text/plain', async () => {
    const { context, page } = await openPage(site);
    for (const [file, type] of [
      ['hello-world.md', 'text/markdown; charset=utf-8'],
      ['zh-cn/hello-world.md', 'text/markdown; charset=utf-8'],
      ['llms.txt', 'text/plain; charset=utf-8'],
      ['zh-cn/llms-full.txt', 'text/plain; charset=utf-8'],
    ]) {
      const response = await page.request.get(site.url(file));
      expect(response.status(), file).toBe(200);
      expect(response.headers()['content-type'], file).toBe(type);
      expect(await response.text(), file).toBe(markdownFile(file));
    }
    await context.close();
  });
});
