/**
 * The serving side over an ingested run (DESIGN.md "Data flow" 2): ServedProducts and StoredRuns read
 * what ingestFiles wrote from the real GFS 2.5° analysis of ../shared/data, and a tile node or a
 * point forecast equals the value the engine decodes from the GRIB file directly, within the
 * quantization step.
 */

import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { tileBounds } from '../../common/tiling.ts';
import { HttpError } from '../http/httpError.ts';
import { ingestFiles, type IngestResult } from '../ingest/ingest.ts';
import { runDir, tileRelPath } from '../ingest/layout.ts';
import {
  decodeOneGrib, describeWithFixtures, field, gribValueAt, readTile, SAMPLE, servingSide, tempDir, tileNode, tolerance, type GribField,
} from '../ingest/testing.ts';
import type { ServedProducts } from './servedProducts.ts';
import type { StoredRuns } from './storedRuns.ts';
import { HOUR_MS } from '../../common/time.ts';

const REF = Date.UTC(2017, 2, 22, 0);
const DIR = 'gfs2p5-20170322';
const PRODUCT = 'gfs2p5-20170322';
/** On a 256-node tile of zoom 0 or 1, every 85th node lies on a multiple of 60° or 30°: a 2.5° grid point. */
const GRID_NODES = [0, 85, 170, 255];

const exists = (path: string) => access(path).then(() => true, () => false);

async function httpError(promise: Promise<unknown> | (() => unknown)): Promise<HttpError> {
  const error = await (typeof promise === 'function' ? Promise.resolve().then(promise) : promise).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describeWithFixtures('ServedProducts over an ingested GFS 2.5° analysis', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;
  let sources: ServedProducts;
  let stored: StoredRuns;
  const grib: Record<string, GribField> = {};

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir });
    ({ sources, stored } = servingSide(data.dir));
    const pick: [string, string, string, number][] = [
      ['2t', '2t', 'heightAboveGround', 2], ['10u', '10u', 'heightAboveGround', 10], ['10v', '10v', 'heightAboveGround', 10],
      ['prmsl', 'prmsl', 'meanSea', 0], ['gust', 'gust', 'surface', 0], ['2d', '2d', 'heightAboveGround', 2], ['2r', '2r', 'heightAboveGround', 2],
      ['cape', 'cape', 'surface', 0], ['gh500', 'gh', 'isobaricInhPa', 500], ['t850', 't', 'isobaricInhPa', 850],
      ['u250', 'u', 'isobaricInhPa', 250], ['v250', 'v', 'isobaricInhPa', 250],
    ];
    for (const [key, shortName, typeOfLevel, level] of pick) grib[key] = await decodeOneGrib(SAMPLE.gfs2p5Analysis, field(shortName, typeOfLevel, level), key);
  }, 60_000);
  afterAll(async () => {
    await stored?.close();
    await data?.remove();
  });

  /** Every grid-point node of a tile against the GRIB fields of its channels. */
  function expectNodesEqualGrib(tile: Awaited<ReturnType<typeof readTile>>, channels: { ident: string; grib: GribField }[], z: number, x: number, y: number): void {
    expect(tile.header).toMatchObject({ ...tileBounds({ z, x, y }), width: 256, height: 256, channels: channels.length });
    for (const [c, { ident, grib: f }] of channels.entries()) {
      for (const j of GRID_NODES) {
        for (const i of GRID_NODES) {
          const node = tileNode(tile, c, i, j);
          const expected = gribValueAt(f, node.lat, node.lon);
          expect(Math.abs(node.value - expected), `${ident} at node (${i}, ${j}) = (${node.lat}, ${node.lon}): ${node.value} vs ${expected}`)
            .toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected));
        }
      }
    }
  }

  it('serves the run\'s minifest as the ingest wrote it', async () => {
    const product = await sources.byDirectory(DIR);
    expect(product.product.ident).toBe(PRODUCT);
    const written = JSON.parse(await readFile(join(runDir(data.dir, DIR, result.runId!), 'minifest.json'), 'utf8'));
    expect(await product.minifest()).toEqual(written);
    expect((await sources.byIdent(PRODUCT)).product.directory).toBe(DIR);
    expect((await product.current()).refTime).toBe(REF);
    expect((await stored.current(DIR))!.manifest.id).toBe(result.runId);
  });

  it('lists the run in the served products with that minifest, beside the demo product', async () => {
    const written = JSON.parse(await readFile(join(runDir(data.dir, DIR, result.runId!), 'minifest.json'), 'utf8'));
    const served = await sources.served();
    expect(served.find((p) => p.ident === PRODUCT)).toEqual({ ident: PRODUCT, directory: DIR, ref: '2017032200', sample: true, minifest: written });
    expect(served.find((p) => p.ident === 'demo')?.minifest).toMatchObject({ demo: true });
    // Each caller gets an answer of its own: changing one leaves the next alone.
    (await (await sources.byDirectory(DIR)).minifest()).ref = 'changed';
    expect((await (await sources.byDirectory(DIR)).minifest()).ref).toBe(written.ref);
  });

  it('stored tiles decode, and their nodes are the GRIB values within the quantization step', async () => {
    for (const [z, x, y] of [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 1], [1, 3, 1]] as const) {
      expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, { z, x, y }, 'temp', 'surface'), [{ ident: 'temp', grib: grib['2t'] }], z, x, y);
      expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, { z, x, y }, 'wind', 'surface'), [{ ident: 'wind_u', grib: grib['10u'] }, { ident: 'wind_v', grib: grib['10v'] }], z, x, y);
    }
    const z0 = { z: 0, x: 1, y: 0 };
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'pressure', 'surface'), [{ ident: 'pressure', grib: grib.prmsl }], 0, 1, 0);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'gust', 'surface'), [{ ident: 'gust', grib: grib.gust }], 0, 1, 0);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'dewpoint', 'surface'), [{ ident: 'dewpoint', grib: grib['2d'] }], 0, 1, 0);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'rh', 'surface'), [{ ident: 'rh', grib: grib['2r'] }], 0, 1, 0);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'cape', 'surface'), [{ ident: 'cape', grib: grib.cape }], 0, 1, 0);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, z0, 'temp', '850h'), [{ ident: 'temp', grib: grib.t850 }], 0, 1, 0);
  });

  it('a zoom above the pre-rendered one is rendered from the native store on request, kept, and equals the GRIB too', async () => {
    const run = await stored.current(DIR);
    expect(run!.manifest.layers['gh-500h'].prerendered).toBe(0);
    const path = join(run!.dir, tileRelPath(REF, 1, 2, 1, 'gh', '500h'));
    expect(await exists(path)).toBe(false);
    const tile = await readTile(sources, DIR, REF, REF, { z: 1, x: 2, y: 1 }, 'gh', '500h');
    expectNodesEqualGrib(tile, [{ ident: 'gh', grib: grib.gh500 }], 1, 2, 1);
    expect(await exists(path)).toBe(true);
    // The second request reads the stored file: the same bytes.
    const answer = await (await (await sources.byDirectory(DIR)).run(REF)).tile(REF, { z: 1, x: 2, y: 1 }, 'gh', '500h');
    expect(answer.gzip.equals(await readFile(path))).toBe(true);
    expectNodesEqualGrib(await readTile(sources, DIR, REF, REF, { z: 1, x: 0, y: 0 }, 'wind', '250h'), [{ ident: 'wind_u', grib: grib.u250 }, { ident: 'wind_v', grib: grib.v250 }], 1, 0, 0);
  });

  it('answers 404 for what the run does not have', async () => {
    const product = await sources.byDirectory(DIR);
    expect((await httpError(() => product.checkLayer('clouds', 'surface', 'tile'))).statusCode).toBe(404);
    expect((await httpError(() => product.checkLayer('temp', '1000h', 'tile'))).message).toMatch(/Level "1000h" is not available/);
    expect((await httpError(() => product.checkLayer('temp', 'surface', 'png'))).statusCode).toBe(404);
    const run = await product.run(REF);
    expect((await httpError(() => run.checkStep(REF + HOUR_MS, 'temp', 'surface'))).message).toMatch(/not a step of run 2017032200/);
    expect((await httpError(product.run(REF + HOUR_MS))).message).toMatch(/the current run is 2017032200/);
    expect((await httpError(sources.byDirectory('gfs2p5-20110110'))).message).toMatch(/No data for .* has been loaded/);
  });

  it('the point forecast comes from the point-series store in base units, equal to the GRIB at a grid point', async () => {
    const run = await (await sources.byIdent(PRODUCT)).current();
    for (const [lat, lon] of [[40, -105], [-32.5, 150], [52.5, 12.5]]) {
      const forecast = await run.point(lat, lon, { interpolate: false });
      expect(forecast.header).toMatchObject({ product: PRODUCT, refTime: REF, lat, lon, sample: true });
      // The model's own fields here; those derived from them (wet-bulb, fog, ...) are checked by the ingest tests.
      expect(forecast.header.units).toMatchObject({ wind: 'm/s', gust: 'm/s', temp: 'K', dewpoint: 'K', rh: '%', pressure: 'Pa', cape: 'J/kg' });
      expect(forecast.ts).toEqual([REF]);
      const expected: Record<string, [GribField, number]> = {
        wind_u: [grib['10u'], 2], wind_v: [grib['10v'], 2], gust: [grib.gust, 2], temp: [grib['2t'], 2], dewpoint: [grib['2d'], 2],
        rh: [grib['2r'], 1], pressure: [grib.prmsl, 1], cape: [grib.cape, 0],
      };
      expect(Object.keys(forecast.data)).toEqual(expect.arrayContaining(Object.keys(expected)));
      for (const [ident, [f, decimals]] of Object.entries(expected)) {
        const value = gribValueAt(f, lat, lon);
        expect(forecast.data[ident]).toHaveLength(1);
        expect(Math.abs(forecast.data[ident][0]! - value), `${ident} at (${lat}, ${lon})`).toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, value, decimals));
      }
      // Bilinear (the default) on a node gives the node.
      const bilinear = await run.point(lat, lon, {});
      expect(bilinear.data.temp[0]).toBeCloseTo(forecast.data.temp[0]!, 1);
    }
  });
});
