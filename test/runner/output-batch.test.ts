import { describe, expect, it } from 'vitest';
import { OutputBatch } from '../../src/runner/client/output-batch.js';
import { workerMessage, sandboxMessage } from '../../src/runner/client/protocol.js';
import { missingModule, readPastInput, verdictOf } from '../../src/runner/client/run-verdict.js';

type Sent = { type: string; text?: string };

describe("a sandbox worker's output batch", () => {
  it('sends 10,000 prints as a few messages, in order, stdout and stderr kept apart', () => {
    const sent: Sent[] = [];
    const batch = new OutputBatch((m) => sent.push(m as Sent));
    for (let i = 0; i < 10_000; i++) batch.write('stdout', `${i}\n`);
    batch.write('stderr', 'oops\n');
    batch.flush();
    expect(sent.length).toBeLessThan(20);
    const stdout = sent
      .filter((m) => m.type === 'stdout')
      .map((m) => m.text)
      .join('');
    expect(stdout.split('\n')).toHaveLength(10_001);
    expect(sent[sent.length - 1]).toEqual({ type: 'stderr', text: 'oops\n' });
  });

  it('cuts at the line limit and says so once; the lines before are whole', () => {
    const sent: Sent[] = [];
    const batch = new OutputBatch((m) => sent.push(m as Sent), { lines: 3, chars: 1000 });
    batch.write('stdout', 'a\nb\n');
    batch.write('stdout', 'c\nd\ne\n');
    batch.write('stdout', 'f\n');
    batch.flush();
    expect(
      sent
        .filter((m) => m.type === 'stdout')
        .map((m) => m.text)
        .join(''),
    ).toBe('a\nb\nc\n');
    expect(sent.filter((m) => m.type === 'truncated')).toHaveLength(1);
  });

  it('cuts at the character limit; exactly at the limit is not truncated', () => {
    const full: Sent[] = [];
    const exact = new OutputBatch((m) => full.push(m as Sent), { lines: 100, chars: 4 });
    exact.write('stdout', 'abcd');
    exact.flush();
    expect(full).toEqual([{ type: 'stdout', text: 'abcd' }]);
    const sent: Sent[] = [];
    const over = new OutputBatch((m) => sent.push(m as Sent), { lines: 100, chars: 4 });
    over.write('stdout', 'abcdef');
    over.flush();
    expect(sent).toEqual([{ type: 'stdout', text: 'abcd' }, { type: 'truncated' }]);
  });
});

describe('messages from the sandbox', () => {
  it('are accepted only in their known shapes', () => {
    // A sandbox runs again only when its worker says so with an explicit true.
    expect(workerMessage({ type: 'exit', status: 0 })).toEqual({ type: 'exit', status: 0, reusable: false });
    expect(workerMessage({ type: 'exit', status: 0, reusable: 'yes' })).toEqual({
      type: 'exit',
      status: 0,
      reusable: false,
    });
    expect(workerMessage({ type: 'exit', status: 1, reusable: true })).toEqual({
      type: 'exit',
      status: 1,
      reusable: true,
    });
    expect(workerMessage({ type: 'exit', status: 'x' })).toBeUndefined();
    expect(workerMessage({ type: 'stdout', text: 1 })).toBeUndefined();
    expect(workerMessage({ type: 'navigate', url: 'x' })).toBeUndefined();
    expect(workerMessage(null)).toBeUndefined();
    expect(sandboxMessage({ type: 'stdout', text: 'x' })).toBeUndefined(); // no run id
    expect(sandboxMessage({ type: 'stdout', id: 3, text: 'x', extra: 1 })).toEqual({
      type: 'stdout',
      id: 3,
      text: 'x',
    });
  });
});

describe("a run's verdict", () => {
  const run = (status: number, stdout: string, stderr = '', truncated = false) => ({
    lang: 'python',
    status,
    stdout,
    stderr,
    truncated,
  });
  it('tells an exception from a changed print, and does not compare truncated output', () => {
    expect(verdictOf(run(0, '1\n'), '1\n', undefined)).toBe('matches');
    expect(verdictOf(run(0, '2\n'), '1\n', undefined)).toBe('differs');
    expect(verdictOf(run(1, '', 'Traceback (most recent call last):\nValueError: x\n'), '1\n', undefined)).toBe(
      'raised',
    );
    expect(
      verdictOf(run(1, '', 'Traceback (most recent call last):\nValueError: x\n'), 'ValueError: x', 'ValueError'),
    ).toBe('matches');
    expect(verdictOf(run(0, '1\n', '', true), '1\n', undefined)).toBe('truncated');
    expect(verdictOf(run(0, 'x\n'), undefined, undefined)).toBe('none');
  });
  it('names a missing module and input read past its end', () => {
    expect(
      missingModule(
        'Traceback (most recent call last):\n  File "example.py", line 1\nModuleNotFoundError: No module named \'requests.adapters\'\n',
      ),
    ).toBe('requests');
    expect(missingModule('ValueError: x')).toBeUndefined();
    expect(readPastInput('Traceback (most recent call last):\nEOFError: EOF when reading a line\n')).toBe(true);
  });
});
