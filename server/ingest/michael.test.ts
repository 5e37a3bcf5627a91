/**
 * A series product end to end: the GFS 1° 10 m wind of Hurricane Michael (../shared/data/samples,
 * 80 steps every 3 h from 2018-10-06 18Z, 10-10 18Z and 21Z missing upstream) ingested as one run
 * with its own dates, then read back through ServedProducts: minifest, a tile, the point series.
 * Pre-rendered to zoom 0 only, so the ingest takes a few seconds.
 */

import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { hourStamp, parseMinifest } from '../../common/minifest.ts';
import type { PointForecast } from '../../common/api/forecast.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import type { StoredRuns } from '../data/storedRuns.ts';
import { ingestFiles, type IngestResult } from './ingest.ts';
import { readRunManifest, runDir, type RunManifest } from './layout.ts';
import { PointStoreReader } from './points.ts';
import { decodeGrib, describeWithFixtures, gribValueAt, readTile, SAMPLE, servingSide, tempDir, tileNode, tolerance } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const START = Date.UTC(2018, 9, 6, 18);
const END = Date.UTC(2018, 9, 16, 21);
const MISSING = [Date.UTC(2018, 9, 10, 18), Date.UTC(2018, 9, 10, 21)];
const PRODUCT = 'gfs1p0-michael2018';
/** In the Gulf of Mexico on Michael's track, a day before landfall (Mexico Beach, 10-10 ~17:30Z). */
const GULF = { lat: 27, lon: -87 };

describeWithFixtures('Hurricane Michael: a 3-hourly series with two steps missing', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;
  let manifest: RunManifest;
  let sources: ServedProducts;
  let stored: StoredRuns;

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.michael], { dataDir: data.dir, prerender: { surface: 0 } });
    manifest = (await readRunManifest(data.dir, PRODUCT, result.runId!))!;
    ({ sources, stored } = servingSide(data.dir));
  });
  afterAll(async () => {
    await stored?.close();
    await data?.remove();
  });

  it('is one run starting at the first valid time, with 80 steps at their own dates', async () => {
    expect(result.product).toBe(PRODUCT);
    expect(result.refTime).toBe(START);
    expect(result.steps).toHaveLength(80);
    expect(result.runId).toMatch(/^2018100618-/);
    const minifest = await (await sources.byDirectory(PRODUCT)).minifest();
    expect(minifest).toMatchObject({ ref: '2018-10-06T18:00:00.000Z', dst: [[3, 0, 93], [3, 102, 243]], sample: true, layers: { wind: ['surface'] } });
    const { timestamps } = parseMinifest(minifest);
    expect(timestamps).toHaveLength(80);
    expect(timestamps[0]).toBe(START);
    expect(timestamps[79]).toBe(END);
    for (const missing of MISSING) expect(timestamps).not.toContain(missing);
    for (let k = 1; k < 80; k++) expect(timestamps[k] - timestamps[k - 1]).toBe(timestamps[k - 1] === MISSING[0] - 3 * HOUR_MS ? 9 * HOUR_MS : 3 * HOUR_MS);
    expect(manifest.hours).toEqual(timestamps.map((t) => (t - START) / HOUR_MS));
    expect(manifest.layers['wind-surface']).toMatchObject({ channels: 2, prerendered: 0 });
    expect(manifest.layers['wind-surface'].hours).toEqual(manifest.hours);
    expect(manifest.points).toMatchObject({ nx: 360, ny: 181, dLon: 1, dLat: 1, global: true, variables: ['wind_u', 'wind_v'] });
  });

  it('reads the whole series of a point in one read', async () => {
    const reader = await PointStoreReader.open(join(runDir(data.dir, PRODUCT, result.runId!), 'points.bin'));
    const probe = await open(join(runDir(data.dir, PRODUCT, result.runId!), 'points.bin'), 'r');
    const handleProto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
    await probe.close();
    const reads = vi.spyOn(handleProto, 'read');
    try {
      const series = (await reader.series(GULF.lat, GULF.lon, false))!;
      expect(reads).toHaveBeenCalledTimes(1);
      expect(series.hours).toEqual(manifest.hours);
      expect(series.values.wind_u).toHaveLength(80);
      expect(series.values.wind_v.every(Number.isFinite)).toBe(true);
    } finally {
      reads.mockRestore();
      await reader.close();
    }
  });

  it('has the strongest wind in the Gulf near 2018-10-10, at hurricane strength, equal to the GRIB values', async () => {
    const run = await (await sources.byIdent(PRODUCT)).current();
    const forecast: PointForecast = await run.point(GULF.lat, GULF.lon, { interpolate: false });
    expect(forecast.header).toMatchObject({ product: PRODUCT, refTime: START, step: 3, sample: true, units: { wind: 'm/s' } });
    expect(forecast.ts).toHaveLength(80);
    const speeds = forecast.ts.map((_, k) => Math.hypot(forecast.data.wind_u[k]!, forecast.data.wind_v[k]!));
    const top = speeds.indexOf(Math.max(...speeds));
    const peak = forecast.ts[top];
    // What the data says: 28.1 m/s at 2018-10-10 00Z. A hurricane passing, not a calm day somewhere else.
    expect(peak).toBeGreaterThanOrEqual(Date.UTC(2018, 9, 9, 12));
    expect(peak).toBeLessThanOrEqual(Date.UTC(2018, 9, 10, 12));
    expect(speeds[top]).toBeGreaterThan(25);
    const calm = speeds.filter((_, k) => Math.abs(forecast.ts[k] - peak) > 3 * 24 * HOUR_MS);
    expect(Math.max(...calm)).toBeLessThan(15);

    // The stored value at the peak is the GRIB's 10 m wind of that valid time at that grid point.
    const fields = await decodeGrib(SAMPLE.michael, (i) => i.refTime + i.forecastEnd * HOUR_MS === peak && i.typeOfLevel === 'heightAboveGround' && i.level === 10);
    const u = fields.find((f) => f.info.shortName === '10u')!;
    const v = fields.find((f) => f.info.shortName === '10v')!;
    for (const [ident, f] of [['wind_u', u], ['wind_v', v]] as const) {
      const expected = gribValueAt(f, GULF.lat, GULF.lon);
      expect(Math.abs(forecast.data[ident][top]! - expected), `${ident} at ${hourStamp(peak)}`).toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected, 2));
    }

    // Steps filtered to every 6 h keep the 6-hourly valid times only.
    const sixHourly = await run.point(GULF.lat, GULF.lon, { step: 6 });
    expect(sixHourly.ts.every((t) => ((t - START) / HOUR_MS) % 6 === 0)).toBe(true);
    expect(sixHourly.ts).toHaveLength(40);
  });

  it('a tile of the peak step, rendered on request at zoom 2, has the GRIB wind at its grid-point nodes', async () => {
    const peak = Date.UTC(2018, 9, 10, 6);
    const fields = await decodeGrib(SAMPLE.michael, (i) => i.refTime + i.forecastEnd * HOUR_MS === peak && i.level === 10);
    const u = fields.find((f) => f.info.shortName === '10u')!;
    const v = fields.find((f) => f.info.shortName === '10v')!;
    // Zoom 2 tile (2, 1): 90 W - 45 W, 45 N - 0; every 85th node is on a multiple of 15°.
    const tile = await readTile(sources, PRODUCT, START, peak, { z: 2, x: 2, y: 1 }, 'wind', 'surface');
    expect(tile.header).toMatchObject({ west: -90, east: -45, north: 45, south: 0, channels: 2 });
    for (const j of [0, 85, 170, 255]) {
      for (const i of [0, 85, 170, 255]) {
        for (const [c, f, ident] of [[0, u, 'wind_u'], [1, v, 'wind_v']] as const) {
          const node = tileNode(tile, c, i, j);
          const expected = gribValueAt(f, node.lat, node.lon);
          expect(Math.abs(node.value - expected), `${ident} at (${node.lat}, ${node.lon})`).toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected));
        }
      }
    }
    // A valid time the series does not have is refused.
    const run = await (await sources.byDirectory(PRODUCT)).run(START);
    expect(() => run.checkStep(MISSING[0], 'wind', 'surface')).toThrow(/not a step of run 2018100618/);
  });
});
