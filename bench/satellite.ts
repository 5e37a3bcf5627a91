/**
 * A GOES full disk from the upstream file to served tiles: an ABI L2 MCMIP file of the real full-disk
 * size (5424 x 5424 cells of 56 µrad, bands 2 and 13; written the PUG's way, as there is no ABI
 * fixture, so its values are smooth and its tiles compress better than real imagery) read with
 * h5wasm, reprojected with the day/night blend into data tiles at zooms 0-5, gzipped and published
 * with info.json, as the goesEast source's poll does after its download. No issue target: the
 * figure says how much of the 10-minute full-disk cadence one satellite takes.
 *
 *   npx tsx bench/satellite.ts
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObsStore } from '../server/obs/core/store.ts';
import { readAbiCmiBands } from '../server/obs/satellite/abi.ts';
import { publishSatellite } from '../server/obs/satellite/publish.ts';
import { writeAbiFile } from '../server/obs/satellite/testing.ts';

export interface SatelliteBenchResult {
  totalMs: number;
  decodeMs: number;
  publishMs: number;
  tiles: number;
}

export async function benchSatelliteFrame(): Promise<SatelliteBenchResult> {
  const start = Date.UTC(2025, 5, 1, 12);
  const bytes = await writeAbiFile({
    platform: 'G19', lon0: -75, start: new Date(start), cells: 5424, step: 56e-6,
    bands: [{ band: 2, wavelengthUm: 0.64, field: (_lon, lat) => 0.1 + 0.5 * Math.cos((lat * Math.PI) / 180) ** 2 }, { band: 13, wavelengthUm: 10.33, field: (_lon, lat) => 300 - 0.8 * Math.abs(lat) }],
  });
  const dir = await mkdtemp(join(tmpdir(), 'isobar-satellite-bench-'));
  try {
    const t0 = performance.now();
    const [ir, visible] = await readAbiCmiBands(bytes, [13, 2]);
    const t1 = performance.now();
    const info = await publishSatellite(new ObsStore(dir), { source: { id: 'goesEast', label: 'GOES-East', attribution: 'NOAA', lon0: -75 }, scene: { time: ir.time, ir, visible }, now: start });
    const t2 = performance.now();
    return { totalMs: t2 - t0, decodeMs: t1 - t0, publishMs: t2 - t1, tiles: info.frames[0].tiles.length };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchSatelliteFrame();
  console.log(`GOES full disk (MCMIP 5424², bands 2 + 13) -> served tiles: ${r.totalMs.toFixed(0)} ms (decode ${r.decodeMs.toFixed(0)}, reproject + blend + gzip + publish ${r.publishMs.toFixed(0)}, ${r.tiles} tiles, zooms 0-5)`);
}
