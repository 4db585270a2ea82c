/**
 * The bound every issue keeps: the JavaScript a page loads up front (its module entry and the
 * chunks it modulepreloads) is at most 55 KiB gzipped, measured on the site the tests built, as
 * `npm run bench` measures it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIRST_LOAD_JS_BUDGET_KB, measurePageWeight } from '../../bench/page-weight.js';
import { BASE_PATH, builtSiteDir } from '../helpers/browser.js';

describe('first-load JavaScript', () => {
  it.each(['hello-world', 'zh-cn/hello-world', 'async-and-await', '.'])(
    '%s loads at most 55 KiB of gzipped JavaScript up front, every import preloaded',
    (page) => {
      const weight = measurePageWeight(builtSiteDir(), BASE_PATH, page);
      const bytes = weight.scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
      expect(weight.scripts.length).toBeGreaterThan(0);
      expect(weight.firstLoadJsGzipBytes).toBe(bytes);
      expect(bytes, weight.scripts.map((s) => `${s.file} ${s.gzipBytes}`).join(', ')).toBeLessThanOrEqual(
        FIRST_LOAD_JS_BUDGET_KB * 1024,
      );
      // A static import that is not preloaded is a request the browser learns of only later.
      expect(weight.staticImportsNotPreloaded).toEqual([]);
    },
  );

  it('does not fetch the runtime, the editor or search up front', () => {
    const { scripts } = measurePageWeight(builtSiteDir(), BASE_PATH, 'hello-world');
    expect(scripts.map((s) => s.file).filter((file) => /runner|search-ui|pyodide|codemirror/i.test(file))).toEqual([]);
  });

  it('asks the engine to compile the up-front scripts while they stream in, and only those', () => {
    const site = builtSiteDir();
    const upFront = new Set(measurePageWeight(site, BASE_PATH, 'hello-world').scripts.map((s) => s.file));
    expect(upFront.size).toBeGreaterThan(1);
    for (const file of upFront)
      expect(readFileSync(join(site, file), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'), file).toBe(true);
    // Search, the runner and the page modules load later: they compile only what they call.
    const later = readdirSync(join(site, 'assets'), { recursive: true, encoding: 'utf8' })
      .map((name) => join('assets', name))
      .filter((file) => file.endsWith('.js') && !upFront.has(file) && !file.includes('pyodide'));
    expect(later.length).toBeGreaterThan(3);
    for (const file of later)
      expect(readFileSync(join(site, file), 'utf8').includes('allFunctionsCalledOnLoad'), file).toBe(false);
  });
});
