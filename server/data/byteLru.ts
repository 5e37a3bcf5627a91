/**
 * A least-recently-used map bounded by bytes (and, where given, by entries): each entry says what
 * it weighs, a read moves it to the front, and the oldest go when the total passes the budget. An
 * entry may grow while kept (a tile that was asked without gzip keeps its inflated bytes too; a
 * webcam image kept while it is fetched weighs its size once it is in): grow() counts that.
 */

export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(readonly maxBytes: number, readonly maxEntries = Infinity) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Map order is the LRU order: re-insert at the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps a value that weighs `bytes` (one heavier than the whole budget is not kept). */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    this.evict();
  }

  /** The entry under `key` weighs `bytes` more now (nothing when it has gone). */
  grow(key: string, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.bytes += bytes;
    this.total += bytes;
    this.evict();
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** Drops every entry whose key starts with `prefix`. */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes && this.entries.size <= this.maxEntries) break;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }
}
