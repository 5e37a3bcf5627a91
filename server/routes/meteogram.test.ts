/**
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}: the pressure-level series of a run ingested
 * from the real GFS 2.5° analysis equal the GRIB's values at its grid points; products without
 * levels answer an empty list; bad input gets a clear 4xx JSON error.
 */

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LevelForecast, PointForecast } from '../../common/api/forecast.ts';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { analyseSounding } from '../../common/sounding/analysis.ts';
import { soundingFromForecast } from '../../common/sounding/modelSounding.ts';
import { buildApp } from '../app.ts';
import { ingestFiles } from '../ingest/ingest.ts';
import { readRunManifest } from '../ingest/layout.ts';
import { LEVEL_POINT_VARIABLES } from '../ingest/runBuilder.ts';
import { decodeOneGrib, describeWithFixtures, field, gribValueAt, SAMPLE, tempDir, tolerance } from '../ingest/testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 7, 30);
const REF_2017 = Date.UTC(2017, 2, 22, 0);
const PRODUCT = 'gfs2p5-20170322';

function expectJsonError(response: LightMyRequestResponse, status: number, message: RegExp): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  expect(response.json().message).toMatch(message);
}

interface Answer {
  header: { product: string; refTime: number; step: number; levels: string[]; units: Record<string, string>; sample?: boolean; demo?: boolean };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

describe('meteogram route: demo product and bad input', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null });
  });
  afterAll(() => app.close());

  it('the demo product has no pressure levels: an empty list with the run\'s steps', async () => {
    const response = await app.inject({ url: '/forecast/meteogram/demo/v1.2/48.853/2.349' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const body = response.json() as Answer;
    // free: days 0 to 5 of the run (SPEC §6) at the free default step of 3 hours (SPEC §9)
    expect(body.header).toMatchObject({ product: 'demo', levels: [], demo: true, step: 3 });
    expect(body.ts).toHaveLength(48);
    expect(body.data).toEqual({});
    const three = (await app.inject({ url: '/forecast/meteogram/demo/v1.2/48.853/2.349?step=3' })).json() as Answer;
    expect(three.ts).toEqual(body.ts);
    expect(three.ts.every((t) => (t - three.header.refTime) % (3 * HOUR_MS) === 0)).toBe(true);
  });

  it.each([
    ['/forecast/meteogram/demo/v1.2/91.5/2.3', 400, /lat/],
    ['/forecast/meteogram/demo/v1.2/north/2.3', 400, /lat/],
    ['/forecast/meteogram/demo/v1.2/48.8/721.5', 400, /lon/],
    ['/forecast/meteogram/demo/v1.2/48.8/Infinity', 400, /lon "Infinity" is not a longitude/],
    ['/forecast/meteogram/demo/v1.2/48.8/1e400', 400, /lon "1e400" is not a longitude/],
    ['/forecast/meteogram/demo/v1.2/48.8/-1e999', 400, /lon "-1e999" is not a longitude/],
    ['/forecast/meteogram/demo/v1.2/Infinity/2.3', 400, /lat "Infinity" is not a latitude/],
    ['/forecast/meteogram/demo/v1.2/48.8/2.3?step=2', 400, /step/],
    ['/forecast/meteogram/demo/v1.2/48.8/2.3?refTime=yesterday', 400, /refTime/],
    ['/forecast/meteogram/demo/v1.2/48.8/2.3?refTime=2025139912', 400, /not a valid hour stamp/],
    ['/forecast/meteogram/demo/v1.2/48.8/2.3?refTime=2020010100', 404, /not available; the current run is 2025112600/],
    ['/forecast/meteogram/nosuchmodel/v1.2/48.8/2.3', 404, /Unknown product "nosuchmodel"/],
    ['/forecast/meteogram/gfs/v1.2/48.8/2.3', 404, /No data for GFS/],
    ['/forecast/meteogram/bad%20name/v1.2/48.8/2.3', 400, /product/],
  ])('%s -> %i', async (url, status, message) => {
    expectJsonError(await app.inject({ url }), status, message);
  });
});

describeWithFixtures('meteogram route: GFS 2.5° analysis, 2017-03-22 00Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    data = await tempDir('isobar-meteogram-test-');
    const result = await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    const manifest = (await readRunManifest(data.dir, PRODUCT, result.runId!))!;
    // Every catalogue pressure level of the file for each variable on levels, on the model's own 2.5°
    // grid, but turbulence: TI1 needs the level above, which the top level (10 hPa) lacks.
    expect(manifest.levelPoints).toMatchObject({ file: 'levels.bin', nx: 144, ny: 73, dLon: 2.5, global: true });
    expect(manifest.levelPoints!.variables).toHaveLength(LEVEL_POINT_VARIABLES.length * 15 - 1);
    expect(manifest.levelPoints!.variables.filter((v) => v.startsWith('turbulence-'))).not.toContain('turbulence-10h');
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: data.dir });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  });

  it('lists the levels from the ground up with temperature, wind, height and relative humidity at each', async () => {
    const response = await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/40/-105` });
    expect(response.statusCode).toBe(200);
    const body = response.json() as Answer;
    expect(body.header).toMatchObject({ product: PRODUCT, refTime: REF_2017, sample: true, step: 3, modelStep: 1, units: { temp: 'K', wind: 'm/s', gh: 'm' } });
    expect(body.header.levels).toEqual(['975h', '950h', '925h', '900h', '850h', '800h', '700h', '600h', '500h', '400h', '300h', '250h', '200h', '150h', '10h']);
    expect(body.ts).toEqual([REF_2017]);
    // Turbulence (TI1) has no value at the top level, whose level above the file lacks.
    const expected = LEVEL_POINT_VARIABLES.flatMap((v) => body.header.levels.map((l) => `${v}-${l}`)).filter((k) => k !== 'turbulence-10h');
    expect(Object.keys(body.data).sort()).toEqual(expected.sort());
  });

  it('equals the GRIB at grid points (no interpolation needed on a node)', async () => {
    const grib = {
      'temp-850h': await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('t', 'isobaricInhPa', 850), 't 850'),
      'wind_u-500h': await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('u', 'isobaricInhPa', 500), 'u 500'),
      'wind_v-250h': await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('v', 'isobaricInhPa', 250), 'v 250'),
      'gh-500h': await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('gh', 'isobaricInhPa', 500), 'gh 500'),
      'rh-700h': await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('r', 'isobaricInhPa', 700), 'r 700'),
    };
    for (const [lat, lon] of [[40, -105], [-32.5, 150], [0, 0], [65, -17.5]]) {
      const body = (await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/${lat}/${lon}` })).json() as Answer;
      for (const [name, f] of Object.entries(grib)) {
        const expected = gribValueAt(f, lat, lon);
        const ident = name.slice(0, name.lastIndexOf('-'));
        const decimals = ident === 'gh' ? 0 : 2;
        expect(Math.abs(body.data[name][0]! - expected), `${name} at (${lat}, ${lon})`).toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected, decimals));
      }
      // Heights rise and temperatures fall with height in the troposphere.
      expect(body.data['gh-500h'][0]!).toBeGreaterThan(body.data['gh-850h'][0]!);
      expect(body.data['temp-500h'][0]!).toBeLessThan(body.data['temp-850h'][0]!);
      // Relative humidity (GFS RH, 0-1-1 isobaric) on every level, a percentage.
      for (const level of body.header.levels) {
        const rh = body.data[`rh-${level}`][0]!;
        expect(rh, `rh-${level} at (${lat}, ${lon})`).toBeGreaterThanOrEqual(0);
        expect(rh, `rh-${level} at (${lat}, ${lon})`).toBeLessThanOrEqual(100.5);
      }
    }
  });

  it('makes a model sounding whose surface pressure and precipitable water agree with the GFS\'s own', async () => {
    const sp = await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('sp', 'surface', 0), 'sp');
    const pwat = await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('pwat', 'atmosphereSingleLayer', 0), 'pwat');
    for (const [lat, lon] of [[40, -105], [-32.5, 150], [0, 0], [65, -17.5], [27.5, 85], [-10, -60]]) {
      const levels = (await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/${lat}/${lon}` })).json() as LevelForecast;
      const point = (await app.inject({ url: `/forecast/point/${PRODUCT}/v2.9/${lat}/${lon}` })).json() as PointForecast;
      const s = soundingFromForecast(levels, 0, point);
      const a = analyseSounding(s);
      // The surface pressure at the model's terrain height (ln p against geopotential height from
      // mean-sea-level pressure and the levels) is GFS's own surface pressure within 0.5 hPa
      // (0.25 hPa at most over these six places).
      expect(Math.abs(s.levels[0].pressure - gribValueAt(sp, lat, lon) / 100), `surface pressure at (${lat}, ${lon})`).toBeLessThan(0.5);
      expect(s.levels[0].height).toBe(point.header.modelElevation);
      for (let i = 1; i < s.levels.length; i++) expect(s.levels[i].pressure).toBeLessThan(s.levels[i - 1].pressure);
      // Precipitable water from 15 pressure levels and the 2 m dew point against GFS's PWAT, which
      // integrates its 64 model layers: within 1 mm + 3 % (0.2 to 1.5 mm here).
      const expected = gribValueAt(pwat, lat, lon);
      expect(Math.abs((a.precipitableWater as number) - expected), `precipitable water at (${lat}, ${lon})`).toBeLessThan(1 + 0.03 * expected);
    }
    // Denver's model ground is at 1585 m: the levels from 975 to 850 hPa are under it.
    const denver = soundingFromForecast(
      (await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/40/-105` })).json() as LevelForecast, 0,
      (await app.inject({ url: `/forecast/point/${PRODUCT}/v2.9/40/-105` })).json() as PointForecast,
    );
    expect(denver.levels.map((l) => l.pressure).slice(1, 3)).toEqual([800, 700]);
    // Without the point forecast, no surface level: the levels under the ground still go.
    const bare = soundingFromForecast((await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/40/-105` })).json() as LevelForecast, 0);
    expect(bare.levels[0].pressure).toBe(800);
    expect(bare.levels.every((l) => l.height !== null && l.height >= bare.elevation!)).toBe(true);
  });

  it('a run no longer kept is a 404 naming the current one; other products still have no levels', async () => {
    expectJsonError(await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/40/-105?refTime=2017032112` }), 404, /current run is 2017032200/);
    const demo = (await app.inject({ url: '/forecast/meteogram/demo/v1.2/40/-105' })).json() as Answer;
    expect(demo.header.levels).toEqual([]);
  });
});
