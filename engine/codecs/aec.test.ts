import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine, seededRandom } from '../testing.ts';
import { CodecError, decodeAec } from './index.ts';
import {
  describeWithFixtures, eccodesRecords, fieldStats, mutate, readGribFields, readWgrib2Reference,
  unpackField, type GribField,
} from './testing.ts';
import { AEC_VECTORS, aecSamples, type AecVector } from './testdata/aec-vectors.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

const vectorStream = (v: AecVector) => new Uint8Array(readFileSync(new URL(`./testdata/aec/${v.name}.aec`, import.meta.url)));

/** Template 5.42 octets 20-25: bits per sample, (type of values), ccsdsFlags, block size, RSI. */
function aecParams(field: GribField) {
  const s = field.section5;
  return {
    bitsPerSample: s[19],
    flags: s[21],
    blockSize: s[22],
    referenceSampleInterval: (s[23] << 8) | s[24],
    count: field.packedCount,
  };
}

describe('decodeAec against libaec (streams from its aec tool)', () => {
  it.each(AEC_VECTORS.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const decoded = decodeAec(engine, vectorStream(v), v);
    const expected = aecSamples(v);
    expect(decoded.length).toBe(expected.length);
    const firstDifference = decoded.findIndex((x, i) => x !== expected[i]);
    expect(firstDifference).toBe(-1);
  });

  it('decodes fewer samples than the stream holds (a field ends inside a block)', () => {
    const v = AEC_VECTORS[0];
    const decoded = decodeAec(engine, vectorStream(v), { ...v, count: 1000 });
    expect(Array.from(decoded)).toEqual(Array.from(aecSamples(v).subarray(0, 1000)));
  });

  it('returns an empty array for zero samples', () => {
    expect(decodeAec(engine, new Uint8Array(0), { ...AEC_VECTORS[0], count: 0 }).length).toBe(0);
  });
});

describe('decodeAec refuses what libaec refuses', () => {
  const v = AEC_VECTORS[0];
  const stream = vectorStream(v);
  it.each([
    ['bits per sample 0', { bitsPerSample: 0 }, /bits per sample 0/],
    ['bits per sample 33', { bitsPerSample: 33 }, /bits per sample 33/],
    ['block size 12', { blockSize: 12 }, /block size 12/],
    ['odd block size even when not enforced', { blockSize: 7, flags: 64 }, /block size 7/],
    ['RSI 0', { referenceSampleInterval: 0 }, /reference sample interval 0/],
    ['unknown flag', { flags: 128 }, /unknown flags/],
    ['restricted with 8 bits', { bitsPerSample: 8, flags: 16 }, /restricted/],
    ['negative count', { count: -1 }, /sample count -1/],
    ['fractional count', { count: 2.5 }, /sample count 2.5/],
    ['huge count', { count: 2 ** 30 }, /sample count/],
  ])('%s', (_name, change, message) => {
    expect(() => decodeAec(engine, stream, { ...v, ...change })).toThrow(CodecError);
    expect(() => decodeAec(engine, stream, { ...v, ...change })).toThrow(message);
  });

  it('an empty stream for samples', () => {
    expect(() => decodeAec(engine, new Uint8Array(0), v)).toThrow(/empty stream/);
  });

  it.each(AEC_VECTORS.map((x) => [x.name, x] as const))('every truncation of %s', (_name, x) => {
    const full = vectorStream(x);
    const step = Math.max(1, Math.floor(full.length / 97));
    for (let length = 0; length < full.length; length += step) {
      expect(() => decodeAec(engine, full.subarray(0, length), x), `truncated to ${length}`).toThrow(CodecError);
    }
    expect(() => decodeAec(engine, full.subarray(0, full.length - 1), x)).toThrow(CodecError);
  });
});

describe('decodeAec on damaged streams', () => {
  // A fixed number of streams: a decoder that looped on one would fail the test at its timeout.
  it('2 400 mutated streams each decode to count samples or throw CodecError', () => {
    const random = seededRandom(0x5eed42);
    let errors = 0;
    let results = 0;
    for (let i = 0; i < 2400; i++) {
      const v = AEC_VECTORS[i % AEC_VECTORS.length];
      const damaged = mutate(vectorStream(v), random);
      try {
        const out = decodeAec(engine, damaged, v);
        expect(out.length).toBe(v.count);
        results++;
      } catch (error) {
        if (!(error instanceof CodecError)) throw new Error(`mutation ${i} of ${v.name}: ${String(error)}`, { cause: error });
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(1000);
    expect(errors + results).toBe(2400);
  });
});

const ECMWF = 'grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2';
const CAMS = 'grib2/cams_chem_12x7_20110929_t5.42-ccsds-tiny.grib2';

describeWithFixtures('decodeAec on real GRIB2 (../shared/data)', () => {
  it('ECMWF IFS tprate equals wgrib2 value for value', () => {
    const [field] = readGribFields(ECMWF);
    expect(field.template).toBe(42);
    const values = unpackField(field, decodeAec(engine, field.stream, aecParams(field)));
    const reference = readWgrib2Reference('grib2/wgrib2-reference/ecmwf-realtime-oper-fc-89-le.bin.xz');
    expect(values.length).toBe(reference.length);
    let mismatches = 0;
    for (let i = 0; i < values.length; i++) if (Math.fround(values[i]) !== reference[i]) mismatches++;
    expect(mismatches).toBe(0);
    const expected = eccodesRecords(ECMWF)[0];
    const stats = fieldStats(values);
    expect(stats.max).toBeCloseTo(expected.max, 12);
    expect(stats.mean).toBeCloseTo(expected.mean, 12);
  });

  it('the three CAMS fields match ecCodes', () => {
    const fields = readGribFields(CAMS);
    const expected = eccodesRecords(CAMS);
    expect(fields.length).toBe(3);
    fields.forEach((field, i) => {
      const stats = fieldStats(unpackField(field, decodeAec(engine, field.stream, aecParams(field))));
      const want = expected[i];
      const tolerance = Math.abs(want.max) * 1e-7;
      expect(Math.abs(stats.min - want.min)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(stats.max - want.max)).toBeLessThanOrEqual(tolerance);
      expect(Math.abs(stats.mean - want.mean)).toBeLessThanOrEqual(tolerance);
      stats.first5.forEach((v, j) => expect(Math.abs((v as number) - (want.first5[j] as number))).toBeLessThanOrEqual(tolerance));
    });
  });
});
