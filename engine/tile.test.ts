import { beforeAll, describe, expect, it } from 'vitest';
import { DataTileError, decodeDataTile, NO_DATA, Predictor, TILE_MAGIC } from '../common/tile.ts';
import { BLOCK_BYTES, type Engine } from './engine.ts';
import { packTexelsReference } from './reference.ts';
import { createEngine, rawTile, seededRandom, type EngineTarget } from './testing.ts';

/** Random q with ~5% no-data and some large jumps, so the predictor's deltas wrap around 2^16. */
function randomQ(n: number, random: () => number): Uint16Array {
  const q = new Uint16Array(n);
  let walk = Math.floor(random() * 65535);
  for (let k = 0; k < n; k++) {
    const r = random();
    if (r < 0.05) q[k] = NO_DATA;
    else if (r < 0.15) q[k] = Math.floor(random() * 65535);
    else {
      walk = (walk + Math.floor(random() * 600) - 300 + 65535) % 65535;
      q[k] = walk;
    }
  }
  return q;
}

/** Same float, NaN included (a NaN is not equal to itself for toEqual on typed arrays). */
function expectSameFloats(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  let mismatches = 0;
  for (let i = 0; i < expected.length; i++) if (!Object.is(actual[i], expected[i])) mismatches++;
  expect(mismatches).toBe(0);
}

/** Index of the first differing byte, -1 if none (toEqual on 256 KiB arrays takes seconds). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** The texel bytes of the spec, straight from the q values. */
function expectedTexels(q: Uint16Array[], n: number): Uint8Array {
  const out = new Uint8Array(n * 4);
  for (let k = 0; k < n; k++) {
    out[k * 4] = q[0][k] >> 8;
    out[k * 4 + 1] = q[0][k] & 255;
    if (q.length > 1) {
      out[k * 4 + 2] = q[1][k] >> 8;
      out[k * 4 + 3] = q[1][k] & 255;
    }
  }
  return out;
}

const SIZES: [number, number][] = [[2, 2], [7, 5], [9, 3], [255, 17], [16, 256], [256, 256]];

describe.each<EngineTarget>(['release', 'debug'])('tile decoding (%s build)', (target) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine(target);
  });

  for (const channels of [1, 2, 3]) {
    for (const predictor of [Predictor.None, Predictor.RowDelta]) {
      it(`matches decodeDataTile and packs texels: ${channels} channel(s), predictor ${predictor}`, () => {
        const random = seededRandom(channels * 10 + predictor);
        for (const [width, height] of SIZES) {
          const n = width * height;
          const q = Array.from({ length: channels }, () => randomQ(n, random));
          const bytes = rawTile({
            width, height, q, predictor,
            offsets: [-40.25, 1013.5, 0].slice(0, channels),
            scales: [0.0013, -0.017, 3.7e-5].slice(0, channels),
          });
          const reference = decodeDataTile(bytes);
          const handle = engine.decodeTile(bytes);
          expect(handle.header).toEqual(reference.header);
          for (let c = 0; c < channels; c++) expectSameFloats(handle.channel(c), reference.channels[c]);
          const texels = engine.texels(handle);
          expect(firstDifference(texels, expectedTexels(q, n))).toBe(-1);
          expect(firstDifference(packTexelsReference(bytes), texels)).toBe(-1);
          engine.releaseTile(handle);
        }
      });
    }
  }

  it('decodes exact values: offset + scale * q in f64, then f32, NaN for no data', () => {
    const q = new Uint16Array([0, 1, 65534, NO_DATA, 12345, 40000, 7, 8]);
    const bytes = rawTile({ width: 4, height: 2, q: [q], predictor: Predictor.RowDelta, offsets: [-3.1], scales: [0.1] });
    const handle = engine.decodeTile(bytes);
    const values = Array.from(handle.channel(0));
    const offset = Math.fround(-3.1);
    const scale = Math.fround(0.1);
    expect(values).toEqual(Array.from(q, (v) => (v === NO_DATA ? NaN : Math.fround(offset + scale * v))));
    engine.releaseTile(handle);
  });
});

describe('tile handles and errors', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });

  const tile = (width = 8, height = 4, channels = 2) => rawTile({
    width, height, predictor: Predictor.RowDelta,
    q: Array.from({ length: channels }, (_, c) => Uint16Array.from({ length: width * height }, (_, k) => (k * 37 + c) % 60000)),
    offsets: Array(channels).fill(0), scales: Array(channels).fill(1),
  });

  it('refuses bad headers with the reader\'s clear errors and leaves the engine as it was', () => {
    const before = engine.stats();
    const good = tile();
    const badMagic = good.slice();
    badMagic[0] = 0;
    const badVersion = good.slice();
    new DataView(badVersion.buffer).setUint16(4, 2, true);
    const cases: [Uint8Array, RegExp][] = [
      [badMagic, /bad magic/],
      [badVersion, /version 2/],
      [good.slice(0, 20), /truncated/],
      [good.slice(0, good.length - 1), /truncated/],
      [new Uint8Array([...good, 0]), /trailing/],
    ];
    for (const [bytes, message] of cases) {
      expect(() => engine.decodeTile(bytes)).toThrow(DataTileError);
      expect(() => engine.decodeTile(bytes)).toThrow(message);
    }
    expect(new DataView(good.buffer).getUint32(0, true)).toBe(TILE_MAGIC);
    expect(engine.stats()).toEqual(before);
  });

  it('refuses tiles larger than a 256x256 block', () => {
    const before = engine.stats();
    expect(() => engine.decodeTile(tile(257, 2, 1))).toThrow(/exceeds the engine's 256x256 block/);
    expect(() => engine.decodeTile(tile(2, 300, 1))).toThrow(DataTileError);
    expect(engine.stats()).toEqual(before);
  });

  it('keeps texels for the latest decode only, and refuses released or foreign handles', async () => {
    const first = engine.decodeTile(tile());
    const second = engine.decodeTile(tile(4, 4, 1));
    expect(() => engine.texels(first)).toThrow(/most recently decoded/);
    expect(engine.texels(second)).toHaveLength(4 * 4 * 4);
    engine.releaseTile(second);
    expect(() => engine.texels(second)).toThrow(/released/);
    expect(() => second.channel(0)).toThrow(/released/);
    expect(() => engine.releaseTile(second)).toThrow(/released/);
    expect(() => first.channel(2)).toThrow(/no channel 2/);
    const other = await createEngine();
    expect(() => other.releaseTile(first)).toThrow(/Not a tile handle of this engine/);
    engine.releaseTile(first);
  });

  it('reuses released blocks and keeps every live tile intact when memory grows', () => {
    const baseline = engine.stats();
    const handle = engine.decodeTile(tile());
    expect(engine.stats().liveBytes).toBe(baseline.liveBytes + 2 * BLOCK_BYTES);
    engine.releaseTile(handle);
    expect(engine.stats()).toEqual(baseline);

    // 24 two-channel tiles need 12 MiB of blocks: more than the initial memory, so it grows while
    // older handles are alive; their views must be rebuilt over the new buffer.
    const random = seededRandom(99);
    const live = Array.from({ length: 24 }, () => {
      const bytes = rawTile({
        width: 64, height: 64, predictor: Predictor.RowDelta, q: [randomQ(4096, random), randomQ(4096, random)],
        offsets: [1, 2], scales: [0.5, 0.25],
      });
      return { bytes, handle: engine.decodeTile(bytes) };
    });
    expect(engine.stats().memoryBytes).toBeGreaterThan(baseline.memoryBytes);
    for (const { bytes, handle } of live) {
      const reference = decodeDataTile(bytes);
      expectSameFloats(handle.channel(0), reference.channels[0]);
      expectSameFloats(handle.channel(1), reference.channels[1]);
    }
    for (const { handle } of live) engine.releaseTile(handle);
    expect(engine.stats().liveBytes).toBe(baseline.liveBytes);
    // All blocks came back as one free range: a new decode needs no more memory.
    const highWater = engine.stats().highWater;
    engine.releaseTile(engine.decodeTile(tile()));
    expect(engine.stats().highWater).toBeLessThanOrEqual(highWater);
  });
});
