/**
 * `pybook check`'s promise over generated hostile examples (fast-check): chapters whose Python
 * and JavaScript try to write outside their folder, read the check's environment and files
 * outside the project, leave daemons behind, talk to a host socket or the host's network, and
 * reach Node from Pyodide or the sandbox. Whatever they try, run natively and in the reader's
 * runtimes: nothing outside the example's own folder changes, no process outlives the check, and
 * neither an environment variable nor a file from outside reaches the example (so no report shows it).
 */
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkBook } from '../../src/check/check-book.js';
import { loadConfig } from '../../src/config/load-config.js';
import { chapter } from '../fixtures/fixture-book.js';
import { processesWith } from '../helpers/processes.js';
import { createHostileProject, snapshot } from './hostile-project.js';

interface Targets {
  outsideFile: string;
  newOutside: string;
  projectFile: string;
  homeFile: string;
  tmpFile: string;
  socket: string;
  port: number;
  marker: string;
}

/** One hostile program, in the runtime it targets, given this run's paths. */
type Attack = { lang: 'python' | 'javascript'; code: (t: Targets) => string };

const py = (code: (t: Targets) => string): Attack => ({ lang: 'python', code });
const js = (code: (t: Targets) => string): Attack => ({ lang: 'javascript', code });
const q = JSON.stringify;

/**
 * Each attack prints "safe" when everything it tried was refused, and "LEAK: …" for what got
 * through: with "safe" as its output block it passes natively when confined, so it runs in the
 * reader's runtimes too, and any leak shows in a failure's diff. (Writes into the private /tmp
 * succeed and are no leak: the test looks for them on the host itself.)
 */
const ATTACKS: Record<string, Attack> = {
  'py-write-outside': py(
    (t) =>
      `leaks = []\nfor p in [${q(t.newOutside)}, ${q(t.projectFile)}, ${q(t.homeFile)}, ${q(t.tmpFile)}, "../above-the-folder.txt"]:\n    try:\n        open(p, "w").write("pwned")\n        if not p.startswith(("/tmp/", "../")):\n            leaks.append(p)\n    except OSError:\n        pass\nprint("LEAK: wrote " + ", ".join(leaks) if leaks else "safe")`,
  ),
  'py-read-secrets': py(
    (t) =>
      `import os\nleaks = [k for k, v in os.environ.items() if "CANARY" in v or k == "PYBOOK_CANARY"]\nfor p in ["/proc/self/environ", "/proc/1/environ", "/proc/2/environ", ${q(t.outsideFile)}]:\n    try:\n        data = open(p, "rb").read()\n        if b"CANARY" in data or b"SECRET" in data:\n            leaks.append(p)\n    except OSError:\n        pass\nprint("LEAK: " + repr(leaks) if leaks else "safe")`,
  ),
  'py-daemon': py(
    (t) =>
      `import subprocess\nsubprocess.Popen(["sh", "-c", "sleep ${t.marker}"], start_new_session=True)\nprint("safe")`,
  ),
  'py-fork-setsid': py(
    (t) =>
      `import os\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        os.execvp("sleep", ["sleep", "${t.marker}"])\n    os._exit(0)\nprint("safe")`,
  ),
  'py-host-socket': py(
    (t) =>
      `import socket\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect(${q(t.socket)})\n    print("LEAK: connected to the host socket")\nexcept OSError:\n    print("safe")`,
  ),
  'py-host-network': py(
    (t) =>
      `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${t.port}), timeout=3)\n    print("LEAK: reached the host")\nexcept OSError:\n    print("safe")`,
  ),
  'py-pyodide-node': py(
    (t) =>
      `try:\n    import js\n    fs = js.process.getBuiltinModule("fs")\n    fs.writeFileSync(${q(t.newOutside)}, "pwned")\n    print("LEAK: escaped to Node", js.process.env.PYBOOK_CANARY)\nexcept Exception:\n    print("safe")`,
  ),
  'py-pyodide-run-js': py(
    () =>
      `try:\n    from pyodide.code import run_js\n    found = run_js("typeof process === 'object' || typeof require === 'function' || typeof Buffer === 'function'")\n    print("LEAK: Node in the realm" if found else "safe")\nexcept Exception:\n    print("safe")`,
  ),
  'js-write-outside': js(
    (t) =>
      `const leaks = [];\ntry {\n  const fs = await import("node:fs");\n  for (const p of [${q(t.newOutside)}, ${q(t.projectFile)}, ${q(t.homeFile)}, ${q(t.tmpFile)}]) {\n    try { fs.writeFileSync(p, "pwned"); if (!p.startsWith("/tmp/")) leaks.push(p); } catch {}\n  }\n} catch {}\nconsole.log(leaks.length ? \`LEAK: wrote \${leaks}\` : "safe");`,
  ),
  'js-read-secrets': js(
    (t) =>
      `const leaks = [];\nif (globalThis.process?.env?.PYBOOK_CANARY) leaks.push("env");\ntry {\n  const fs = await import("node:fs");\n  if (fs.readFileSync(${q(t.outsideFile)}, "utf8").includes("SECRET")) leaks.push("file");\n} catch {}\nconsole.log(leaks.length ? \`LEAK: \${leaks}\` : "safe");`,
  ),
  'js-daemon': js(
    (t) =>
      `try {\n  const { spawn } = await import("node:child_process");\n  spawn("sleep", ["${t.marker}"], { detached: true, stdio: "ignore" }).unref();\n} catch {}\nconsole.log("safe");`,
  ),
  'js-sandbox-node': js(
    (t) =>
      `let leak = "";\ntry {\n  const fs = globalThis.process?.getBuiltinModule?.("fs") ?? (await import("node:fs"));\n  fs.writeFileSync(${q(t.newOutside)}, "pwned");\n  leak = "wrote outside";\n} catch {}\nconsole.log(leak ? \`LEAK: \${leak}\` : "safe");`,
  ),
};

/** A chapter of attacks, each in its own block, each expecting "safe". */
function hostileChapter(names: string[], targets: Targets): string {
  const blocks = names.map(
    (name) => `\`\`\`${ATTACKS[name].lang}\n${ATTACKS[name].code(targets)}\n\`\`\`\n\n\`\`\`output\nsafe\n\`\`\``,
  );
  return chapter('Hostile', blocks.join('\n\n'));
}

describe('pybook check against generated hostile examples', () => {
  it('keeps every example inside its own folder: nothing outside changes, no process outlives the check, no secret reaches a report', async () => {
    const names = Object.keys(ATTACKS);
    await fc.assert(
      fc.asyncProperty(fc.subarray(names, { minLength: 1, maxLength: 4 }), fc.boolean(), async (chosen, browser) => {
        const project = createHostileProject({ withNodeModules: true });
        const canary = `CANARY-${Math.random().toString(36).slice(2)}`;
        const marker = `4242.${process.pid}${Math.floor(Math.random() * 1e6)}`;
        const listener: Server = createServer((socket) => socket.end('host')).listen(
          path.join(project.sandbox, 'host.sock'),
        );
        const tcp: Server = createServer((socket) => socket.end('host')).listen(0, '127.0.0.1');
        await Promise.all([once(listener, 'listening'), once(tcp, 'listening')]);
        const targets: Targets = {
          outsideFile: path.join(project.outside, 'secret.txt'),
          newOutside: path.join(project.outside, 'new.txt'),
          projectFile: path.join(project.project, 'book.config.json'),
          homeFile: path.join(os.homedir(), `pybook-attack-${marker}`),
          tmpFile: path.join(os.tmpdir(), `pybook-attack-${marker}`),
          socket: path.join(project.sandbox, 'host.sock'),
          port: (tcp.address() as AddressInfo).port,
          marker,
        };
        writeFileSync(path.join(project.project, 'book', 'en', 'intro.mdx'), hostileChapter(chosen, targets));
        // The check may write its record (book/checked-in-browser.json): nothing else of the sandbox.
        const mayChange = (relative: string) =>
          relative === 'project/book/checked-in-browser.json' ||
          relative.startsWith('project/node_modules/.cache') ||
          relative === 'host.sock';
        const before = snapshot(project.sandbox, mayChange);
        const previous = process.env.PYBOOK_CANARY;
        process.env.PYBOOK_CANARY = canary;
        try {
          const reports = await checkBook(loadConfig(project.configPath), {
            browser,
            locales: ['en'],
            limits: { timeoutMs: 60_000 },
          });
          const said = JSON.stringify(reports);
          const context = `attacks ${chosen.join(', ')} (browser: ${browser})\n${said.slice(0, 3000)}`;
          expect(snapshot(project.sandbox, mayChange), context).toEqual(before);
          expect(existsSync(targets.homeFile), context).toBe(false);
          expect(existsSync(targets.tmpFile), context).toBe(false);
          expect(said.includes(canary), `the environment reached an example: ${context}`).toBe(false);
          expect(said.includes(project.secret), `a file outside the project reached an example: ${context}`).toBe(
            false,
          );
          expect(said.includes('LEAK'), `an attack got through: ${context}`).toBe(false);
          // Every attack ran, natively and (when offered) in the reader's runtime.
          expect(reports[0].ran, context).toBe(chosen.length);
          if (browser)
            expect(reports[0].browser.python.ran + reports[0].browser.javascript.ran, context).toBeGreaterThan(0);
          expect(processesWith(marker), `a process outlived the check: ${context}`).toEqual([]);
        } finally {
          if (previous === undefined) delete process.env.PYBOOK_CANARY;
          else process.env.PYBOOK_CANARY = previous;
          for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
          listener.close();
          tcp.close();
          project.remove();
        }
      }),
      { numRuns: 6, examples: [[names, true]] },
    );
  }, 900_000);
});
