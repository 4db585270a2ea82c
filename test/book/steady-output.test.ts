/**
 * An example's verdict must not depend on the machine's load (docs/review-checklist.md, "Output that
 * holds anywhere"): no example the check runs reads a clock. The check runs every example on
 * machines that may be busy, and a timing compared in an example (set.mdx's `timeit`, once) flips
 * under load; an example counts what it is about instead.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { planCheck } from '../../src/check/plan.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Python's and JavaScript's clocks and timers that measure how long something took. */
const CLOCKS = [
  /\btimeit\b/,
  /\bperf_counter(_ns)?\s*\(/,
  /\bmonotonic(_ns)?\s*\(/,
  /\bprocess_time(_ns)?\s*\(/,
  /\bthread_time(_ns)?\s*\(/,
  /\btime\.time(_ns)?\s*\(/,
  /\bperformance\.now\s*\(/,
  /\bDate\.now\s*\(/,
  /\bprocess\.hrtime\b/,
  /\bconsole\.time(End|Log)?\s*\(/,
];

describe("the book's examples", () => {
  it('read no clock: what they print holds on a busy machine', () => {
    const plan = planCheck(loadConfig(path.join(root, 'book.config.json')), {
      browser: false,
      pytest: { available: true, command: 'python3', allowMissing: false },
    });
    const examples = plan.jobs.flatMap((job) => ('example' in job ? [{ file: job.report.file, ...job.example }] : []));
    expect(examples.length).toBeGreaterThan(1000);
    const timed = examples.flatMap(({ file, line, code, lang }) => {
      // A clock named in a comment ("from Date.now() in a browser") is not read.
      const running = code.replace(lang === 'python' ? /#.*$/gm : /\/\/.*$/gm, '');
      return CLOCKS.filter((clock) => clock.test(running)).map((clock) => `${file}:${line} ${String(clock)}`);
    });
    expect(timed).toEqual([]);
  });
});
