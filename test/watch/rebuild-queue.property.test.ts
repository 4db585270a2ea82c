/**
 * Watch mode's queue (src/watch/rebuild-queue.ts), under generated sequences of saves and rebuilds
 * that finish: never two rebuilds at once, never a save without a rebuild that starts after it,
 * never more rebuilds than saves, and a rebuild pausing before its search step is woken by a save.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RebuildQueue } from '../../src/watch/rebuild-queue.js';

/** Lets the queue's promise chains move on (they run as microtasks, before this timer). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the rebuild queue', () => {
  it('runs one rebuild at a time, folds waiting saves, and loses none', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('save', 'finish'), { minLength: 1, maxLength: 40 }), async (steps) => {
        const queue = new RebuildQueue();
        const finishers: Array<() => void> = [];
        let clock = 0;
        let running = 0;
        let mostAtOnce = 0;
        let started = 0;
        let saves = 0;
        let lastSave = -1;
        let lastStart = -1;
        let finished = 0;
        const rebuild = () =>
          new Promise<void>((resolve) => {
            running++;
            started++;
            mostAtOnce = Math.max(mostAtOnce, running);
            lastStart = clock++;
            finishers.push(() => {
              running--;
              resolve();
            });
          });
        for (const step of steps) {
          if (step === 'save') {
            saves++;
            lastSave = clock++;
            queue.requestRebuild(rebuild);
          } else {
            const finish = finishers.shift();
            if (finish) {
              finished++;
              finish();
            }
          }
          await settle();
        }
        // Folded: however many saves came, at most one rebuild waits behind the one running.
        const afterSteps = finished + 2;
        for (let finish = finishers.shift(); finish; finish = finishers.shift()) {
          finish();
          await settle();
        }
        await queue.idle();
        expect(mostAtOnce).toBeLessThanOrEqual(1);
        expect(started).toBeLessThanOrEqual(saves);
        expect(started).toBeLessThanOrEqual(afterSteps);
        if (saves > 0) expect(lastStart).toBeGreaterThan(lastSave);
        expect(queue.newerRebuildWaiting).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('wakes a rebuild that pauses before its search step when a save comes, and says a newer one waits', async () => {
    const queue = new RebuildQueue();
    const seen: string[] = [];
    queue.requestRebuild(async () => {
      // Far longer than the test's own timeout: only the save below can end it in time.
      await queue.pause(600_000);
      seen.push(`first saw a newer one waiting: ${queue.newerRebuildWaiting}`);
    });
    await settle();
    queue.requestRebuild(() => {
      seen.push('second ran');
      return Promise.resolve();
    });
    await queue.idle();
    expect(seen).toEqual(['first saw a newer one waiting: true', 'second ran']);
  });

  it('runs queued work after what was queued before it, and idle waits for work a rebuild queues', async () => {
    const queue = new RebuildQueue();
    const order: string[] = [];
    queue.requestRebuild(async () => {
      await settle();
      order.push('rebuild');
      // A rebuild that reads its inputs again queues another.
      if (order.length === 1)
        queue.requestRebuild(() => {
          order.push('read again');
          return Promise.resolve();
        });
    });
    queue.enqueue(() => void order.push('search index'));
    await queue.idle();
    expect(order).toEqual(['rebuild', 'search index', 'read again']);
  });
});
