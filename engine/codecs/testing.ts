/**
 * Test helpers for the codecs (Node only): the GRIB2 fixtures in ../shared/data, walked just far enough
 * to hand each codec its stream — section 5 (template, scaling, codec parameters), section 6
 * (bitmap), section 7 (the stream). The real decoder lives elsewhere; this is the minimum to test
 * the codecs against real files before it exists.
 *
 *   message:  "GRIB" | 2 reserved | discipline | edition (2) | total length u64 BE | sections 1..7 | "7777"
 *   section:  length u32 BE | number u8 | contents
 *   sect. 3:  octets 7-10 = number of grid points
 *   sect. 5:  octets 6-9 = number of packed values | 10-11 template | 12-15 R (IEEE f32)
 *             | 16-17 E | 18-19 D (sign and magnitude) | 20 bits per value | template octets 21..
 *   sect. 6:  octet 6 = bitmap indicator (0: bitmap follows, 255: none) | bitmap, MSB first
 *   sect. 7:  octets 6.. = the packed stream
 */

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURES_DIR, type EccodesRecord } from '../grib/testing.ts';

// Where the fixtures are and what their absence means (skipped, saying so; a failure with
// ISOBAR_REQUIRE_FIXTURES=1) are the decoder's test rules: describeWithFixtures.
export { describeWithFixtures } from '../grib/testing.ts';

/** The file at `relativePath` under ../shared/data. */
const fixturePath = (relativePath: string) => fileURLToPath(new URL(relativePath, FIXTURES_DIR));

export interface GribField {
  /** Data representation template number (5.x). */
  template: number;
  /** Grid points (section 3). */
  gridPoints: number;
  /** Values packed in section 7 (section 5). */
  packedCount: number;
  reference: number;
  binaryScale: number;
  decimalScale: number;
  bitsPerValue: number;
  /** Section 5 from its first octet, for template-specific octets (octet k is section5[k - 1]). */
  section5: Uint8Array;
  /** Section 6 bitmap (one bit per grid point) or null. */
  bitmap: Uint8Array | null;
  /** Section 7 payload: the codec's stream. */
  stream: Uint8Array;
}

const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
/** GRIB2 signed integers are sign and magnitude: the top bit is the sign (GRIB2 regulation 92.1.5). */
const signMagnitude16 = (b: Uint8Array, at: number) => {
  const raw = (b[at] << 8) | b[at + 1];
  return raw & 0x8000 ? -(raw & 0x7fff) : raw;
};

/** Every field of every message, in file order. */
export function readGribFields(relativePath: string): GribField[] {
  const bytes = new Uint8Array(readFileSync(fixturePath(relativePath)));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fields: GribField[] = [];
  let at = 0;
  while (at + 16 <= bytes.length) {
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) !== 'GRIB' || bytes[at + 7] !== 2) {
      throw new Error(`${relativePath}: no GRIB2 message at byte ${at}`);
    }
    const end = at + Number(view.getBigUint64(at + 8));
    let s = at + 16;
    let gridPoints = 0;
    let section5: Uint8Array | null = null;
    let bitmap: Uint8Array | null = null;
    while (s < end - 4) {
      const length = u32(bytes, s);
      const number = bytes[s + 4];
      const section = bytes.subarray(s, s + length);
      if (number === 3) gridPoints = u32(section, 6);
      if (number === 5) section5 = section;
      if (number === 6) {
        if (section[5] === 0) bitmap = section.subarray(6);
        else if (section[5] === 255) bitmap = null;
        else if (section[5] !== 254) throw new Error(`${relativePath}: bitmap indicator ${section[5]} not handled here`);
      }
      if (number === 7) {
        if (!section5) throw new Error(`${relativePath}: section 7 before section 5`);
        fields.push({
          template: (section5[9] << 8) | section5[10],
          gridPoints,
          packedCount: u32(section5, 5),
          reference: new DataView(section5.buffer, section5.byteOffset + 11, 4).getFloat32(0),
          binaryScale: signMagnitude16(section5, 15),
          decimalScale: signMagnitude16(section5, 17),
          bitsPerValue: section5[19],
          section5,
          bitmap,
          stream: section.subarray(5),
        });
      }
      s += length;
    }
    at = end;
  }
  return fields;
}

/** Y = (R + X 2^E) / 10^D (GRIB2 regulation 92.9.4), with missing points (bitmap bit 0) as NaN. */
export function unpackField(field: GribField, packed: ArrayLike<number>): Float64Array {
  const { reference: r, binaryScale: e, decimalScale: d } = field;
  const binary = 2 ** e;
  const decimal = 10 ** -d;
  const out = new Float64Array(field.bitmap ? field.gridPoints : packed.length);
  let k = 0;
  for (let i = 0; i < out.length; i++) {
    if (field.bitmap && !((field.bitmap[i >>> 3] >>> (7 - (i & 7))) & 1)) {
      out[i] = NaN;
    } else {
      out[i] = (r + packed[k++] * binary) * decimal;
    }
  }
  if (k !== packed.length) throw new Error(`bitmap selects ${k} points for ${packed.length} packed values`);
  return out;
}

export function eccodesRecords(relativePath: string): EccodesRecord[] {
  const all = JSON.parse(readFileSync(fixturePath('expected-eccodes.json'), 'utf8')) as Record<string, { records: EccodesRecord[] }>;
  const entry = all[relativePath];
  if (!entry) throw new Error(`expected-eccodes.json has no entry for ${relativePath}`);
  return entry.records;
}

/** min / max / mean over the present (non-NaN) values, the first five as ecCodes lists them (null = missing). */
export function fieldStats(values: Float64Array): { min: number; max: number; mean: number; missing: number; first5: (number | null)[] } {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let present = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    present++;
  }
  const first5 = Array.from(values.subarray(0, 5), (v) => (Number.isNaN(v) ? null : v));
  return { min, max, mean: sum / present, missing: values.length - present, first5 };
}

/** Raw little-endian float32 from a wgrib2-reference/*.bin.xz (decompressed with the xz command). */
export function readWgrib2Reference(relativePath: string): Float32Array {
  const raw = execFileSync('xz', ['-dc', fixturePath(relativePath)], { maxBuffer: 1 << 28 });
  const copy = new Uint8Array(raw.length);
  copy.set(raw);
  return new Float32Array(copy.buffer);
}

/**
 * Damages a copy of `stream` one of several ways, for the codecs' robustness tests: flipped bits,
 * overwritten bytes, truncation, a cut-out or repeated span, a zeroed run.
 */
export function mutate(stream: Uint8Array, random: () => number): Uint8Array {
  const pick = (n: number) => Math.floor(random() * n);
  const kind = pick(6);
  const copy = stream.slice();
  switch (kind) {
    case 0: {
      const flips = 1 + pick(8);
      for (let i = 0; i < flips; i++) copy[pick(copy.length)] ^= 1 << pick(8);
      return copy;
    }
    case 1: {
      const writes = 1 + pick(4);
      for (let i = 0; i < writes; i++) copy[pick(copy.length)] = pick(256);
      return copy;
    }
    case 2:
      return copy.subarray(0, pick(copy.length));
    case 3: {
      const from = pick(copy.length);
      const to = Math.min(copy.length, from + 1 + pick(64));
      const out = new Uint8Array(copy.length - (to - from));
      out.set(copy.subarray(0, from));
      out.set(copy.subarray(to), from);
      return out;
    }
    case 4: {
      const from = pick(copy.length);
      const span = copy.subarray(from, Math.min(copy.length, from + 1 + pick(64)));
      const out = new Uint8Array(copy.length + span.length);
      out.set(copy.subarray(0, from));
      out.set(span, from);
      out.set(copy.subarray(from), from + span.length);
      return out;
    }
    default: {
      const from = pick(copy.length);
      copy.fill(random() < 0.5 ? 0 : 0xff, from, Math.min(copy.length, from + 1 + pick(32)));
      return copy;
    }
  }
}
