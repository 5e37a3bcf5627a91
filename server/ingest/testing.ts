/**
 * Test helpers for the ingest pipeline and the serving side that reads its output: the real GRIB2
 * samples of ../shared/data (read from there, never copied: DESIGN.md), the engine's own decode of
 * a field to compare with, a throwaway data directory, and ServedProducts over it with a test clock.
 * The fixture location and the skip / ISOBAR_REQUIRE_FIXTURES=1 rule are server/live/testing's.
 */

import { testClock, type TestClock } from '../routes/testing.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Quantization } from '../../common/catalogue/variables.ts';
import { decodeDataTile, type DecodedTile } from '../../common/tile.ts';
import type { TileAddress } from '../../common/tiling.ts';
import { decodeField, inventory, toNorthUp, type GribFieldInfo, type NorthUpField } from '../../engine/grib/index.ts';
import { ServedProducts } from '../data/servedProducts.ts';
import { StoredRuns } from '../data/storedRuns.ts';
import { DemoTileStore } from '../demo/demoTiles.ts';
import { FIXTURE, FIXTURES_DIR } from '../live/testing.ts';
import { loadEngine } from './engine.ts';
import { HOUR_MS } from '../../common/time.ts';

export { describeWithFixtures } from '../live/testing.ts';

/** The samples the ingest tests load (absolute paths into ../shared/data). */
export const SAMPLE = {
  /** GFS 2.5°, 2017-03-22 00Z analysis: 53 catalogue layers, no cloud cover (an analysis has none). */
  gfs2p5Analysis: `${FIXTURES_DIR}${FIXTURE.gfs2p5Analysis}`,
  /** GFS 2.5°, 2011-01-10 12Z +120 h: clouds by layer and precipitation over 114-120 h as well. */
  gfs2p5F120: `${FIXTURES_DIR}${FIXTURE.gfs2p5Full}`,
  /** GFS 1° 10 m wind every 3 h, 2018-10-06 18Z to 10-16 21Z (two steps missing): Hurricane Michael. */
  michael: `${FIXTURES_DIR}${FIXTURE.gfsWindSeries}`,
} as const;

/** A fresh empty directory; remove() deletes it and everything in it. */
export async function tempDir(prefix = 'isobar-ingest-test-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface GribField extends NorthUpField {
  info: GribFieldInfo;
}

/** Decodes, with the engine directly (no ingest code), every field of a file that `pick` accepts. */
export async function decodeGrib(path: string, pick: (info: GribFieldInfo) => boolean): Promise<GribField[]> {
  const bytes = new Uint8Array(await readFile(path));
  const engine = await loadEngine();
  const out: GribField[] = [];
  for (const info of inventory(bytes).filter(pick)) out.push({ info, ...toNorthUp(info, await decodeField(engine, bytes, info)) });
  return out;
}

/** The one field of a file that `pick` accepts; throws when there is none or several. */
export async function decodeOneGrib(path: string, pick: (info: GribFieldInfo) => boolean, what: string): Promise<GribField> {
  const fields = await decodeGrib(path, pick);
  if (fields.length !== 1) throw new Error(`${path}: ${fields.length} fields are ${what}, expected 1`);
  return fields[0];
}

/** Picks a field by ecCodes identity: shortName, typeOfLevel and level (any step). */
export function field(shortName: string, typeOfLevel: string, level: number): (info: GribFieldInfo) => boolean {
  return (info) => info.shortName === shortName && info.typeOfLevel === typeOfLevel && info.level === level;
}

/** The value of a north-up field at a grid point (the point must be one: throws otherwise). */
export function gribValueAt(f: NorthUpField, lat: number, lon: number): number {
  const j = (f.lat0 - lat) / f.dLat;
  let x = (lon - f.lon0) % 360;
  if (x < 0) x += 360;
  const i = x / f.dLon;
  if (Math.abs(j - Math.round(j)) > 1e-6 || Math.abs(i - Math.round(i)) > 1e-6) throw new Error(`(${lat}, ${lon}) is not a grid point`);
  return f.values[Math.round(j) * f.Ni + (Math.round(i) % f.Ni)];
}

/**
 * How far a stored value may be from the value it stores: half a quantization step, plus float32
 * rounding of the value and of the regridder's arithmetic, plus `decimals` rounding of an answer.
 */
export function tolerance(q: Quantization, value: number, decimals?: number): number {
  return q.scale / 2 + Math.abs(value) * 4 * 2 ** -23 + (decimals === undefined ? 0 : 0.5 * 10 ** -decimals);
}

/** A clock that tests move on by hand (StoredRuns trusts current.json for POINTER_TTL_MS). */
/** The ingest tests' clock: the server tests' (server/routes/testing.ts), from 2026-01-01. */
export const ingestClock = (): TestClock => testClock(Date.UTC(2026, 0, 1));

/** The serving side over a data directory, as server/app.ts builds it. */
export function servingSide(dataDir: string, clock = ingestClock()): { sources: ServedProducts; stored: StoredRuns; clock: TestClock } {
  const stored = new StoredRuns(dataDir, loadEngine, clock.now);
  const sources = new ServedProducts({ now: clock.now, demoTiles: new DemoTileStore(), stored });
  return { sources, stored, clock };
}

/** A data tile of a product's run, read through ServedProducts the way the tile route reads it, decoded. */
export async function readTile(
  sources: ServedProducts, directory: string, refTime: number, validTime: number, address: TileAddress, file: string, level: string,
): Promise<DecodedTile> {
  const product = await sources.byDirectory(directory);
  product.checkLayer(file, level, product.product.fileSuffix);
  const run = await product.run(refTime);
  run.checkStep(validTime, file, level);
  const tile = await run.tile(validTime, address, file, level);
  return decodeDataTile(gunzipSync(tile.gzip));
}

/** Value of channel c at node (i, j) of a decoded tile, and the node's longitude and latitude. */
export function tileNode(tile: DecodedTile, c: number, i: number, j: number): { value: number; lon: number; lat: number } {
  const { width, height, west, east, north, south } = tile.header;
  return {
    value: tile.channels[c][j * width + i],
    lon: west + (i * (east - west)) / (width - 1),
    lat: north - (j * (north - south)) / (height - 1),
  };
}

/**
 * Splits a file into one file per valid time (as an upstream publishes a series), written under
 * `dir` in time order; returns the paths of the first `count`.
 */
export async function splitByValidTime(path: string, dir: string, count: number): Promise<string[]> {
  const bytes = new Uint8Array(await readFile(path));
  const byTime = new Map<number, Map<number, Uint8Array>>();
  for (const info of inventory(bytes)) {
    const valid = info.refTime + info.forecastEnd * HOUR_MS;
    const messages = byTime.get(valid) ?? new Map<number, Uint8Array>();
    messages.set(info.offset, bytes.subarray(info.offset, info.offset + info.length));
    byTime.set(valid, messages);
  }
  const times = [...byTime.keys()].sort((a, b) => a - b).slice(0, count);
  const paths: string[] = [];
  for (const [k, time] of times.entries()) {
    const parts = [...byTime.get(time)!.entries()].sort((a, b) => a[0] - b[0]).map(([, part]) => part);
    const file = join(dir, `step-${String(k).padStart(3, '0')}-${new Date(time).toISOString().slice(0, 13)}.grib2`);
    await writeFile(file, Buffer.concat(parts));
    paths.push(file);
  }
  return paths;
}

/** A stand-in for process.stdout / stderr that keeps what is written. */
export function captureStream(): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = {
    isTTY: false,
    columns: 120,
    write(chunk: string | Uint8Array): boolean {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    },
    text: () => chunks.join(''),
  };
  return stream as unknown as NodeJS.WriteStream & { text: () => string };
}
