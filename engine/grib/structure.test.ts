/**
 * The decoder on messages written by the test encoder (testing.ts): the structures and packings
 * the real fixtures do not exercise — every scanning mode, complex packing with missing values,
 * IEEE packing, sections shared between fields, Gaussian and projected grids — and the errors.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine } from '../testing.ts';
import {
  decodeField, gaussianLatitudes, GribError, inventory, toNorthUp, type GribFieldInfo,
} from './index.ts';
import { concatBytes, encodeMessage, type TestField, type TestGrid } from './testing.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

async function decodeAll(bytes: Uint8Array): Promise<{ info: GribFieldInfo; values: number[] }[]> {
  const out = [];
  for (const info of inventory(bytes)) out.push({ info, values: Array.from(await decodeField(engine, bytes, info)) });
  return out;
}

const simple = { template: 0 } as const;

describe('scanning modes', () => {
  // A 4 x 3 grid, 10° apart: rows 40 N, 30 N, 20 N; columns 0, 10, 20, 30 E. Truth value at
  // (lat, lon) = lat * 10 + lon / 10, so every point is distinct and says where it lies.
  const lats = [40, 30, 20];
  const lons = [0, 10, 20, 30];
  const truth = (lat: number, lon: number) => lat * 10 + lon / 10;

  /** The points in scanning order, straight from the Flag Table 3.4 definitions. */
  function scanOrder(mode: number): { lat: number; lon: number }[] {
    const west = (mode & 0x80) === 0;
    const south = (mode & 0x40) !== 0;
    const columns = (mode & 0x20) !== 0;
    const alternate = (mode & 0x10) !== 0;
    const xs = west ? lons : [...lons].reverse();
    const ys = south ? [...lats].reverse() : lats;
    const points: { lat: number; lon: number }[] = [];
    if (!columns) {
      ys.forEach((lat, line) => {
        const row = alternate && line % 2 === 1 ? [...xs].reverse() : xs;
        for (const lon of row) points.push({ lat, lon });
      });
    } else {
      xs.forEach((lon, line) => {
        const column = alternate && line % 2 === 1 ? [...ys].reverse() : ys;
        for (const lat of column) points.push({ lat, lon });
      });
    }
    return points;
  }

  for (let mode = 0; mode < 0x100; mode += 0x10) {
    it(`lays out scanning mode 0x${mode.toString(16).padStart(2, '0')} north-up`, async () => {
      const order = scanOrder(mode);
      const first = order[0];
      // lat2/lon2 are the last point of the scan, as the template defines them (for the
      // alternating modes that corner still bounds the grid).
      const corner = { lat: (mode & 0x40) ? 40 : 20, lon: (mode & 0x80) ? 0 : 30 };
      const grid: TestGrid = {
        template: 0, Ni: 4, Nj: 3, lat1: first.lat, lon1: first.lon, lat2: corner.lat, lon2: corner.lon,
        dLon: 10, dLat: 10, scanningMode: mode,
      };
      const bytes = encodeMessage([{ grid, packing: simple, values: order.map((p) => truth(p.lat, p.lon)) }]);
      const [{ info, values }] = await decodeAll(bytes);
      expect(info.grid).toMatchObject({ north: 40, south: 20, west: 0, east: 30, dLat: 10, dLon: 10, mappable: true });
      const north = toNorthUp(info, Float32Array.from(values));
      expect({ lat0: north.lat0, lon0: north.lon0, dLat: north.dLat, dLon: north.dLon }).toEqual({ lat0: 40, lon0: 0, dLat: 10, dLon: 10 });
      expect(Array.from(north.values)).toEqual(lats.flatMap((lat) => lons.map((lon) => truth(lat, lon))));
    });
  }

  it('marks staggered modes (bits 5-8) and a contradicting corner as not mappable', () => {
    const grid: TestGrid = { template: 0, Ni: 2, Nj: 2, lat1: 10, lon1: 0, lat2: 0, lon2: 10, dLon: 10, dLat: 10, scanningMode: 0x08 };
    const [staggered] = inventory(encodeMessage([{ grid, packing: simple, values: [1, 2, 3, 4] }]));
    expect(staggered.grid.mappable).toBe(false);
    // Mode 0x40 says rows go north, but lat2 is south of lat1.
    const [contradiction] = inventory(encodeMessage([{ grid: { ...grid, scanningMode: 0x40 }, packing: simple, values: [1, 2, 3, 4] }]));
    expect(contradiction.grid.mappable).toBe(false);
    expect(() => toNorthUp(contradiction, new Float32Array(4))).toThrow(/says rows go north/);
  });
});

describe('grids', () => {
  it('computes Gaussian latitudes (Legendre zeros) for any N', () => {
    expect(gaussianLatitudes(1)[0]).toBeCloseTo((Math.asin(1 / Math.sqrt(3)) * 180) / Math.PI, 12);
    const x = Math.sqrt((3 + 2 * Math.sqrt(6 / 5)) / 7); // largest zero of P4
    expect(gaussianLatitudes(2)[0]).toBeCloseTo((Math.asin(x) * 180) / Math.PI, 12);
    const n640 = gaussianLatitudes(640);
    expect(n640.length).toBe(1280);
    expect(n640[0]).toBeCloseTo(89.892396445590066, 9); // ECMWF's N640 (the 0.125° IFS Gaussian grid)
    expect(n640[1279]).toBe(-n640[0]);
    for (let k = 1; k < n640.length; k++) expect(n640[k]).toBeLessThan(n640[k - 1]);
  });

  it('reads a regular Gaussian grid (3.40) and reports its latitudes north-up', async () => {
    const N = 4;
    const lats = gaussianLatitudes(N);
    const grid: TestGrid = {
      template: 40, Ni: 16, Nj: 8, lat1: lats[7], lon1: 0, lat2: lats[0], lon2: 337.5, dLon: 22.5, dLat: N, scanningMode: 0x40,
    };
    const values = Array.from({ length: 128 }, (_, k) => k);
    const [{ info, values: decoded }] = await decodeAll(encodeMessage([{ grid, packing: simple, values }]));
    expect(info.grid).toMatchObject({ type: 'regular_gg', gaussianN: 4, Ni: 16, Nj: 8, global: true, mappable: true });
    expect(Array.from(info.grid.latitudes!)).toEqual(Array.from(lats).reverse());
    const north = toNorthUp(info, Float32Array.from(decoded));
    expect(Array.from(north.latitudes!)).toEqual(Array.from(lats));
    expect(north.lat0).toBe(lats[0]);
    // Rows were stored south first: the first north-up row is the last stored one.
    expect(Array.from(north.values.subarray(0, 16))).toEqual(values.slice(112));
  });

  it('parses Mercator and Lambert grids and decodes their values, but does not map them', async () => {
    for (const [template, type] of [[10, 'mercator'], [30, 'lambert']] as const) {
      const bytes = encodeMessage([{ grid: { template, Ni: 3, Nj: 2, lat1: 20, lon1: 250 }, packing: simple, values: [1, 2, 3, 4, 5, 6] }]);
      const [{ info, values }] = await decodeAll(bytes);
      expect(info.grid).toMatchObject({ template, type, Ni: 3, Nj: 2, lat1: 20, lon1: 250, mappable: false });
      expect(values).toEqual([1, 2, 3, 4, 5, 6]);
      expect(() => toNorthUp(info, Float32Array.from(values))).toThrow(GribError);
    }
  });

  it('refuses a lat/lon grid whose Ni x Nj is not its number of points', () => {
    const grid: TestGrid = { template: 0, Ni: 3, Nj: 3, lat1: 10, lon1: 0, lat2: 0, lon2: 10, dLon: 5, dLat: 5, numberOfPoints: 8 };
    expect(() => inventory(encodeMessage([{ grid, packing: simple, values: new Array(8).fill(1) }]))).toThrow(/Ni x Nj = 3 x 3/);
  });
});

const grid2x3: TestGrid = { template: 0, Ni: 3, Nj: 2, lat1: 10, lon1: 0, lat2: 0, lon2: 20, dLon: 10, dLat: 10 };

describe('packings', () => {
  const series = [5, 7, 7, 7, 12, 3, 3, 900, 901, 899, 0, 42, 42, 43, 1000, 6];
  const grid = { ...grid2x3, Ni: 4, Nj: 4, lon2: 30, lat2: -20 };
  const withGaps = series.map((v, k) => (k % 5 === 2 || k === 0 ? null : v));

  for (const template of [2, 3] as const) {
    for (const order of template === 3 ? [1, 2] as const : [undefined]) {
      for (const groupSize of [1, 3, 16]) {
        const name = `5.${template}${order ? ` order ${order}` : ''}, groups of ${groupSize}`;
        it(`${name}: exact values`, async () => {
          const bytes = encodeMessage([{ grid, packing: { template, order, groupSize }, values: series }]);
          const [{ info, values }] = await decodeAll(bytes);
          expect(info.packingType).toBe(template === 2 ? 'grid_complex' : 'grid_complex_spatial_differencing');
          expect(values).toEqual(series);
        });
        for (const missingManagement of [1, 2] as const) {
          it(`${name}, missing value management ${missingManagement}: NaN where missing`, async () => {
            const bytes = encodeMessage([{
              grid, packing: { template, order, groupSize, missingManagement }, values: withGaps, missing: 'packing',
            }]);
            const [{ info, values }] = await decodeAll(bytes);
            expect(info.bitmapPresent).toBe(0);
            expect(values).toEqual(withGaps.map((v) => v ?? NaN));
          });
        }
        it(`${name} under a bit-map`, async () => {
          const bytes = encodeMessage([{ grid, packing: { template, order, groupSize }, values: withGaps }]);
          const [{ info, values }] = await decodeAll(bytes);
          expect(info).toMatchObject({ bitmapPresent: 1, numberOfMissing: 4, numberOfPackedValues: 12 });
          expect(values).toEqual(withGaps.map((v) => v ?? NaN));
        });
      }
    }
  }

  it('a complex-packed group of missing values only (width 0, all-ones reference)', async () => {
    const values = [1, 2, 3, null, null, null, 4, 5, 6];
    for (const template of [2, 3] as const) {
      for (const missingManagement of [1, 2] as const) {
        const bytes = encodeMessage([{
          grid: { ...grid2x3, Nj: 3, lat2: -10 }, packing: { template, groupSize: 3, missingManagement }, values, missing: 'packing',
        }]);
        expect((await decodeAll(bytes))[0].values).toEqual(values.map((v) => v ?? NaN));
      }
    }
  });

  it('applies the binary and decimal scale factors: Y = (R + X * 2^E) / 10^D', async () => {
    const bytes = encodeMessage([{ grid: grid2x3, packing: { template: 0, binaryScale: 0, decimalScale: 2 }, values: [100, 150, 199, 0, 1, 12345] }]);
    const [{ values }] = await decodeAll(bytes);
    expect(values).toEqual([1, 1.5, 1.99, 0, 0.01, 123.45].map(Math.fround));
    const coarse = encodeMessage([{ grid: grid2x3, packing: { template: 0, binaryScale: 0, decimalScale: -1 }, values: [1, 2, 3, 4, 5, 6] }]);
    expect((await decodeAll(coarse))[0].values).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('a zero-bit field is constant, bit-map included', async () => {
    const bytes = encodeMessage([{ grid: grid2x3, packing: { template: 0, bits: 0 }, values: [7, null, 7, 7, null, 7] }]);
    const [{ info, values }] = await decodeAll(bytes);
    expect(info.bitsPerValue).toBe(0);
    expect(values).toEqual([7, NaN, 7, 7, NaN, 7]);
  });

  it('IEEE packing (5.4), 32 and 64 bits', async () => {
    const data = [1.5, -2.25, 3e10, 0, null, 1e-3];
    for (const precision of [1, 2] as const) {
      const bytes = encodeMessage([{ grid: grid2x3, packing: { template: 4, precision }, values: data }]);
      const [{ info, values }] = await decodeAll(bytes);
      expect(info).toMatchObject({ packingType: 'grid_ieee', bitsPerValue: precision === 1 ? 32 : 64 });
      expect(values).toEqual(data.map((v) => (v === null ? NaN : Math.fround(v))));
    }
  });

  it('every bits-per-value from 1 to 32 in simple packing', async () => {
    for (let bits = 1; bits <= 32; bits++) {
      const max = 2 ** bits - 1;
      const data = [0, max, 1, Math.floor(max / 3), max - 1, 0];
      const bytes = encodeMessage([{ grid: grid2x3, packing: { template: 0, bits }, values: data }]);
      // R = 0 (the minimum); X up to 2^32 - 1 read as unsigned.
      expect((await decodeAll(bytes))[0].values, `${bits} bits`).toEqual(data.map(Math.fround));
    }
  });
});

describe('messages and fields', () => {
  const u = { grid: grid2x3, product: { category: 2, number: 2, surface: 103, surfaceValue: 10 }, packing: simple, values: [1, 2, 3, 4, 5, 6] };
  const v = { ...u, product: { ...u.product, number: 3 }, values: [6, 5, 4, 3, 2, 1] };

  it('lists several messages and several fields per message, in order', async () => {
    const first = encodeMessage([u, v], { localSection: true }); // 1 2 3 4 5 6 7 4 5 6 7
    const second = encodeMessage([u, { ...v, grid: { ...grid2x3, lon1: 100, lon2: 120 } }]); // 1 3 4 5 6 7 3 4 5 6 7
    const third = encodeMessage([u, { ...v, grid: { ...grid2x3, lon1: 200, lon2: 220 } }], { localSection: 'every grid' }); // 1 2 3 ... 7 2 3 ... 7
    const file = concatBytes(first, second, third, new Uint8Array(3)); // trailing NUL padding is allowed
    const fields = inventory(file);
    const third0 = first.length + second.length;
    expect(fields.map((f) => [f.message, f.field, f.shortName, f.offset])).toEqual([
      [0, 0, '10u', 0], [0, 1, '10v', 0], [1, 0, '10u', first.length], [1, 1, '10v', first.length],
      [2, 0, '10u', third0], [2, 1, '10v', third0],
    ]);
    expect(fields.map((f) => f.grid.lon1)).toEqual([0, 0, 0, 100, 0, 200]);
    const values = await Promise.all(fields.map((f) => decodeField(engine, file, f)));
    expect(values.map((x) => Array.from(x))).toEqual([u.values, v.values, u.values, v.values, u.values, v.values]);
    // The message alone decodes too.
    const alone = file.slice(fields[3].offset, fields[3].offset + fields[3].length);
    expect(Array.from(await decodeField(engine, alone, fields[3]))).toEqual(v.values);
  });

  it('reuses the previous bit-map (indicator 254)', async () => {
    const a: TestField = { ...u, values: [1, null, 3, null, 5, 6] };
    const b: TestField = { ...v, values: [6, null, 4, null, 2, 1], missing: 'previous' };
    const fields = await decodeAll(encodeMessage([a, b]));
    expect(fields.map((f) => f.info.bitmapPresent)).toEqual([1, 1]);
    expect(fields[1].values).toEqual([6, NaN, 4, NaN, 2, 1]);
  });

  it('reads identity, levels and steps as ecCodes names them', () => {
    const accumulation: TestField = {
      grid: grid2x3, packing: simple, values: [0, 0, 0, 0, 0, 0],
      product: { template: 8, category: 1, number: 8, forecastTime: 114, statistic: { type: 1, length: 6 } },
    };
    const layer: TestField = {
      grid: grid2x3, packing: simple, values: [0, 0, 0, 0, 0, 0],
      product: { category: 3, number: 5, surface: 100, surfaceValue: 50000, forecastTime: 90, timeUnit: 0 },
    };
    const fields = inventory(encodeMessage([accumulation, layer], { centre: 98, refTime: [2024, 3, 9, 6, 30] }));
    expect(fields[0]).toMatchObject({
      centre: 'ecmf', shortName: 'tp', paramId: 228228, typeOfLevel: 'surface', level: 0, stepRange: '114-120',
      forecastStart: 114, forecastEnd: 120, statisticalProcessing: 1, productTemplate: 8,
      dataDate: 20240309, dataTime: 630, refTime: Date.UTC(2024, 2, 9, 6, 30),
    });
    expect(fields[1]).toMatchObject({ shortName: 'gh', typeOfLevel: 'isobaricInhPa', level: 500, stepRange: '90', forecastStart: 1.5 }); // ecCodes 2.28: in minutes (stepUnits 0)
  });

  it('reads the aerosol type, particle size and wavelength of template 4.48', async () => {
    // As GEFS-Aerosols sends them: PM2.5 (NCEP PMTF, total aerosol, d < 2.5e-6 m) at the surface,
    // and the 550 nm aerosol optical depth (545-565 nm, Code Table 4.91 type 7) of the whole atmosphere.
    const pm: TestField = {
      grid: grid2x3, packing: simple, values: [1, 2, 3, 4, 5, 6],
      product: { template: 48, category: 13, number: 193, aerosol: { type: 62000, size: { type: 0, first: [7, 25], second: [0, 0] } } },
    };
    const aod: TestField = {
      grid: grid2x3, packing: simple, values: [6, 5, 4, 3, 2, 1],
      product: {
        template: 48, category: 20, number: 102, surface: 10,
        aerosol: { type: 62001, size: { type: 0, first: [6, 20] }, wavelength: { type: 7, first: [9, 545], second: [9, 565] } },
      },
    };
    const bytes = encodeMessage([pm, aod]);
    const fields = inventory(bytes);
    expect(fields[0]).toMatchObject({
      productTemplate: 48, productSupported: true, shortName: 'pmtf', typeOfLevel: 'surface', stepRange: '0', constituentType: 62000,
      sizeInterval: { type: 0, first: 2.5e-6, second: 0 }, wavelengthInterval: { type: 255, first: NaN, second: NaN },
    });
    expect(fields[1]).toMatchObject({
      parameterCategory: 20, parameterNumber: 102, typeOfLevel: 'atmosphere', constituentType: 62001,
      sizeInterval: { type: 0, first: 2e-5, second: NaN }, wavelengthInterval: { type: 7, first: 5.45e-7, second: 5.65e-7 },
    });
    expect(Array.from(await decodeField(engine, bytes, fields[1]))).toEqual(aod.values);
    // Other templates have no intervals.
    expect(inventory(encodeMessage([u]))[0].sizeInterval).toBeUndefined();
  });

  it('still lists and decodes a field whose product template it does not read', async () => {
    const bytes = encodeMessage([u]);
    const fields = inventory(bytes);
    const at = fields[0].sections.product;
    bytes[at + 7] = 0; // template number 4.u16 at octets 8-9 -> 4.99
    bytes[at + 8] = 99;
    const [info] = inventory(bytes);
    expect(info).toMatchObject({ productTemplate: 99, productSupported: false, typeOfLevel: 'unknown', stepRange: 'unknown', parameterNumber: 2 });
    expect(Array.from(await decodeField(engine, bytes, info))).toEqual(u.values);
  });

  it('releases every engine region it used, after success and after errors', async () => {
    const bytes = encodeMessage([{ ...u, packing: { template: 3, order: 2, groupSize: 2 } }]);
    const before = engine.stats().liveBytes;
    await decodeField(engine, bytes, inventory(bytes)[0]);
    const broken = bytes.slice();
    const info = inventory(broken)[0];
    broken[info.sections.dataRepresentation + 45] += 1; // true length of the last group: lengths no longer add up
    await expect(decodeField(engine, broken, inventory(broken)[0])).rejects.toThrow(GribError);
    expect(engine.stats().liveBytes).toBe(before);
  });
});

describe('errors', () => {
  const good = encodeMessage([{ grid: grid2x3, packing: simple, values: [1, 2, 3, 4, 5, 6] }]);

  function expectGribError(bytes: Uint8Array, pattern: RegExp): void {
    expect(() => inventory(bytes)).toThrow(GribError);
    expect(() => inventory(bytes)).toThrow(pattern);
  }

  it('names GRIB edition 1 and files that are not GRIB', () => {
    const edition1 = Uint8Array.from([0x47, 0x52, 0x49, 0x42, 0, 0, 28, 1, ...new Array(40).fill(0)]);
    expectGribError(edition1, /GRIB edition 1 .* not supported/);
    expectGribError(new TextEncoder().encode('<html>not found</html>'), /Not a GRIB file/);
    expectGribError(new Uint8Array(0), /Empty file/);
    expectGribError(concatBytes(good, new TextEncoder().encode('junk')), /Unexpected data at byte \d+ after message 0/);
    // Corrupt section lengths are named as such, not as unknown sections.
    const sections = [...Array(3)].reduce<number[]>((starts) => [...starts, starts.at(-1)! + new DataView(good.buffer, good.byteOffset).getUint32(starts.at(-1)!)], [16]);
    const longer = good.slice();
    new DataView(longer.buffer).setUint32(sections[1], 999999);
    expectGribError(longer, new RegExp(`section 3 length 999999 runs past the message end at byte ${good.length}`));
    const shorter = good.slice();
    new DataView(shorter.buffer).setUint32(sections[1], new DataView(good.buffer, good.byteOffset).getUint32(sections[1]) + 3);
    expectGribError(shorter, /section 3 length \d+ is corrupt: it ends at byte \d+, where octet 5 holds \d+, not a section number/);
  });

  it('names truncation, a missing end section and a bad section order', () => {
    expectGribError(good.subarray(0, good.length - 10), /truncated: it declares \d+ bytes, the file has \d+/);
    const noEnd = good.slice();
    noEnd[noEnd.length - 1] = 0x30;
    expectGribError(noEnd, /does not end with '7777'/);
    const [info] = inventory(good);
    const swapped = good.slice();
    swapped[info.sections.product + 4] = 5; // a second section 5 where section 4 belongs
    expectGribError(swapped, /section 5 at byte \d+ cannot follow section 3 \(expected 4\)/);
    const long = good.slice();
    new DataView(long.buffer).setUint32(info.sections.grid, 100000);
    expectGribError(long, /section 3 length 100000 runs past the message end at byte \d+/);
  });

  it('names unsupported data representation templates when decoding, and never guesses', async () => {
    const bytes = good.slice();
    const [info] = inventory(bytes);
    new DataView(bytes.buffer).setUint16(info.sections.dataRepresentation + 9, 50); // 5.50 spectral
    const [spectral] = inventory(bytes);
    expect(spectral).toMatchObject({ dataTemplate: 50, packingType: 'spectral_simple' });
    await expect(decodeField(engine, bytes, spectral)).rejects.toThrow(/template 5\.50 \(spectral_simple\) is not supported/);
  });

  it('names a predefined bit-map and a field info that does not match the bytes', async () => {
    const bytes = good.slice();
    const [info] = inventory(bytes);
    bytes[info.sections.data - 1] = 3; // section 6 indicator 3 (predefined)
    expectGribError(bytes, /predefined bit-map 3 is not supported/);
    const other = encodeMessage([{ grid: grid2x3, packing: { template: 2 }, values: [1, 2, 3, 4, 5, 6] }]);
    await expect(decodeField(engine, other, info)).rejects.toThrow(GribError);
  });
});
