/**
 * A tile of a stored run rendered on request from the run's native-grid store (the zooms the
 * ingest did not pre-render, server/ingest/tiles.ts): regrid the native field onto the tile (WASM,
 * or the plain-TypeScript twin without a WASM build), quantize, gzip, and store it in the run for
 * the next time. Runs on a tile thread (tileThread.ts) in the server, in the calling thread where
 * StoredRuns has no pool.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import { FILE_VARIABLES } from '../../common/catalogue/variables.ts';
import { METRICS, samplingOf } from '../../common/catalogue/metrics.ts';
import { decodeDataTile, encodeDataTile, Predictor, type TileGeometry } from '../../common/tile.ts';
import { tileBounds, TILE_NODES, type TileAddress } from '../../common/tiling.ts';
import type { Engine } from '../../engine/engine.ts';
import { Regridder, regridReference, type SourceGrid } from '../../engine/regrid.ts';
import { nativeRelPath, tileRelPath } from '../ingest/layout.ts';
import { INGEST_GZIP_LEVEL, renderTile, tileTargetGrid, writeFileReplacing } from '../ingest/tiles.ts';

const gzipAsync = promisify(gzip);

/** Decoded native fields kept for rendering tiles on request (a 0.25° wind field is 8 MB). */
const NATIVE_CACHE_ENTRIES = 6;

/** What to render: a tile of the run in `runDir`. */
export interface StoredRenderTask {
  kind: 'stored';
  runDir: string;
  validTime: number;
  address: TileAddress;
  file: string;
  level: string;
}

interface NativeField {
  channels: Float32Array[];
  grid: SourceGrid;
}

/** The grid of a native store tile: the tile's own bounds, global when its columns go round. */
function nativeGrid(header: TileGeometry): SourceGrid {
  const dLon = (header.east - header.west) / (header.width - 1);
  const global = Math.abs(header.width * dLon - 360) < dLon / 2;
  return {
    ni: header.width, nj: header.height, lon0: header.west, dLon: global ? 360 / header.width : dLon,
    lat0: header.north, dLat: (header.north - header.south) / (header.height - 1), global,
  };
}

/** The last few native fields decoded, least recently used first out. */
export class NativeFields {
  private readonly fields = new Map<string, Promise<NativeField>>();

  get(runDir: string, validTime: number, file: string, level: string): Promise<NativeField> {
    const key = `${runDir}/${validTime}/${file}-${level}`;
    let field = this.fields.get(key);
    if (field) {
      this.fields.delete(key);
    } else {
      field = readFile(join(runDir, nativeRelPath(validTime, file, level))).then((gz) => {
        const tile = decodeDataTile(gunzipSync(gz));
        return { channels: tile.channels, grid: nativeGrid(tile.header) };
      });
      field.catch(() => this.fields.delete(key));
      if (this.fields.size >= NATIVE_CACHE_ENTRIES) this.fields.delete(this.fields.keys().next().value as string);
    }
    this.fields.set(key, field);
    return field;
  }
}

/**
 * Renders the tile, stores it in the run and answers its gzip bytes; null when the run has no
 * native field for it (pruned, or never stored).
 */
export async function renderStoredTile(task: StoredRenderTask, natives: NativeFields, engine: Engine | null): Promise<Buffer | null> {
  const { runDir, validTime, address, file, level } = task;
  let native: NativeField;
  try {
    native = await natives.get(runDir, validTime, file, level);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const { channels, grid } = native;
  const quantizations = FILE_VARIABLES[file].map((v) => v.quantization);
  const sampling = samplingOf(METRICS[FILE_VARIABLES[file][0].metric]);
  let raw: Uint8Array;
  if (engine) {
    const regridders = channels.map(() => new Regridder(engine));
    try {
      regridders.forEach((r, c) => r.load(channels[c], grid));
      raw = renderTile(regridders, quantizations, address, undefined, sampling);
    } finally {
      for (const r of regridders) r.release();
    }
  } else {
    // No WASM build: the plain-TypeScript twin gives the same tile, slower.
    const target = tileTargetGrid(address);
    raw = encodeDataTile({
      ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
      channels: channels.map((values) => regridReference(values, grid, target, sampling)), quantization: quantizations,
    });
  }
  const gz = await gzipAsync(raw, { level: INGEST_GZIP_LEVEL });
  await writeFileReplacing(join(runDir, tileRelPath(validTime, address.z, address.x, address.y, file, level)), gz);
  return gz;
}
