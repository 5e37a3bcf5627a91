/**
 * The GEFS-Aerosols sample (../shared/data/samples/air-quality) through the whole ingest: PM2.5,
 * PM10 and 550 nm AOD land in their own sample product, and what the tiles and the point store
 * hold at a grid node is the decoded GRIB value in catalogue units (µg/m³: NCEP's PMTF / PMTC
 * are µg/m³ already), to the variable's quantization step.
 * Skipped, saying so, without ../shared/data; ISOBAR_REQUIRE_FIXTURES=1 makes that a failure.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { matchGribField } from '../../common/catalogue/variables.ts';
import { decodeDataTile } from '../../common/tile.ts';
import { decodeField, inventory, toNorthUp } from '../../engine/grib/index.ts';
import { describeWithFixtures, FIXTURES_DIR } from '../../engine/grib/testing.ts';
import { loadEngine } from './engine.ts';
import { ingestFiles, type IngestResult } from './ingest.ts';
import { nativeRelPath, readCurrentRunId, readRunManifest, runDir } from './layout.ts';
import { PointStoreReader } from './points.ts';

const SAMPLE = 'samples/air-quality/gefs-chem0p25_aerosol-pm_20240309T00_f000_subset_t5.3.grib2';
const PRODUCT = PRODUCTS['gefsaero-20240309'];
// A grid node of the file (0.25°, rows from 40° N, columns from 0° E) and of the 0.5° point grid: Khartoum.
const LAT = 15.5;
const LON = 32.5;

describeWithFixtures('GEFS-Aerosols sample through the ingest', () => {
  const path = new URL(SAMPLE, FIXTURES_DIR).pathname;
  let dataDir: string;
  let result: IngestResult;
  let dir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-aq-'));
    result = await ingestFiles([path], { dataDir, prerender: { surface: 1 } });
    dir = runDir(dataDir, PRODUCT.directory, (await readCurrentRunId(dataDir, PRODUCT.directory))!);
  }, 60_000);

  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('is a product of its own, with the file\'s date and area', async () => {
    expect(result.product).toBe('gefsaero-20240309');
    expect(result.refTime).toBe(Date.UTC(2024, 2, 9, 0));
    expect(result.steps).toEqual([0]);
    // The European AQI (from PM2.5 and PM10) and the dust near the ground (PMTC of dust aerosol) too.
    expect(result.variables.sort()).toEqual(['aod550-surface', 'aqi-surface', 'dustsm-surface', 'pm10-surface', 'pm2p5-surface']);
    const manifest = (await readRunManifest(dataDir, PRODUCT.directory, result.runId!))!;
    const [west, south, east, north] = PRODUCT.bounds![0];
    expect(manifest.bounds).toEqual({ west, south, east, north });
    expect(manifest.points?.variables).toEqual(['pm2p5', 'pm10', 'aod550', 'aqi', 'dustsm']);
  });

  it.each(['pm2p5', 'pm10', 'aod550'])('stores %s at a node as the decoded GRIB value, converted', async (ident) => {
    // The GRIB side: the one field the catalogue takes for the variable, decoded north-up.
    const bytes = new Uint8Array(await readFile(path));
    const fields = inventory(bytes).filter((f) => matchGribField(f)?.variable.ident === ident);
    expect(fields).toHaveLength(1);
    const match = matchGribField(fields[0])!;
    const grid = toNorthUp(fields[0], await decodeField(await loadEngine(), bytes, fields[0]));
    const column = Math.round((LON - grid.lon0) / grid.dLon);
    const row = Math.round((grid.lat0 - LAT) / grid.dLat);
    const expected = grid.values[row * grid.Ni + column] * match.factor + match.add;
    expect(expected).toBeGreaterThan(0);
    const tolerance = match.variable.quantization.scale / 2 + 1e-6 * expected;

    // The native-grid tile keeps the model's nodes.
    const tile = decodeDataTile(gunzipSync(await readFile(join(dir, nativeRelPath(result.refTime, ident, 'surface')))));
    const { west, north, width, east } = tile.header;
    const i = Math.round((LON - west) / ((east - west) / (width - 1)));
    const j = Math.round((north - LAT) / grid.dLat);
    expect(Math.abs(tile.channels[0][j * width + i] - expected)).toBeLessThanOrEqual(tolerance);

    // The point store (0.5° nodes, this place one of them).
    const points = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      const series = (await points.series(LAT, LON, false))!;
      expect(series).toMatchObject({ lat: LAT, lon: LON, hours: [0] });
      expect(Math.abs(series.values[ident][0] - expected)).toBeLessThanOrEqual(tolerance);
    } finally {
      await points.close();
    }
  });

  it('keeps PM2.5 in µg/m³ as GEFS sends it (the GRIB\'s own PMTF value, factor 1)', async () => {
    const bytes = new Uint8Array(await readFile(path));
    const pm = inventory(bytes).find((f) => matchGribField(f)?.variable.ident === 'pm2p5')!;
    expect(pm).toMatchObject({ shortName: 'pmtf', constituentType: 62000, sizeInterval: { type: 0, first: 2.5e-6 } });
    expect(matchGribField(pm)!.factor).toBe(1);
  });
});
