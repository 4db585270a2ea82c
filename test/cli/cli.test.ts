import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapter, createFixtureBook, fixtureConfig, type FixtureBook } from '../fixtures/fixture-book.js';

/**
 * The `pybook` executable as users run it: bin/pybook.js loads the compiled, bundled CLI from
 * dist/bundle/ (`npm ci` makes it through the prepare script; made here when it is missing).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(root, 'bin', 'pybook.js');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function pybook(args: string[], cwd = root): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let fixture: FixtureBook;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist', 'bundle', 'cli.js'))) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: root },
    );
    execFileSync(process.execPath, [path.join(root, 'tools', 'bundle-cli.mjs')], { cwd: root });
  }
  fixture = await createFixtureBook({
    chapters: {
      en: {
        intro: chapter('Intro', 'Read [the examples](./examples.mdx).'),
        examples: chapter(
          'Examples',
          '```python\nprint("fine")\n```\n\n```output\nfine\n```\n\n```python\nprint(sorted({3, 1, 2}))\n```\n\n```output\n[3, 2, 1]\n```',
        ),
      },
      'zh-cn': { intro: chapter('介绍', '阅读[示例](./examples.mdx)。') },
    },
  });
});
afterAll(() => fixture.remove());

// Independent runs of the executable: each spends most of its time starting Node, so overlap them.
describe.concurrent('pybook', () => {
  it('--help lists the commands', async ({ expect }) => {
    const run = await pybook(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pybook \[options\] \[command\]/);
    for (const command of ['build', 'serve', 'watch|dev', 'check']) expect(run.stdout).toContain(`  ${command}`);
  });

  it('--version prints the version', async ({ expect }) => {
    const run = await pybook(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('an unknown command or option fails with a non-zero exit code', async ({ expect }) => {
    const unknown = await pybook(['publish']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("unknown command 'publish'");
    const option = await pybook(['build', '--fast']);
    expect(option.code).not.toBe(0);
    expect(option.stderr).toContain("unknown option '--fast'");
  });

  it('build --threads takes a whole number from 1, and builds the same site on a compile pool', async ({ expect }) => {
    for (const bad of ['0', 'two', '1.5']) {
      const run = await pybook(['build', '--threads', bad], fixture.root);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('a thread count is a whole number from 1 to 64');
    }
    const pooledDir = path.join(fixture.root, 'site-pooled');
    const singleDir = path.join(fixture.root, 'site-single');
    const pooled = await pybook(['build', '--no-cache', '--threads', '3', '--out-dir', pooledDir], fixture.root);
    const single = await pybook(['build', '--no-cache', '--threads', '1', '--out-dir', singleDir], fixture.root);
    expect([pooled.code, single.code]).toEqual([0, 0]);
    for (const page of ['index.html', 'examples/index.html', 'zh-cn/intro/index.html']) {
      expect(readFileSync(path.join(pooledDir, page), 'utf8')).toBe(readFileSync(path.join(singleDir, page), 'utf8'));
    }
  });

  it('build writes the site and prints a summary with the fallback count', async ({ expect }) => {
    const outDir = path.join(fixture.root, 'site');
    const run = await pybook(['build', '--out-dir', outDir], fixture.root);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /Built 10 pages in 2 locales \(en, zh-cn\) into .*\/site\/ in \d+ ms, 1 warning\. 1 chapter in zh-cn falls back to en\./,
    );
    expect(readFileSync(path.join(outDir, 'zh-cn', 'examples', 'index.html'), 'utf8')).toContain('fallback-banner');
  });

  it("build leaves no process of its own running once it has exited (esbuild's service is ended and reaped)", async ({
    expect,
  }) => {
    const outDir = path.join(fixture.root, 'site-alone');
    // Its own process group, so that what it started can be found after it exits, whoever adopted it.
    const child = spawn(process.execPath, [bin, 'build', '--no-cache', '--out-dir', outDir], {
      cwd: fixture.root,
      detached: true,
      stdio: 'ignore',
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', resolve);
    });
    expect(code).toBe(0);
    const inGroup = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((pid) => {
        try {
          // pid (comm) state ppid pgrp …: comm may hold spaces, so the fields are read after its ")".
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return Number(pgrp) === child.pid
            ? [`${pid} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)} ${state}`]
            : [];
        } catch {
          return []; // ended meanwhile
        }
      });
    expect(inGroup).toEqual([]);
  });

  it("README's commands are npm scripts that start the CLI as bin/pybook.js does (npx would copy the project into its cache first)", ({
    expect,
  }) => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const setUp = [...readme.matchAll(/```bash\n(.*?)\n```/gs)].map((m) => m[1]);
    expect(setUp.slice(0, 2)).toEqual(['npm install && npm run build', 'npm test']);
    expect(readme).not.toMatch(/`npx pybook (build|serve|watch|check|export)/);
    const named = new Set([...readme.matchAll(/npm run (\w[\w:-]*)/g)].map((m) => m[1]));
    for (const command of ['build', 'serve', 'watch', 'check', 'export']) {
      expect(named, command).toContain(command);
      expect(scripts[command], command).toBe(`node bin/pybook.js ${command}`);
    }
    for (const name of named) expect(scripts[name], `npm run ${name}`).toBeDefined();
    // And it runs: arguments after -- reach the CLI.
    const help = execFileSync('npm', ['run', '-s', 'build', '--', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help).toContain('--out-dir');
  });

  it('build fails with exit code 1, listing every broken link as file:line:column', async ({ expect }) => {
    const broken = await createFixtureBook({
      chapters: { en: { intro: chapter('Intro', 'See [a](./a.mdx).\n\nSee [b](./b.mdx#x).') } },
    });
    try {
      const run = await pybook(['build', '--out-dir', path.join(broken.root, 'site')], broken.root);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error: book/en/intro.mdx:5:5: broken link "./a.mdx": there is no chapter "a"\n');
      expect(run.stderr).toContain('error: book/en/intro.mdx:7:5: broken link "./b.mdx#x": there is no chapter "b"\n');
      expect(existsSync(path.join(broken.root, 'site'))).toBe(false);
    } finally {
      await broken.remove();
    }
  });

  it('build fails on an invalid config, naming the field', async ({ expect }) => {
    const configPath = path.join(fixture.root, 'bad.config.json');
    await writeFile(
      configPath,
      JSON.stringify(fixtureConfig(['intro'], { sitemap: { changefreq: 'weekly', priority: 'high' } })),
    );
    const run = await pybook(
      ['build', '--config', configPath, '--out-dir', path.join(fixture.root, 'bad-site')],
      fixture.root,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: ${configPath}: field "sitemap.priority" must be number`);
  });
});

/** A check starts Python for each example and Pyodide once: on a busy machine that takes minutes. */
const CHECK_TIMEOUT_MS = 300_000;

// These two rewrite a fixture chapter, so they run one after the other.
describe('pybook check', () => {
  it(
    'check fails with the chapter, the line and a diff',
    async () => {
      const run = await pybook(['check'], fixture.root);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'FAIL book/en/examples.mdx:13 (python)\n  output differs (- expected, + actual):\n  + [1, 2, 3]\n  - [3, 2, 1]\n',
      );
      expect(run.stdout).toContain('2 examples ran, 0 exempt, 1 failed; 2/2 Python blocks runnable (100.0%).');
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    'check passes with exit code 0 when every example matches',
    async () => {
      await fixture.writeChapter(
        'en',
        'examples',
        chapter('Examples', '```python\nprint(sorted({3, 1, 2}))\n```\n\n```output\n[1, 2, 3]\n```'),
      );
      const run = await pybook(['check', '--slug', 'examples'], fixture.root);
      expect(run.stdout).not.toContain('FAIL');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('1 example ran, 0 exempt, 0 failed');
    },
    CHECK_TIMEOUT_MS,
  );

  it(
    'a pytest example that cannot run (no pytest) fails the check, unless --allow-missing-pytest lists it as not run',
    async () => {
      const book = await createFixtureBook({
        chapters: { en: { tests: chapter('Tests', '```python pytest\ndef test_one():\n    assert 1 == 1\n```') } },
      });
      // An interpreter without site-packages, so without pytest.
      const bare = path.join(book.root, 'bare-python');
      await writeFile(bare, '#!/bin/sh\nexec python3 -S "$@"\n', { mode: 0o755 });
      try {
        const strict = await pybook(['check', '--no-browser', '--python', bare], book.root);
        expect(strict.code).toBe(1);
        expect(strict.stdout).toContain(
          `FAIL book/en/tests.mdx:5 (python)\n  could not run: pytest is not installed for ${bare} (install it, or pass --allow-missing-pytest to list such examples as not run)\n`,
        );
        const allowed = await pybook(['check', '--no-browser', '--python', bare, '--allow-missing-pytest'], book.root);
        expect(allowed.stdout).toContain(`not run book/en/tests.mdx:5 (python): pytest is not installed for ${bare}`);
        expect(allowed.stdout).toContain('0 examples ran, 0 exempt, 1 not run with this Python, 0 failed');
        expect(allowed.code).toBe(0);
      } finally {
        await book.remove();
      }
    },
    CHECK_TIMEOUT_MS,
  );
});
