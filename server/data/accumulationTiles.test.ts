/**
 * Accumulation tiles: which steps a range needs (planAccumulation), the arithmetic on decoded
 * tiles, and the tile route's acRange variant on real GFS fields ingested as a run of several steps.
 */

import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tilePath } from '../../common/api/tiles.ts';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { decodeDataTile, type DecodedTile } from '../../common/tile.ts';
import { HOUR_MS } from '../../common/time.ts';
import { loadEngine } from '../ingest/engine.ts';
import { engineGribReader, type GribReader } from '../ingest/fields.ts';
import { ingestFiles } from '../ingest/ingest.ts';
import { decodeOneGrib, describeWithFixtures, field, type GribField, SAMPLE, servingSide, tempDir, tileNode, tolerance } from '../ingest/testing.ts';
import { tileRoutes } from '../routes/tiles.ts';
import { DemoTileStore } from '../demo/demoTiles.ts';
import { ServedProducts } from './servedProducts.ts';
import { differenceOfTotals, maximumOf, planAccumulation, sumOfRates } from './accumulationTiles.ts';

describe('planAccumulation', () => {
  const hoursOf = (files: Record<string, number[]>) => (f: string) => files[f];
  const gfs = hoursOf({ rainAccu: [3, 6, 9, 12, 15, 18, 21, 24], rain: [3, 6, 9, 12, 15, 18, 21, 24], gust: [0, 3, 6, 9, 12, 15, 18, 21, 24] });

  it('rainAccu: the difference of the totals at the range\'s end and start; the run\'s start has total 0', () => {
    expect(planAccumulation('rainAccu', 6, 12, gfs)).toMatchObject({ method: 'total', file: 'rainAccu', start: 6, end: 18 });
    expect(planAccumulation('rainAccu', 0, 12, gfs)).toMatchObject({ method: 'total', file: 'rainAccu', start: null, end: 12 });
  });

  it('snowAccu: the snow\'s water equivalent at both ends, which must both be steps (a state, not a total)', () => {
    const snow = hoursOf({ snowWe: [0, 6, 12, 18] });
    expect(planAccumulation('snowAccu', 0, 12, snow)).toMatchObject({ method: 'gain', file: 'snowWe', start: 0, end: 12 });
    expect(() => planAccumulation('snowAccu', 3, 15, snow)).toThrow('needs snowWe at +3 h (the range\'s start)');
  });

  it('gustAccu: the steps in (start, end]', () => {
    expect(planAccumulation('gustAccu', 6, 12, gfs)).toMatchObject({ method: 'max', file: 'gust', steps: [9, 12, 15, 18] });
  });

  it('rainAccu without totals (the demo product): rates of [start, end) times the hours to the next step', () => {
    const demo = hoursOf({ rain: [0, 1, 2, 3, 6, 9, 12, 13] });
    expect(planAccumulation('rainAccu', 1, 12, demo)).toMatchObject({ method: 'rates', file: 'rain', steps: [1, 2, 3, 6, 9, 12], hours: [1, 1, 3, 3, 3, 1] });
  });

  it('a range whose end or start is not a step, or a run without the source, is refused naming the steps', () => {
    expect(() => planAccumulation('rainAccu', 6, 20, gfs)).toThrow('rainAccu over +6..+26 h needs rainAccu at +26 h (the total at the range\'s end); the run has rainAccu at +3 +6');
    expect(() => planAccumulation('rainAccu', 7, 11, gfs)).toThrow('needs rainAccu at +7 h (the total at the range\'s start)');
    expect(() => planAccumulation('gustAccu', 0, 12, hoursOf({}))).toThrow('gustAccu needs gust, which this run does not have');
    expect(() => planAccumulation('wind', 0, 12, gfs)).toThrow('"wind" is not an accumulation');
  });
});

describe('accumulation arithmetic', () => {
  const tile = (values: number[]): DecodedTile => ({
    header: { version: 1, channels: 1, predictor: 0, offsets: [0], scales: [1], dataOffset: 0, west: 0, east: 1, north: 1, south: 0, width: values.length, height: 1 },
    channels: [Float32Array.from(values)],
  });

  it('differenceOfTotals: end minus start, never below 0, no data stays no data', () => {
    expect([...differenceOfTotals(tile([10, 5, NaN, 3]), tile([4, 5.5, 1, NaN]))]).toEqual([6, 0, NaN, NaN]);
    expect([...differenceOfTotals(tile([10, 0]), null)]).toEqual([10, 0]);
  });

  it('maximumOf: the largest of the steps, a step without data left out', () => {
    expect([...maximumOf([tile([1, NaN, 7, NaN]), tile([3, 2, 5, NaN])])]).toEqual([3, 2, 7, NaN]);
  });

  it('sumOfRates: mm/h times hours', () => {
    expect([...sumOfRates([tile([1, 0.5]), tile([2, 0])], [1, 3])]).toEqual([7, 0.5]);
  });

  it('refuses tiles of different grids', () => {
    expect(() => maximumOf([tile([1, 2]), tile([1, 2, 3])])).toThrow('different grids');
  });
});

const REF_2011 = Date.UTC(2011, 0, 10, 12);

/** A GRIB field's value at any place: bilinear between its four grid points, as the ingest regrids. */
function gribBilinear(f: GribField, lat: number, lon: number): number {
  const j = Math.min(f.Nj - 1.000001, Math.max(0, (f.lat0 - lat) / f.dLat));
  let x = (lon - f.lon0) % 360;
  if (x < 0) x += 360;
  const i = x / f.dLon;
  const i0 = Math.floor(i);
  const j0 = Math.floor(j);
  const at = (ii: number, jj: number) => f.values[jj * f.Ni + (ii % f.Ni)];
  const fx = i - i0;
  const fy = j - j0;
  return (1 - fy) * ((1 - fx) * at(i0, j0) + fx * at(i0 + 1, j0)) + fy * ((1 - fx) * at(i0, j0 + 1) + fx * at(i0 + 1, j0 + 1));
}

/**
 * The GFS 2.5° +120 h file read as step +6 h + `shift` of a run of 2011-01-10 12Z: its 114-120 h
 * precipitation becomes the NCEP 6-hour bucket ending there.
 */
function shiftedReader(engine: GribReader, shifts: number[], other?: { file: number; refTime: number; hour: number }): GribReader {
  let files = 0;
  return {
    inventory: (bytes) => {
      const n = files++;
      const infos = engine.inventory(bytes);
      if (other && n === other.file) return infos.map((i) => ({ ...i, refTime: REF_2011, forecastStart: other.hour, forecastEnd: other.hour }));
      const shift = shifts[n] - 114;
      return infos.map((i) => ({ ...i, forecastStart: i.forecastStart + shift, forecastEnd: i.forecastEnd + shift }));
    },
    decode: (bytes, info) => engine.decode(bytes, info),
  };
}

describeWithFixtures('tile route: accumulations of a GFS 2.5° run (2011-01-10 12Z +120 h read as +6, +12 and +18 h)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;
  const url = (file: string, validHour: number, acRange?: number) => tilePath({
    directory: 'gfs', refTime: REF_2011, validTime: REF_2011 + validHour * HOUR_MS, z: 0, x: 0, y: 0, file, level: 'surface', suffix: 'tile', acRange,
  });
  const get = async (path: string) => {
    const answer = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
    expect(answer.statusCode, answer.body).toBe(200);
    return decodeDataTile(gunzipSync(answer.rawPayload));
  };

  beforeAll(async () => {
    data = await tempDir();
    const engine = engineGribReader(await loadEngine());
    // Three 6-hour buckets of the same real amount A: totals A, 2A, 3A at +6, +12, +18 h.
    await ingestFiles([SAMPLE.gfs2p5F120, SAMPLE.gfs2p5F120, SAMPLE.gfs2p5F120], {
      dataDir: data.dir, product: 'gfs', reader: shiftedReader(engine, [0, 6, 12]), prerender: { surface: 0, levels: 0 },
    });
    app = Fastify();
    await app.register(tileRoutes, { served: servingSide(data.dir).sources });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  });

  it('rainAccu with acRange: the difference of the stored totals, equal to the GRIB amounts it sums', async () => {
    const tp = await decodeOneGrib(SAMPLE.gfs2p5F120, (i) => i.shortName === 'tp' && i.typeOfLevel === 'surface', 'tp');
    const fromStart = await get(url('rainAccu', 0, 12));
    const middle = await get(url('rainAccu', 6, 12));
    const q = VARIABLES.rainAccu.quantization;
    let wet = 0;
    for (let j = 0; j < fromStart.header.height; j += 16) {
      for (let i = 0; i < fromStart.header.width; i += 16) {
        const { value, lon, lat } = tileNode(fromStart, 0, i, j);
        const amount = gribBilinear(tp, lat, lon);
        // Both are two buckets: +0..+12 h is A + A; +6..+18 h is 3A - A.
        expect(Math.abs(value - 2 * amount), `${lat} ${lon}`).toBeLessThanOrEqual(2 * tolerance(q, 2 * amount) + 0.05 * amount + 0.01);
        expect(Math.abs(tileNode(middle, 0, i, j).value - value)).toBeLessThanOrEqual(3 * q.scale);
        if (amount > 1) wet++;
      }
    }
    expect(wet).toBeGreaterThan(10);
  });

  it('a range that ends after the run, a missing acRange, an acRange on another file or below 12 h: clear errors', async () => {
    const late = await app.inject({ url: url('rainAccu', 6, 24) });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toContain('needs rainAccu at +30 h (the total at the range\'s end)');
    const none = await app.inject({ url: url('rainAccu', 6) });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain('rainAccu is an accumulation: ask it with acRange');
    const other = await app.inject({ url: `${url('temp', 6)}?acRange=12` });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe('acRange applies to accumulation tiles only, not to temp');
    const short = await app.inject({ url: url('rainAccu', 6, 6) });
    expect(short.statusCode).toBe(400);
    const bad = await app.inject({ url: `${url('rainAccu', 6)}?acRange=twelve` });
    expect(bad.statusCode).toBe(400);
  });
});

describeWithFixtures('tile route: snowAccu, the rise of the snow on the ground (GFS 2.5° WEASD: 2011 +120 h as +6, 2017 analysis as +18 h)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    data = await tempDir();
    const engine = engineGribReader(await loadEngine());
    await ingestFiles([SAMPLE.gfs2p5F120, SAMPLE.gfs2p5Analysis], {
      dataDir: data.dir, product: 'gfs', reader: shiftedReader(engine, [0], { file: 1, refTime: REF_2011, hour: 18 }), prerender: { surface: 0, levels: 0 },
    });
    app = Fastify();
    await app.register(tileRoutes, { served: servingSide(data.dir).sources });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  });

  it('is the later water equivalent less the earlier one where it rose (mm = cm of snow at 10:1), 0 where it fell', async () => {
    const pick = (i: { shortName: string; typeOfLevel: string }) => i.shortName === 'sdwe' && i.typeOfLevel === 'surface';
    const [a, b] = await Promise.all([decodeOneGrib(SAMPLE.gfs2p5F120, pick, 'WEASD 2011'), decodeOneGrib(SAMPLE.gfs2p5Analysis, pick, 'WEASD 2017')]);
    const path = tilePath({ directory: 'gfs', refTime: REF_2011, validTime: REF_2011 + 6 * HOUR_MS, z: 0, x: 0, y: 0, file: 'snowAccu', level: 'surface', suffix: 'tile', acRange: 12 });
    const answer = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
    expect(answer.statusCode, answer.body).toBe(200);
    const tile = decodeDataTile(gunzipSync(answer.rawPayload));
    let rose = 0;
    let fell = 0;
    for (let j = 0; j < tile.header.height; j += 8) {
      for (let i = 0; i < tile.header.width; i += 8) {
        const { value, lon, lat } = tileNode(tile, 0, i, j);
        const gain = gribBilinear(b, lat, lon) - gribBilinear(a, lat, lon);
        expect(Math.abs(value - Math.max(0, gain)), `${lat} ${lon}`).toBeLessThanOrEqual(2 * VARIABLES.snowWe.quantization.scale + 1e-3 * Math.abs(gain));
        if (gain > 5) rose++;
        if (gain < -5) fell++;
      }
    }
    expect(rose).toBeGreaterThan(5);
    expect(fell).toBeGreaterThan(5);
  });
});

describeWithFixtures('tile route: gustAccu, the largest gust of a range (GFS 2.5° 2011 +120 h and 2017 analysis as +6 and +12 h)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    data = await tempDir();
    const engine = engineGribReader(await loadEngine());
    await ingestFiles([SAMPLE.gfs2p5F120, SAMPLE.gfs2p5Analysis], {
      dataDir: data.dir, product: 'gfs', reader: shiftedReader(engine, [0], { file: 1, refTime: REF_2011, hour: 12 }), prerender: { surface: 0, levels: 0 },
    });
    app = Fastify();
    await app.register(tileRoutes, { served: servingSide(data.dir).sources });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await data?.remove();
  });

  it('is the larger of the two real gust fields at every node', async () => {
    const pick = field('gust', 'surface', 0);
    const [a, b] = await Promise.all([decodeOneGrib(SAMPLE.gfs2p5F120, pick, 'gust 2011'), decodeOneGrib(SAMPLE.gfs2p5Analysis, pick, 'gust 2017')]);
    const path = tilePath({ directory: 'gfs', refTime: REF_2011, validTime: REF_2011, z: 0, x: 0, y: 0, file: 'gustAccu', level: 'surface', suffix: 'tile', acRange: 12 });
    const answer = await app.inject({ url: path, headers: { 'accept-encoding': 'gzip' } });
    expect(answer.statusCode, answer.body).toBe(200);
    const tile = decodeDataTile(gunzipSync(answer.rawPayload));
    let differ = 0;
    for (let j = 0; j < tile.header.height; j += 16) {
      for (let i = 0; i < tile.header.width; i += 16) {
        const { value, lon, lat } = tileNode(tile, 0, i, j);
        const ga = gribBilinear(a, lat, lon);
        const gb = gribBilinear(b, lat, lon);
        if (Math.abs(ga - gb) > 2) differ++;
        // Bilinear regridding of each step before the maximum: within the regridding spread of the two.
        expect(Math.abs(value - Math.max(ga, gb)), `${lat} ${lon}`).toBeLessThanOrEqual(0.05 * Math.max(ga, gb) + 0.5);
      }
    }
    expect(differ).toBeGreaterThan(10);
  });
});

describe('tile route: rainAccu of the demo product, which keeps no totals', () => {
  const REF = Date.UTC(2025, 10, 26, 0);
  const NOW = REF + 5 * HOUR_MS;
  let app: FastifyInstance;
  let store: DemoTileStore;
  const path = (file: string, hour: number, acRange?: number) => tilePath({
    directory: 'demo', refTime: REF, validTime: REF + hour * HOUR_MS, z: 0, x: 0, y: 0, file, level: 'surface', suffix: 'tile', acRange,
  });
  const get = async (url: string) => {
    const answer = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(answer.statusCode, answer.body).toBe(200);
    return decodeDataTile(gunzipSync(answer.rawPayload));
  };
  beforeAll(async () => {
    store = new DemoTileStore();
    app = Fastify();
    await app.register(tileRoutes, { served: new ServedProducts({ now: () => NOW, demoTiles: store, stored: null }) });
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it('is the sum of its hourly rain rates over the range, in mm', async () => {
    const amount = await get(path('rainAccu', 6, 12));
    const rates = await Promise.all(Array.from({ length: 12 }, (_, k) => get(path('rain', 6 + k))));
    let wet = 0;
    for (let k = 0; k < amount.channels[0].length; k += 97) {
      const sum = rates.reduce((s, r) => s + r.channels[0][k], 0);
      expect(Math.abs(amount.channels[0][k] - sum)).toBeLessThanOrEqual(VARIABLES.rainAccu.quantization.scale + 1e-3 * sum);
      if (sum > 5) wet++;
    }
    expect(wet).toBeGreaterThan(10);
  });
});
