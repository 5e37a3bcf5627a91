/**
 * Robustness (issue 3, item 2): 10 000+ mutated and truncated GRIB2 files, from real fixtures and
 * from the test encoder, with a fixed seed. Each must either decode (every field, the right
 * number of values) or fail with a GribError — never another exception, never a crash of the
 * WASM module, and never leak engine memory. The work of a file is bounded by what it decodes:
 * no field past the decoder's grid limit (MAX_GRIB_POINTS) decodes; a fixed number of files, so a
 * decoder that hung on one would fail the test at its timeout. Decoding speed is the bench's
 * (npm run bench, GRIB2 decode).
 */

import { beforeAll, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine, seededRandom } from '../testing.ts';
import { decodeField, GribError, inventory, MAX_GRIB_POINTS } from './index.ts';
import { codecUnavailable, concatBytes, describeWithFixtures, encodeMessage, readFixture, type TestField } from './testing.ts';

/** A fixed seed, so a failure reproduces; ISOBAR_GRIB_FUZZ_SEED / _SCALE explore further by hand. */
const SEED = Number(process.env.ISOBAR_GRIB_FUZZ_SEED ?? 0x15_0b_a7);
const SCALE = Number(process.env.ISOBAR_GRIB_FUZZ_SCALE ?? 1);

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

type Random = () => number;

/** Byte offsets of every section (0 to 8) of every message of an intact file. */
function sectionStarts(bytes: Uint8Array): number[] {
  const starts: number[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const seen = new Set<number>();
  for (const { offset, length } of inventory(bytes)) {
    if (seen.has(offset)) continue;
    seen.add(offset);
    starts.push(offset);
    for (let at = offset + 16; at < offset + length - 4; at += view.getUint32(at)) starts.push(at);
  }
  return starts;
}

interface Mutation {
  name: string;
  apply(bytes: Uint8Array, starts: number[], random: Random): Uint8Array;
}

const int = (random: Random, n: number) => Math.floor(random() * n);

/** A position inside the first octets of some section: where the structure lives. */
function headerPosition(bytes: Uint8Array, starts: number[], random: Random): number {
  const start = starts[int(random, starts.length)];
  return Math.min(bytes.length - 1, start + int(random, 64));
}

const MUTATIONS: Mutation[] = [
  {
    name: 'bit flips anywhere',
    apply(bytes, _starts, random) {
      const out = bytes.slice();
      for (let n = 1 + int(random, 4); n > 0; n--) out[int(random, out.length)] ^= 1 << int(random, 8);
      return out;
    },
  },
  {
    name: 'bit flips in section headers',
    apply(bytes, starts, random) {
      const out = bytes.slice();
      for (let n = 1 + int(random, 3); n > 0; n--) out[headerPosition(out, starts, random)] ^= 1 << int(random, 8);
      return out;
    },
  },
  {
    name: 'bytes changed in section headers',
    apply(bytes, starts, random) {
      const out = bytes.slice();
      for (let n = 1 + int(random, 3); n > 0; n--) {
        const special = [0, 0xff, 0x7f, 0x80, 1];
        out[headerPosition(out, starts, random)] = random() < 0.5 ? special[int(random, special.length)] : int(random, 256);
      }
      return out;
    },
  },
  {
    name: 'truncation',
    apply(bytes, _starts, random) {
      return bytes.slice(0, int(random, bytes.length));
    },
  },
  {
    name: 'swapped section lengths',
    apply(bytes, starts, random) {
      const out = bytes.slice();
      const a = starts[int(random, starts.length)];
      const b = starts[int(random, starts.length)];
      const ta = out.slice(a, a + 4);
      out.copyWithin(a, b, b + 4);
      out.set(ta, b);
      return out;
    },
  },
  {
    name: 'section length edited',
    apply(bytes, starts, random) {
      const out = bytes.slice();
      const view = new DataView(out.buffer);
      const at = starts[int(random, starts.length)];
      const old = view.getUint32(at);
      const choices = [old + 1, old - 1, 0, 4, 5, 0xffffffff, int(random, 2 ** 32), old * 2];
      view.setUint32(at, choices[int(random, choices.length)] >>> 0);
      return out;
    },
  },
  {
    name: 'section number changed',
    apply(bytes, starts, random) {
      const out = bytes.slice();
      out[starts[int(random, starts.length)] + 4] = int(random, 10);
      return out;
    },
  },
  {
    name: 'bytes inserted or removed',
    apply(bytes, starts, random) {
      const at = random() < 0.7 ? headerPosition(bytes, starts, random) : int(random, bytes.length);
      const n = 1 + int(random, 8);
      if (random() < 0.5) return concatBytes(bytes.subarray(0, at), new Uint8Array(n).fill(int(random, 256)), bytes.subarray(at));
      return concatBytes(bytes.subarray(0, at), bytes.subarray(at + n));
    },
  },
  {
    name: 'section duplicated or dropped',
    apply(bytes, starts, random) {
      const k = 1 + int(random, starts.length - 1);
      const at = starts[k];
      const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(at);
      if (at + length > bytes.length || length > 1 << 20) return bytes.slice(0, at);
      const section = bytes.subarray(at, at + length);
      return random() < 0.5
        ? concatBytes(bytes.subarray(0, at), section, bytes.subarray(at))
        : concatBytes(bytes.subarray(0, at), bytes.subarray(at + length));
    },
  },
];

interface Source {
  name: string;
  bytes: () => Promise<Uint8Array>;
  count: number;
}

/** Encoded cases the fixtures lack: complex packing with missing values, IEEE, shared sections. */
function encodedSource(): Uint8Array {
  const grid = { template: 0, Ni: 4, Nj: 3, lat1: 20, lon1: 0, lat2: 0, lon2: 30, dLon: 10, dLat: 10 } as const;
  const values = [1, 5, null, 9, 9, 9, 2, null, 4, 400, 3, 8];
  const fields: TestField[] = [
    { grid, packing: { template: 3, order: 2, groupSize: 3, missingManagement: 2 }, values, missing: 'packing' },
    { grid, packing: { template: 2, groupSize: 2, missingManagement: 1 }, values, missing: 'packing' },
    { grid, packing: { template: 3, order: 1, groupSize: 5 }, values },
    { grid, packing: { template: 4, precision: 2 }, values, missing: 'previous' },
  ];
  const gaussian = { ...grid, template: 40, lat1: 59.444408, lat2: -19.875719, dLat: 2 } as const; // 3 of the N2 rows
  return concatBytes(
    encodeMessage(fields, { localSection: true }),
    encodeMessage([{ grid: gaussian, packing: { template: 0 }, values: values.map((v) => v ?? 0) }]),
  );
}

/** Some messages of a fixture, concatenated. */
async function pickMessages(path: string, messages: number[]): Promise<Uint8Array> {
  const bytes = await readFixture(path);
  const fields = inventory(bytes);
  return concatBytes(...messages.map((m) => {
    const { offset, length } = fields.find((f) => f.message === m)!;
    return bytes.subarray(offset, offset + length);
  }));
}

const SOURCES: Source[] = [
  { name: 'synthetic 2x3 bit-map', bytes: () => readFixture('grib2/synthetic_2x3_scanmode_bitmap_t5.0.grib2'), count: 1500 },
  { name: 'ECMWF tiny 5.0', bytes: () => readFixture('grib2/ecmwf_2t_16x31_20080206_t5.0-tiny.grib2'), count: 1500 },
  { name: 'GDAS zero-bit 5.3', bytes: () => readFixture('grib2/gdas0p25_r_7Pa_20230111T12_t5.3-constant-nbits0.grib2'), count: 500 },
  { name: 'ICON icosahedral constant', bytes: () => readFixture('grib2/icon-global-icosahedral_tot_prec_20211120T18_f000_t5.0-constant.grib2'), count: 300 },
  { name: 'GFS 1° 5.0', bytes: () => readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2'), count: 800 },
  { name: 'GFS 1° 5.2', bytes: () => readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.2-complex.grib2'), count: 1000 },
  { name: 'GFS 1° 5.3', bytes: () => readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.3-complex-spdiff.grib2'), count: 1200 },
  // Messages with one and several fields (sections 4-7 repeated), bit-maps 0 and 254.
  { name: 'GFS 2.5° messages', bytes: () => pickMessages('samples/gfs-2p5-full/gfs2p5_20110110T12_f120_full.grib2', [2, 3, 180, 262, 292]), count: 1500 },
  { name: 'encoded complex/IEEE', bytes: async () => encodedSource(), count: 1500 },
  ...(!codecUnavailable([42]) ? [{ name: 'CAMS CCSDS tiny', bytes: () => readFixture('grib2/cams_chem_12x7_20110929_t5.42-ccsds-tiny.grib2'), count: 500 }] : []),
];

/*
 * Extremes of complex packing: X past 32 bits, from a 32-bit reference plus a group value, or
 * from spatial differencing of extreme first values and minimum (4-octet descriptors). ecCodes
 * sums these in 64 bits; 32-bit sums wrapped (2^31 - 1 + 1 gave -2^31).
 */
it.each([
  ['5.2, 32-bit references past 2^32', { template: 2, groupSize: 2 }, [4294967290, 4294967300, 4294967295, 4294967295, 7, 8]],
  ['5.3 order 1, first value 2^31 - 1', { template: 3, order: 1, descriptorOctets: 4, groupSize: 3 }, [2147483647, 2147483648, 2147483650, 2147483651, 2147483660, 2147483700]],
  ['5.3 order 1, first value -(2^31 - 1)', { template: 3, order: 1, descriptorOctets: 4, groupSize: 3 }, [-2147483647, -2147483657, -2147483667, -2147483677, -2147483687, -2147483697]],
  ['5.3 order 1, minimum -(2^31 - 1)', { template: 3, order: 1, descriptorOctets: 4, groupSize: 3 }, [2147483647, 0, -2147483647, -2147483647, -2147483640, -2147483600]],
  ['5.3 order 2, growing past 2^31', { template: 3, order: 2, descriptorOctets: 4, groupSize: 2 }, [2147483647, 2147483647, 2147484647, 2147486647, 2147489647, 2147493647]],
] as const)('decodes %s without wrapping', async (_name, packing, values) => {
  const grid = { template: 0, Ni: 3, Nj: 2, lat1: 10, lon1: 0, lat2: 0, lon2: 20, dLon: 10, dLat: 10 } as const;
  const bytes = encodeMessage([{ grid, packing, values: [...values] }]);
  const [info] = inventory(bytes);
  expect(Array.from(await decodeField(engine, bytes, info))).toEqual(values.map((v) => Math.fround(v)));
});

describeWithFixtures('GRIB2 decoder on mutated files', () => {
  it('the multi-field source really holds shared sections and reused bit-maps', async () => {
    const fields = inventory(await SOURCES.find((s) => s.name === 'GFS 2.5° messages')!.bytes());
    expect(fields.some((f) => f.field > 0)).toBe(true);
    // A later field of a message using the bit-map of an earlier one (indicator 254).
    expect(fields.some((f) => f.field > 0 && f.bitmapPresent === 1 && f.sections.bitmap < f.sections.product)).toBe(true);
  });

  it(`gives a GribError or a decoded file for 10 000+ mutations (seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    const liveBefore = engine.stats().liveBytes;
    const tally = { files: 0, decoded: 0, errors: 0, mostValues: 0 };
    const byMutation = new Map<string, { decoded: number; errors: number }>();
    for (const source of SOURCES) {
      const original = await source.bytes();
      const starts = sectionStarts(original);
      for (let n = 0; n < source.count * SCALE; n++) {
        const mutation = MUTATIONS[int(random, MUTATIONS.length)];
        const bytes = mutation.apply(original, starts, random);
        const counts = byMutation.get(mutation.name) ?? { decoded: 0, errors: 0 };
        byMutation.set(mutation.name, counts);
        try {
          for (const info of inventory(bytes)) {
            const values = await decodeField(engine, bytes, info);
            if (values.length !== info.numberOfValues) expect.fail(`${source.name} #${n}: ${values.length} values for ${info.numberOfValues} points`);
            if (values.length > MAX_GRIB_POINTS) expect.fail(`${source.name} #${n} (${mutation.name}) decoded ${values.length} values, past the limit`);
            tally.mostValues = Math.max(tally.mostValues, values.length);
          }
          tally.decoded++;
          counts.decoded++;
        } catch (error) {
          if (!(error instanceof GribError)) {
            expect.fail(`${source.name} #${n} (${mutation.name}) threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
          }
          tally.errors++;
          counts.errors++;
        }
        tally.files++;
      }
    }
    expect(tally.files).toBeGreaterThanOrEqual(10_000);
    // Both outcomes occur for every kind of mutation but the structural ones, which always break the file.
    expect(tally.errors).toBeGreaterThan(tally.files / 4);
    expect(tally.decoded).toBeGreaterThan(tally.files / 10);
    expect(engine.stats().liveBytes).toBe(liveBefore);
    console.info(`[grib fuzz] ${JSON.stringify(tally)} ${JSON.stringify(Object.fromEntries(byMutation))}`);
  }, 600_000);
});
