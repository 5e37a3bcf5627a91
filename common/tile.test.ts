import { describe, expect, it } from 'vitest';
import {
  DataTileError, Predictor, TILE_HEADER_BYTES, TILE_VERSION, decodeDataTile, encodeDataTile, readTileHeader, tileByteLength,
} from './tile.ts';

/** Deterministic xorshift32 so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 0x100000000;
  };
}

function field(width: number, height: number, seed: number, holes = 0): Float32Array {
  const r = rng(seed);
  const v = new Float32Array(width * height);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      v[j * width + i] = 10 * Math.sin(i / 7) + 5 * Math.cos(j / 5) + r() - 0.5;
    }
  }
  for (let k = 0; k < holes; k++) v[Math.floor(r() * v.length)] = NaN;
  return v;
}

const bounds = { west: -180, north: 90, east: 0, south: -90 };

describe('data tile format', () => {
  it.each([
    [1, Predictor.RowDelta],
    [2, Predictor.RowDelta],
    [3, Predictor.RowDelta],
    [2, Predictor.None],
  ])('round-trips %i channel(s) with predictor %i within half a quantization step', (channels, predictor) => {
    const width = 256;
    const height = 256;
    const values = Array.from({ length: channels }, (_, c) => field(width, height, 7 + c, 50));
    const bytes = encodeDataTile({ ...bounds, width, height, channels: values, predictor });
    expect(bytes.byteLength).toBe(tileByteLength(channels, width, height));
    const decoded = decodeDataTile(bytes);
    expect(decoded.header).toMatchObject({ version: TILE_VERSION, channels, predictor, width, height, ...bounds });
    values.forEach((original, c) => {
      const scale = decoded.header.scales[c];
      const out = decoded.channels[c];
      for (let i = 0; i < original.length; i++) {
        if (Number.isNaN(original[i])) expect(out[i]).toBeNaN();
        else expect(Math.abs(out[i] - original[i])).toBeLessThanOrEqual(scale / 2 + 1e-4);
      }
    });
  });

  it('keeps a constant field exact and all-missing fields missing', () => {
    const bytes = encodeDataTile({ ...bounds, width: 4, height: 3, channels: [new Float32Array(12).fill(287.5), new Float32Array(12).fill(NaN)] });
    const { channels } = decodeDataTile(bytes);
    expect([...channels[0]]).toEqual(new Array(12).fill(287.5));
    expect(channels[1].every(Number.isNaN)).toBe(true);
  });

  it('honours a fixed quantization and clamps outside it', () => {
    const bytes = encodeDataTile({ ...bounds, width: 2, height: 2, channels: [[0, 1, 2, 40000]], quantization: [{ offset: 0, scale: 0.5 }] });
    const { channels } = decodeDataTile(bytes);
    expect([...channels[0]]).toEqual([0, 1, 2, 0xfffe * 0.5]);
  });

  it('accepts a typed array view that does not start at offset 0', () => {
    const bytes = encodeDataTile({ ...bounds, width: 2, height: 2, channels: [[1, 2, 3, 4]] });
    const padded = new Uint8Array(bytes.byteLength + 8);
    padded.set(bytes, 8);
    expect([...decodeDataTile(padded.subarray(8)).channels[0]].map(Math.round)).toEqual([1, 2, 3, 4]);
  });

  const good = () => encodeDataTile({ ...bounds, width: 3, height: 2, channels: [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1]] });
  const mutate = (f: (v: DataView, b: Uint8Array) => void) => {
    const b = good();
    f(new DataView(b.buffer), b);
    return b;
  };

  it.each<[string, () => Uint8Array, RegExp]>([
    ['wrong magic', () => mutate((v) => v.setUint8(0, 0x58)), /bad magic/],
    ['wrong version', () => mutate((v) => v.setUint16(4, 2, true)), /Unsupported data tile version 2: this build reads version 1/],
    ['truncated data', () => good().subarray(0, good().byteLength - 1), /truncated: \d+ bytes, expected \d+/],
    ['truncated header', () => good().subarray(0, 20), /truncated: 20 bytes, the header alone is 48/],
    ['empty', () => new Uint8Array(0), /truncated/],
    ['trailing bytes', () => { const g = good(); const b = new Uint8Array(g.byteLength + 3); b.set(g); return b; }, /trailing bytes/],
    ['zero channels', () => mutate((v) => v.setUint8(6, 0)), /0 channels/],
    ['four channels', () => mutate((v) => v.setUint8(6, 4)), /4 channels/],
    ['unknown predictor', () => mutate((v) => v.setUint8(7, 9)), /unknown predictor 9/],
    ['tiny grid', () => mutate((v) => v.setUint16(8, 1, true)), /too small/],
    ['inverted bounds', () => mutate((v) => v.setFloat64(16, 10, true)), /bounds are invalid/],
    ['NaN scale', () => mutate((v) => v.setFloat32(TILE_HEADER_BYTES + 4, NaN, true)), /non-finite/],
  ])('rejects %s with a clear error', (_, make, message) => {
    const bytes = make();
    expect(() => readTileHeader(bytes)).toThrow(DataTileError);
    expect(() => decodeDataTile(bytes)).toThrow(message);
  });

  it('never crashes on random mutations: it decodes or throws DataTileError', () => {
    const r = rng(99);
    for (let n = 0; n < 2000; n++) {
      const b = good();
      const flips = 1 + Math.floor(r() * 4);
      for (let k = 0; k < flips; k++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
      const cut = r() < 0.3 ? b.subarray(0, Math.floor(r() * b.length)) : b;
      try {
        const d = decodeDataTile(cut);
        expect(d.channels.length).toBe(d.header.channels);
      } catch (e) {
        expect(e).toBeInstanceOf(DataTileError);
      }
    }
  });

  it('rejects bad encoder input', () => {
    expect(() => encodeDataTile({ ...bounds, width: 2, height: 2, channels: [] })).toThrow(/1 to 3 channels/);
    expect(() => encodeDataTile({ ...bounds, width: 2, height: 2, channels: [[1, 2, 3]] })).toThrow(/3 values, expected 4/);
    expect(() => encodeDataTile({ ...bounds, width: 1, height: 2, channels: [[1, 2]] })).toThrow(/invalid/);
  });
});
