/**
 * The data-tile cache (SPEC §4 "Data tile", SPEC §9: 50 entries). A key is either absent
 * (state undefined), loading, loaded or failed. A failed tile stays until the next request for it,
 * so the frame can draw its grey "No data!" tile; that request drops it and fetches it again.
 * Eviction is least-recently-used among tiles that the current view does not hold.
 */

import type { TileState } from '../api.ts';

export interface TileEntry<T, R = string> {
  key: string;
  /** What the loader is given: a URL, or a tile source's request (tiles/tileSource.ts). */
  request: R;
  state: TileState;
  data?: T;
  error?: Error;
  lastUsed: number;
}

export interface TileCacheOptions<T, R = string> {
  capacity: number;
  load: (request: R, signal: AbortSignal) => Promise<T>;
  dispose: (data: T) => void;
  /** Called when a load settles, so the owner can redraw. */
  onSettled?: (entry: TileEntry<T, R>) => void;
  /** Most loads running at once; the rest queue in request order. */
  concurrency?: number;
}

export class TileCache<T, R = string> {
  private readonly entries = new Map<string, TileEntry<T, R>>();
  private readonly queue: TileEntry<T, R>[] = [];
  private readonly controllers = new Map<string, AbortController>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private running = 0;
  private clock = 0;
  /** Keys the current view needs: never evicted. */
  private pinned = new Set<string>();

  constructor(private readonly options: TileCacheOptions<T, R>) {}

  get capacity(): number {
    return this.options.capacity;
  }

  state(key: string): TileState | undefined {
    return this.entries.get(key)?.state;
  }

  /** The entry if present, marking it used. */
  get(key: string): TileEntry<T, R> | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.lastUsed = ++this.clock;
    return entry;
  }

  /** Loaded data or undefined. */
  data(key: string): T | undefined {
    const entry = this.get(key);
    return entry?.state === 'loaded' ? entry.data : undefined;
  }

  /**
   * Asks for a tile: starts loading it if absent; a failed one is dropped and fetched again.
   * Returns its state after the request.
   */
  request(key: string, request: R): TileState {
    let entry = this.entries.get(key);
    if (entry?.state === 'failed') {
      this.entries.delete(key);
      entry = undefined;
    }
    if (!entry) {
      entry = { key, request, state: 'loading', lastUsed: ++this.clock };
      this.entries.set(key, entry);
      this.queue.push(entry);
      this.pump();
      this.evict();
    } else {
      entry.lastUsed = ++this.clock;
    }
    return entry.state;
  }

  /** Resolves once the tile is no longer loading (at once if it is not). */
  settled(key: string): Promise<void> {
    if (this.entries.get(key)?.state !== 'loading') return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(key) ?? [];
      list.push(resolve);
      this.waiters.set(key, list);
    });
  }

  /** The keys the view holds now; they are never evicted, others may be. */
  pin(keys: Iterable<string>): void {
    this.pinned = new Set(keys);
    // Queued loads nobody needs any more are cancelled before they start.
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const entry = this.queue[i];
      if (!this.pinned.has(entry.key)) {
        this.queue.splice(i, 1);
        this.entries.delete(entry.key);
        this.release(entry.key);
      }
    }
    this.evict();
  }

  counts(): { total: number; loading: number; loaded: number; failed: number } {
    const counts = { total: this.entries.size, loading: 0, loaded: 0, failed: 0 };
    for (const e of this.entries.values()) counts[e.state]++;
    return counts;
  }

  /** Drops everything (context restore, layer switch to other data). Running loads are aborted. */
  clear(): void {
    for (const c of this.controllers.values()) c.abort();
    this.controllers.clear();
    this.queue.length = 0;
    for (const key of [...this.waiters.keys()]) this.release(key);
    for (const entry of this.entries.values()) {
      if (entry.state === 'loaded' && entry.data !== undefined) this.options.dispose(entry.data);
    }
    this.entries.clear();
  }

  private release(key: string): void {
    const waiting = this.waiters.get(key);
    this.waiters.delete(key);
    waiting?.forEach((resolve) => resolve());
  }

  private pump(): void {
    const limit = this.options.concurrency ?? 6;
    while (this.running < limit && this.queue.length) {
      const entry = this.queue.shift()!;
      this.start(entry);
    }
  }

  private start(entry: TileEntry<T, R>): void {
    const controller = new AbortController();
    this.controllers.set(entry.key, controller);
    this.running++;
    this.options.load(entry.request, controller.signal).then(
      (data) => {
        if (this.entries.get(entry.key) === entry) {
          entry.state = 'loaded';
          entry.data = data;
        } else {
          this.options.dispose(data);
        }
      },
      (error: unknown) => {
        entry.state = 'failed';
        entry.error = error instanceof Error ? error : new Error(String(error));
      },
    ).finally(() => {
      this.running--;
      if (this.controllers.get(entry.key) === controller) this.controllers.delete(entry.key);
      if (this.entries.get(entry.key) === entry) this.options.onSettled?.(entry);
      this.release(entry.key);
      this.evict();
      this.pump();
    });
  }

  private evict(): void {
    const excess = this.entries.size - this.options.capacity;
    if (excess <= 0) return;
    const candidates = [...this.entries.values()]
      .filter((e) => !this.pinned.has(e.key) && e.state !== 'loading')
      .sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of candidates.slice(0, excess)) {
      this.entries.delete(entry.key);
      if (entry.state === 'loaded' && entry.data !== undefined) this.options.dispose(entry.data);
    }
  }
}
