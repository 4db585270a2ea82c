/**
 * A least-recently-used cache bounded by total byte size, so a large site
 * cannot make `pybook serve` grow without limit. Map iteration order is
 * insertion order, which makes the oldest entry the first key.
 */
export class ByteBudgetLruCache<Value> {
  private readonly entries = new Map<string, { value: Value; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: Value) => number,
  ) {}

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Re-insert to mark as most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: Value): void {
    const bytes = this.sizeOf(value);
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [oldestKey] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.delete(oldestKey);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }
}
