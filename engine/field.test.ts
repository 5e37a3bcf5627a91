import { beforeAll, describe, expect, it } from 'vitest';
import { decodeDataTile, encodeDataTile, Predictor } from '../common/tile.ts';
import type { DecodedTileHandle, Engine, FieldGrid } from './engine.ts';
import { blendReference, ReferenceField } from './reference.ts';
import {
  createEngine, GLOBAL_Z0_GRID, rawTile, seededRandom, syntheticWind, windTile, type EngineTarget,
} from './testing.ts';

const DEG = Math.PI / 180;

function countDifferent(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Two forecast steps of the two zoom-0 tiles of the globe. */
const STEPS = [0, 8].map((phase) => [0, 1].map((x) => windTile({ z: 0, x, y: 0 }, (lon, lat) => syntheticWind(lon, lat, phase))));

describe.each<EngineTarget>(['release', 'debug'])('blend kernel (%s build)', (target) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine(target);
  });

  // 3x5 = 15 floats leaves a scalar tail after three 4-lane vectors; 16x16 has none.
  for (const [width, height] of [[3, 5], [16, 16], [2, 2]]) {
    it(`equals the TS reference bit for bit on ${width}x${height} nodes`, () => {
      const random = seededRandom(width * height);
      const n = width * height;
      const make = () => rawTile({
        width, height, predictor: Predictor.None,
        q: [Uint16Array.from({ length: n }, () => (random() < 0.1 ? 0xffff : Math.floor(random() * 65535)))],
        offsets: [-50], scales: [0.0017],
      });
      const [bytesA, bytesB] = [make(), make()];
      const a = engine.decodeTile(bytesA);
      const b = engine.decodeTile(bytesB);
      const refA = decodeDataTile(bytesA).channels[0];
      const refB = decodeDataTile(bytesB).channels[0];
      for (const t of [0, 0.3, 0.5, 0.77, 1]) {
        const blended = engine.blendTiles({ a, b, t });
        const expected = new Float32Array(n);
        blendReference(refA, refB, t, expected);
        expect(countDifferent(blended.channel(0), expected)).toBe(0);
        for (let i = 0; i < n; i++) {
          const value = blended.channel(0)[i];
          if (Number.isNaN(refA[i]) || Number.isNaN(refB[i])) expect(value).toBeNaN();
          else if (t === 0) expect(value).toBe(refA[i]);
          else if (t === 1) expect(value).toBe(refB[i]);
          else expect(value).toBeCloseTo(refA[i] + t * (refB[i] - refA[i]), 3);
        }
        engine.releaseTile(blended);
      }
      engine.releaseTile(a);
      engine.releaseTile(b);
    });
  }
});

describe.each<EngineTarget>(['release', 'debug'])('particle field (%s build)', (target) => {
  let engine: Engine;
  let handles: DecodedTileHandle[][];
  beforeAll(async () => {
    engine = await createEngine(target);
    handles = STEPS.map((tiles) => tiles.map((bytes) => engine.decodeTile(bytes)));
  });

  /** Writes both zoom-0 tiles blended at t into a global field, in the engine and the reference. */
  function buildGlobal(t: number): ReferenceField {
    engine.setFieldGrid(GLOBAL_Z0_GRID);
    const reference = new ReferenceField(GLOBAL_Z0_GRID);
    for (const x of [0, 1]) {
      engine.writeFieldTile({ a: handles[0][x], b: handles[1][x], t, x: x * 255, y: 0 });
      reference.writeTile({ a: decodeDataTile(STEPS[0][x]), b: decodeDataTile(STEPS[1][x]), t, x: x * 255, y: 0 });
    }
    engine.finishField();
    reference.finish();
    return reference;
  }

  it('writes blended [u, v cos φ] nodes identical to the reference, with the wrap column', () => {
    const reference = buildGlobal(0.35);
    const { nodes, stride } = engine.fieldNodes();
    expect(stride).toBe(511);
    expect(countDifferent(nodes, reference.nodes)).toBe(0);
    const a = STEPS.map((tiles) => tiles.map((bytes) => decodeDataTile(bytes)));
    for (const [i, j] of [[0, 0], [17, 40], [254, 128], [255, 200], [300, 77], [509, 255], [510, 3]]) {
      const tile = i < 255 || i === 510 ? 0 : 1;
      const col = tile === 0 ? i % 510 : i - 255;
      const k = j * 256 + col;
      const u = a[0][tile].channels[0][k] * 0.65 + a[1][tile].channels[0][k] * 0.35;
      const v = a[0][tile].channels[1][k] * 0.65 + a[1][tile].channels[1][k] * 0.35;
      const node = (j * stride + i) * 2;
      expect(nodes[node]).toBeCloseTo(u, 4);
      expect(nodes[node + 1]).toBeCloseTo(v * Math.cos((90 - j * GLOBAL_Z0_GRID.dlat) * DEG), 4);
    }
    for (let j = 0; j < 256; j++) {
      expect(nodes[(j * stride + 510) * 2]).toBe(nodes[j * stride * 2]);
      expect(nodes[(j * stride + 510) * 2 + 1]).toBe(nodes[j * stride * 2 + 1]);
    }
  });

  it('samples bilinearly like the reference, wrapping longitude and staying continuous at ±180°', () => {
    const reference = buildGlobal(0.6);
    const { nodes, stride } = engine.fieldNodes();
    const random = seededRandom(5);
    for (let n = 0; n < 2000; n++) {
      const lon = random() * 720 - 360;
      const lat = random() * 180 - 90;
      expect(engine.sampleField({ lon, lat })).toEqual(reference.sample(lon, lat));
    }
    // At a node the sample is the node; halfway between four nodes it is their mean.
    const node = (j: number, i: number) => [nodes[(j * stride + i) * 2], nodes[(j * stride + i) * 2 + 1]];
    const { dlon, dlat } = GLOBAL_Z0_GRID;
    expect(engine.sampleField({ lon: -180 + 100 * dlon, lat: 90 - 60 * dlat })).toEqual(node(60, 100));
    const [u, v] = engine.sampleField({ lon: -180 + 100.5 * dlon, lat: 90 - 60.5 * dlat });
    const corners = [node(60, 100), node(60, 101), node(61, 100), node(61, 101)];
    expect(u).toBeCloseTo(corners.reduce((s, c) => s + c[0], 0) / 4, 4);
    expect(v).toBeCloseTo(corners.reduce((s, c) => s + c[1], 0) / 4, 4);
    // Across the antimeridian: the same point by any longitude, and no jump at the seam.
    const east = engine.sampleField({ lon: 179.999999, lat: 12 });
    const west = engine.sampleField({ lon: -180, lat: 12 });
    const wrapped = engine.sampleField({ lon: 180, lat: 12 });
    expect(wrapped).toEqual(west);
    expect(east[0]).toBeCloseTo(west[0], 4);
    expect(east[1]).toBeCloseTo(west[1], 4);
    expect(engine.sampleField({ lon: 190.25, lat: -33 })[0]).toBeCloseTo(engine.sampleField({ lon: -169.75, lat: -33 })[0], 4);
    // Grid coordinates are f32: within an f32 step of a whole turn the wrap rounds to a hair
    // outside [0, 510], which must still sample the seam, never NaN.
    const seam: number[] = [];
    for (const turn of [-360, 0, 360]) {
      for (let i = -400; i <= 400; i++) {
        const lon = 180 + turn + i * 2.5e-7;
        const sample = engine.sampleField({ lon, lat: 12 });
        if (!Number.isFinite(sample[0]) || Math.abs(sample[0] - west[0]) > 1e-3) seam.push(lon);
        expect(sample).toEqual(reference.sample(lon, 12));
      }
    }
    expect(seam).toEqual([]);
  });

  it('finds longitudes of a regional field across the antimeridian in any 360° frame', () => {
    // A view straddling 180°: the field runs from 170° E to 190° E (= 170° W) unwrapped.
    const grid: FieldGrid = { lon0: 170, lat0: 10, dlon: 1, dlat: 1, nx: 21, ny: 3, wrap: false };
    engine.setFieldGrid(grid);
    const bytes = rawTile({
      width: 21, height: 3, predictor: Predictor.None,
      q: [Uint16Array.from({ length: 63 }, (_, k) => k % 21), new Uint16Array(63)], offsets: [0, 0], scales: [1, 1],
      west: 170, north: 10, east: 190, south: 8,
    });
    const tile = engine.decodeTile(bytes);
    engine.writeFieldTile({ a: tile, b: tile, t: 0, x: 0, y: 0 });
    engine.finishField();
    expect(engine.sampleField({ lon: 185, lat: 9 })[0]).toBeCloseTo(15, 5);
    expect(engine.sampleField({ lon: -175, lat: 9 })[0]).toBeCloseTo(15, 5);
    expect(engine.sampleField({ lon: 545, lat: 9 })[0]).toBeCloseTo(15, 5);
    expect(engine.sampleField({ lon: -165, lat: 9 })[0]).toBeNaN();
    // No wrap column: the east column keeps its own value.
    const { nodes } = engine.fieldNodes();
    expect(nodes[20 * 2]).toBe(20);
    engine.releaseTile(tile);
  });

  it('clips tiles to a regional field and returns NaN outside it and around no-data nodes', () => {
    const grid: FieldGrid = { lon0: 10, lat0: 50, dlon: 1, dlat: 1, nx: 20, ny: 12, wrap: false };
    engine.setFieldGrid(grid);
    const reference = new ReferenceField(grid);
    const width = 8;
    const height = 6;
    // u = node index, v = -node index (exact: scale ±1), no data at tile node (4, 3).
    const q = Uint16Array.from({ length: width * height }, (_, k) => k);
    const qu = q.slice();
    qu[3 * width + 4] = 0xffff;
    const bytes = rawTile({
      width, height, predictor: Predictor.RowDelta, q: [qu, q], offsets: [0, 0], scales: [1, -1],
      west: 0, north: 60, east: 7, south: 55,
    });
    const tile = engine.decodeTile(bytes);
    // Placed so that it sticks out of the field on the west and north sides, and a second copy
    // past the east edge.
    for (const [x, y] of [[-3, -2], [17, 9]]) {
      engine.writeFieldTile({ a: tile, b: tile, t: 0, x, y });
      reference.writeTile({ a: decodeDataTile(bytes), b: decodeDataTile(bytes), t: 0, x, y });
    }
    engine.finishField();
    const { nodes } = engine.fieldNodes();
    expect(countDifferent(nodes.subarray(0, reference.nodes.length), reference.nodes)).toBe(0);
    // Written: field (0, 0) = tile (3, 2) = node 19; untouched: field (6, 0) (tile column 9 > 7).
    expect(nodes[0]).toBe(19);
    expect(nodes[6 * 2]).toBeNaN();
    expect(nodes[(9 * 20 + 17) * 2]).toBe(0);
    expect(nodes[(11 * 20 + 19) * 2]).toBe(2 * width + 2);
    // Outside the grid (this field does not wrap): NaN; its east and south edges are inside.
    expect(engine.sampleField({ lon: 9.99, lat: 45 })[0]).toBeNaN();
    expect(engine.sampleField({ lon: 15, lat: 50.01 })[0]).toBeNaN();
    expect(engine.sampleField({ lon: 29, lat: 39 })).toEqual([2 * width + 2, Math.fround(-(2 * width + 2) * Math.fround(Math.cos(39 * DEG)))]);
    expect(engine.sampleField({ lon: 29.01, lat: 39 })[0]).toBeNaN();
    // The NaN node (tile 4, 3) -> field (1, 1): the four cells around it sample NaN, further away not.
    for (const [lon, lat] of [[10.5, 49.5], [11.5, 49.5], [10.5, 48.5], [11.5, 48.5], [11, 49]]) {
      expect(engine.sampleField({ lon, lat })[0]).toBeNaN();
    }
    expect(engine.sampleField({ lon: 12.5, lat: 49.5 })[0]).toBeCloseTo((21 + 22 + 29 + 30) / 4, 4);
    engine.releaseTile(tile);
  });

  it('refuses tiles and grids that do not fit, leaving the field as it was', () => {
    buildGlobal(0);
    const before = Float32Array.from(engine.fieldNodes().nodes);
    const oneChannel = engine.decodeTile(rawTile({ width: 256, height: 256, predictor: 0, q: [new Uint16Array(65536)], offsets: [0], scales: [1], west: -180, east: 0 }));
    const coarse = engine.decodeTile(encodeDataTile({ west: -180, north: 90, east: 0, south: -90, width: 128, height: 128, channels: [new Float32Array(16384), new Float32Array(16384)] }));
    const released = engine.decodeTile(STEPS[0][0]);
    engine.releaseTile(released);
    const [a, b] = [handles[0][0], handles[1][0]];
    expect(() => engine.writeFieldTile({ a: oneChannel, b: oneChannel, t: 0, x: 0, y: 0 })).toThrow(/2 channels/);
    expect(() => engine.writeFieldTile({ a, b: coarse, t: 0, x: 0, y: 0 })).toThrow(/same grid/);
    expect(() => engine.writeFieldTile({ a: coarse, b: coarse, t: 0, x: 0, y: 0 })).toThrow(/spacing/);
    expect(() => engine.writeFieldTile({ a, b: released, t: 0, x: 0, y: 0 })).toThrow(/released/);
    expect(() => engine.writeFieldTile({ a, b, t: 1.5, x: 0, y: 0 })).toThrow(/0\.\.1/);
    expect(() => engine.writeFieldTile({ a, b, t: 0, x: 0.5, y: 0 })).toThrow(/whole nodes/);
    expect(countDifferent(engine.fieldNodes().nodes, before)).toBe(0);
    expect(() => engine.setFieldGrid({ ...GLOBAL_Z0_GRID, nx: 500 })).toThrow(/nx \* dlon = 360/);
    expect(() => engine.setFieldGrid({ ...GLOBAL_Z0_GRID, ny: 1 })).toThrow(/at least 2x2/);
    expect(() => engine.setFieldGrid({ ...GLOBAL_Z0_GRID, dlat: -1 })).toThrow(/positive dlon, dlat/);
    expect(() => engine.setFieldGrid({ ...GLOBAL_Z0_GRID, lat0: 95 })).toThrow(/leave -90\.\.90/);
    expect(countDifferent(engine.fieldNodes().nodes, before)).toBe(0);
    engine.releaseTile(oneChannel);
    engine.releaseTile(coarse);
  });
});
