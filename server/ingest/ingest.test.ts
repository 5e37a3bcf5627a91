/**
 * ingestFiles on the real GFS 2.5° samples of ../shared/data: what a published run holds (minifest,
 * layers, tiles on disk, point-series store) checked against the engine's own decode of the GRIB,
 * and what bad input gets (an IngestError naming the file, nothing published).
 */

import { access, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { hourStamp, parseMinifest } from '../../common/minifest.ts';
import { loadEngine } from './engine.ts';
import { engineGribReader, type GribReader } from './fields.ts';
import { IngestError, ingestFiles, type IngestResult } from './ingest.ts';
import { currentPointerPath, listRunIds, nativeRelPath, readCurrentRunId, readRunManifest, runDir, stagingDir, tileRelPath, type RunManifest } from './layout.ts';
import { PointStoreReader } from './points.ts';
import { decodeGrib, decodeOneGrib, describeWithFixtures, field, gribValueAt, SAMPLE, tempDir, tolerance } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const REF_2017 = Date.UTC(2017, 2, 22, 0);
const REF_2011 = Date.UTC(2011, 0, 10, 12);
const DIR_2017 = 'gfs2p5-20170322';

const exists = (path: string) => access(path).then(() => true, () => false);

describeWithFixtures('ingestFiles: GFS 2.5° analysis, 2017-03-22 00Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;
  let manifest: RunManifest;
  let dir: string;

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir });
    manifest = (await readRunManifest(data.dir, DIR_2017, result.runId!))!;
    dir = runDir(data.dir, DIR_2017, result.runId!);
  }, 60_000);
  afterAll(() => data?.remove());

  it('infers the sample product and publishes run 2017032200 with its one step as the current run', async () => {
    expect(result).toMatchObject({ product: 'gfs2p5-20170322', refTime: REF_2017, steps: [0], skipped: [] });
    expect(result.runId).toMatch(/^2017032200-[0-9a-z]+$/);
    expect(await readCurrentRunId(data.dir, DIR_2017)).toBe(result.runId);
    expect(await listRunIds(data.dir, DIR_2017)).toEqual([result.runId]);
    // The staging directory became the run: nothing is left behind.
    expect(await exists(stagingDir(data.dir, DIR_2017, REF_2017))).toBe(false);
    expect(manifest).toMatchObject({ id: result.runId, product: 'gfs2p5-20170322', refTime: REF_2017, hours: [0], bounds: null, maxZoom: 1 });
    expect(manifest.stats.files).toBe(1);
  });

  it('writes the minifest with the run\'s own reference time and step, and its layers', async () => {
    const minifest = JSON.parse(await readFile(join(dir, 'minifest.json'), 'utf8'));
    expect(minifest).toMatchObject({ ref: '2017-03-22T00:00:00.000Z', dst: [[1, 0, 0]], v: '1.0', sample: true });
    expect(parseMinifest(minifest).timestamps).toEqual([REF_2017]);
    const layers = minifest.layers as Record<string, string[]>;
    for (const file of ['wind', 'gust', 'temp', 'dewpoint', 'rh', 'pressure', 'cape']) expect(layers[file], file).toContain('surface');
    for (const level of ['850h', '500h', '250h', '10h']) {
      for (const file of ['temp', 'wind', 'gh']) expect(layers[file], `${file}-${level}`).toContain(level);
    }
    expect(layers.wind).toContain('100m');
    // An analysis (f000) has no cloud cover or precipitation (averages over the hours before): no such layers.
    // The +120 h sample below has them.
    expect(layers.clouds).toBeUndefined();
    expect(layers.rain).toBeUndefined();
    expect(Object.keys(manifest.layers).sort()).toEqual(Object.entries(layers).flatMap(([file, levels]) => levels.map((l) => `${file}-${l}`)).sort());
    expect(result.variables.sort()).toEqual(Object.keys(manifest.layers).sort());
  });

  it('writes the native field and the pre-rendered zooms of every layer: the free zoom for the surface, two below for levels', async () => {
    expect(manifest.layers['temp-surface']).toMatchObject({ file: 'temp', level: 'surface', channels: 1, hours: [0], prerendered: 1 });
    expect(manifest.layers['wind-500h']).toMatchObject({ channels: 2, hours: [0], prerendered: 0 });
    expect(manifest.layers['wind-100m'].prerendered).toBe(0);
    for (const layer of Object.values(manifest.layers)) {
      const key = `${layer.file}-${layer.level}`;
      expect(await exists(join(dir, nativeRelPath(REF_2017, layer.file, layer.level))), `${key} native`).toBe(true);
      // z0 is 2 tiles, z1 8: a global field meets them all.
      const tiles = (layer.prerendered === 1 ? [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 3, 1]] : [[0, 0, 0], [0, 1, 0]]) as [number, number, number][];
      for (const [z, x, y] of tiles) expect(await exists(join(dir, tileRelPath(REF_2017, z, x, y, layer.file, layer.level))), `${key} ${z}/${x}/${y}`).toBe(true);
      if (layer.prerendered === 0) expect(await exists(join(dir, tileRelPath(REF_2017, 1, 0, 0, layer.file, layer.level))), `${key} z1`).toBe(false);
    }
    const surfaceLayers = Object.values(manifest.layers).filter((l) => l.level === 'surface').length;
    const levelLayers = Object.keys(manifest.layers).length - surfaceLayers;
    expect(result.tiles).toBe(surfaceLayers * (1 + 2 + 8) + levelLayers * (1 + 2));
  });

  it('stores every surface point variable so one read gives a grid point\'s whole series, equal to the GRIB values', async () => {
    expect(manifest.points).toMatchObject({ file: 'points.bin', nx: 144, ny: 73, lon0: -180, dLon: 2.5, lat0: 90, dLat: 2.5, global: true });
    const reader = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      expect(reader.header.refTime).toBe(REF_2017);
      expect(reader.header.hours).toEqual([0]);
      // The model's fields and those derived from them (server/ingest/derived, modelFields.ts; soil moisture from SOILW layers).
      expect(reader.header.variables.map((v) => v.ident).sort()).toEqual(['cape', 'ccl', 'deg0', 'dewpoint', 'dfm10h', 'fog', 'gtco3', 'gust', 'pressure', 'rh', 'snowcover', 'soilMoisture100', 'soilMoisture40', 'sst', 'temp', 'wetbulbtemp', 'wind_u', 'wind_v']);
      const grib: Record<string, Awaited<ReturnType<typeof decodeOneGrib>>> = {
        wind_u: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('10u', 'heightAboveGround', 10), '10u'),
        wind_v: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('10v', 'heightAboveGround', 10), '10v'),
        gust: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('gust', 'surface', 0), 'gust'),
        temp: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('2t', 'heightAboveGround', 2), '2t'),
        dewpoint: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('2d', 'heightAboveGround', 2), '2d'),
        rh: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('2r', 'heightAboveGround', 2), '2r'),
        pressure: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('prmsl', 'meanSea', 0), 'prmsl'),
        cape: await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('cape', 'surface', 0), 'surface cape'),
      };
      // A handle's reads, counted: the whole series of a node is one read.
      const probe = await open(join(dir, 'points.bin'), 'r');
      const handleProto = Object.getPrototypeOf(probe) as { read: (...args: unknown[]) => unknown };
      await probe.close();
      const reads = vi.spyOn(handleProto, 'read');
      try {
        for (const [lat, lon] of [[40, -105], [-32.5, 150], [0, 0], [65, -17.5], [-90, 0], [90, 177.5]]) {
          reads.mockClear();
          const series = (await reader.series(lat, lon, false))!;
          expect(reads).toHaveBeenCalledTimes(1);
          expect(series).toMatchObject({ hours: [0], lat, lon });
          for (const [ident, f] of Object.entries(grib)) {
            const expected = gribValueAt(f, lat, lon);
            expect(Math.abs(series.values[ident][0] - expected), `${ident} at (${lat}, ${lon}): ${series.values[ident][0]} vs ${expected}`)
              .toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, expected));
          }
          // Exactly on a node, the bilinear answer is the node's.
          const bilinear = (await reader.series(lat, lon))!;
          for (const ident of Object.keys(grib)) expect(bilinear.values[ident][0]).toBeCloseTo(series.values[ident][0], 4);
        }
      } finally {
        reads.mockRestore();
      }
    } finally {
      await reader.close();
    }
  });
});

describeWithFixtures('ingestFiles: the model\'s terrain height (GFS orography), once per run', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  afterAll(() => data?.remove());

  it('keeps HGT at the surface in the point store\'s static section, equal to the GRIB values: kilometres over Tibet, about 0 over the sea', async () => {
    data = await tempDir();
    const result = await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    const manifest = (await readRunManifest(data.dir, DIR_2017, result.runId!))!;
    expect(manifest.points?.statics).toEqual(['elevation']);
    // A static field is neither a layer nor a step series.
    expect(Object.keys(manifest.layers).some((k) => k.startsWith('elevation'))).toBe(false);
    expect(manifest.points?.variables).not.toContain('elevation');
    const orog = await decodeOneGrib(SAMPLE.gfs2p5Analysis, field('orog', 'surface', 0), 'orog');
    const reader = await PointStoreReader.open(join(runDir(data.dir, DIR_2017, result.runId!), 'points.bin'));
    try {
      expect(reader.header.statics).toEqual([{ ident: 'elevation', offset: -1000, scale: 0.25 }]);
      const at = async (lat: number, lon: number) => (await reader.statics(lat, lon, false))!.elevation;
      // Grid points: the Tibetan Plateau, the Andes, the Pacific, the Atlantic, the North Pole, the Dead Sea's cell.
      for (const [lat, lon] of [[32.5, 90], [-15, -70], [0, -140], [-30, -20], [90, 0], [32.5, 35]]) {
        const expected = gribValueAt(orog, lat, lon);
        expect(Math.abs(await at(lat, lon) - expected), `(${lat}, ${lon}): ${await at(lat, lon)} vs ${expected}`)
          .toBeLessThanOrEqual(tolerance(VARIABLES.elevation.quantization, expected));
        // Bilinear exactly on a node is the node's value.
        expect((await reader.statics(lat, lon))!.elevation).toBeCloseTo(await at(lat, lon), 4);
      }
      expect(await at(32.5, 90)).toBeGreaterThan(4000);
      expect(Math.abs(await at(0, -140))).toBeLessThan(100);
      expect(Math.abs(await at(-30, -20))).toBeLessThan(100);
      // Between nodes: between the nodes' values.
      const middle = (await reader.statics(31.25, 91.25))!.elevation;
      const corners = [[32.5, 90], [32.5, 92.5], [30, 90], [30, 92.5]].map(([lat, lon]) => gribValueAt(orog, lat, lon));
      expect(middle).toBeGreaterThanOrEqual(Math.min(...corners) - 1);
      expect(middle).toBeLessThanOrEqual(Math.max(...corners) + 1);
      expect(await reader.statics(95, 0)).toBeNull();
    } finally {
      await reader.close();
    }
  });

  it('a step that brings the orography again does not change it; a file of constants only adds no step', async () => {
    const dataDir = join(data.dir, 'twice');
    // The analysis read again as step +6 h, then its orography alone as if a time-invariant file (step 0).
    const engine = engineGribReader(await loadEngine());
    let files = 0;
    let orogDecodes = 0;
    const reader: GribReader = {
      inventory: (bytes) => {
        const infos = engine.inventory(bytes);
        files++;
        if (files === 1) return infos;
        if (files === 2) return infos.map((i) => ({ ...i, forecastStart: 6, forecastEnd: 6 }));
        return infos.filter((i) => i.shortName === 'orog');
      },
      decode: (bytes, info) => {
        if (info.shortName === 'orog') orogDecodes++;
        return engine.decode(bytes, info);
      },
    };
    const result = await ingestFiles([SAMPLE.gfs2p5Analysis, SAMPLE.gfs2p5Analysis, SAMPLE.gfs2p5Analysis], {
      dataDir, product: 'gfs2p5-20170322', reader, prerender: { surface: 0, levels: 0 },
    });
    expect(result.steps).toEqual([0, 6]);
    expect(orogDecodes).toBe(1);
    const store = await PointStoreReader.open(join(runDir(dataDir, DIR_2017, result.runId!), 'points.bin'));
    try {
      expect(store.header.hours).toEqual([0, 6]);
      expect((await store.statics(32.5, 90, false))!.elevation).toBeGreaterThan(4000);
    } finally {
      await store.close();
    }
  });
});

describeWithFixtures('ingestFiles: GFS 2.5° +120 h, 2011-01-10 12Z (clouds, precipitation)', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.gfs2p5F120], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
  }, 60_000);
  afterAll(() => data?.remove());

  it('publishes step +120 h of run 2011011012 with cloud layers and a rain rate from the 114-120 h amount', async () => {
    expect(result).toMatchObject({ product: 'gfs2p5-20110110', refTime: REF_2011, steps: [120] });
    const dir = runDir(data.dir, 'gfs2p5-20110110', result.runId!);
    const minifest = JSON.parse(await readFile(join(dir, 'minifest.json'), 'utf8'));
    expect(minifest).toMatchObject({ ref: '2011-01-10T12:00:00.000Z', dst: [[1, 120, 120]] });
    for (const file of ['clouds', 'lclouds', 'mclouds', 'hclouds', 'rain', 'wind', 'temp', 'pressure']) expect(minifest.layers[file], file).toContain('surface');
    // The total since the run's start needs the amounts before +114 h, which this file does not have.
    expect(minifest.layers.rainAccu).toBeUndefined();

    const reader = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      const [tcc] = await decodeGrib(SAMPLE.gfs2p5F120, field('tcc', 'atmosphereSingleLayer', 0));
      const [tp] = await decodeGrib(SAMPLE.gfs2p5F120, (i) => i.shortName === 'tp' && i.typeOfLevel === 'surface');
      expect(tp.info.forecastStart).toBe(114);
      let rainy = 0;
      for (let lat = -80; lat <= 80; lat += 20) {
        for (let lon = -180; lon < 180; lon += 45) {
          const series = (await reader.series(lat, lon, false))!;
          const clouds = gribValueAt(tcc, lat, lon);
          expect(Math.abs(series.values.clouds[0] - clouds)).toBeLessThanOrEqual(tolerance(VARIABLES.clouds.quantization, clouds));
          const rate = gribValueAt(tp, lat, lon) / 6; // mm over 6 h -> mm/h
          expect(Math.abs(series.values.rain[0] - rate)).toBeLessThanOrEqual(tolerance(VARIABLES.rain.quantization, rate) + 1e-6);
          if (rate > 0.1) rainy++;
        }
      }
      expect(rainy).toBeGreaterThan(0);
    } finally {
      await reader.close();
    }
  });
});

describeWithFixtures('ingestFiles: a step that brings only pressure levels', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  afterAll(() => data?.remove());

  it('publishes the run; the point series has no value at that step', async () => {
    data = await tempDir();
    // The analysis read a second time as if it held only its pressure levels, valid 6 h later
    // (an upstream's upper-air file of the next step): that step has no point variable.
    const engine = engineGribReader(await loadEngine());
    let files = 0;
    const reader: GribReader = {
      inventory: (bytes) => {
        const infos = engine.inventory(bytes);
        if (++files === 1) return infos;
        return infos.filter((i) => i.typeOfLevel === 'isobaricInhPa').map((i) => ({ ...i, forecastStart: 6, forecastEnd: 6 }));
      },
      decode: (bytes, info) => engine.decode(bytes, info),
    };
    const result = await ingestFiles([SAMPLE.gfs2p5Analysis, SAMPLE.gfs2p5Analysis], { dataDir: data.dir, product: 'gfs2p5-20170322', reader, prerender: { surface: 0, levels: 0 } });
    expect(result.steps).toEqual([0, 6]);
    expect(await readCurrentRunId(data.dir, DIR_2017)).toBe(result.runId);
    const manifest = (await readRunManifest(data.dir, DIR_2017, result.runId!))!;
    expect(manifest.layers['temp-surface'].hours).toEqual([0]);
    expect(manifest.layers['temp-500h'].hours).toEqual([0, 6]);
    const store = await PointStoreReader.open(join(runDir(data.dir, DIR_2017, result.runId!), 'points.bin'));
    try {
      const series = (await store.series(40, -105, false))!;
      expect(series.hours).toEqual([0, 6]);
      expect(series.values.temp[0]).toBeGreaterThan(200);
      expect(series.values.temp[1]).toBeNaN();
    } finally {
      await store.close();
    }
  });
});

describeWithFixtures('ingestFiles: bad input', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let truncated: string;
  let text: string;

  beforeAll(async () => {
    data = await tempDir();
    const bytes = await readFile(SAMPLE.gfs2p5Analysis);
    truncated = join(data.dir, 'truncated.grib2');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    text = join(data.dir, 'notes.grib2');
    await writeFile(text, 'These are not the fields you are looking for.\n');
  });
  afterAll(() => data?.remove());

  /** The data directory of a failed ingest: nothing published, no staging left, nothing else. */
  async function expectNothingPublished(dataDir: string): Promise<void> {
    expect(await exists(currentPointerPath(dataDir, DIR_2017))).toBe(false);
    expect(await listRunIds(dataDir, DIR_2017)).toEqual([]);
    expect(await exists(stagingDir(dataDir, DIR_2017, REF_2017))).toBe(false);
  }

  async function ingestError(promise: Promise<unknown>): Promise<IngestError> {
    const error = await promise.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    return error as IngestError;
  }

  it('a truncated GRIB2 file is an IngestError naming the file; nothing is published', async () => {
    const dataDir = join(data.dir, 'truncated');
    const error = await ingestError(ingestFiles([truncated], { dataDir }));
    expect(error.message).toContain(truncated);
    expect(error.message).toMatch(/truncated/);
    await expectNothingPublished(dataDir);
  });

  it('a file that is not GRIB2 is an IngestError naming the file; nothing is published', async () => {
    const dataDir = join(data.dir, 'text');
    const error = await ingestError(ingestFiles([text], { dataDir }));
    expect(error.message).toContain(text);
    expect(error.message).toMatch(/not a GRIB2 file/);
    await expectNothingPublished(dataDir);
  });

  it('a missing file is an IngestError naming it', async () => {
    const missing = join(data.dir, 'nowhere.grib2');
    const error = await ingestError(ingestFiles([missing], { dataDir: join(data.dir, 'missing') }));
    expect(error.message).toContain(missing);
    expect(error.message).toMatch(/cannot be read/);
  });

  it('a bad file after a good one of the same run publishes nothing of the run', async () => {
    const dataDir = join(data.dir, 'good-then-truncated');
    const error = await ingestError(ingestFiles([SAMPLE.gfs2p5Analysis, truncated], { dataDir, product: 'gfs2p5-20170322', prerender: { surface: 0, levels: 0 } }));
    expect(error.message).toContain(truncated);
    expect(await exists(currentPointerPath(dataDir, DIR_2017))).toBe(false);
    expect(await listRunIds(dataDir, DIR_2017)).toEqual([]);
    // The good file's step stays staged (not served) for a later ingest of the run to go on from.
    expect((await stat(join(stagingDir(dataDir, DIR_2017, REF_2017), 'build.json'))).isFile()).toBe(true);
    expect(await exists(join(stagingDir(dataDir, DIR_2017, REF_2017), '.lock'))).toBe(false);
  });

  it('a field that cannot be decoded half-way through a new step leaves none of that step\'s files; the steps before stay staged', async () => {
    // Fields are decoded as their layers' turn comes, so the step's first layers are written
    // before the bad field is reached: they must go again.
    const dataDir = join(data.dir, 'bad-field');
    const engine = engineGribReader(await loadEngine());
    let files = 0;
    let decoded = 0;
    const reader: GribReader = {
      inventory: (bytes) => {
        const infos = engine.inventory(bytes);
        return ++files === 1 ? infos : infos.map((i) => ({ ...i, forecastStart: 6, forecastEnd: 6 }));
      },
      decode: (bytes, info) => {
        if (files === 2 && ++decoded === 12) throw new Error('corrupt section 7');
        return engine.decode(bytes, info);
      },
    };
    const error = await ingestError(ingestFiles([SAMPLE.gfs2p5Analysis, SAMPLE.gfs2p5Analysis], { dataDir, product: 'gfs2p5-20170322', reader, prerender: { surface: 0, levels: 0 } }));
    expect(error.message).toContain(SAMPLE.gfs2p5Analysis);
    expect(error.message).toMatch(/cannot be decoded: corrupt section 7/);
    const staging = stagingDir(dataDir, DIR_2017, REF_2017);
    const valid6 = REF_2017 + 6 * HOUR_MS;
    expect(await exists(join(staging, tileRelPath(REF_2017, 0, 0, 0, 'temp', 'surface')))).toBe(true);
    for (const name of ['tiles', 'native']) expect(await exists(join(staging, name, hourStamp(valid6))), name).toBe(false);
    expect(JSON.parse(await readFile(join(staging, 'build.json'), 'utf8')).hours).toEqual([0]);
    expect(await exists(currentPointerPath(dataDir, DIR_2017))).toBe(false);
  });

  it('files of two products in one ingest are refused, naming the file; nothing is published', async () => {
    const dataDir = join(data.dir, 'mixed');
    const error = await ingestError(ingestFiles([SAMPLE.gfs2p5Analysis, SAMPLE.gfs2p5F120], { dataDir, prerender: { surface: 0, levels: 0 } }));
    expect(error.message).toContain(SAMPLE.gfs2p5F120);
    expect(error.message).toMatch(/belongs to gfs2p5-20110110.*loading gfs2p5-20170322/);
    expect(await exists(currentPointerPath(dataDir, DIR_2017))).toBe(false);
    expect(await readdir(dataDir).catch(() => [])).not.toContain('gfs2p5-20110110');
  });

  it('an unknown product ident is refused before anything is read or written', async () => {
    const dataDir = join(data.dir, 'unknown');
    for (const ident of ['nope', 'toString', '__proto__']) {
      const error = await ingestError(ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir, product: ident }));
      expect(error.message).toContain(`Unknown product "${ident}"`);
      expect(error.message).toContain('gfs2p5-20170322');
    }
    const demo = await ingestError(ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir, product: 'demo' }));
    expect(demo.message).toMatch(/demo product is generated/);
    expect(await exists(dataDir)).toBe(false);
  });
});
