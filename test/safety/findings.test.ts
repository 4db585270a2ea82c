/**
 * Safety round 3: one regression test per finding of the hostile review, each the attack as it
 * was reported (the property tests beside this file generate the variants).
 */
import { once } from 'node:events';
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../src/cli/build.js';
import { runExample } from '../../src/check/run-example.js';
import { loadConfig, parseConfig } from '../../src/config/load-config.js';
import { DiskCache } from '../../src/cache/disk-cache.js';
import { Builder } from '../../src/generator/build.js';
import { updateBrowserCheckRecord } from '../../src/runner/build/browser-check-file.js';
import { BrowserRuntime } from '../../src/runner/node/runtimes.js';
import { startStaticServer, type RunningServer } from '../../src/server/static-server.js';
import { formatError } from '../../src/core/errors.js';
import { OutputFolder } from '../../src/output/output-folder.js';
import { createHostileProject, DEAD_PID, entryFor, snapshot, type HostileProject } from './hostile-project.js';

const errorOf = async (work: () => unknown): Promise<string> => {
  try {
    await work();
  } catch (error) {
    return formatError(error);
  }
  return 'no error';
};

let project: HostileProject;
beforeAll(() => {
  project = createHostileProject({ withNodeModules: true });
});
afterAll(() => project.remove());

const build = () => runBuild({ config: project.configPath, outDir: project.outDir, quiet: true });
const outsideState = () => snapshot(project.outside);

describe('1. the check: Pyodide and the sandbox host are confined and cannot reach Node', () => {
  let python: BrowserRuntime;
  beforeAll(async () => {
    python = new BrowserRuntime('python', path.join(project.project, 'book', 'fixtures'));
    await python.start();
  });
  afterAll(() => python?.close());

  it("Pyodide's js module has no process, require or Buffer, and a module import is refused", async () => {
    const result = await python.run(
      [
        'import js, asyncio',
        'from pyodide.code import run_js',
        'print(hasattr(js, "process"), hasattr(js, "require"), hasattr(js, "Buffer"))',
        'print(run_js("typeof process + typeof require + typeof Buffer"))',
        'async def main():',
        '    try:',
        '        await run_js("import(\'node:fs\')")',
        '    except Exception as e:',
        '        print(type(e).__name__)',
        'asyncio.run(main())',
      ].join('\n'),
      'example.py',
      60_000,
    );
    expect(result).toEqual({
      status: 0,
      stdout: 'False False False\nundefinedundefinedundefined\nJsException\n',
      stderr: '',
    });
  });

  it("the host sees no variable of the check's environment, no home folder, no project", async () => {
    process.env.PYBOOK_FINDING_SECRET = 'leaked';
    try {
      const result = await python.run(
        'import os\nprint(os.environ.get("PYBOOK_FINDING_SECRET"), os.path.exists(os.path.expanduser("~/.ssh")))',
        'example.py',
        60_000,
      );
      expect(result).toEqual({ status: 0, stdout: 'None False\n', stderr: '' });
    } finally {
      delete process.env.PYBOOK_FINDING_SECRET;
    }
  });
});

describe('2. names in manifests and journals', () => {
  it('a manifest entry "../book.config.json" makes the manifest corrupt: the build refuses and deletes nothing', async () => {
    await build();
    const manifestFile = path.join(project.outDir, '.pybook-output');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { files: Record<string, [number, string]> };
    manifest.files['../book.config.json'] = entryFor(project.outDir, '../book.config.json');
    manifest.files['../../outside/secret.txt'] = entryFor(project.outDir, '../../outside/secret.txt');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const config = readFileSync(project.configPath, 'utf8');
    expect(await errorOf(build)).toMatch(
      /its manifest .*\.pybook-output is corrupt \(it lists "\.\.\/book\.config\.json", which has a "\.\." segment\)/,
    );
    expect(readFileSync(project.configPath, 'utf8')).toBe(config);
    expect(existsSync(path.join(project.outside, 'secret.txt'))).toBe(true);
    rmSync(project.outDir, { recursive: true });
  });

  it('a planted staging folder whose journal names "../victim" is left in place, and the victim stays', async () => {
    const victim = path.join(project.project, 'victim2.txt');
    writeFileSync(victim, 'precious');
    const staging = `${project.outDir}.staging-${DEAD_PID}`;
    mkdirSync(staging, { recursive: true });
    writeFileSync(
      path.join(staging, '.pybook-journal'),
      `${JSON.stringify(['../victim2.txt', ...entryFor(staging, '../victim2.txt')])}\n`,
    );
    await build();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(existsSync(path.join(staging, '.pybook-journal'))).toBe(true);
    rmSync(staging, { recursive: true });
  });

  it('a "complete" previous folder that another user planted is neither moved into place nor deleted', async () => {
    rmSync(project.outDir, { recursive: true, force: true });
    const previous = `${project.outDir}.previous-${DEAD_PID}`;
    mkdirSync(previous, { recursive: true });
    writeFileSync(path.join(previous, 'index.html'), '<p>planted</p>');
    writeFileSync(
      path.join(previous, '.pybook-output'),
      JSON.stringify({
        generator: 'pybook',
        version: 2,
        note: '',
        contentNamed: [],
        files: { 'index.html': entryFor(previous, 'index.html') },
      }),
    );
    if (process.getuid?.() === 0) chownSync(previous, 65534, 65534);
    await build();
    if (process.getuid?.() === 0)
      expect(readFileSync(path.join(previous, 'index.html'), 'utf8')).toBe('<p>planted</p>');
    expect(readFileSync(path.join(project.outDir, 'index.html'), 'utf8')).not.toContain('planted');
    rmSync(previous, { recursive: true, force: true });
  });

  it('a hand-written .pybook-written span proves nothing: a same-size edit of a listed file is foreign', async () => {
    await build();
    const page = path.join(project.outDir, 'index.html');
    const text = readFileSync(page, 'utf8');
    writeFileSync(page, text.replace(/.$/s, 'X'));
    writeFileSync(path.join(project.outDir, '.pybook-written'), '{"from":"0","to":"99999999999999999999"}\n');
    expect(await errorOf(build)).toMatch(/holds files pybook did not write, or that changed since: index\.html/);
    writeFileSync(page, text);
  });
});

describe('3. folders that lead outside the project', () => {
  const withConfig = (change: Record<string, unknown>) => {
    const config = JSON.parse(readFileSync(project.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(project.configPath, JSON.stringify({ ...config, ...change }));
    return () => writeFileSync(project.configPath, JSON.stringify(config));
  };

  it('book/static as a link to a folder outside the project', async () => {
    const staticDir = path.join(project.project, 'book', 'static');
    rmSync(staticDir, { recursive: true });
    symlinkSync(path.join(project.outside, 'dir'), staticDir);
    try {
      expect(await errorOf(() => loadConfig(project.configPath))).toMatch(
        /field "staticDir" names .*book\/static, outside the project folder .* \(it resolves to .*outside\/dir, through a link\)/,
      );
    } finally {
      rmSync(staticDir);
      mkdirSync(staticDir);
    }
  });

  it('book/fixtures as a link to a folder outside the project', async () => {
    const fixtures = path.join(project.project, 'book', 'fixtures');
    rmSync(fixtures, { recursive: true });
    symlinkSync(path.join(project.outside, 'dir'), fixtures);
    try {
      expect(await errorOf(() => new Builder({ configPath: project.configPath }).build())).toMatch(
        /fixtures: the fixtures folder is a link to .*outside\/dir, outside the project/,
      );
    } finally {
      rmSync(fixtures);
      mkdirSync(fixtures);
    }
  });

  it('"staticDir": an absolute path, and "../x"', async () => {
    for (const [value, message] of [
      [path.join(project.outside, 'dir'), /field "staticDir" is an absolute path/],
      ['../outside/dir', /field "staticDir" names .*outside\/dir, outside the project folder/],
    ] as const) {
      const restore = withConfig({ staticDir: value });
      try {
        expect(await errorOf(() => loadConfig(project.configPath))).toMatch(message);
      } finally {
        restore();
      }
    }
  });
});

describe('4. the cache never deletes through a link', () => {
  it('a namespace that is a link to a victim folder is replaced by a folder; the victim keeps its files', () => {
    const namespace = path.join(project.project, 'node_modules', '.cache', 'pybook', 'search');
    rmSync(namespace, { recursive: true, force: true });
    mkdirSync(path.dirname(namespace), { recursive: true });
    symlinkSync(path.join(project.outside, 'dir'), namespace);
    const before = outsideState();
    const cache = DiskCache.forBook(project.project, true);
    cache.write('search', 'an-entry', 'x');
    cache.prune('search');
    expect(outsideState()).toEqual(before);
    expect(lstatSync(namespace).isDirectory()).toBe(true);
  });
});

describe("5. the check's record is never written through a link", () => {
  it('book/checked-in-browser.json linked to ~/.bashrc: the link is replaced, its target untouched', () => {
    const target = path.join(project.outside, 'bashrc');
    writeFileSync(target, 'export PATH=...\n');
    const record = path.join(project.project, 'book', 'checked-in-browser.json');
    symlinkSync(target, record);
    updateBrowserCheckRecord(loadConfig(project.configPath), new Map([['k', true]]));
    expect(readFileSync(target, 'utf8')).toBe('export PATH=...\n');
    expect(lstatSync(record).isFile()).toBe(true);
    rmSync(record);
  });
});

describe('6. native examples', () => {
  it('cannot write the project or the home folder, read ~/.ssh, or reach a host socket', async () => {
    const home = path.join(os.homedir(), `pybook-finding-${process.pid}`);
    const socketPath = path.join(project.sandbox, 'agent.sock');
    const agent = http.createServer().listen(socketPath);
    await once(agent, 'listening');
    try {
      const code = [
        'import os, socket',
        'for p in [' + [project.configPath, home].map((p) => JSON.stringify(p)).join(', ') + ']:',
        '    try:',
        '        open(p, "w").write("x")',
        '        print("wrote", p)',
        '    except OSError:',
        '        print("refused")',
        'print(os.path.exists(os.path.expanduser("~/.ssh")), os.path.exists("/root/.ssh"), os.path.exists("/home"))',
        's = socket.socket(socket.AF_UNIX)',
        'try:',
        `    s.connect(${JSON.stringify(socketPath)})`,
        '    print("connected")',
        'except OSError:',
        '    print("no socket")',
      ].join('\n');
      const outcome = await runExample(
        { lang: 'python', code, line: 1, output: 'refused\nrefused\nFalse False False\nno socket' },
        path.join(project.project, 'book', 'fixtures'),
      );
      expect(outcome).toEqual({ ok: true });
      expect(existsSync(home)).toBe(false);
    } finally {
      agent.close();
    }
  });

  it('cannot fill the disk: its private /tmp, its working folder with it, has a fixed size', async () => {
    const code =
      'try:\n    with open("big.bin", "wb") as f:\n        for _ in range(1024):\n            f.write(b"x" * (1024 * 1024))\n    print("wrote 1 GiB")\nexcept OSError as e:\n    print("stopped")';
    expect(
      await runExample(
        { lang: 'python', code, line: 1, output: 'stopped' },
        path.join(project.project, 'book', 'fixtures'),
      ),
    ).toEqual({ ok: true });
  });
});

describe('7. medium findings', () => {
  it('watch deletes only a file it wrote: a same-size edit by the user stays', () => {
    const dir = path.join(project.sandbox, 'watch-out');
    mkdirSync(dir, { recursive: true });
    const folder = new OutputFolder(dir);
    folder.write('page.html', 'abc');
    writeFileSync(path.join(dir, 'page.html'), 'xyz');
    expect(folder.remove('page.html', 'abc')).toBe(false);
    expect(readFileSync(path.join(dir, 'page.html'), 'utf8')).toBe('xyz');
  });

  it('a .br sibling that is a link out of the site folder is not sent', async () => {
    await build();
    const page = path.join(project.outDir, 'intro', 'index.html');
    symlinkSync(path.join(project.outside, 'secret.txt'), `${page}.br`);
    const server = await startStaticServer({
      dir: project.outDir,
      basePath: '/fixture-guide/',
      port: 0,
      log: () => {},
    });
    try {
      const response = await fetch(`${server.url}intro/`, { headers: { 'Accept-Encoding': 'br' } });
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(await response.text()).not.toContain(project.secret);
    } finally {
      await server.close();
      rmSync(`${page}.br`);
    }
  });

  it('a chapter slugged "search", and chapters that differ only by case, are errors; so is a zh-cn chapter named like a locale', async () => {
    writeFileSync(path.join(project.project, 'book', 'en', 'search.mdx'), '---\ntitle: S\n---\n\nx');
    expect(await errorOf(build)).toMatch(/search\.mdx: "search" is a name the site uses for its own pages and files/);
    rmSync(path.join(project.project, 'book', 'en', 'search.mdx'));
    writeFileSync(path.join(project.project, 'book', 'en', 'Intro.mdx'), '---\ntitle: I\n---\n\nx');
    expect(await errorOf(build)).toMatch(/Intro\.mdx: "Intro" is not a chapter slug: use lowercase letters/);
    rmSync(path.join(project.project, 'book', 'en', 'Intro.mdx'));
    writeFileSync(path.join(project.project, 'book', 'en', 'zh-cn.mdx'), '---\ntitle: Z\n---\n\nx');
    expect(await errorOf(build)).toMatch(/zh-cn\.mdx: "zh-cn" is a locale's folder/);
    rmSync(path.join(project.project, 'book', 'en', 'zh-cn.mdx'));
  });

  it('"defaultLocale": "toString" or "__proto__", a time limit of 1e-300, basePath "/../" are config errors', () => {
    const config = readFileSync(project.configPath, 'utf8');
    const parsed = JSON.parse(config) as Record<string, unknown>;
    const error = (change: Record<string, unknown>) => {
      try {
        parseConfig(JSON.stringify({ ...parsed, ...change }), project.configPath);
        return 'no error';
      } catch (e) {
        return formatError(e);
      }
    };
    expect(error({ defaultLocale: 'toString' })).toMatch(
      /field "defaultLocale" is "toString" but "locales" has no such entry/,
    );
    expect(error({ defaultLocale: '__proto__' })).toMatch(
      /field "defaultLocale" is "__proto__" but "locales" has no such entry/,
    );
    expect(error({ runner: { timeLimitSeconds: 1e-300 } })).toMatch(/field "runner\.timeLimitSeconds" must be >= 1/);
    expect(error({ basePath: '/../' })).toMatch(/field "basePath" must match/);
    expect(error({ basePath: '/a/./' })).toMatch(/field "basePath" must match/);
  });
});

describe('8. low findings', () => {
  it('a book.config.json linked to a file outside the project is refused without printing a line of it', async () => {
    const target = path.join(project.outside, 'token.json');
    writeFileSync(target, '{ "token": "ghp_SECRET_TOKEN"');
    const link = path.join(project.project, 'linked.config.json');
    symlinkSync(target, link);
    const message = await errorOf(() => loadConfig(link));
    expect(message).toMatch(/the book configuration is a link to .*token\.json, outside the project folder/);
    expect(message).not.toContain('ghp_SECRET_TOKEN');
    rmSync(link);
  });

  it('a watch-mode write through a link placed in the output folder is refused', () => {
    const dir = path.join(project.sandbox, 'watch-links');
    mkdirSync(dir, { recursive: true });
    symlinkSync(path.join(project.outside, 'dir'), path.join(dir, 'assets'));
    const before = outsideState();
    expect(() => new OutputFolder(dir).write('assets/app.js', 'x')).toThrow(
      /assets is a link: pybook writes only into folders it made/,
    );
    expect(outsideState()).toEqual(before);
    expect(readlinkSync(path.join(dir, 'assets'))).toBe(path.join(project.outside, 'dir'));
  });

  describe('the server', () => {
    let server: RunningServer;
    beforeAll(async () => {
      await build();
      server = await startStaticServer({ dir: project.outDir, basePath: '/fixture-guide/', port: 0, log: () => {} });
    });
    afterAll(() => server.close());
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; length: number }>((resolve, reject) => {
        http
          .get(`${server.url}robots.txt`, { headers }, (res) => {
            let length = 0;
            res.on('data', (chunk: Buffer) => {
              length += chunk.length;
            });
            res.on('end', () => resolve({ status: res.statusCode!, length }));
          })
          .on('error', reject);
      });

    it('Range: bytes=0-99999999999999999999999 is the whole file (to its last byte), not 2 bytes', async () => {
      const size = readFileSync(path.join(project.outDir, 'robots.txt')).length;
      expect(await get({ Range: 'bytes=0-99999999999999999999999' })).toEqual({ status: 206, length: size });
    });

    it('If-None-Match: * is answered 304', async () => {
      expect((await get({ 'If-None-Match': '*' })).status).toBe(304);
    });

    it("a Host that is not this server's (DNS rebinding) is refused with 421; loopback names and IP literals are served", async () => {
      expect((await get({ Host: 'attacker.example:3000' })).status).toBe(421);
      expect((await get({ Host: 'localhost' })).status).toBe(200);
      expect((await get({ Host: `127.0.0.1:${server.port}` })).status).toBe(200);
    });
  });

  it("a raised recursion limit that overflows Pyodide's stack ends the run at once with the error, and the next run works", async () => {
    const python = new BrowserRuntime('python', path.join(project.project, 'book', 'fixtures'));
    try {
      const code =
        'import sys\nsys.setrecursionlimit(10**5)\ndef f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError:\n    print("caught")';
      const result = await python.run(code, 'example.py', 120_000);
      // Not the CPU limit or the clock: the interpreter's failure, said as it happens.
      expect(typeof result).toBe('object');
      if (typeof result === 'string') return;
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/the example\.py run failed in its runtime: Maximum call stack size exceeded/);
      expect(await python.run('print("after")', 'example.py', 120_000)).toEqual({
        status: 0,
        stdout: 'after\n',
        stderr: '',
      });
    } finally {
      python.close();
    }
  });
});
