/**
 * Test helpers for the engine: load the built module from disk (the render worker streams it in
 * the browser), build raw data tiles from exact q values, and a smooth synthetic wind.
 * Node only (reads files); the module is built by `npm run build:engine`.
 */

import { readFile, readdir, stat } from 'node:fs/promises';
import {
  encodeDataTile, packDataTile, type Predictor,
} from '../common/tile.ts';
import { tileBounds, TILE_NODES, type TileAddress } from '../common/tiling.ts';
import { Engine } from './engine.ts';

export { seededRandom } from '../common/seededRandom.ts';

export type EngineTarget = 'release' | 'debug';

const ASSEMBLY_DIR = new URL('./assembly/', import.meta.url);

/** Compiles engine/build/<target>.wasm; refuses a missing build or one older than its sources. */
async function compileEngine(target: EngineTarget = 'release'): Promise<WebAssembly.Module> {
  const wasmUrl = new URL(`./build/${target}.wasm`, import.meta.url);
  const built = await stat(wasmUrl).catch(() => null);
  if (!built) throw new Error(`engine/build/${target}.wasm is missing: run npm run build:engine`);
  // Every source, codecs/ and grib/ included.
  for (const name of await readdir(ASSEMBLY_DIR, { recursive: true })) {
    if (!name.endsWith('.ts')) continue;
    const source = await stat(new URL(name, ASSEMBLY_DIR));
    if (source.mtimeMs > built.mtimeMs) {
      throw new Error(`engine/build/${target}.wasm is older than engine/assembly/${name}: run npm run build:engine`);
    }
  }
  return WebAssembly.compile(await readFile(wasmUrl));
}

export async function createEngine(target: EngineTarget = 'release'): Promise<Engine> {
  return Engine.create(await compileEngine(target));
}

export interface RawTileOptions {
  width: number;
  height: number;
  /** Un-predicted q per channel, width * height each (65535 = no data). */
  q: Uint16Array[];
  predictor: Predictor;
  offsets: number[];
  scales: number[];
  west?: number;
  north?: number;
  east?: number;
  south?: number;
}

/**
 * Packs exact q values into a data tile (common/tile.ts layout), applying the row-delta predictor
 * when asked. Unlike encodeDataTile it does not quantize, so tests know every q.
 */
export function rawTile(options: RawTileOptions): Uint8Array {
  const { width, height, q, predictor, offsets, scales } = options;
  const { west = -180, north = 90, east = 0, south = -90 } = options;
  return packDataTile({
    west, north, east, south, width, height, predictor,
    channels: q.map((channel, c) => ({ offset: offsets[c], scale: scales[c], q: channel })),
  });
}

const VORTICES: [lon: number, lat: number, strength: number][] = [
  [-150, 45, 2.5], [-60, -40, -2], [10, 55, 1.8], [80, -20, -2.2], [140, 15, 3], [175, -60, 1.5],
];

/**
 * Wind (m/s) at a point: westerlies and trade winds by latitude, a meridional wave and a few
 * vortices that drift east with `phase` (degrees), smooth and periodic in longitude.
 */
export function syntheticWind(lon: number, lat: number, phase = 0): [u: number, v: number] {
  const phi = (lat * Math.PI) / 180;
  let u = 12 * Math.sin(2 * phi) ** 2 * Math.sign(Math.abs(lat) - 30) + 3 * Math.cos(3 * phi);
  let v = 4 * Math.sin(((lon - phase) * Math.PI) / 45) * Math.cos(phi);
  for (const [clon, clat, strength] of VORTICES) {
    let dx = lon - (clon + phase);
    dx -= 360 * Math.round(dx / 360);
    const dy = lat - clat;
    const swirl = strength * Math.exp(-((dx * dx) / 400 + (dy * dy) / 225));
    u -= swirl * dy * 0.3;
    v += swirl * dx * 0.3;
  }
  return [u, v];
}

/** A u/v data tile of the pyramid filled from a wind function. */
export function windTile(address: TileAddress, wind: (lon: number, lat: number) => [number, number]): Uint8Array {
  const { west, north, east, south } = tileBounds(address);
  const n = TILE_NODES;
  const u = new Float32Array(n * n);
  const v = new Float32Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      [u[j * n + i], v[j * n + i]] = wind(west + (i * (east - west)) / (n - 1), north - (j * (north - south)) / (n - 1));
    }
  }
  return encodeDataTile({ west, north, east, south, width: n, height: n, channels: [u, v] });
}

/** The global field of data zoom 0: two 256x256 tiles sharing column 255 -> 510 + wrap column. */
export const GLOBAL_Z0_GRID = {
  lon0: -180, lat0: 90, dlon: 180 / (TILE_NODES - 1), dlat: 180 / (TILE_NODES - 1), nx: 2 * (TILE_NODES - 1), ny: TILE_NODES, wrap: true,
} as const;
