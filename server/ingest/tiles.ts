/**
 * Data tiles from decoded fields: regrid (engine/regrid.ts, WASM), quantize with the variable's
 * fixed quantization, pack in the common/tile.ts format, gzip, write. Used by the ingest for the
 * pre-rendered zooms and the native-grid store, and by the server for the zooms rendered on first
 * request from that store.
 *
 *   main thread                                     writer threads (TileFileWriter, worker_threads)
 *   regrid + quantize in WASM, q copied once into   gzip (level INGEST_GZIP_LEVEL), mkdir once per
 *   a tile buffer (renderTile / renderNativeTile)   directory, write; the buffer goes back to the
 *   -> write(): the buffer is transferred    --->   main thread for the next tile (buffer())
 *
 * A 0.25° GFS step (2558 tiles, 527 MB raw) costs about 4 s of gzip at level 1, 0.6 s of writes,
 * 0.6 s of regrid and 0.4 s of quantize (one core, unloaded).
 */

import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Quantization } from '../../common/catalogue/variables.ts';
import { Predictor, TILE_CHANNEL_BYTES, TILE_HEADER_BYTES, TILE_MAGIC, TILE_VERSION, tileByteLength } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, tileColumns, tileRows, type TileAddress, type TileBounds } from '../../common/tiling.ts';
import type { Regridder, Sampling, SourceGrid, TargetGrid } from '../../engine/regrid.ts';
import { writeFileAtomic } from './layout.ts';

/**
 * zlib level of the tiles the ingest writes. Level 1 costs a sixth of level 6's time for about 10 %
 * more bytes on these row-delta tiles (measured on a 0.25° field, 170 tiles: 230 ms against 1320 ms,
 * 7.8 MB against 6.9 MB; on a whole GFS 0.25° step, 527 MB raw: level 1 4.3 s and 146.6 MB, level 2
 * 5.1 s and 143.2 MB, level 3 8.9 s and 135.5 MB, level 6 29.6 s and 127.5 MB), and the ingest of
 * one 0.25° step has a 10 s budget.
 */
export const INGEST_GZIP_LEVEL = 1;

/** The regular grid of a pyramid tile's nodes. */
export function tileTargetGrid(address: TileAddress): TargetGrid {
  const { west, north, east, south } = tileBounds(address);
  const last = TILE_NODES - 1;
  return { nx: TILE_NODES, ny: TILE_NODES, lon0: west, dLon: (east - west) / last, lat0: north, dLat: (north - south) / last };
}

/** Whether a tile can hold any node of a source area (longitudes compared modulo 360). */
function tileIntersects(tile: TileBounds, area: { west: number; east: number; north: number; south: number } | null): boolean {
  if (!area) return true;
  if (tile.south > area.north || tile.north < area.south) return false;
  if (area.east - area.west >= 360) return true;
  // Shift the area's west edge into [tile.west - 360, tile.west); then the area meets the tile
  // there (reaching east to the tile's west edge) or one turn further east.
  const width = area.east - area.west;
  const west = area.west - 360 * Math.floor((area.west - tile.west + 360) / 360);
  return west + width >= tile.west || west + 360 <= tile.east;
}

/** Every tile of a zoom that meets the area, row by row. */
export function tilesMeeting(z: number, area: { west: number; east: number; north: number; south: number } | null): TileAddress[] {
  const tiles: TileAddress[] = [];
  for (let y = 0; y < tileRows(z); y++) {
    for (let x = 0; x < tileColumns(z); x++) {
      if (tileIntersects(tileBounds({ z, x, y }), area)) tiles.push({ z, x, y });
    }
  }
  return tiles;
}

/** Writes a data tile's header (common/tile.ts) with its channels' offset and scale; the q planes follow. */
function writeTileHeader(bytes: Uint8Array, bounds: TileBounds, width: number, height: number, predictor: Predictor, quantizations: Quantization[]): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * quantizations.length);
  view.setUint32(0, TILE_MAGIC, true);
  view.setUint16(4, TILE_VERSION, true);
  view.setUint8(6, quantizations.length);
  view.setUint8(7, predictor);
  view.setUint16(8, width, true);
  view.setUint16(10, height, true);
  view.setUint32(12, 0, true);
  view.setFloat64(16, bounds.west, true);
  view.setFloat64(24, bounds.north, true);
  view.setFloat64(32, bounds.east, true);
  view.setFloat64(40, bounds.south, true);
  quantizations.forEach(({ offset, scale }, c) => {
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES, offset, true);
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES + 4, scale, true);
  });
}

function qBytes(q: Uint16Array): Uint8Array {
  return new Uint8Array(q.buffer, q.byteOffset, q.byteLength);
}

/**
 * The tile buffer to fill: `into` when given (it must be exactly the tile's size: TileFileWriter.buffer
 * hands back buffers of earlier tiles), else a new one.
 */
function tileBuffer(channels: number, width: number, height: number, into: Uint8Array | undefined): Uint8Array {
  const length = tileByteLength(channels, width, height);
  if (!into) return new Uint8Array(length);
  if (into.byteLength !== length) throw new Error(`A ${channels}-channel ${width}x${height} tile is ${length} bytes, not ${into.byteLength}`);
  return into;
}

/**
 * Quantizes the last result of each regridder (`prepare` fills it) straight into the tile's q
 * planes: one copy out of WASM memory per channel, taken before the next channel's call can grow
 * memory and detach the view.
 */
function fillTile(bytes: Uint8Array, regridders: Regridder[], quantizations: Quantization[], prepare: (regridder: Regridder, c: number) => void, planeBytes: number): Uint8Array {
  let p = TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * regridders.length;
  regridders.forEach((regridder, c) => {
    prepare(regridder, c);
    bytes.set(qBytes(regridder.quantize(quantizations[c], Predictor.RowDelta)), p);
    p += planeBytes;
  });
  return bytes;
}

function headerQuantizations(quantizations: Quantization[]): Quantization[] {
  return quantizations.map(({ offset, scale }) => ({ offset: Math.fround(offset), scale: Math.fround(scale) }));
}

/**
 * One pyramid tile of a layer: each channel's regridder (loaded with that channel's field) regrids
 * onto the tile's nodes and quantizes. Returns the raw (not yet gzipped) tile, in `into` when given.
 * Class fields (METRICS' `classes`: precipitation type codes) take `nearest`: codes are never blended.
 */
export function renderTile(regridders: Regridder[], quantizations: Quantization[], address: TileAddress, into?: Uint8Array, sampling: Sampling = 'bilinear'): Uint8Array {
  const grid = tileTargetGrid(address);
  const bytes = tileBuffer(regridders.length, TILE_NODES, TILE_NODES, into);
  writeTileHeader(bytes, tileBounds(address), TILE_NODES, TILE_NODES, Predictor.RowDelta, headerQuantizations(quantizations));
  return fillTile(bytes, regridders, quantizations, (regridder) => regridder.regrid(grid, sampling), TILE_NODES * TILE_NODES * 2);
}

/** The regular grid a native store tile has for a source grid: the same for regular grids, evenly spaced rows for Gaussian ones. */
function nativeGridOf(grid: SourceGrid): TargetGrid {
  if (!grid.latitudes) return { nx: grid.ni, ny: grid.nj, lon0: grid.lon0, dLon: grid.dLon, lat0: grid.lat0, dLat: grid.dLat };
  const first = grid.latitudes[0];
  const last = grid.latitudes[grid.nj - 1];
  return { nx: grid.ni, ny: grid.nj, lon0: grid.lon0, dLon: grid.dLon, lat0: first, dLat: (first - last) / (grid.nj - 1) };
}

/** Bytes of the native store tile of a layer with `channels` channels on `grid`. */
export function nativeTileByteLength(channels: number, grid: SourceGrid): number {
  return tileByteLength(channels, grid.ni, grid.nj);
}

/**
 * A whole model field as one data tile (the native-grid store the premium zoom is rendered from):
 * regular grids keep their values exactly (the regridder quantizes them as they are), Gaussian
 * rows are regridded onto evenly spaced rows first. In `into` when given.
 */
export function renderNativeTile(
  regridders: Regridder[], channelValues: Float32Array[], grid: SourceGrid, quantizations: Quantization[], into?: Uint8Array, sampling: Sampling = 'bilinear',
): Uint8Array {
  const target = nativeGridOf(grid);
  const bytes = tileBuffer(regridders.length, target.nx, target.ny, into);
  const bounds = { west: target.lon0, east: target.lon0 + (target.nx - 1) * target.dLon, north: target.lat0, south: target.lat0 - (target.ny - 1) * target.dLat };
  writeTileHeader(bytes, bounds, target.nx, target.ny, Predictor.RowDelta, headerQuantizations(quantizations));
  return fillTile(bytes, regridders, quantizations, (regridder, c) => {
    if (grid.latitudes) regridder.regrid(target, sampling);
    else regridder.setResult(channelValues[c], target.nx, target.ny);
  }, target.nx * target.ny * 2);
}

/**
 * The tile writer's threads: gzip and write each tile they are handed, synchronously (one thread
 * pool hop less per file than fs/promises, and no stream per gzip), and hand the raw buffer back
 * for the next tile. Plain JavaScript, so that it runs the same under tsx, vitest and node.
 */
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const made = new Set();
parentPort.on('message', ({ id, path, buffer, length }) => {
  let size = 0;
  let error = null;
  try {
    const dir = dirname(path);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    const compressed = gzipSync(new Uint8Array(buffer, 0, length), { level: workerData.level });
    try {
      writeFileSync(path, compressed);
    } catch (cause) {
      // The directory went away since (a failed step's files were removed): make it again.
      if (!cause || cause.code !== 'ENOENT') throw cause;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, compressed);
    }
    size = compressed.byteLength;
  } catch (cause) {
    error = { message: String((cause && cause.message) || cause), code: cause && cause.code };
  }
  parentPort.postMessage({ id, buffer, size, error }, [buffer]);
});
`;

interface WriterThread {
  worker: Worker;
  /** Raw bytes handed to it and not yet written. */
  queued: number;
  jobs: number;
}

interface WriterReply {
  id: number;
  buffer: ArrayBuffer;
  size: number;
  error: { message: string; code?: string } | null;
}

export interface TileFileWriterOptions {
  /** zlib level (INGEST_GZIP_LEVEL). */
  level?: number;
  /** Writer threads (default: one per core, at most 4). */
  threads?: number;
  /** Raw bytes handed over and not yet written before write() waits (default 64 MiB). */
  maxQueuedBytes?: number;
}

/** Raw tile buffers kept for reuse, at most this many bytes. */
const SPARE_BYTES = 48 * 1024 * 1024;

/**
 * Writes gzipped files under a root on writer threads (worker_threads, started on the first
 * write): the caller renders the next tiles on the main thread meanwhile, up to maxQueuedBytes
 * ahead. write() takes the raw tile's buffer over (it is transferred to the thread); buffer()
 * hands out buffers of written tiles again, so rendering allocates next to nothing.
 */
export class TileFileWriter {
  private readonly threads: WriterThread[] = [];
  private readonly waiting = new Map<number, WriterThread>();
  private readonly spare = new Map<number, ArrayBuffer[]>();
  private spareBytes = 0;
  private readonly level: number;
  private readonly threadCount: number;
  private readonly maxQueuedBytes: number;
  private queuedBytes = 0;
  private nextId = 0;
  private readonly wakers: (() => void)[] = [];
  private failure: unknown = null;
  private closed = false;
  written = 0;
  bytes = 0;

  constructor(private readonly root: string, options: TileFileWriterOptions = {}) {
    this.level = options.level ?? INGEST_GZIP_LEVEL;
    this.threadCount = Math.max(1, options.threads ?? Math.min(4, availableParallelism()));
    this.maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
  }

  /** A buffer of exactly `length` bytes to render a tile into: one a written tile left, or a new one. */
  buffer(length: number): Uint8Array {
    const list = this.spare.get(length);
    const reused = list?.pop();
    if (reused) {
      this.spareBytes -= length;
      return new Uint8Array(reused);
    }
    return new Uint8Array(length);
  }

  /** Hands a raw tile (its buffer is taken over) to a writer thread; resolves once there is room for more. */
  async write(relPath: string, raw: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.closed) throw new Error('The tile writer is closed');
    const whole = raw.byteOffset === 0 && raw.buffer instanceof ArrayBuffer && raw.byteLength === raw.buffer.byteLength;
    const buffer = whole ? raw.buffer as ArrayBuffer : raw.slice().buffer;
    const thread = this.pickThread();
    const id = this.nextId++;
    if (thread.jobs++ === 0) thread.worker.ref();
    thread.queued += raw.byteLength;
    this.queuedBytes += raw.byteLength;
    this.waiting.set(id, thread);
    thread.worker.postMessage({ id, path: join(this.root, relPath), buffer, length: raw.byteLength }, [buffer]);
    while (this.queuedBytes > this.maxQueuedBytes && !this.failure) await this.nextReply();
    if (this.failure) throw this.failure;
  }

  /** Waits for every tile handed over; throws the first failure. */
  async flush(): Promise<void> {
    while (this.waiting.size && !this.failure) await this.nextReply();
    if (this.failure) throw this.failure;
  }

  /** Waits until no tile handed over is still being written, failed or not. */
  async idle(): Promise<void> {
    while (this.waiting.size) await this.nextReply();
  }

  /** Waits for the tiles handed over (failures ignored) and stops the threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.idle();
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
    this.threads.length = 0;
    this.spare.clear();
  }

  private nextReply(): Promise<void> {
    return new Promise((resolve) => {
      this.wakers.push(resolve);
    });
  }

  private notify(): void {
    for (const wake of this.wakers.splice(0)) wake();
  }

  private pickThread(): WriterThread {
    let best = this.threads.find((t) => t.jobs === 0);
    if (!best && this.threads.length < this.threadCount) best = this.startThread();
    best ??= this.threads.reduce((a, b) => (b.queued < a.queued ? b : a));
    return best;
  }

  private startThread(): WriterThread {
    const worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { level: this.level } });
    const thread: WriterThread = { worker, queued: 0, jobs: 0 };
    worker.unref();
    worker.on('message', (reply: WriterReply) => this.settle(thread, reply));
    const fail = (error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(`Tile writer thread failed: ${String(error)}`);
      // Its tiles will not come back.
      for (const [id, owner] of this.waiting) if (owner === thread) this.waiting.delete(id);
      this.queuedBytes -= thread.queued;
      thread.queued = 0;
      thread.jobs = 0;
      const index = this.threads.indexOf(thread);
      if (index >= 0) this.threads.splice(index, 1);
      this.notify();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`Tile writer thread exited (code ${code}) with ${thread.jobs} tiles unwritten`));
    });
    this.threads.push(thread);
    return thread;
  }

  private settle(thread: WriterThread, { id, buffer, size, error }: WriterReply): void {
    this.waiting.delete(id);
    thread.queued -= buffer.byteLength;
    this.queuedBytes -= buffer.byteLength;
    if (--thread.jobs === 0) thread.worker.unref();
    if (error) {
      this.failure ??= Object.assign(new Error(error.message), error.code ? { code: error.code } : {});
    } else {
      this.written++;
      this.bytes += size;
    }
    if (!this.closed && this.spareBytes + buffer.byteLength <= SPARE_BYTES) {
      const list = this.spare.get(buffer.byteLength) ?? [];
      list.push(buffer);
      this.spare.set(buffer.byteLength, list);
      this.spareBytes += buffer.byteLength;
    }
    this.notify();
  }
}

/** Writes a file readers may be reading: temporary file, then rename (a tile rendered on request). */
export async function writeFileReplacing(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, data);
}
