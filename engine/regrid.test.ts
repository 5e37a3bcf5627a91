import { beforeAll, describe, expect, it } from 'vitest';
import { decodeDataTile, encodeDataTile, Predictor, TILE_HEADER_BYTES, TILE_CHANNEL_BYTES } from '../common/tile.ts';
import { tileBounds, TILE_NODES } from '../common/tiling.ts';
import type { Engine } from './engine.ts';
import { gaussianLatitudes } from './grib/index.ts';
import {
  Regridder, RegridError, clampsRows, regridBilinear, regridBilinearReference, regridNearestReference, sourceBounds, type SourceGrid, type TargetGrid,
} from './regrid.ts';
import { createEngine, seededRandom } from './testing.ts';

const DEG = Math.PI / 180;

function fill(grid: SourceGrid, f: (lon: number, lat: number) => number): Float32Array {
  const values = new Float32Array(grid.ni * grid.nj);
  for (let j = 0; j < grid.nj; j++) {
    const lat = grid.latitudes ? grid.latitudes[j] : grid.lat0 - j * grid.dLat;
    for (let i = 0; i < grid.ni; i++) values[j * grid.ni + i] = f(grid.lon0 + i * grid.dLon, lat);
  }
  return values;
}

function tileTarget(z: number, x: number, y: number): TargetGrid {
  const { west, north, east, south } = tileBounds({ z, x, y });
  return { nx: TILE_NODES, ny: TILE_NODES, lon0: west, dLon: (east - west) / (TILE_NODES - 1), lat0: north, dLat: (north - south) / (TILE_NODES - 1) };
}

function targetLon(t: TargetGrid, i: number): number {
  return t.lon0 + i * t.dLon;
}

function targetLat(t: TargetGrid, j: number): number {
  return t.lat0 - j * t.dLat;
}

/** Same floats, NaN included. */
function countMismatches(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) n++;
  return n;
}

const GFS_1DEG: SourceGrid = { ni: 360, nj: 181, lon0: 0, dLon: 1, lat0: 90, dLat: 1, global: true };
const ECMWF_QUARTER: SourceGrid = { ni: 1440, nj: 721, lon0: -180, dLon: 0.25, lat0: 90, dLat: 0.25, global: true };
const ICON_EU: SourceGrid = { ni: 1377, nj: 657, lon0: -23.5, dLon: 0.0625, lat0: 70.5, dLat: 0.0625, global: false };
const N48 = gaussianLatitudes(48);
const GAUSSIAN: SourceGrid = { ni: 192, nj: 96, lon0: 0, dLon: 1.875, lat0: N48[0], dLat: (N48[0] - N48[95]) / 95, latitudes: N48, global: true };

describe.each(['release', 'debug'] as const)('regrid kernel (%s build)', (target) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine(target);
  });

  it.each([
    ['GFS 1° (0..359, wrap)', GFS_1DEG],
    ['ECMWF 0.25° (-180..179.75, wrap)', ECMWF_QUARTER],
    ['ICON-EU (regional)', ICON_EU],
    ['Gaussian N48', GAUSSIAN],
  ])('equals the TypeScript reference bit for bit on %s, missing values included', (_name, grid) => {
    const random = seededRandom(grid.ni * 7 + grid.nj);
    const values = fill(grid, (lon, lat) => 280 + 20 * Math.cos(lat * DEG) + 5 * Math.sin(3 * lon * DEG));
    for (let k = 0; k < values.length; k++) if (random() < 0.08) values[k] = NaN;
    const regridder = new Regridder(engine);
    regridder.load(values, grid);
    for (const [z, x, y] of [[0, 0, 0], [0, 1, 0], [1, 2, 0], [2, 3, 1], [2, 4, 1], [3, 7, 2], [3, 8, 1]]) {
      const t = tileTarget(z, x, y);
      const wasm = regridder.regrid(t).slice();
      const reference = regridBilinearReference(values, grid, t);
      expect(countMismatches(wasm, reference), `${z}/${x}/${y}`).toBe(0);
    }
    regridder.release();
  });

  it('reproduces a field bilinear in lon/lat exactly, across the seam of a 0..360 grid', () => {
    // Linear in latitude and, in longitude, linear within each half-turn (a triangle wave): exact
    // wherever a cell does not straddle a kink; the kinks sit on nodes at 0 and 180.
    const f = (lon: number, lat: number) => 2 * lat + 3 * (180 - Math.abs(((lon % 360) + 360) % 360 - 180));
    const values = fill(GFS_1DEG, f);
    // A target crossing 0°/360° written in the -180 frame: columns at -10.5 .. 10.5.
    const t: TargetGrid = { nx: 43, ny: 20, lon0: -10.5, dLon: 0.5, lat0: 45.25, dLat: 0.5 };
    const out = regridBilinear(engine, values, GFS_1DEG, t);
    for (let j = 0; j < t.ny; j++) {
      for (let i = 0; i < t.nx; i++) {
        expect(out[j * t.nx + i]).toBeCloseTo(f(targetLon(t, i), targetLat(t, j)), 3);
      }
    }
  });

  it('wraps longitude: the easternmost cell of a global grid joins its last column to column 0', () => {
    const values = fill(GFS_1DEG, (lon) => Math.cos(lon * DEG));
    const t: TargetGrid = { nx: 5, ny: 1, lon0: 359, dLon: 0.25, lat0: 0, dLat: 1 };
    const out = regridBilinear(engine, values, GFS_1DEG, t);
    const expected = [359, 359.25, 359.5, 359.75, 360].map((lon) => {
      const w = lon - 359;
      return Math.fround(Math.cos(359 * DEG)) * (1 - w) + 1 * w;
    });
    for (let i = 0; i < 5; i++) expect(out[i]).toBeCloseTo(expected[i], 6);
  });

  it('interpolates between Gaussian rows by latitude, and takes the outer rows up to the poles', () => {
    const values = fill(GAUSSIAN, (_lon, lat) => lat);
    expect(clampsRows(GAUSSIAN)).toBe(true);
    const t: TargetGrid = { nx: 3, ny: 181, lon0: 10, dLon: 100, lat0: 90, dLat: 1 };
    const out = regridBilinear(engine, values, GAUSSIAN, t);
    for (let j = 0; j < t.ny; j++) {
      const lat = targetLat(t, j);
      const expected = Math.min(N48[0], Math.max(N48[95], lat));
      for (let i = 0; i < 3; i++) expect(out[j * 3 + i]).toBeCloseTo(expected, 4);
    }
  });

  it('gives NaN outside a regional grid, in any longitude frame, and values inside', () => {
    const values = fill(ICON_EU, (lon, lat) => lon + lat);
    expect(sourceBounds(ICON_EU)).toMatchObject({ west: -23.5, north: 70.5 });
    const t: TargetGrid = { nx: 5, ny: 3, lon0: -30, dLon: 10, lat0: 75, dLat: 10 };
    const out = regridBilinear(engine, values, ICON_EU, t);
    // Row 75 N is north of the grid; 65 N and 55 N are inside for lon -20, -10, 0, 10.
    for (let i = 0; i < 5; i++) expect(out[i]).toBeNaN();
    expect(out[5]).toBeNaN(); // 30 W
    for (const [j, i] of [[1, 1], [1, 2], [1, 4], [2, 3]]) {
      expect(out[j * 5 + i]).toBeCloseTo(targetLon(t, i) + targetLat(t, j), 3);
    }
    // The same places written in the 0..360 frame.
    const east: TargetGrid = { nx: 2, ny: 1, lon0: 340, dLon: 20, lat0: 55, dLat: 1 };
    const out2 = regridBilinear(engine, values, ICON_EU, east);
    expect(out2[0]).toBeCloseTo(-20 + 55, 3);
    expect(out2[1]).toBeCloseTo(0 + 55, 3);
    // Its edges are inside: the west column and the south row.
    const edge: TargetGrid = { nx: 1, ny: 1, lon0: -23.5, dLon: 1, lat0: 70.5 - 656 * 0.0625, dLat: 1 };
    expect(regridBilinear(engine, values, ICON_EU, edge)[0]).toBeCloseTo(-23.5 + 70.5 - 656 * 0.0625, 3);
  });

  it('skips missing nodes like the tile sampler: renormalised weights, fewer than 2 valid nodes give NaN', () => {
    const grid: SourceGrid = { ni: 3, nj: 3, lon0: 0, dLon: 1, lat0: 2, dLat: 1, global: false };
    // a b .      rows north to south
    // c d .
    const values = Float32Array.from([10, 20, NaN, 30, NaN, NaN, NaN, NaN, NaN]);
    const t: TargetGrid = { nx: 3, ny: 1, lon0: 0.25, dLon: 0.25, lat0: 1.5, dLat: 1 };
    const out = regridBilinear(engine, values, grid, t);
    // (0.25, 1.5): a 0.375, b 0.125, c 0.375 valid -> (10*.375 + 20*.125 + 30*.375) / .875
    expect(out[0]).toBeCloseTo((10 * 0.375 + 20 * 0.125 + 30 * 0.375) / 0.875, 5);
    expect(out[1]).toBeCloseTo((10 * 0.25 + 20 * 0.25 + 30 * 0.25) / 0.75, 5);
    // Cell (1..2, 1..2) has only b valid: NaN.
    const lone = regridBilinear(engine, values, grid, { nx: 1, ny: 1, lon0: 1.5, dLon: 1, lat0: 1.5, dLat: 1 });
    expect(lone[0]).toBeNaN();
  });

  it('regrids a class field nearest-node: only the codes of the input, each node the nearest one\'s, as the reference', () => {
    // A GFS 1° precipitation type field (SPEC §9 codes): rain (0) west of 10° E, snow (5) east of it,
    // a freezing rain (3) patch, and no precipitation (NaN) north of 60° N.
    const codes = fill(GFS_1DEG, (lon, lat) => (lat > 60 ? NaN : lat > 40 && lat < 43 && lon > 20 && lon < 23 ? 3 : lon < 10 || lon > 300 ? 0 : 5));
    const present = new Set([...codes].filter((v) => !Number.isNaN(v)));
    expect([...present].sort()).toEqual([0, 3, 5]);
    for (const t of [tileTarget(3, 4, 2), tileTarget(2, 1, 1), tileTarget(5, 16, 9), { nx: 50, ny: 40, lon0: 5.3, dLon: 0.37, lat0: 62.1, dLat: 0.53 }]) {
      const nearest = regridBilinear(engine, codes, GFS_1DEG, t, 'nearest');
      expect(countMismatches(nearest, regridNearestReference(codes, GFS_1DEG, t))).toBe(0);
      const wrong: string[] = [];
      for (let j = 0; j < t.ny; j++) {
        for (let i = 0; i < t.nx; i++) {
          const v = nearest[j * t.nx + i];
          const lon = targetLon(t, i);
          const lat = targetLat(t, j);
          // The nearest source node (round half up, as the kernel does).
          const ni = (Math.floor(((lon % 360) + 360) % 360 + 0.5)) % 360;
          const nj = Math.floor(90 - lat + 0.5);
          if (!Object.is(v, codes[nj * 360 + ni]) || (!Number.isNaN(v) && !present.has(v))) wrong.push(`${lon}, ${lat}: ${v}`);
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
    // Bilinear on the same field makes codes that are not there (the false freezing-rain band).
    const blended = regridBilinear(engine, codes, GFS_1DEG, { nx: 21, ny: 1, lon0: 9, dLon: 0.1, lat0: 30, dLat: 1 });
    expect([...blended].some((v) => !present.has(v))).toBe(true);
    const sharp = regridBilinear(engine, codes, GFS_1DEG, { nx: 21, ny: 1, lon0: 9, dLon: 0.1, lat0: 30, dLat: 1 }, 'nearest');
    expect([...sharp]).toEqual([...Array(5).fill(0), ...Array(16).fill(5)]);
  });

  it('quantizes exactly as encodeDataTile does, predictor and no-data included', () => {
    const values = fill(ECMWF_QUARTER, (lon, lat) => 250 + 40 * Math.cos(lat * DEG) + 3 * Math.sin(lon * 5 * DEG));
    // A missing node, and values beyond the quantization's range (clamped to q 0 and 65534), inside tile 1/1/0.
    for (let j = 99; j <= 102; j++) for (let i = 499; i <= 502; i++) values[j * 1440 + i] = NaN;
    values[200 * 1440 + 600] = -1e9;
    values[220 * 1440 + 650] = 1e9;
    const regridder = new Regridder(engine);
    regridder.load(values, ECMWF_QUARTER);
    const t = tileTarget(1, 1, 0);
    const field = regridder.regrid(t).slice();
    expect(field.some(Number.isNaN)).toBe(true);
    const quantization = { offset: 150, scale: 1 / 64 };
    const q = regridder.quantize(quantization, Predictor.RowDelta).slice();
    const bounds = tileBounds({ z: 1, x: 1, y: 0 });
    const reference = encodeDataTile({
      ...bounds, width: TILE_NODES, height: TILE_NODES, channels: [regridBilinearReference(values, ECMWF_QUARTER, t)],
      predictor: Predictor.RowDelta, quantization: [quantization],
    });
    const expectedQ = new Uint16Array(reference.buffer.slice(TILE_HEADER_BYTES + TILE_CHANNEL_BYTES));
    expect(q.length).toBe(expectedQ.length);
    let diff = 0;
    for (let k = 0; k < q.length; k++) if (q[k] !== expectedQ[k]) diff++;
    expect(diff).toBe(0);
    expect(expectedQ.includes(0xffff)).toBe(true);
    const decoded = decodeDataTile(reference).channels[0];
    expect(Math.abs(decoded[100] - field[100])).toBeLessThanOrEqual(1 / 128 + 1e-4);
    regridder.release();
  });

  it.each([
    ['a power-of-two scale', { offset: -40, scale: 1 / 128 }],
    ['any other scale (divided)', { offset: 150.3, scale: 0.0123 }],
  ])('quantizes with %s as encodeDataTile does at every width (8-node chunks and the rest), with and without the predictor', (_name, quantization) => {
    const random = seededRandom(17);
    const offset = Math.fround(quantization.offset);
    const scale = Math.fround(quantization.scale);
    const special = [NaN, Infinity, -Infinity, -0, 0, 1e30, -1e30, offset, offset - scale, offset + 65534 * scale, offset + 65535 * scale];
    const regridder = new Regridder(engine);
    for (const width of [2, 7, 8, 9, 15, 16, 23, 256]) {
      const height = 3;
      const values = new Float32Array(width * height);
      for (let k = 0; k < values.length; k++) {
        const pick = random();
        // Half-way between two q (rounds up), anywhere in range, beyond it, or a special value.
        if (pick < 0.3) values[k] = offset + (Math.floor(random() * 65534) + 0.5) * scale;
        else if (pick < 0.8) values[k] = offset + (random() * 70000 - 2000) * scale;
        else values[k] = special[Math.floor(random() * special.length)];
      }
      regridder.setResult(values, width, height);
      for (const predictor of [Predictor.None, Predictor.RowDelta]) {
        const q = regridder.quantize(quantization, predictor).slice();
        const reference = encodeDataTile({
          west: 0, north: 1, east: 1, south: 0, width, height, channels: [values], predictor, quantization: [quantization],
        });
        const expected = new Uint16Array(reference.buffer.slice(TILE_HEADER_BYTES + TILE_CHANNEL_BYTES));
        let diff = 0;
        for (let k = 0; k < q.length; k++) if (q[k] !== expected[k]) diff++;
        expect(diff, `width ${width}, predictor ${predictor}`).toBe(0);
      }
    }
    regridder.release();
  });

  it('refuses bad grids with an error that names them, and a released regridder', () => {
    const regridder = new Regridder(engine);
    expect(() => regridder.load(new Float32Array(5), { ...GFS_1DEG })).toThrow(/5 values for a 360x181/);
    expect(() => regridder.load(new Float32Array(4), { ni: 2, nj: 2, lon0: 0, dLon: 1, lat0: 0, dLat: -1, global: false })).toThrow(RegridError);
    expect(() => regridder.load(new Float32Array(4), { ni: 2, nj: 2, lon0: 0, dLon: 1, lat0: 0, dLat: 1, global: true })).toThrow(/global/);
    expect(() => regridder.regrid({ nx: 1, ny: 1, lon0: 0, dLon: 1, lat0: 0, dLat: 1 })).toThrow(/load first/);
    regridder.load(new Float32Array(4), { ni: 2, nj: 2, lon0: 0, dLon: 1, lat0: 1, dLat: 1, global: false });
    expect(() => regridder.regrid({ nx: 0, ny: 1, lon0: 0, dLon: 1, lat0: 0, dLat: 1 })).toThrow(/Target grid/);
    regridder.release();
    expect(() => regridder.regrid({ nx: 1, ny: 1, lon0: 0, dLon: 1, lat0: 0, dLat: 1 })).toThrow(/released/);
  });

  it('gives its memory back', () => {
    const before = engine.stats().liveBytes;
    const regridder = new Regridder(engine);
    regridder.load(fill(GFS_1DEG, () => 1), GFS_1DEG);
    regridder.regrid(tileTarget(0, 0, 0));
    regridder.release();
    expect(engine.stats().liveBytes).toBe(before);
  });
});
