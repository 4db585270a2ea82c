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

describe('checkBook with another Python', () => {
  it('runs the examples with --python, and lists pytest blocks it cannot run instead of failing them', async () => {
    const { mkdtemp, rm, writeFile, chmod } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pybook-python-'));
    // An interpreter without site-packages, so without pytest.
    const bare = path.join(dir, 'bare-python');
    await writeFile(bare, '#!/bin/sh\nexec python3 -S "$@"\n');
    await chmod(bare, 0o755);
    const book = await createFixtureBook({
      chapters: { en: { tests: chapter('Tests', '```python pytest\ndef test_one():\n    assert 1 == 1\n```\n\n```python\nimport sys\nprint(sys.flags.no_site)\n```\n\n```output\n1\n```') } },
    });
    try {
      const [report] = await checkBook(loadConfig(book.configPath), { python: bare, browser: false });
      expect(report.failures).toEqual([]);
      expect(report.ran).toBe(1);
      expect(report.notRun).toEqual([{ line: 5, lang: 'python', reason: `pytest is not installed for ${bare}` }]);
      const { probePython } = await import('../../src/check/check-book.js');
      expect(probePython(bare)).toMatchObject({ hasPytest: false, version: expect.stringMatching(/^3\.\d+\.\d+/) });
    } finally {
      await book.remove();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
