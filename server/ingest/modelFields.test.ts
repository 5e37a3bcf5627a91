import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import type { SourceGrid } from '../../engine/regrid.ts';
import { ingestFiles, type IngestResult } from './ingest.ts';
import { runDir } from './layout.ts';
import {
  deepWaterGroupVelocity, deriveModelFields, pressureAltitude, ptypeFromCategorical, ptypeFromWmo, seaSurfaceTemperature, snowDepthFrom, soilMoistureOver, waveFlow,
  type LazyField,
} from './modelFields.ts';
import { PointStoreReader } from './points.ts';
import { decodeOneGrib, describeWithFixtures, field, gribValueAt, SAMPLE, tempDir, tolerance } from './testing.ts';

const f32 = (...v: number[]) => Float32Array.from(v);

describe('pressure altitude in the ICAO Standard Atmosphere (ICAO Doc 7488/3 table)', () => {
  it.each([
    // [hPa, m]: the table's geopotential altitudes of the standard pressures.
    [1013.25, 0], [850, 1457], [700, 3012], [500, 5574], [300, 9164], [250, 10363], [200, 11784], [100, 16180],
  ])('%s hPa is %s m', (hPa, m) => {
    expect(pressureAltitude(hPa * 100)).toBeCloseTo(m, -0.3);
  });
  it('has no altitude for no pressure', () => {
    expect(pressureAltitude(0)).toBeNaN();
    expect(pressureAltitude(NaN)).toBeNaN();
  });
});

describe('wave flow (linear wave theory, deep water)', () => {
  it('travels at the group velocity g T / 4 pi: a 10 s swell 7.8 m/s, an 8 s one 6.24 m/s', () => {
    expect(deepWaterGroupVelocity(10)).toBeCloseTo(7.804, 3);
    expect(deepWaterGroupVelocity(8)).toBeCloseTo(6.243, 3);
  });
  it('goes where the waves travel to: the GRIB direction is where they come from', () => {
    const [u, v] = waveFlow(f32(270, 0, 180, 45, NaN), f32(10, 10, 8, 12, 10));
    // From the west: eastward. From the north: southward. From the south: northward.
    expect(u[0]).toBeCloseTo(7.804, 3);
    expect(v[0]).toBeCloseTo(0, 6);
    expect(v[1]).toBeCloseTo(-7.804, 3);
    expect(v[2]).toBeCloseTo(6.243, 3);
    // From the north-east: to the south-west, the speed kept.
    expect(u[3]).toBeCloseTo(v[3], 6);
    expect(u[3]).toBeLessThan(0);
    expect(Math.hypot(u[3], v[3])).toBeCloseTo(deepWaterGroupVelocity(12), 5);
    expect(u[4]).toBeNaN();
  });
});

describe('precipitation type (SPEC §9 codes)', () => {
  it('from NCEP categorical flags', () => {
    const rain = f32(1, 0, 0, 0, 1, 0, 0, 0, 0.5);
    const snow = f32(0, 1, 0, 0, 1, 1, 0, 0, 0);
    const freezing = f32(0, 0, 1, 0, 0, 1, 0, 0, 0);
    const pellets = f32(0, 0, 0, 1, 0, 0, 0, 0, 0);
    const codes = [...ptypeFromCategorical({ rain, snow, freezing, pellets })];
    // rain, snow, freezing rain, pellets, rain and snow, mixed ice, none, none, a 6 h average flag of 0.5: rain.
    expect(codes.slice(0, 6)).toEqual([1, 5, 3, 8, 7, 4]);
    expect(codes[6]).toBeNaN();
    expect(codes[8]).toBe(1);
  });
  it('from WMO Code Table 4.201 (ECMWF ptype)', () => {
    const codes = [...ptypeFromWmo(f32(0, 1, 3, 5, 6, 7, 8, 12, 11, 255))];
    expect(codes[0]).toBeNaN();
    expect(codes.slice(1, 9)).toEqual([1, 3, 5, 6, 7, 8, 3, 1]);
    expect(codes[9]).toBeNaN();
  });
});

describe('sea surface temperature and snow depth', () => {
  it('keeps the surface temperature over open water only', () => {
    const sst = seaSurfaceTemperature(f32(290, 300, 271, 280), f32(0, 100, 0, 30), f32(0, 0, 100, 0));
    expect(sst[0]).toBe(290);
    expect(sst[1]).toBeNaN();
    expect(sst[2]).toBeNaN();
    expect(sst[3]).toBe(280);
  });
  it('turns ECMWF water equivalent and density into depth: 30 kg/m² at 300 kg/m³ is 10 cm', () => {
    expect([...snowDepthFrom(f32(30, 0, 5), f32(300, 100, 0))].slice(0, 2)).toEqual([10, 0]);
    expect(snowDepthFrom(f32(5), f32(0))[0]).toBeNaN();
  });
});

describe('soil moisture over a depth (thickness-weighted mean of the layers)', () => {
  it('0-40 cm from 0-10 and 10-40 cm: (0.1 x 20 + 0.3 x 30) / 0.4 = 27.5 %', () => {
    const out = soilMoistureOver([{ values: f32(20, 35, 100, NaN), thickness: 0.1 }, { values: f32(30, 35, 30, 30), thickness: 0.3 }]);
    expect(out[0]).toBeCloseTo(27.5, 5);
    expect(out[1]).toBeCloseTo(35, 5);
    // Noah's land-ice flag (100 %) and a missing layer give no value.
    expect(out[2]).toBeNaN();
    expect(out[3]).toBeNaN();
  });
});

describe('deriveModelFields', () => {
  const grid: SourceGrid = { ni: 2, nj: 1, lon0: 0, dLon: 1, lat0: 0, dLat: 1, global: false };
  const lazy = (...v: number[]): LazyField => () => Promise.resolve({ values: f32(...v), grid });

  it('derives from the inputs, keeps what the model sent, and removes the inputs', async () => {
    const values = new Map<string, LazyField>([
      ['waves_dir@surface', lazy(270, 0)], ['waves_period@surface', lazy(10, 10)],
      ['sst@surface', lazy(290, 291)], ['sst_skin@surface', lazy(1, 1)], ['sst_land@surface', lazy(0, 0)],
      ['ptype_rain@surface', lazy(1, 0)], ['ptype_snow@surface', lazy(0, 1)],
      ['cloudtop_pressure@surface', lazy(50_000, NaN)],
    ]);
    deriveModelFields(values);
    expect([...values.keys()].sort()).toEqual(['cloudtop@surface', 'ptype@surface', 'sst@surface', 'wavesFlow_u@surface', 'wavesFlow_v@surface']);
    expect((await values.get('wavesFlow_u@surface')!())!.values[0]).toBeCloseTo(7.804, 3);
    expect([...(await values.get('sst@surface')!())!.values]).toEqual([290, 291]);
    expect([...(await values.get('ptype@surface')!())!.values]).toEqual([1, 5]);
    expect((await values.get('cloudtop@surface')!())!.values[0]).toBeCloseTo(5574, -0.3);
  });

  it('leaves the inputs of the derived fields that run after it (convective rain, surface pressure, irradiance)', () => {
    const values = new Map<string, LazyField>([
      ['convRain@surface', lazy(1, 2)], ['surfacePressure@surface', lazy(100_000, 90_000)], ['ghi@surface', lazy(500, 0)],
      ['ptype_rain@surface', lazy(1, 0)],
    ]);
    deriveModelFields(values);
    expect([...values.keys()].sort()).toEqual(['convRain@surface', 'ghi@surface', 'ptype@surface', 'surfacePressure@surface']);
  });

  it('gives nothing from inputs on different grids or from a direction without its period', async () => {
    const other: LazyField = () => Promise.resolve({ values: f32(0, 0), grid: { ...grid, lon0: 5 } });
    const values = new Map<string, LazyField>([
      ['sst_skin@surface', lazy(290, 291)], ['sst_land@surface', other], ['wwaves_dir@surface', lazy(0, 0)],
    ]);
    deriveModelFields(values);
    expect([...values.keys()]).toEqual(['sst@surface']);
    expect(await values.get('sst@surface')!()).toBeNull();
  });
});

/**
 * Checks a point store's values against the decoded GRIB field at grid points; returns how many
 * nodes had a value. A missing node beside valued ones takes theirs (engine/regrid.ts, SPEC §5:
 * missing nodes are skipped, one valid node of four gives none), so only nodes valued in both are
 * compared, and fewer than `lostShare` of the valued GRIB nodes may have lost their value that way
 * (scattered convective cells lose more than wide fields).
 */
async function expectPoints(
  reader: PointStoreReader, ident: string, expected: (lat: number, lon: number) => number, lostShare = 0.1,
): Promise<number> {
  let valued = 0;
  let lost = 0;
  for (let lat = -80; lat <= 80; lat += 10) {
    for (let lon = -180; lon < 180; lon += 25) {
      const series = (await reader.series(lat, lon, false))!;
      const want = expected(lat, lon);
      const got = series.values[ident][0];
      if (Number.isNaN(want)) continue;
      if (Number.isNaN(got)) {
        lost++;
        continue;
      }
      valued++;
      expect(Math.abs(got - want), `${ident} at (${lat}, ${lon}): ${got} vs ${want}`).toBeLessThanOrEqual(tolerance(VARIABLES[ident].quantization, want));
    }
  }
  expect(lost, `${ident}: valued GRIB nodes stored as missing`).toBeLessThan(valued * lostShare);
  return valued;
}

describeWithFixtures('ingestFiles: overlays straight from the GFS 2.5° analysis, 2017-03-22 00Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let result: IngestResult;
  let dir: string;

  beforeAll(async () => {
    data = await tempDir();
    result = await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    dir = runDir(data.dir, 'gfs2p5-20170322', result.runId!);
  }, 60_000);
  afterAll(() => data?.remove());

  it('writes the layers of deg0, gtco3, snowcover and sst, and no tile of an input', async () => {
    const minifest = JSON.parse(await readFile(join(dir, 'minifest.json'), 'utf8')) as { layers: Record<string, string[]> };
    for (const file of ['deg0', 'gtco3', 'snowcover', 'sst']) expect(minifest.layers[file], file).toEqual(['surface']);
    for (const file of Object.keys(minifest.layers)) expect(VARIABLES[file]?.input, file).toBeFalsy();
    // The analysis has no categorical precipitation and no convective clouds.
    expect(minifest.layers.ptype).toBeUndefined();
    expect(minifest.layers.cloudtop).toBeUndefined();
  });

  it('stores soil moisture 0-40 cm (thickness-weighted) and 40-100 cm equal to SOILW x 100, none over the sea or land ice', async () => {
    const file = SAMPLE.gfs2p5Analysis;
    const layer = (top: number, bottom: number) => decodeOneGrib(file, (i) => i.shortName === 'soilw'
      && Math.abs(i.firstSurfaceValue - top) < 1e-9 && Math.abs(i.secondSurfaceValue - bottom) < 1e-9, `soilw ${top}-${bottom} m`);
    const [l1, l2, l3] = [await layer(0, 0.1), await layer(0.1, 0.4), await layer(0.4, 1)];
    // Land ice (Greenland, Antarctica) has the flag 1 m³/m³ in every layer.
    for (const [lat, lon] of [[72.5, -40], [-80, 0]]) for (const l of [l1, l2, l3]) expect(gribValueAt(l, lat, lon)).toBe(1);
    const soil = (theta: number) => (theta >= 0.999 ? NaN : theta * 100);
    const reader = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      const n40 = await expectPoints(reader, 'soilMoisture40', (lat, lon) => (0.1 * soil(gribValueAt(l1, lat, lon)) + 0.3 * soil(gribValueAt(l2, lat, lon))) / 0.4, 0.2);
      const n100 = await expectPoints(reader, 'soilMoisture100', (lat, lon) => soil(gribValueAt(l3, lat, lon)), 0.2);
      expect(n40).toBeGreaterThan(40);
      expect(n100).toBe(n40);
      expect((await reader.series(-80, 0, false))!.values.soilMoisture40[0]).toBeNaN();
      expect((await reader.series(0, -150, false))!.values.soilMoisture40[0]).toBeNaN();
    } finally {
      await reader.close();
    }
  });

  it('stores them equal to the decoded fields: HGT at 0 °C, TOZNE, SNOD in cm, TMP over open water', async () => {
    const file = SAMPLE.gfs2p5Analysis;
    const deg0 = await decodeOneGrib(file, field('gh', 'isothermZero', 0), 'gh isothermZero');
    const tozne = await decodeOneGrib(file, field('tozne', 'atmosphereSingleLayer', 0), 'tozne');
    const sde = await decodeOneGrib(file, field('sde', 'surface', 0), 'sde');
    const t = await decodeOneGrib(file, field('t', 'surface', 0), 't surface');
    const lsm = await decodeOneGrib(file, field('lsm', 'surface', 0), 'lsm');
    const ci = await decodeOneGrib(file, field('ci', 'surface', 0), 'ci');
    const reader = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      expect(await expectPoints(reader, 'deg0', (lat, lon) => gribValueAt(deg0, lat, lon))).toBeGreaterThan(200);
      expect(await expectPoints(reader, 'gtco3', (lat, lon) => gribValueAt(tozne, lat, lon))).toBeGreaterThan(200);
      // SNOD is missing (bitmap) over the sea: no snow depth there.
      const snowy = await expectPoints(reader, 'snowcover', (lat, lon) => gribValueAt(sde, lat, lon) * 100);
      expect(snowy).toBeGreaterThan(50);
      const sea = await expectPoints(reader, 'sst', (lat, lon) => {
        const ice = gribValueAt(ci, lat, lon);
        return gribValueAt(lsm, lat, lon) < 0.5 && !(ice >= 0.5) ? gribValueAt(t, lat, lon) : NaN;
      });
      expect(sea).toBeGreaterThan(120);
      // A golden grid point: the freezing level over the equatorial Pacific, (0°, -150°).
      expect((await reader.series(0, -150, false))!.values.deg0[0]).toBeCloseTo(gribValueAt(deg0, 0, -150), 0);
      expect(gribValueAt(deg0, 0, -150)).toBeGreaterThan(4000);
    } finally {
      await reader.close();
    }
  });
});

describeWithFixtures('ingestFiles: precipitation type and convective cloud heights from GFS 2.5° +120 h, 2011-01-10 12Z', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let dir: string;

  beforeAll(async () => {
    data = await tempDir();
    const result = await ingestFiles([SAMPLE.gfs2p5F120], { dataDir: data.dir, prerender: { surface: 0, levels: 0 } });
    dir = runDir(data.dir, 'gfs2p5-20110110', result.runId!);
  }, 60_000);
  afterAll(() => data?.remove());

  it('stores ptype from CRAIN/CSNOW/CFRZR/CICEP and cloudtop/cbase as pressure altitudes of PRES at the convective cloud top/bottom', async () => {
    const minifest = JSON.parse(await readFile(join(dir, 'minifest.json'), 'utf8')) as { layers: Record<string, string[]> };
    for (const file of ['ptype', 'cloudtop', 'cbase', 'deg0', 'gtco3', 'sst']) expect(minifest.layers[file], file).toEqual(['surface']);
    const file = SAMPLE.gfs2p5F120;
    const flag = (name: string) => decodeOneGrib(file, field(name, 'surface', 0), name);
    const [crain, csnow, cfrzr, cicep] = await Promise.all(['crain', 'csnow', 'cfrzr', 'cicep'].map(flag));
    const top = await decodeOneGrib(file, field('pres', 'convectiveCloudTop', 0), 'pres convectiveCloudTop');
    const bottom = await decodeOneGrib(file, field('pres', 'convectiveCloudBottom', 0), 'pres convectiveCloudBottom');
    const reader = await PointStoreReader.open(join(dir, 'points.bin'));
    try {
      const at = (g: typeof crain, lat: number, lon: number) => Float32Array.of(gribValueAt(g, lat, lon));
      const wet = await expectPoints(reader, 'ptype', (lat, lon) => ptypeFromCategorical({
        rain: at(crain, lat, lon), snow: at(csnow, lat, lon), freezing: at(cfrzr, lat, lon), pellets: at(cicep, lat, lon),
      })[0]);
      expect(wet).toBeGreaterThan(20);
      const tops = await expectPoints(reader, 'cloudtop', (lat, lon) => pressureAltitude(gribValueAt(top, lat, lon)), 0.5);
      const bases = await expectPoints(reader, 'cbase', (lat, lon) => pressureAltitude(gribValueAt(bottom, lat, lon)), 0.5);
      expect(tops).toBeGreaterThan(10);
      expect(bases).toBe(tops);
    } finally {
      await reader.close();
    }
  });
});
