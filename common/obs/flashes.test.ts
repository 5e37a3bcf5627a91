import { describe, expect, it } from 'vitest';
import { decodeFlashes, encodeFlashes, type Flashes, FlashesFormatError, nearestFlash } from './flashes.ts';

const sample: Flashes = {
  baseTime: Date.UTC(2018, 6, 2, 4, 34),
  lon: Float32Array.of(-75, -60.5, 10),
  lat: Float32Array.of(0, -31.25, 45),
  ageSeconds: Float32Array.of(3599, 20.5, 0),
  energyFj: Float32Array.of(398, 12, 1.5),
  areaKm2: Float32Array.of(556.5, 100, 63.1),
  quality: Uint8Array.of(0, 3, 0),
};

describe('flash file', () => {
  it('round-trips every column and the base time', () => {
    const bytes = encodeFlashes(sample);
    expect(bytes.byteLength).toBe(24 + 21 * 3);
    expect(decodeFlashes(bytes)).toEqual(sample);
    // From an unaligned view too (a slice of a bigger buffer).
    const padded = new Uint8Array(bytes.byteLength + 1);
    padded.set(bytes, 1);
    expect(decodeFlashes(padded.subarray(1))).toEqual(sample);
  });

  it('refuses another format, another version and a cut file', () => {
    const bytes = encodeFlashes(sample);
    expect(() => decodeFlashes(new TextEncoder().encode('{"flashes":[]}   ____________'))).toThrow(/not appear to be an Isobar flash file/);
    const v2 = bytes.slice();
    v2[4] = 2;
    expect(() => decodeFlashes(v2)).toThrow(/version 2/);
    expect(() => decodeFlashes(bytes.subarray(0, bytes.length - 1))).toThrow(FlashesFormatError);
    expect(() => decodeFlashes(bytes.subarray(0, 10))).toThrow(/too short/);
  });

  it('finds the nearest flash by great-circle distance within a radius', () => {
    // 1° of longitude on the equator is 111.2 km on the IUGG mean sphere.
    expect(nearestFlash(sample, -74, 0, 112)).toBe(0);
    expect(nearestFlash(sample, -74, 0, 111)).toBe(-1);
    expect(nearestFlash(sample, 9, 45.5, 500)).toBe(2);
  });
});
