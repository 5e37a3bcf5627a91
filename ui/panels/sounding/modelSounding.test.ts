/**
 * The model sounding of the meteogram answer: the real answer of GET /forecast/meteogram for the
 * GFS 2.5° analysis sample (2017-03-22 00Z) at Denver and over the sea, turned into a Sounding —
 * levels under the model's ground left out, temperatures in °C, wind from its components, heights,
 * and dew points only from relative humidity the answer has. Also the dew point from relative
 * humidity (Bolton 1980) on worked values, and which served products a sounding can come from.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LevelForecast } from '../../../common/api/forecast.ts';
// The test asks the real meteogram route for its answer, as server/routes/meteogram.test.ts does:
// a server the test starts, never a part of the window's code.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { buildApp } from '../../../server/app.ts';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { ingestFiles } from '../../../server/ingest/ingest.ts';
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { describeWithFixtures, SAMPLE, tempDir } from '../../../server/ingest/testing.ts';
import { dewPointFromRh, hasSoundingLevels, modelSounding } from './modelSounding.ts';
import { saturationVapourPressure } from './diagram.ts';
import { soundingProducts } from './soundingProducts.ts';

const PRODUCT = 'gfs2p5-20170322';
const NOW = Date.UTC(2025, 10, 26, 7, 30);

describe('dew point from relative humidity (Bolton 1980)', () => {
  it('is the temperature at 100 %, and 9.3 °C for 20 °C at 50 %', () => {
    expect(dewPointFromRh(20, 100)).toBeCloseTo(20, 9);
    expect(dewPointFromRh(-15, 100)).toBeCloseTo(-15, 9);
    // e = 0.5 e_s(20 °C) = 11.69 hPa; e_s(9.27 °C) = 11.69 hPa.
    expect(dewPointFromRh(20, 50)!).toBeCloseTo(9.27, 2);
    expect(saturationVapourPressure(dewPointFromRh(20, 50)!)).toBeCloseTo(saturationVapourPressure(20) / 2, 9);
  });
  it('has none without humidity and caps supersaturation at 100 %', () => {
    expect(dewPointFromRh(20, 0)).toBeNull();
    expect(dewPointFromRh(20, Number.NaN)).toBeNull();
    expect(dewPointFromRh(20, 104)).toBeCloseTo(20, 9);
  });
});

describe('products a sounding can come from', () => {
  it('keeps served products with pressure levels over the place, the map\'s first', () => {
    const served = ['demo', 'gfswave-20260819', 'gfs2p5-20110110', 'gfs2p5-20170322', 'gfs1p0-michael2018', 'gefsaero-20240309'];
    expect(soundingProducts(served, 'demo', 40, -105)).toEqual(['gfs2p5-20110110', 'gfs2p5-20170322']);
    expect(soundingProducts(served, 'gfs2p5-20170322', 40, -105)).toEqual(['gfs2p5-20170322', 'gfs2p5-20110110']);
    expect(soundingProducts(['demo'], 'demo', 40, -105)).toEqual([]);
  });
});

describeWithFixtures('model sounding from the real meteogram answer (GFS 2.5° analysis, 2017-03-22 00Z)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;
  const answerAt = async (lat: number, lon: number) => (await app.inject({ url: `/forecast/meteogram/${PRODUCT}/v1.2/${lat}/${lon}` })).json() as LevelForecast;

  beforeAll(async () => {
    data = await tempDir('isobar-sounding-test-');
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: data.dir });
  }, 90_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  });

  it('Denver: the levels above the model\'s ground, in °C, m/s and m, from the ground up', async () => {
    const answer = await answerAt(40, -105);
    expect(hasSoundingLevels(answer)).toBe(true);
    const ground = answer.header.modelElevation!;
    expect(ground).toBeGreaterThan(1000);
    const s = modelSounding(answer, 0);
    expect(s).toMatchObject({ source: 'model', id: PRODUCT, lat: 40, lon: -105, elevation: ground, time: answer.ts[0], refTime: Date.UTC(2017, 2, 22) });
    const above = answer.header.levels.filter((l) => answer.data[`gh-${l}`][0]! >= ground);
    const below = answer.header.levels.filter((l) => answer.data[`gh-${l}`][0]! < ground);
    // The plains under 1.5 km: 975 to 850 hPa lie under the model's ground there.
    expect(below).toContain('900h');
    expect(s.levels.map((l) => `${l.pressure}h`)).toEqual(above);
    for (const level of s.levels) {
      const ident = `${level.pressure}h`;
      expect(level.temp).toBeCloseTo(answer.data[`temp-${ident}`][0]! - 273.15, 9);
      expect(level.height).toBe(answer.data[`gh-${ident}`][0]);
      const u = answer.data[`wind_u-${ident}`][0]!;
      const v = answer.data[`wind_v-${ident}`][0]!;
      expect(level.windSpeed).toBeCloseTo(Math.hypot(u, v), 9);
      // The wind comes from the direction opposite to where (u, v) points.
      expect(Math.sin(level.windDir! * Math.PI / 180) * level.windSpeed!).toBeCloseTo(-u, 6);
      expect(Math.cos(level.windDir! * Math.PI / 180) * level.windSpeed!).toBeCloseTo(-v, 6);
      const rh = answer.data[`rh-${ident}`]?.[0];
      if (rh === undefined || rh === null) expect(level.dewpoint).toBeNull();
      else expect(level.dewpoint).toBeCloseTo(dewPointFromRh(level.temp!, rh)!, 9);
    }
    for (let k = 1; k < s.levels.length; k++) expect(s.levels[k].pressure).toBeLessThan(s.levels[k - 1].pressure);
    // Temperatures fall with height through the troposphere: 500 hPa is colder than 700 hPa.
    const at = (p: number) => s.levels.find((l) => l.pressure === p)!;
    expect(at(500).temp!).toBeLessThan(at(700).temp!);
  });

  it('over the sea every level is above the ground, and there is no dew point without humidity', async () => {
    const answer = await answerAt(0, 0);
    const s = modelSounding(answer, 0);
    expect(s.levels.map((l) => `${l.pressure}h`)).toEqual(answer.header.levels);
    const humid = answer.header.levels.some((l) => answer.data[`rh-${l}`]);
    if (!humid) expect(s.levels.every((l) => l.dewpoint === null)).toBe(true);
  });
});
