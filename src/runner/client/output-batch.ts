/**
 * The output of one run, as a sandbox worker sends it: consecutive writes to the same stream are
 * sent as one message every few tens of milliseconds (a loop of 10,000 prints makes a handful of
 * messages, not 10,000), and past the limits nothing more is sent but one 'truncated' message.
 * The program keeps running; only its printing is dropped.
 *
 * Messages: {type: 'stdout' | 'stderr', text} and {type: 'truncated'}.
 */
export interface OutputLimits {
  lines: number;
  chars: number;
}

/** What a run may print before the page cuts it (shown as "output truncated"). */
export const OUTPUT_LIMITS: OutputLimits = { lines: 2000, chars: 200_000 };

const FLUSH_EVERY_MS = 40;
const FLUSH_AT_CHARS = 64 * 1024;

// The reader's program runs in this realm and may replace any built-in (Date.now, Math.min,
// String.prototype.slice…) to switch the batching or the limits off: what the batch uses is taken
// here, when the worker's script loads, before any program runs.
const now = Date.now;
const min = Math.min;
const schedule = setTimeout;
const cancel = clearTimeout;
// eslint-disable-next-line @typescript-eslint/unbound-method -- unbound on purpose: call.bind makes it take the string first
const indexOf = Function.prototype.call.bind(String.prototype.indexOf) as (
  text: string,
  search: string,
  from?: number,
) => number;
// eslint-disable-next-line @typescript-eslint/unbound-method -- as indexOf
const slice = Function.prototype.call.bind(String.prototype.slice) as (
  text: string,
  start: number,
  end?: number,
) => string;

export class OutputBatch {
  private stream: 'stdout' | 'stderr' = 'stdout';
  private pending = '';
  private lastFlush = now();
  private lines = 0;
  private chars = 0;
  private truncated = false;
  private saidTruncated = false;
  private flushLater?: ReturnType<typeof setTimeout>;

  /** `limits` undefined: everything is sent (pybook check compares the whole output). */
  constructor(
    private readonly send: (message: unknown) => void,
    private readonly limits?: OutputLimits,
  ) {}

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (this.truncated || !text) return;
    if (stream !== this.stream) {
      this.flush();
      this.stream = stream;
    }
    this.pending += this.withinLimits(text);
    if (this.truncated || this.pending.length >= FLUSH_AT_CHARS || now() - this.lastFlush >= FLUSH_EVERY_MS)
      this.flush();
    // A program that prints and then waits (a timer) still shows what it printed.
    else
      this.flushLater ??= schedule(() => {
        this.flushLater = undefined;
        this.flush();
      }, FLUSH_EVERY_MS);
  }

  /** Sends what is pending (and, once, that the rest was dropped). */
  flush(): void {
    if (this.flushLater !== undefined) {
      cancel(this.flushLater);
      this.flushLater = undefined;
    }
    if (this.pending) this.send({ type: this.stream, text: this.pending });
    this.pending = '';
    this.lastFlush = now();
    if (this.truncated && !this.saidTruncated) {
      this.saidTruncated = true;
      this.send({ type: 'truncated' });
    }
  }

  /** The part of `text` that fits in the limits; when some of it does not, the run is truncated. */
  private withinLimits(text: string): string {
    if (!this.limits) return text;
    let end = this.lines >= this.limits.lines ? 0 : min(text.length, this.limits.chars - this.chars);
    for (let at = indexOf(text, '\n'); at !== -1 && at < end; at = indexOf(text, '\n', at + 1)) {
      if (++this.lines >= this.limits.lines) {
        end = at + 1;
        break;
      }
    }
    if (end < text.length) this.truncated = true;
    this.chars += end;
    return slice(text, 0, end);
  }
}
