import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtSiteDir } from '../helpers/browser.js';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';

const site = useSiteUnderTest();

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core in the page; `rules` limits the run (for example to colour contrast). */
async function axeViolations(page: Page, rules?: string[]): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async (only) => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, options: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: only } : {}) });
    return result.violations;
  }, rules);
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

type Theme = 'light' | 'dark';

async function openThemed(theme: Theme, width = 1280) {
  // bypassCSP: axe-core is injected as an inline script, which the page's own policy rightly refuses.
  const opened = await openPage(site, { viewport: { width, height: 900 }, colorScheme: theme, bypassCSP: true });
  return opened;
}

const isDisplayed = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().width > 0);

const EXTRA_PAGES: Record<Theme, string[]> = { light: ['', 'zh-cn/dictionary/'], dark: ['no-such-page/'] };

describe('colour modes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`pass axe-core (desktop and phone) with code in the dark blue-grey theme (${theme})`, async () => {
      const { context, page, problems } = await openThemed(theme);
      for (const path of ['dictionary/', ...EXTRA_PAGES[theme]]) {
        await gotoHydrated(page, site.url(path));
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        // Open every answer and the language menu so their contents are checked too.
        await page.evaluate(() =>
          document.querySelectorAll('details').forEach((d) => {
            d.open = true;
          }),
        );
        expect(await axeViolations(page), `${theme} ${path}`).toEqual([]);
      }
      await gotoHydrated(page, site.url('dictionary/'));
      const code = await page
        .locator('.code-block')
        .first()
        .evaluate((el) => ({
          background: getComputedStyle(el).backgroundColor,
          text: getComputedStyle(el.querySelector('.code-pre')!).color,
          keyword: getComputedStyle(el.querySelector('.tok-keyword, .tok-builtin')!).color,
        }));
      expect(code.background).toBe('rgb(30, 37, 48)');
      expect(code.keyword).not.toBe(code.text);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await axeViolations(page, ['color-contrast']), `${theme} phone`).toEqual([]);
      expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
      await context.close();
    });
  }
});

describe('code blocks', () => {
  it('show their buttons on hover and on keyboard focus, and keep highlighted lines full width', async () => {
    const { context, page } = await openThemed('light');
    await gotoHydrated(page, site.url('dictionary/'));
    const block = page.locator('.markdown > .code-block').first();
    const opacity = () => block.locator('.code-buttons').evaluate((el) => Number(getComputedStyle(el).opacity));
    await page.mouse.move(0, 0);
    await expect.poll(opacity).toBe(0);
    await block.locator('.code-pre').hover();
    await expect.poll(opacity).toBe(1);
    await page.mouse.move(0, 0);
    await block.locator('[data-code-action="copy"]').focus();
    await expect.poll(opacity).toBe(1);
    const widths = await block.locator('.code-pre').evaluate((pre) => ({
      pre: pre.clientWidth,
      line: (pre.querySelector('.code-line') as HTMLElement).getBoundingClientRect().width,
    }));
    // clientWidth is rounded to whole pixels; the line's width is not.
    expect(widths.line).toBeGreaterThanOrEqual(widths.pre - 1);
    await context.close();
  });
});

describe('responsive layout', () => {
  it('shows sidebar and a right-hand table of contents on wide desktops, the contents in the sidebar down to 1280 px and above the chapter below, and drops the sidebar below 997 px', async () => {
    const { context, page } = await openThemed('light');
    await page.setViewportSize({ width: 1800, height: 900 });
    await gotoHydrated(page, site.url('dictionary/'));
    expect(await isDisplayed(page, '.sidebar')).toBe(true);
    expect(await isDisplayed(page, '.main-toc .toc')).toBe(true);
    expect(await isDisplayed(page, '.sidebar-toc')).toBe(false);
    expect(await isDisplayed(page, '.navbar-menu-toggle')).toBe(false);
    expect(await page.locator('.main-toc .toc').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');

    // Below 1720 px the comparisons keep the width, and the contents sit at the top of the sidebar.
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await isDisplayed(page, '.main-toc .toc')).toBe(false);
    expect(await isDisplayed(page, '.sidebar-toc')).toBe(true);
    expect(await isDisplayed(page, '.toc-collapsible')).toBe(false);

    // Below 1280 px they sit above the chapter.
    await page.setViewportSize({ width: 1100, height: 900 });
    expect(await isDisplayed(page, '.sidebar')).toBe(true);
    expect(await isDisplayed(page, '.main-toc .toc')).toBe(false);
    expect(await isDisplayed(page, '.sidebar-toc')).toBe(false);
    expect(await isDisplayed(page, '.toc-collapsible')).toBe(true);

    await page.setViewportSize({ width: 800, height: 900 });
    expect(await isDisplayed(page, '.sidebar')).toBe(false);
    expect(await isDisplayed(page, '.main-toc .toc')).toBe(false);
    expect(await isDisplayed(page, '.toc-collapsible')).toBe(true);
    expect(await isDisplayed(page, '.navbar-menu-toggle')).toBe(true);
    // JavaScript and Python columns stack on narrow screens.
    const columns = await page
      .locator('.compare')
      .first()
      .evaluate((el) =>
        [...el.querySelectorAll('.compare-column')].map((c) => Math.round(c.getBoundingClientRect().top)),
      );
    expect(columns[1]).toBeGreaterThan(columns[0]);

    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('collapses the hidden sidebar to a narrow strip that keeps its toggle', async () => {
    const { context, page } = await openThemed('dark');
    await gotoHydrated(page, site.url('dictionary/'));
    await page.locator('.sidebar-toggle').click();
    await expect
      .poll(() => page.locator('.sidebar').evaluate((el) => el.getBoundingClientRect().width))
      .toBeLessThan(60);
    expect(await isDisplayed(page, '.sidebar-toggle')).toBe(true);
    await context.close();
  });

  it('turns transitions off for readers who ask for reduced motion', async () => {
    const { context, page } = await openPage(site, { reducedMotion: 'reduce' });
    await gotoHydrated(page, site.url('dictionary/'));
    const duration = await page
      .locator('.navbar')
      .evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
    expect(duration).toBeLessThan(0.01);
    await context.close();
  });
});

describe('type scale', () => {
  // Each font size, weight and style that Chinese text is set in is a font instance the browser
  // sets up (and looks up through the family list) on a page's first layout: a Chinese chapter
  // had 21 of them, and its first layout took about 100 ms longer than with 12.
  it('sets a Chinese chapter in at most 12 font instances, the platform Chinese font first so that it sets the Latin letters too', async () => {
    const { context, page } = await openPage(site, { viewport: { width: 412, height: 823 } });
    await gotoHydrated(page, site.url('zh-cn/hello-world/'));
    const instances = await page.evaluate(() => {
      const seen = new Map<string, string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!element || !element.getClientRects().length || !/\p{Script=Han}/u.test(node.textContent ?? '')) continue;
        const style = getComputedStyle(element);
        const key = `${style.fontFamily.split(',')[0]} ${style.fontWeight} ${style.fontSize} ${style.fontStyle}`;
        if (!seen.has(key)) seen.set(key, element.className || element.tagName);
      }
      return [...seen].map(([key, where]) => `${key} (${where})`);
    });
    expect(instances.length, instances.join('\n')).toBeGreaterThan(3);
    expect(instances.length, instances.join('\n')).toBeLessThanOrEqual(12);
    const family = await page.evaluate(() =>
      getComputedStyle(document.body)
        .fontFamily.split(',')
        .map((name) => name.trim().replace(/"/g, '')),
    );
    // A Latin font first would make every size a Latin instance plus a Chinese fallback instance.
    expect(family.slice(0, 3)).toEqual(['PingFang SC', 'Noto Sans CJK SC', 'Microsoft YaHei']);
    await context.close();
  });
});

describe('theme assets', () => {
  const dir = builtSiteDir();

  it('ships a small stylesheet', () => {
    const css = readdirSync(join(dir, 'assets')).filter((f) => /^style\.[A-Z0-9]+\.css$/.test(f));
    expect(css).toHaveLength(1);
    // Raised from 28 KB for the reading-experience rules (comparison layout, no-JavaScript fallbacks, home page),
    // then from 32 KB for the runner's Input field and hints, an exercise's Check results and the editor's colours.
    expect(statSync(join(dir, 'assets', css[0])).size).toBeLessThan(34_000);
  });

  it('ships the logo and the cover as small original SVGs, the cover titled', () => {
    const logo = readFileSync(join(dir, 'img', 'logo.svg'), 'utf8');
    const cover = readFileSync(join(dir, 'img', 'cover.svg'), 'utf8');
    for (const svg of [logo, cover]) {
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="/);
      expect(svg).not.toMatch(/<script|on\w+=|href="http/i);
      expect(Buffer.byteLength(svg)).toBeLessThan(4_000);
    }
    expect(cover).toContain('viewBox="0 0 240 320"');
    const text = [...cover.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]).join(' ');
    expect(text).toBe('Python guide for JavaScript engineers');
  });
});
