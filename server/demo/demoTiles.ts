/**
 * Data tiles of the demo product (common/tile.ts format, predictor RowDelta), generated on worker
 * threads and kept in memory gzip-compressed.
 *
 * A request for any file of a tile generates all of them at once (users switch overlays; the
 * fields share almost all of their arithmetic): evaluate, encode and gzip each (zlib level 6) on a
 * tile thread (server/data/tilePool.ts, tileThread.ts), about 85 ms of CPU per tile set, so that
 * the event loop keeps answering cached tiles and everything else meanwhile.
 * Two requests for the same tile share one generation; a full queue refuses with BusyError (503).
 * The tiles live in an LRU bounded by bytes, as ServedTile (server/data/servedTile.ts): gzip bytes,
 * plus identity bytes made once for the clients that ask without gzip. There is no disk cache: a
 * tile set is cheap to regenerate and the values never change, so a restart only costs the prewarm.
 */

import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { overlayByIdent, RENDER_LAYERS } from '../../common/catalogue/index.ts';
import { encodeDataTile, Predictor } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, tileColumns, tileRows, type TileAddress } from '../../common/tiling.ts';
import { SECOND_MS } from '../../common/time.ts';
import { ByteLru } from '../data/byteLru.ts';
import { ServedTile } from '../data/servedTile.ts';
import { TilePool } from '../data/tilePool.ts';
import { BusyError, type WorkerPoolStats } from '../data/workerPool.ts';
import { evaluateGrid, type DemoFields } from './demoModel.ts';
import { DEMO_PRODUCT } from './demoRun.ts';

/** Which demo fields fill each tile file's channels (wind: u east, v north, as RENDER_LAYERS.wind says). */
const FILE_CHANNELS: Readonly<Record<string, readonly (keyof DemoFields)[]>> = {
  wind: ['u', 'v'],
  gust: ['gust'],
  temp: ['temp'],
  pressure: ['pressure'],
  rain: ['rain'],
  clouds: ['clouds'],
};

/**
 * Fixed quantization per field, value = offset + scale * q with q < 65535: steps far below what any
 * unit displays, ranges beyond any demo value. Coarser than each tile's own min..max over 65535
 * levels, the low bits carry no noise, and RowDelta + gzip halve the bytes on the wire.
 */
const QUANTIZATION: Readonly<Record<keyof DemoFields, { offset: number; scale: number }>> = {
  u: { offset: -128, scale: 1 / 256 }, // m/s: ±128, 0.004 m/s
  v: { offset: -128, scale: 1 / 256 },
  gust: { offset: 0, scale: 1 / 128 }, // m/s: 0..512
  temp: { offset: 173.15, scale: 1 / 128 }, // K: -100 °C .. +412 °C, 0.008 K
  pressure: { offset: 85_000, scale: 0.5 }, // Pa: 850..1177 hPa, 0.005 hPa
  rain: { offset: 0, scale: 1 / 1024 }, // mm/h: 0..64, 0.001 mm/h
  clouds: { offset: 0, scale: 1 / 32 }, // %: 0..2048, 0.03 %
};

/**
 * The tile files of the demo product: every file named by a render layer of its overlays, except
 * the accumulations, which the server makes from these on request (common/catalogue/accumulations.ts).
 */
export const DEMO_TILE_FILES: readonly string[] = [...new Set(DEMO_PRODUCT.overlays.flatMap((ident) => {
  const overlay = overlayByIdent(ident);
  return overlay ? overlay.layers.filter((layer) => RENDER_LAYERS[layer].renderer !== 'accumulations').map((layer) => RENDER_LAYERS[layer].file) : [];
}))];

for (const file of DEMO_TILE_FILES) {
  const layer = Object.values(RENDER_LAYERS).find((l) => l.file === file);
  if (!FILE_CHANNELS[file] || FILE_CHANNELS[file].length !== layer?.channels) {
    throw new Error(`Demo tiles: no field mapping for tile file "${file}" with ${layer?.channels} channels`);
  }
}

/** zlib level for the stored tiles (brief: level 6, zlib's default balance of size and speed). */
const TILE_GZIP_LEVEL = 6;
/** Default memory budget of the tile cache, bytes (gzip data, and identity data once asked for). */
const DEFAULT_TILE_CACHE_BYTES = 256 * 1024 * 1024;

export interface TileTimings {
  evaluateMs: number;
  encodeMs: number;
  gzipMs: number;
}

/**
 * One tile set as a generating thread hands it over: every file's gzip bytes back to back in one
 * buffer (transferred, not copied), each file's place in it, and the hash of its raw bytes.
 */
export interface GeneratedTileSet {
  buffer: ArrayBuffer;
  files: { file: string; offset: number; length: number; hash: string }[];
  timings: TileTimings;
}

/** Makes one tile set; by default on a tile thread (server/data/tilePool.ts). */
export type TileSetGenerator = (validTime: number, address: TileAddress) => Promise<GeneratedTileSet>;

export interface TileSet {
  files: ReadonlyMap<string, ServedTile>;
  /** Bytes held (what the cache counts when the set is stored). */
  readonly bytes: number;
}

export interface TileStoreStats {
  entries: number;
  bytes: number;
  maxBytes: number;
  hits: number;
  misses: number;
  generated: number;
  /** Mean over all generated tile sets. */
  meanTimings: TileTimings;
  /** The generating threads (absent with an injected generator). */
  pool?: WorkerPoolStats;
}

/** Node coordinates of a tile: rows north to south, columns west to east (common/tiling.ts). */
export function tileNodeCoordinates(address: TileAddress): { lats: Float64Array; lons: Float64Array } {
  const { west, north, east, south } = tileBounds(address);
  const last = TILE_NODES - 1;
  const lats = new Float64Array(TILE_NODES);
  const lons = new Float64Array(TILE_NODES);
  for (let k = 0; k < TILE_NODES; k++) {
    lats[k] = north - (k * (north - south)) / last;
    lons[k] = west + (k * (east - west)) / last;
  }
  return { lats, lons };
}

/** Field buffers for generateTileSet, reused from one tile set to the next. */
export function demoScratch(): DemoFields {
  const n = TILE_NODES * TILE_NODES;
  return {
    u: new Float32Array(n), v: new Float32Array(n), gust: new Float32Array(n), temp: new Float32Array(n),
    pressure: new Float32Array(n), rain: new Float32Array(n), clouds: new Float32Array(n),
  };
}

/** Every file of one tile, evaluated, encoded and gzipped here and now (synchronous: a worker thread's job). */
export function generateTileSet(validTime: number, address: TileAddress, scratch: DemoFields = demoScratch()): GeneratedTileSet {
  const t0 = performance.now();
  const { lats, lons } = tileNodeCoordinates(address);
  const fields = evaluateGrid(lats, lons, validTime, scratch);
  const t1 = performance.now();
  const bounds = tileBounds(address);
  const raw = DEMO_TILE_FILES.map((file) => encodeDataTile({
    ...bounds, width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
    channels: FILE_CHANNELS[file].map((name) => fields[name]),
    quantization: FILE_CHANNELS[file].map((name) => QUANTIZATION[name]),
  }));
  const t2 = performance.now();
  const compressed = raw.map((bytes) => gzipSync(bytes, { level: TILE_GZIP_LEVEL }));
  const t3 = performance.now();
  const buffer = new ArrayBuffer(compressed.reduce((sum, gz) => sum + gz.byteLength, 0));
  let offset = 0;
  const files = DEMO_TILE_FILES.map((file, k) => {
    new Uint8Array(buffer, offset, compressed[k].byteLength).set(compressed[k]);
    const part = { file, offset, length: compressed[k].byteLength, hash: createHash('sha1').update(raw[k]).digest('base64url').slice(0, 22) };
    offset += part.length;
    return part;
  });
  return { buffer, files, timings: { evaluateMs: t1 - t0, encodeMs: t2 - t1, gzipMs: t3 - t2 } };
}

export interface DemoTileStoreOptions {
  /** Memory budget, bytes (default DEFAULT_TILE_CACHE_BYTES). */
  maxBytes?: number;
  /** Makes the tile sets: default the threads of `pool`. */
  generate?: TileSetGenerator;
  /** The tile threads (shared with the stored runs in the server); default a pool of its own, closed by close(). */
  pool?: TilePool;
}

/** The task a tile thread gets. */
export interface TileSetTask {
  kind: 'demo';
  validTime: number;
  address: TileAddress;
}

export class DemoTileStore {
  readonly maxBytes: number;
  private readonly cache: ByteLru<TileSet>;
  private readonly inFlight = new Map<string, Promise<TileSet>>();
  private readonly generate: TileSetGenerator;
  private readonly pool: TilePool | null = null;
  private readonly ownPool: TilePool | null = null;
  private hits = 0;
  private misses = 0;
  private generated = 0;
  private readonly totals: TileTimings = { evaluateMs: 0, encodeMs: 0, gzipMs: 0 };

  constructor(options: DemoTileStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_TILE_CACHE_BYTES;
    this.cache = new ByteLru(this.maxBytes);
    if (options.generate) {
      this.generate = options.generate;
    } else {
      // Threads start on the first tile that is not cached.
      const pool = options.pool ?? new TilePool();
      if (!options.pool) this.ownPool = pool;
      this.pool = pool;
      this.generate = (validTime, address) => pool.demo({ kind: 'demo', validTime, address });
    }
  }

  /**
   * All files of one tile at one valid time; generated on first use, then from the cache. Rejects
   * with BusyError (503) when too many tiles already wait to be generated.
   */
  get(validTime: number, address: TileAddress): Promise<TileSet> {
    const key = `${validTime}/${address.z}/${address.x}/${address.y}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.hits++;
      return Promise.resolve(cached);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    this.misses++;
    const job = this.generate(validTime, address)
      .then((generated) => this.remember(key, generated))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }

  /**
   * Generates tiles one after another (one thread busy at most, so requests still find room);
   * waits when the queue is full; stops when `signal` aborts. Resolves to the tiles gone through.
   */
  async prewarm(validTimes: readonly number[], zooms: readonly number[], signal?: AbortSignal): Promise<number> {
    let count = 0;
    for (const validTime of validTimes) {
      for (const z of zooms) {
        for (let x = 0; x < tileColumns(z); x++) {
          for (let y = 0; y < tileRows(z); y++) {
            for (;;) {
              if (signal?.aborted) return count;
              try {
                await this.get(validTime, { z, x, y });
                break;
              } catch (error) {
                if (signal?.aborted) return count; // stopped while this tile was made (the threads may be closing)
                if (!(error instanceof BusyError)) throw error;
                // Requests have filled the queue: they come first.
                await sleep(error.retryAfterS * SECOND_MS, undefined, { signal }).catch(() => undefined);
              }
            }
            count++;
          }
        }
      }
    }
    return count;
  }

  stats(): TileStoreStats {
    const n = Math.max(1, this.generated);
    return {
      entries: this.cache.size, bytes: this.cache.bytes, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses,
      generated: this.generated,
      meanTimings: { evaluateMs: this.totals.evaluateMs / n, encodeMs: this.totals.encodeMs / n, gzipMs: this.totals.gzipMs / n },
      ...(this.pool ? { pool: this.pool.stats() } : {}),
    };
  }

  /** Stops the tile threads if they are its own. */
  async close(): Promise<void> {
    await this.ownPool?.close();
  }

  private remember(key: string, generated: GeneratedTileSet): TileSet {
    const files = new Map<string, ServedTile>();
    for (const { file, offset, length, hash } of generated.files) {
      const tile = new ServedTile(Buffer.from(generated.buffer, offset, length), `"${hash}-gz"`, `"${hash}"`);
      // Identity bytes made later for a client without gzip count against the budget too.
      tile.onIdentity = (bytes) => this.cache.grow(key, bytes);
      files.set(file, tile);
    }
    const set: TileSet = {
      files,
      get bytes() {
        let sum = 0;
        for (const tile of files.values()) sum += tile.bytes;
        return sum;
      },
    };
    this.generated++;
    this.totals.evaluateMs += generated.timings.evaluateMs;
    this.totals.encodeMs += generated.timings.encodeMs;
    this.totals.gzipMs += generated.timings.gzipMs;
    this.cache.set(key, set, set.bytes);
    return set;
  }
}
