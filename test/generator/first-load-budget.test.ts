/**
 * The bounds of a page's first load (issue 44), measured on the site the tests built as
 * `npm run bench` measures it: before the page counts as loaded, at most 10 KiB gzipped of
 * JavaScript (the first-load script and the chunks it modulepreloads) and no site data; React and
 * the app that hydrates the page (at most 55 KiB gzipped) come after, and only what the first
 * load runs at once is marked for eager compilation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_JS_BUDGET_KB, FIRST_LOAD_JS_BUDGET_KB, measurePageWeight } from '../../bench/page-weight.js';
import { BASE_PATH, builtSiteDir } from '../helpers/browser.js';

const PAGES = ['hello-world', 'zh-cn/hello-world', 'dictionary', 'zh-cn/dictionary', 'async-and-await', '.', 'zh-cn'];

describe('first load', () => {
  it.each(PAGES)('%s loads at most 10 KiB of gzipped JavaScript up front, every import preloaded', (page) => {
    const weight = measurePageWeight(builtSiteDir(), BASE_PATH, page);
    const bytes = weight.scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
    expect(weight.scripts.length).toBeGreaterThan(0);
    expect(weight.firstLoadJsGzipBytes).toBe(bytes);
    expect(bytes, weight.scripts.map((s) => `${s.file} ${s.gzipBytes}`).join(', ')).toBeLessThanOrEqual(
      FIRST_LOAD_JS_BUDGET_KB * 1024,
    );
    // A static import that is not preloaded is a request the browser learns of only later.
    expect(weight.staticImportsNotPreloaded).toEqual([]);
    // The site data is the app's: the page does not ask for it before load.
    expect(weight.dataGzipKb).toBe(0);
  });

  it('loads React and the app after the page is shown, at most 55 KiB of it gzipped', () => {
    const site = builtSiteDir();
    const weight = measurePageWeight(site, BASE_PATH, 'dictionary');
    expect(weight.app.files.length).toBeGreaterThan(0);
    expect(weight.app.gzipBytes).toBeLessThanOrEqual(APP_JS_BUDGET_KB * 1024);
    // React is in the app, not up front.
    const upFront = weight.scripts.map((s) => readFileSync(join(site, s.file), 'utf8')).join('\n');
    expect(upFront).not.toContain('hydrateRoot');
    expect(upFront).not.toMatch(/react\.(?:transitional\.)?element|__SECRET_INTERNALS/);
  });

  it('does not fetch the runtime, the editor or search up front', () => {
    const { scripts, app } = measurePageWeight(builtSiteDir(), BASE_PATH, 'hello-world');
    for (const file of [...scripts.map((s) => s.file), ...app.files])
      expect(file).not.toMatch(/runner|search-ui|pyodide|codemirror/i);
  });

  it('asks the engine to compile at once only what runs at once: the up-front scripts and the app', () => {
    const site = builtSiteDir();
    const weight = measurePageWeight(site, BASE_PATH, 'hello-world');
    const eager = new Set([...weight.scripts.map((s) => s.file), ...weight.app.files]);
    expect(eager.size).toBeGreaterThan(2);
    for (const file of eager)
      expect(readFileSync(join(site, file), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'), file).toBe(true);
    // Search, the runner and the page modules load later: they compile only what they call.
    const later = readdirSync(join(site, 'assets'), { recursive: true, encoding: 'utf8' })
      .map((name) => join('assets', name))
      .filter((file) => file.endsWith('.js') && !eager.has(file) && !file.includes('pyodide'));
    expect(later.length).toBeGreaterThan(3);
    for (const file of later)
      expect(readFileSync(join(site, file), 'utf8').includes('allFunctionsCalledOnLoad'), file).toBe(false);
  });
});
