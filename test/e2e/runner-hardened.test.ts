import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoHydrated, openPage, useSiteUnderTest } from './client-support.js';
import { LONG, runCode, runnable } from './runner-support.js';

/**
 * The runner as a hostile or careless reader meets it: every run is isolated (no network, no
 * storage of the site, no forged page states), starts fresh, is limited in time and output and
 * recovers from floods; and it says what happened in words a learner understands.
 */
const site = useSiteUnderTest();

/** A server on another origin that counts the requests it gets (none may come from a run). */
function countingServer(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_, response) => {
    hits++;
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.end('reached');
  });
  // A WebSocket's handshake arrives as an upgrade, not as a request: counted too.
  server.on('upgrade', (_, socket) => {
    hits++;
    socket.destroy();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/probe`,
        hits: () => hits,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

describe('the runner, hardened', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  const sitePaths: string[] = [];

  beforeAll(async () => {
    ({ context, page, problems } = await openPage(site));
    context.setDefaultTimeout(30_000);
    // Requests that went out: Chromium reports a request the CSP refused (before any network) as one
    // that failed with "csp"; any other end (a response, or a failure after sending) counts as sent.
    context.on('requestfinished', (request) => sitePaths.push(request.url()));
    context.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'csp') sitePaths.push(request.url());
    });
    await gotoHydrated(page, site.url('dictionary/'));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('pages carry a Content-Security-Policy that allows only the site itself', async () => {
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it(
    "Python reaches no network, no storage of the site, and cannot forge the page's states",
    async () => {
      const other = await countingServer();
      try {
        const own = site.url('assets/probe-from-python');
        const block = runnable(page, 'python').first();
        const result = await runCode(
          block,
          [
            'import js',
            'from pyodide.code import run_js',
            'from pyodide.ffi import run_sync',
            "settled = run_js(\"(socket) => new Promise((resolve) => { socket.onopen = () => resolve('opened'); socket.onerror = socket.onclose = () => resolve('blocked'); })\")",
            `for name, url in [("own", "${own}"), ("other", "${other.url}")]:`,
            '    try:',
            '        request = js.XMLHttpRequest.new()',
            '        request.open("GET", url, False)',
            '        request.send()',
            '        print(name, "reached")',
            '    except Exception as error:',
            '        print(name, "blocked")',
            // Under the CSP the constructor may not throw: the connection is refused later, with an
            // error and a close event. The run waits for the socket to open or fail (run_sync, JSPI).
            '    try:',
            '        socket = js.WebSocket.new(url.replace("http", "ws"))',
            '        print(name, "socket", run_sync(settled(socket)))',
            '    except Exception:',
            '        print(name, "socket blocked")',
            'try:',
            '    js.indexedDB.open("pybook-probe")',
            '    print("indexedDB open")',
            'except Exception as error:',
            '    print("indexedDB blocked")',
            'try:',
            '    run_js("caches.open(\'pybook-probe\')")',
            '    print("caches open")',
            'except Exception:',
            '    print("caches blocked")',
            'try:',
            "    run_js(\"postMessage({type: 'load-failed', message: 'forged'}); postMessage({type: 'exit', status: 0})\")",
            '    print("forged")',
            'except Exception:',
            '    print("cannot post")',
            'print(js.eval("self.location.origin"))',
            'print("still running")',
          ].join('\n'),
        );
        expect(result.output.trim().split('\n')).toEqual([
          'own blocked',
          'own socket blocked',
          'other blocked',
          'other socket blocked',
          'indexedDB blocked',
          'caches blocked',
          'cannot post',
          'null',
          'still running',
        ]);
        // It ended by itself (exit status 0, the forged messages ignored); the block shows the book's output, which this is not.
        expect(result.verdict).toBe('differs');
        expect(other.hits()).toBe(0);
        expect(sitePaths.filter((url) => url.includes('probe-from-python'))).toEqual([]);
        // Nothing was left where the site would see it.
        expect(
          await page.evaluate(async () => ({
            dbs: (await indexedDB.databases()).length,
            caches: (await caches.keys()).length,
          })),
        ).toEqual({ dbs: 0, caches: 0 });
      } finally {
        await other.close();
      }
    },
    LONG,
  );

  it(
    "JavaScript reaches no network either, the site's own origin included",
    async () => {
      const other = await countingServer();
      try {
        const own = site.url('assets/probe-from-javascript');
        const block = runnable(page, 'javascript').first();
        const result = await runCode(
          block,
          [
            `for (const url of ["${own}", "${other.url}"]) {`,
            '  try { await fetch(url); console.log("fetched"); } catch (e) { console.log("fetch", e.name); }',
            '}',
            'try { postMessage({ type: "exit", status: 0 }); console.log("posted"); } catch (e) { console.log("post", e.name); }',
            'console.log("done");',
          ].join('\n'),
        );
        expect(result.output).toBe('fetch TypeError\nfetch TypeError\npost ReferenceError\ndone\n');
        expect(other.hits()).toBe(0);
        expect(sitePaths.filter((url) => url.includes('probe-from-javascript'))).toEqual([]);
      } finally {
        await other.close();
      }
    },
    LONG,
  );

  it(
    'every run starts fresh: nothing an earlier run changed or wrote is seen by the next',
    async () => {
      const block = runnable(page, 'python').first();
      await runCode(
        block,
        [
          'import builtins, json, os',
          'json.dumps = None',
          'os.getcwd = None',
          'builtins.leak = 1',
          'open("/tmp/x", "w").write("x")',
          'open("task-top-50-in-github-response.json", "w").write("changed")',
          'print("changed")',
        ].join('\n'),
      );
      const second = await runCode(
        block,
        [
          'import builtins, json, os',
          'print(json.dumps is None, os.getcwd is None, hasattr(builtins, "leak"), os.path.exists("/tmp/x"))',
          'print(open("task-top-50-in-github-response.json").read(1))',
        ].join('\n'),
      );
      expect(second.output).toBe('False False False False\n{\n');
      console.log(`second Python run (a sandbox started ahead): ${second.ms} ms from click to verdict`);
    },
    LONG,
  );

  it(
    'output is cut at 2,000 lines with a clear line, and 10,000 prints end soon',
    async () => {
      const python = await runCode(runnable(page, 'python').first(), 'for i in range(10000):\n    print(i)');
      expect(python.verdict).toBe('truncated');
      const lines = python.output.trimEnd().split('\n');
      expect(lines.slice(0, 2)).toEqual(['0', '1']);
      expect(lines[1999]).toBe('1999');
      expect(lines[2000]).toContain('output truncated');
      expect(lines).toHaveLength(2001);
      const javascript = await runCode(
        runnable(page, 'javascript').first(),
        'for (let i = 0; i < 10000; i++) console.log(i);',
      );
      expect(javascript.verdict).toBe('truncated');
      expect(javascript.output.trimEnd().split('\n')).toHaveLength(2001);
      console.log(`10,000 prints: Python ${python.ms} ms, JavaScript ${javascript.ms} ms (click to verdict)`);
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(100_000);
    },
    LONG,
  );

  it(
    'a program that replaces Date.now and Math.min still has its output batched and cut (they were taken before it ran)',
    async () => {
      const patched = await runCode(
        runnable(page, 'javascript').first(),
        'Date.now = () => 0;\nMath.min = () => Infinity;\nfor (let i = 0; i < 10000; i++) console.log(i);',
      );
      expect(patched.verdict).toBe('truncated');
      const lines = patched.output.trimEnd().split('\n');
      expect(lines[1999]).toBe('1999');
      expect(lines).toHaveLength(2001);
    },
    LONG,
  );

  it(
    'the sandbox document does nothing unless it is framed with an opaque origin',
    async () => {
      const folder = readdirSync(path.join(process.env.PYBOOK_TEST_SITE!, 'assets', 'runner')).find((name) =>
        name.startsWith('sandbox.'),
      )!;
      const sandboxUrl = site.url(`assets/runner/${folder}/`);
      const fresh = await openPage(site);
      try {
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        // Framed by a page of the site: with sandbox="allow-scripts" it says it is ready; without, it says nothing.
        const said = (sandbox: boolean) =>
          fresh.page.evaluate(
            async ({ url, sandbox }) => {
              const heard: unknown[] = [];
              const listen = (event: MessageEvent) => heard.push(event.data);
              addEventListener('message', listen);
              const frame = document.createElement('iframe');
              if (sandbox) frame.setAttribute('sandbox', 'allow-scripts');
              frame.src = url;
              const loaded = new Promise((resolve) => {
                frame.onload = resolve;
              });
              document.body.append(frame);
              await loaded;
              // Two frames' worth of tasks after its load: the script runs before load, its message is queued by then.
              await new Promise((resolve) => setTimeout(resolve, 50));
              removeEventListener('message', listen);
              frame.remove();
              return heard;
            },
            { url: sandboxUrl, sandbox },
          );
        expect(await said(true)).toEqual([{ type: 'frame-ready' }]);
        expect(await said(false)).toEqual([]);
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );

  it(
    'a JavaScript flood is ended at the time limit and the next run works',
    async () => {
      const fresh = await openPage(site);
      fresh.context.setDefaultTimeout(60_000);
      try {
        await fresh.page.route(/\/assets\/site\/en\.[0-9a-f]+\.json$/, async (route) => {
          const response = await route.fetch();
          const data = (await response.json()) as { runner: { timeLimitMs: number } };
          data.runner.timeLimitMs = 2000;
          await route.fulfill({ response, json: data });
        });
        await gotoHydrated(fresh.page, site.url('dictionary/'));
        const block = runnable(fresh.page, 'javascript').first();
        const flood = await runCode(block, 'while (true) console.log("x".repeat(1000))');
        expect(flood.verdict).toBe('timed-out');
        expect(flood.output).toContain('output truncated');
        // The page stayed responsive, and the next run gets a sandbox of its own.
        expect(await fresh.page.evaluate(() => 2 + 2)).toBe(4);
        const next = await runCode(block, 'console.log("next")');
        expect(next.output).toBe('next\n');
        // The block shows the book's output, and "next" is not it: the run ended normally and differs.
        expect(next.verdict).toBe('differs');
      } finally {
        await fresh.context.close();
      }
    },
    LONG,
  );

  it(
    'an exception is told apart from a changed print, with the traceback',
    async () => {
      const block = runnable(page, 'python').first();
      const raised = await runCode(block, 'print("before")\nraise ValueError("bad value")');
      expect(raised.verdict).toBe('raised');
      expect(raised.status).toContain('raised an exception');
      expect(raised.output).toContain('Traceback (most recent call last)');
      expect(raised.output).toContain('ValueError: bad value');
      const changed = await runCode(block, 'print("something else")');
      expect(changed.verdict).toBe('differs');
    },
    LONG,
  );

  it(
    "a missing third-party package says what the page's Python has, with a link to installing packages",
    async () => {
      const block = runnable(page, 'python').first();
      const result = await runCode(block, 'import requests');
      expect(result.verdict).toBe('raised');
      expect(result.hints).toContain('standard library only');
      expect(await block.locator('.code-run-hint a').getAttribute('href')).toMatch(/\/pip\/$/);
    },
    LONG,
  );

  it(
    'input() reads what the reader typed in the Input field',
    async () => {
      const block = runnable(page, 'python').first();
      const empty = await runCode(block, 'name = input("Name? ")\nprint("Hello,", name)');
      expect(empty.output).toContain('EOFError');
      expect(empty.hints).toContain('Input field');
      const field = page.getByRole('textbox', { name: /Input \(what input\(\) reads/ });
      await field.fill('Ada');
      const typed = await runCode(block, 'name = input("Name? ")\nprint("Hello,", name)');
      expect(typed.output).toBe('Name? Hello, Ada\n');
      await block.locator('button[data-code-action=reset]').click();
      expect(problems).toEqual([]);
    },
    LONG,
  );
});
