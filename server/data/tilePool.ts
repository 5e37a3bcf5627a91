/**
 * The threads that make tiles (tileThread.ts): demo tile sets and stored runs' tiles rendered on
 * request share one WorkerPool, so the server never runs more tile threads than it has cores to
 * spare, and one bounded queue decides when to answer 503.
 */

import type { GeneratedTileSet, TileSetTask } from '../demo/demoTiles.ts';
import type { StoredRenderTask } from './storedTileRender.ts';
import type { TileTask, TileTaskAnswer } from './tileThread.ts';
import { WorkerPool } from './workerPool.ts';

/**
 * Tile tasks that may wait for a thread before more are refused with 503. A cold view with
 * animation prefetch asks for a few dozen demo tile sets (data zoom 2 has 32 tiles); 64 at ~85 ms
 * each is about 5 s of work for one thread, the longest a request should wait.
 */
const TILE_QUEUE_MAX = 64;
/** The tile threads' nice value: a thread at 10 gets about a tenth of a core the event loop also wants (Linux CFS weights 110 : 1024). */
const TILE_THREAD_NICE = 10;

export class TilePool {
  private readonly pool: WorkerPool<TileTask, TileTaskAnswer>;

  /** `threads`: default the cores but one (at least one). */
  constructor(options: { threads?: number; maxQueued?: number } = {}) {
    this.pool = new WorkerPool({
      module: new URL('./tileThread.ts', import.meta.url), name: 'tile threads', size: options.threads, maxQueued: options.maxQueued ?? TILE_QUEUE_MAX,
      // Below the event loop: on two cores, generating tiles must not slow the answers that need none.
      nice: TILE_THREAD_NICE,
    });
  }

  demo(task: TileSetTask): Promise<GeneratedTileSet> {
    return this.pool.run(task) as Promise<GeneratedTileSet>;
  }

  /** A stored tile's gzip bytes, or null when its run has no data for it. */
  async stored(task: StoredRenderTask): Promise<Buffer | null> {
    const { buffer } = await this.pool.run(task) as { buffer: ArrayBuffer | null };
    return buffer ? Buffer.from(buffer) : null;
  }

  stats() {
    return this.pool.stats();
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
