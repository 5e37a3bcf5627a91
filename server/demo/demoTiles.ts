/**
 * Data tiles of the demo product (common/tile.ts format, predictor RowDelta), gzip-compressed once
 * and kept in memory.
 *
 * A request for any file of a tile generates all of them at once (users switch overlays; the
 * fields share almost all of their arithmetic), encodes each and gzips it (zlib level 6, on the
 * libuv thread pool). The compressed bytes live in an LRU bounded by bytes. There is no disk
 * cache: a whole tile set takes a few tens of milliseconds to regenerate, and the values never
 * change, so a restart only costs the prewarm.
 */

import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { overlayByIdent, RENDER_LAYERS } from '../../common/catalogue/index.ts';
import { encodeDataTile, Predictor } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, tileColumns, tileRows, type TileAddress } from '../../common/tiling.ts';
import { evaluateGrid, type DemoFields } from './demoModel.ts';
import { DEMO_PRODUCT } from './demoRun.ts';

const gzipAsync = promisify(gzip);

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

/** The tile files of the demo product: every file named by a render layer of its overlays. */
export const DEMO_TILE_FILES: readonly string[] = [...new Set(DEMO_PRODUCT.overlays.flatMap((ident) => {
  const overlay = overlayByIdent(ident);
  return overlay ? overlay.layers.map((layer) => RENDER_LAYERS[layer].file) : [];
}))];

for (const file of DEMO_TILE_FILES) {
  const layer = Object.values(RENDER_LAYERS).find((l) => l.file === file);
  if (!FILE_CHANNELS[file] || FILE_CHANNELS[file].length !== layer?.channels) {
    throw new Error(`Demo tiles: no field mapping for tile file "${file}" with ${layer?.channels} channels`);
  }
}

/** zlib level for the stored tiles (brief: level 6, zlib's default balance of size and speed). */
export const TILE_GZIP_LEVEL = 6;
/** Default memory budget of the tile cache, bytes of gzip data. */
export const DEFAULT_TILE_CACHE_BYTES = 256 * 1024 * 1024;

export interface EncodedTile {
  gzip: Buffer;
  /** Strong validators, one per representation (RFC 9110 §8.8.3). */
  etagGzip: string;
  etagIdentity: string;
  rawBytes: number;
}

export interface TileSet {
  files: ReadonlyMap<string, EncodedTile>;
  /** Bytes of gzip data, what the cache counts. */
  bytes: number;
}

export interface TileTimings {
  evaluateMs: number;
  encodeMs: number;
  gzipMs: number;
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

export class DemoTileStore {
  readonly maxBytes: number;
  private readonly cache = new Map<string, TileSet>();
  private readonly inFlight = new Map<string, Promise<TileSet>>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private generated = 0;
  private readonly totals: TileTimings = { evaluateMs: 0, encodeMs: 0, gzipMs: 0 };
  /** Reused by every generation: evaluation and encoding run synchronously back to back. */
  private readonly scratch: DemoFields;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_TILE_CACHE_BYTES;
    const n = TILE_NODES * TILE_NODES;
    this.scratch = {
      u: new Float32Array(n), v: new Float32Array(n), gust: new Float32Array(n), temp: new Float32Array(n),
      pressure: new Float32Array(n), rain: new Float32Array(n), clouds: new Float32Array(n),
    };
  }

  /** All files of one tile at one valid time; generated on first use, then from the cache. */
  get(validTime: number, address: TileAddress): Promise<TileSet> {
    const key = `${validTime}/${address.z}/${address.x}/${address.y}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.hits++;
      this.cache.delete(key); // re-insert: Map order is the LRU order
      this.cache.set(key, cached);
      return Promise.resolve(cached);
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    this.misses++;
    const job = this.generate(validTime, address)
      .then((set) => {
        this.remember(key, set);
        return set;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }

  /** Generates tiles one after another, yielding to the event loop between them; stops when `signal` aborts. */
  async prewarm(validTimes: readonly number[], zooms: readonly number[], signal?: AbortSignal): Promise<number> {
    let count = 0;
    for (const validTime of validTimes) {
      for (const z of zooms) {
        for (let x = 0; x < tileColumns(z); x++) {
          for (let y = 0; y < tileRows(z); y++) {
            if (signal?.aborted) return count;
            await new Promise((resolve) => setImmediate(resolve));
            await this.get(validTime, { z, x, y });
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
      entries: this.cache.size, bytes: this.bytes, maxBytes: this.maxBytes, hits: this.hits, misses: this.misses,
      generated: this.generated,
      meanTimings: { evaluateMs: this.totals.evaluateMs / n, encodeMs: this.totals.encodeMs / n, gzipMs: this.totals.gzipMs / n },
    };
  }

  private remember(key: string, set: TileSet): void {
    if (set.bytes > this.maxBytes) return;
    this.cache.set(key, set);
    this.bytes += set.bytes;
    for (const [oldKey, old] of this.cache) {
      if (this.bytes <= this.maxBytes) break;
      this.cache.delete(oldKey);
      this.bytes -= old.bytes;
    }
  }

  private async generate(validTime: number, address: TileAddress): Promise<TileSet> {
    const t0 = performance.now();
    const { lats, lons } = tileNodeCoordinates(address);
    const fields = evaluateGrid(lats, lons, validTime, this.scratch);
    const t1 = performance.now();
    const bounds = tileBounds(address);
    const raw = DEMO_TILE_FILES.map((file) => encodeDataTile({
      ...bounds, width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
      channels: FILE_CHANNELS[file].map((name) => fields[name]),
      quantization: FILE_CHANNELS[file].map((name) => QUANTIZATION[name]),
    }));
    const t2 = performance.now();
    const compressed = await Promise.all(raw.map((bytes) => gzipAsync(bytes, { level: TILE_GZIP_LEVEL })));
    const t3 = performance.now();
    const files = new Map<string, EncodedTile>();
    let bytes = 0;
    DEMO_TILE_FILES.forEach((file, k) => {
      const hash = createHash('sha1').update(raw[k]).digest('base64url').slice(0, 22);
      files.set(file, { gzip: compressed[k], etagGzip: `"${hash}-gz"`, etagIdentity: `"${hash}"`, rawBytes: raw[k].byteLength });
      bytes += compressed[k].byteLength;
    });
    this.generated++;
    this.totals.evaluateMs += t1 - t0;
    this.totals.encodeMs += t2 - t1;
    this.totals.gzipMs += t3 - t2;
    return { files, bytes };
  }
}
