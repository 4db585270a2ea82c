import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBook, type ChapterReport } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapter, createFixtureBook, type FixtureBook } from '../fixtures/fixture-book.js';

const examples = [
  '```python\nprint("ok")\n```\n\n```output\nok\n```', // line 5
  '```python norun="needs the network"\nimport requests\n```', // line 13
  '```python\nprint(1 + 1)\n```\n\n```output\n3\n```', // line 17
  '```bash\nrm -rf /\n```', // line 25: never run
  '```javascript\nconsole.log("hi")\n```\n\n```output\nhi\n```', // line 29
].join('\n\n');

let fixture: FixtureBook;
let reports: ChapterReport[];
const seen: string[] = [];

beforeAll(async () => {
  fixture = await createFixtureBook({
    chapters: {
      en: { examples: chapter('Examples', examples), quiet: chapter('Quiet', 'No code here.') },
      'zh-cn': { quiet: chapter('安静', '这里没有代码。') },
    },
  });
  reports = await checkBook(loadConfig(fixture.configPath), { jobs: 2 }, (r) => seen.push(`${r.locale}/${r.slug}`));
});
afterAll(() => fixture.remove());

describe('checkBook', () => {
  it('reports each translated chapter once, skipping fallbacks (they are the English file)', () => {
    expect(reports.map((r) => `${r.locale}/${r.slug}`)).toEqual(['en/examples', 'en/quiet', 'zh-cn/quiet']);
    expect([...seen].sort()).toEqual(['en/examples', 'en/quiet', 'zh-cn/quiet']);
  });

  it('counts runs, norun exemptions and runnable Python blocks', () => {
    const report = reports[0];
    expect(report.file).toMatch(/book\/en\/examples\.mdx$/);
    expect(report.ran).toBe(3);
    expect(report.exempt).toEqual([{ line: 13, lang: 'python', reason: 'needs the network' }]);
    expect(report.pythonBlocks).toBe(3);
    expect(report.pythonRunnable).toBe(2);
  });

  it('a failing example names its line and shows the diff', () => {
    expect(reports[0].failures).toEqual([{ line: 17, lang: 'python', message: 'output differs (- expected, + actual):\n+ 2\n- 3' }]);
    expect(reports[1].failures).toEqual([]);
  });

  it('filters by locale and slug', async () => {
    const only = await checkBook(loadConfig(fixture.configPath), { locales: ['zh-cn'], slugs: ['quiet'] });
    expect(only.map((r) => `${r.locale}/${r.slug}`)).toEqual(['zh-cn/quiet']);
  });
});
