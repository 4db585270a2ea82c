import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBook, type ChapterReport } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import {
  BROWSER_CHECK_FILE,
  currentRuntime,
  exampleKey,
  readBrowserVerdicts,
} from '../../src/runner/build/browser-check-file.js';
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
    expect(reports[0].failures).toEqual([
      { line: 17, lang: 'python', message: 'output differs (- expected, + actual):\n+ 2\n- 3' },
    ]);
    expect(reports[1].failures).toEqual([]);
  });

  it('filters by locale and slug', async () => {
    const only = await checkBook(loadConfig(fixture.configPath), { locales: ['zh-cn'], slugs: ['quiet'] });
    expect(only.map((r) => `${r.locale}/${r.slug}`)).toEqual(['zh-cn/quiet']);
  });
});

describe('checkBook with another Python', () => {
  it('runs the examples with --python; pytest blocks it cannot run fail, unless allowMissingPytest lists them as not run', async () => {
    const { mkdtemp, rm, writeFile, chmod } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pybook-python-'));
    // An interpreter without site-packages, so without pytest.
    const bare = path.join(dir, 'bare-python');
    await writeFile(bare, '#!/bin/sh\nexec python3 -S "$@"\n');
    await chmod(bare, 0o755);
    const book = await createFixtureBook({
      chapters: {
        en: {
          tests: chapter(
            'Tests',
            '```python pytest\ndef test_one():\n    assert 1 == 1\n```\n\n```python\nimport sys\nprint(sys.flags.no_site)\n```\n\n```output\n1\n```',
          ),
        },
      },
    });
    try {
      // By default a pytest block that cannot run is a failure: a green check means every example ran.
      const [strict] = await checkBook(loadConfig(book.configPath), { python: bare, browser: false });
      expect(strict.failures).toEqual([
        {
          line: 5,
          lang: 'python',
          message: `could not run: pytest is not installed for ${bare} (install it, or pass --allow-missing-pytest to list such examples as not run)`,
        },
      ]);
      expect(strict.notRun).toEqual([]);
      expect(strict.ran).toBe(1);
      const [report] = await checkBook(loadConfig(book.configPath), {
        python: bare,
        browser: false,
        allowMissingPytest: true,
      });
      expect(report.failures).toEqual([]);
      expect(report.ran).toBe(1);
      expect(report.notRun).toEqual([{ line: 5, lang: 'python', reason: `pytest is not installed for ${bare}` }]);
      const { probePython } = await import('../../src/check/check-book.js');
      const probe = probePython(bare);
      expect(probe.hasPytest).toBe(false);
      expect(probe.version).toMatch(/^3\.\d+\.\d+/);
    } finally {
      await book.remove();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("checkBook in the reader's runtimes (Pyodide, the JavaScript sandbox)", () => {
  // Passes under node (argv is [node, example.mjs]) but the sandbox has no process.
  const usesProcess = (meta = '') =>
    `\`\`\`javascript${meta}\nconsole.log(process.argv.length)\n\`\`\`\n\n\`\`\`output\n2\n\`\`\``;
  const pythonExample = {
    lang: 'python',
    code: 'import sys\nprint("hi from", sys.platform != "")',
    output: 'hi from True',
  };
  const failingKey = exampleKey({ lang: 'javascript', code: 'console.log(process.argv.length)', output: '2' });
  const pythonKey = exampleKey(pythonExample);

  let book: FixtureBook;
  let recordFile: string;
  let browserReports: Record<string, ChapterReport>;

  beforeAll(async () => {
    book = await createFixtureBook({
      chapters: {
        en: {
          sandbox: chapter('Sandbox', usesProcess()), // example at line 5
          marked: chapter('Marked', usesProcess(' nobrowser="uses process"')),
          pyodide: chapter(
            'Pyodide',
            `\`\`\`python\n${pythonExample.code}\n\`\`\`\n\n\`\`\`output\n${pythonExample.output}\n\`\`\``,
          ),
          // Each floods its output in the reader's runtime only (so it gets there: it passes natively).
          'pyodide-flood': chapter(
            'Pyodide flood',
            '```python\nimport sys\nif sys.platform == "emscripten":\n    while True: sys.stdout.write("x" * 65536)\nprint("ok")\n```\n\n```output\nok\n```',
          ),
          'sandbox-flood': chapter(
            'Sandbox flood',
            '```javascript\nif (typeof process === "undefined") for (;;) console.log("x".repeat(65536));\nconsole.log("ok");\n```\n\n```output\nok\n```',
          ),
        },
      },
    });
    recordFile = path.join(book.root, 'book', BROWSER_CHECK_FILE);
    const all = await checkBook(loadConfig(book.configPath), { jobs: 2 });
    browserReports = Object.fromEntries(all.map((r) => [r.slug, r]));
  });
  afterAll(() => book.remove());

  it('an example that passes under node but fails in the sandbox is a failure that suggests nobrowser', () => {
    const report = browserReports.sandbox;
    expect(report.ran).toBe(1);
    expect(report.passedNatively).toEqual({ javascript: 1 });
    expect(report.browser.javascript).toEqual({ ran: 1, passed: 0 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({ line: 5, lang: 'javascript' });
    expect(report.failures[0].message).toContain('nobrowser="why"');
    expect(report.failures[0].message).toContain('the JavaScript sandbox');
    expect(report.failures[0].message).toContain('ReferenceError: process is not defined');
    expect(report.passedInBrowser).toEqual([]);
  });

  it('marked nobrowser="…", it runs under node only and does not fail', () => {
    const report = browserReports.marked;
    expect(report.failures).toEqual([]);
    expect(report.ran).toBe(1);
    expect(report.passedNatively).toEqual({ javascript: 1 });
    expect(report.browser.javascript).toEqual({ ran: 0, passed: 0 });
  });

  it('a Python example that passes in Pyodide is in the report and in the written record', () => {
    const report = browserReports.pyodide;
    expect(report.failures).toEqual([]);
    expect(report.browser.python).toEqual({ ran: 1, passed: 1 });
    expect(report.passedInBrowser).toEqual([pythonKey]);
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { runtime: unknown; passed: string[] };
    expect(record.passed).toEqual([pythonKey]);
    expect(record.passed).not.toContain(failingKey);
    expect(record.runtime).toEqual(currentRuntime(loadConfig(book.configPath)));
    expect(readBrowserVerdicts(loadConfig(book.configPath))).toMatchObject({ passed: new Set([pythonKey]) });
    expect(readBrowserVerdicts(loadConfig(book.configPath)).problem).toBeUndefined();
  });

  it("an output flood in Pyodide or the sandbox is a sentence naming the limit, not the runtime's internal stack", () => {
    for (const [slug, runtime] of [
      ['pyodide-flood', 'Pyodide (Python 3.'],
      ['sandbox-flood', 'the JavaScript sandbox'],
    ] as const) {
      const report = browserReports[slug];
      expect(report.passedNatively, slug).toEqual({ [slug === 'pyodide-flood' ? 'python' : 'javascript']: 1 });
      expect(report.failures, slug).toHaveLength(1);
      const [failure] = report.failures;
      expect(failure.line).toBe(5);
      expect(failure.message).toContain(runtime);
      expect(failure.message.split('\n').slice(-1)[0]).toBe(
        'output exceeded 1048576 bytes: the check ended the example there',
      );
      expect(failure.message).not.toMatch(/^\s+at /m);
    }
  });

  it('keepRecord: true runs the examples in the browser runtimes but leaves the record unwritten', async () => {
    rmSync(recordFile);
    const again = await checkBook(loadConfig(book.configPath), { langs: ['javascript'], keepRecord: true });
    // The sandbox did judge an example, so without keepRecord there would be something to write.
    expect(again.find((r) => r.slug === 'sandbox')!.browser.javascript.ran).toBe(1);
    expect(existsSync(recordFile)).toBe(false);
  });
});
