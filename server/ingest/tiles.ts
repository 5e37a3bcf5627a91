/**
 * Data tiles from decoded fields: regrid (engine/regrid.ts, WASM), quantize with the variable's
 * fixed quantization, pack in the common/tile.ts format, gzip, write. Used by the ingest for the
 * pre-rendered zooms and the native-grid store, and by the server for the zooms rendered on first
 * request from that store.
 */

import { gzip } from 'node:zlib';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import type { Quantization } from '../../common/catalogue/variables.ts';
import { Predictor, TILE_CHANNEL_BYTES, TILE_HEADER_BYTES, TILE_MAGIC, TILE_VERSION, tileByteLength } from '../../common/tile.ts';
import { TILE_NODES, tileBounds, tileColumns, tileRows, type TileAddress, type TileBounds } from '../../common/tiling.ts';
import type { Regridder, SourceGrid, TargetGrid } from '../../engine/regrid.ts';

const gzipAsync = promisify(gzip);

/**
 * zlib level of the tiles the ingest writes. Level 1 costs a sixth of level 6's time for about 10 %
 * more bytes on these row-delta tiles (measured on a 0.25° field, 170 tiles: 230 ms against 1320 ms,
 * 7.8 MB against 6.9 MB), and the ingest of one 0.25° step has a 10 s budget.
 */
export const INGEST_GZIP_LEVEL = 1;

/** The regular grid of a pyramid tile's nodes. */
export function tileTargetGrid(address: TileAddress): TargetGrid {
  const { west, north, east, south } = tileBounds(address);
  const last = TILE_NODES - 1;
  return { nx: TILE_NODES, ny: TILE_NODES, lon0: west, dLon: (east - west) / last, lat0: north, dLat: (north - south) / last };
}

/** Whether a tile can hold any node of a source area (longitudes compared modulo 360). */
export function tileIntersects(tile: TileBounds, area: { west: number; east: number; north: number; south: number } | null): boolean {
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

export interface PackedChannel {
  offset: number;
  scale: number;
  /** q as little-endian u16 bytes, already through the predictor. */
  q: Uint8Array;
}

/** A data tile (common/tile.ts) from channels the engine has quantized: header plus the q planes as they are. */
export function packQuantizedTile(bounds: TileBounds, width: number, height: number, predictor: Predictor, channels: PackedChannel[]): Uint8Array {
  const bytes = new Uint8Array(tileByteLength(channels.length, width, height));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, TILE_MAGIC, true);
  view.setUint16(4, TILE_VERSION, true);
  view.setUint8(6, channels.length);
  view.setUint8(7, predictor);
  view.setUint16(8, width, true);
  view.setUint16(10, height, true);
  view.setFloat64(16, bounds.west, true);
  view.setFloat64(24, bounds.north, true);
  view.setFloat64(32, bounds.east, true);
  view.setFloat64(40, bounds.south, true);
  const planeBytes = width * height * 2;
  let p = TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * channels.length;
  channels.forEach(({ offset, scale, q }, c) => {
    if (q.byteLength !== planeBytes) throw new Error(`Channel ${c} has ${q.byteLength} bytes of q, expected ${planeBytes}`);
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES, offset, true);
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES + 4, scale, true);
    bytes.set(q, p);
    p += planeBytes;
  });
  return bytes;
}

function qBytes(q: Uint16Array): Uint8Array {
  return new Uint8Array(q.buffer, q.byteOffset, q.byteLength);
}

/**
 * One pyramid tile of a layer: each channel's regridder (loaded with that channel's field) regrids
 * onto the tile's nodes and quantizes. Returns the raw (not yet gzipped) tile.
 */
export function renderTile(regridders: Regridder[], quantizations: Quantization[], address: TileAddress): Uint8Array {
  const grid = tileTargetGrid(address);
  const channels = regridders.map((regridder, c) => {
    regridder.regrid(grid);
    // Copied out at once: the next regrid may grow memory and detach the view.
    return { offset: Math.fround(quantizations[c].offset), scale: Math.fround(quantizations[c].scale), q: qBytes(regridder.quantize(quantizations[c], Predictor.RowDelta)).slice() };
  });
  return packQuantizedTile(tileBounds(address), TILE_NODES, TILE_NODES, Predictor.RowDelta, channels);
}

/** The regular grid a native store tile has for a source grid: the same for regular grids, evenly spaced rows for Gaussian ones. */
export function nativeGridOf(grid: SourceGrid): TargetGrid {
  if (!grid.latitudes) return { nx: grid.ni, ny: grid.nj, lon0: grid.lon0, dLon: grid.dLon, lat0: grid.lat0, dLat: grid.dLat };
  const first = grid.latitudes[0];
  const last = grid.latitudes[grid.nj - 1];
  return { nx: grid.ni, ny: grid.nj, lon0: grid.lon0, dLon: grid.dLon, lat0: first, dLat: (first - last) / (grid.nj - 1) };
}

/**
 * A whole model field as one data tile (the native-grid store the premium zoom is rendered from):
 * regular grids keep their values exactly (the regridder quantizes them as they are), Gaussian
 * rows are regridded onto evenly spaced rows first.
 */
export function renderNativeTile(regridders: Regridder[], channelValues: Float32Array[], grid: SourceGrid, quantizations: Quantization[]): Uint8Array {
  const target = nativeGridOf(grid);
  const channels = regridders.map((regridder, c) => {
    if (grid.latitudes) regridder.regrid(target);
    else regridder.setResult(channelValues[c], target.nx, target.ny);
    return { offset: Math.fround(quantizations[c].offset), scale: Math.fround(quantizations[c].scale), q: qBytes(regridder.quantize(quantizations[c], Predictor.RowDelta)).slice() };
  });
  const bounds = { west: target.lon0, east: target.lon0 + (target.nx - 1) * target.dLon, north: target.lat0, south: target.lat0 - (target.ny - 1) * target.dLat };
  return packQuantizedTile(bounds, target.nx, target.ny, Predictor.RowDelta, channels);
}

/**
 * Writes gzipped files under a root with at most `concurrency` gzip + write jobs in flight: the
 * gzip runs on libuv's thread pool while the caller regrids the next tile on the main thread.
 */
export class TileFileWriter {
  private readonly pending = new Set<Promise<void>>();
  private readonly made = new Set<string>();
  private failure: unknown = null;
  written = 0;
  bytes = 0;

  constructor(private readonly root: string, private readonly level = INGEST_GZIP_LEVEL, private readonly concurrency = 6) {}

  /** Queues a raw tile; resolves once there is room for another. */
  async write(relPath: string, raw: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    const job = this.store(relPath, raw).catch((error: unknown) => {
      this.failure ??= error;
    });
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
    while (this.pending.size >= this.concurrency) await Promise.race(this.pending);
    if (this.failure) throw this.failure;
  }

  /** Waits for every queued write; throws the first failure. */
  async flush(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }

  private async store(relPath: string, raw: Uint8Array): Promise<void> {
    const path = join(this.root, relPath);
    const dir = dirname(path);
    if (!this.made.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.made.add(dir);
    }
    const compressed = await gzipAsync(raw, { level: this.level });
    await writeFile(path, compressed);
    this.written++;
    this.bytes += compressed.byteLength;
  }
}

/** Writes a file readers may be reading: temporary file, then rename (a tile rendered on request). */
export async function writeFileReplacing(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, data);
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
