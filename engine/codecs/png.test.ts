import { constants, deflateSync, type ZlibOptions } from 'node:zlib';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine, seededRandom } from '../testing.ts';
import { CodecError, decodePngGrib } from './index.ts';
import {
  describeWithFixtures, eccodesRecords, fieldStats, mutate, readGribFields, unpackField,
} from './testing.ts';

// ---- a small PNG writer for the tests: every filter type on demand, any colour type and depth ----

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc(bytes: Uint8Array): number {
  let c = -1;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function chunk(type: string, data: Uint8Array, corruptCrc = false): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)) ^ (corruptCrc ? 1 : 0));
  return out;
}
const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface TestImage {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  /** One integer per pixel, channels x depth bits, big-endian across the channels. */
  values: number[];
}
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function ihdr(image: Pick<TestImage, 'width' | 'height' | 'depth' | 'colourType'>, interlace = 0): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, image.width);
  view.setUint32(4, image.height);
  data.set([image.depth, image.colourType, 0, 0, interlace], 8);
  return chunk('IHDR', data);
}

/** The raw scanlines (filter byte + filtered row) of `image`, row y filtered with filters(y). */
function scanlines(image: TestImage, filters: (y: number) => number): Uint8Array {
  const bits = CHANNELS[image.colourType] * image.depth;
  const rowBytes = Math.ceil((image.width * bits) / 8);
  const bpp = Math.max(1, bits >> 3);
  const rows: Uint8Array[] = [];
  for (let y = 0; y < image.height; y++) {
    const row = new Uint8Array(rowBytes);
    for (let x = 0; x < image.width; x++) {
      const v = image.values[y * image.width + x];
      if (bits < 8) {
        row[Math.floor((x * bits) / 8)] |= v << (8 - bits - ((x * bits) % 8));
      } else {
        for (let b = 0; b < bits / 8; b++) row[(x * bits) / 8 + b] = Math.floor(v / 2 ** (bits - 8 - 8 * b)) & 0xff;
      }
    }
    rows.push(row);
  }
  const out: number[] = [];
  rows.forEach((row, y) => {
    const prior = y > 0 ? rows[y - 1] : new Uint8Array(rowBytes);
    const filter = filters(y);
    out.push(filter);
    for (let i = 0; i < rowBytes; i++) {
      const a = i >= bpp ? row[i - bpp] : 0;
      const b = prior[i];
      const c = i >= bpp ? prior[i - bpp] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter] ?? 0;
      out.push((row[i] - predictor) & 0xff);
    }
  });
  return new Uint8Array(out);
}

function encodePng(image: TestImage, filters: (y: number) => number, idatSplit = 3, zlibOptions: ZlibOptions = {}): Uint8Array {
  const z = deflateSync(scanlines(image, filters), zlibOptions);
  const step = Math.ceil(z.length / idatSplit);
  const idats: Uint8Array[] = [];
  for (let at = 0; at < z.length; at += step) idats.push(chunk('IDAT', z.subarray(at, at + step)));
  return concat([SIGNATURE, ihdr(image), chunk('tEXt', Buffer.from('Comment\0test')), ...idats, chunk('IEND', new Uint8Array(0))]);
}

function randomImage(width: number, height: number, depth: number, colourType: number, seed: number): TestImage {
  const random = seededRandom(seed);
  const bits = CHANNELS[colourType] * depth;
  const smooth = (i: number) => Math.floor((Math.sin(i / 37) * 0.5 + 0.5) * (2 ** bits - 1));
  const values = Array.from({ length: width * height }, (_, i) =>
    random() < 0.7 ? smooth(i) : Math.floor(random() * 2 ** bits));
  return { width, height, depth, colourType, values };
}

describe('decodePngGrib on every filter, colour type and depth GRIB2 can use', () => {
  const cases: [string, number, number][] = [
    ['grey 1 bit', 1, 0], ['grey 2 bit', 2, 0], ['grey 4 bit', 4, 0], ['grey 8 bit', 8, 0], ['grey 16 bit', 16, 0],
    ['RGB 8 bit (24-bit integers)', 8, 2], ['grey+alpha 8 bit', 8, 4], ['grey+alpha 16 bit', 16, 4], ['RGBA 8 bit (32-bit integers)', 8, 6],
  ];
  const filterPlans: [string, (y: number) => number][] = [
    ['None', () => 0], ['Sub', () => 1], ['Up', () => 2], ['Average', () => 3], ['Paeth', () => 4], ['mixed', (y) => (y * 7 + 3) % 5],
  ];
  for (const [name, depth, colourType] of cases) {
    it.each(filterPlans)(`${name}, filter %s`, (_filter, filters) => {
      const image = randomImage(37, 11, depth, colourType, depth * 31 + colourType);
      const decoded = decodePngGrib(engine, encodePng(image, filters));
      expect(decoded.width).toBe(37);
      expect(decoded.height).toBe(11);
      expect(decoded.bitDepth).toBe(CHANNELS[colourType] * depth);
      expect(Array.from(decoded.values)).toEqual(image.values);
    });
  }

  // The inflater meets every block type and code shape zlib writes: stored blocks, fixed and
  // dynamic Huffman codes, run-length matches (distance 1, overlapping copies), window sizes.
  it.each([
    ['stored blocks (level 0)', { level: 0 }],
    ['fixed Huffman codes', { strategy: constants.Z_FIXED }],
    ['Huffman only, no matches', { strategy: constants.Z_HUFFMAN_ONLY }],
    ['run-length matches', { strategy: constants.Z_RLE }],
    ['level 9, 32 KiB window', { level: 9 }],
    ['level 1, 512-byte window', { level: 1, windowBits: 9 }],
  ] as [string, ZlibOptions][])('zlib streams with %s', (_name, options) => {
    const image = randomImage(400, 300, 16, 0, 11);
    const decoded = decodePngGrib(engine, encodePng(image, (y) => (y * 7 + 3) % 5, 2, options));
    expect(decoded.values.findIndex((v, i) => v !== image.values[i])).toBe(-1);
  });

  it('a 16-bit grey image written by pngjs (its own filter choice per row)', () => {
    const image = randomImage(300, 200, 16, 0, 7);
    const png = new PNG({ width: 300, height: 200, bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false });
    // pngjs takes 16-bit input as host-order (little-endian) Uint16 samples.
    const data = Buffer.alloc(300 * 200 * 2);
    image.values.forEach((v, i) => data.writeUInt16LE(v, i * 2));
    png.data = data;
    const decoded = decodePngGrib(engine, new Uint8Array(PNG.sync.write(png, { bitDepth: 16, colorType: 0, inputColorType: 0, inputHasAlpha: false })));
    expect(decoded.values.findIndex((v, i) => v !== image.values[i])).toBe(-1);
  });
});

describe('decodePngGrib refuses malformed PNGs with a CodecError', () => {
  const image = randomImage(20, 6, 16, 0, 3);
  const good = encodePng(image, (y) => y % 5, 1);
  const iend = chunk('IEND', new Uint8Array(0));
  const idat = (raw: Uint8Array) => chunk('IDAT', deflateSync(raw));
  const raw = scanlines(image, () => 0);
  const bad: [string, Uint8Array, RegExp][] = [
    ['no signature', good.subarray(8), /signature/],
    ['empty', new Uint8Array(0), /signature/],
    ['truncated', good.subarray(0, good.length - 20), /truncated|runs past/],
    ['no IEND', good.subarray(0, good.length - 12), /IEND/],
    ['bad CRC', concat([SIGNATURE, ihdr(image), chunk('IDAT', deflateSync(raw), true), iend]), /CRC/],
    ['IDAT first', concat([SIGNATURE, idat(raw), ihdr(image), iend]), /not IHDR/],
    ['palette', concat([SIGNATURE, ihdr({ ...image, depth: 8, colourType: 3 }), idat(raw), iend]), /palette/],
    ['48-bit RGB', concat([SIGNATURE, ihdr({ ...image, colourType: 2 }), idat(raw), iend]), /48-bit/],
    ['depth 3', concat([SIGNATURE, ihdr({ ...image, depth: 3 }), idat(raw), iend]), /bit depth 3/],
    ['interlaced', concat([SIGNATURE, ihdr(image, 1), idat(raw), iend]), /interlaced/],
    ['zero width', concat([SIGNATURE, ihdr({ ...image, width: 0 }), idat(raw), iend]), /size/],
    ['gigantic', concat([SIGNATURE, ihdr({ ...image, width: 100000, height: 100000 }), idat(raw), iend]), /more than/],
    ['no IDAT', concat([SIGNATURE, ihdr(image), iend]), /no IDAT/],
    ['split IDATs', concat([SIGNATURE, ihdr(image), idat(raw).subarray(0, 0), chunk('IDAT', deflateSync(raw).subarray(0, 10)), chunk('tEXt', new Uint8Array(3)), chunk('IDAT', deflateSync(raw).subarray(10)), iend]), /consecutive/],
    ['unknown critical chunk', concat([SIGNATURE, ihdr(image), chunk('ABCD', new Uint8Array(2)), idat(raw), iend]), /critical chunk ABCD/],
    ['too little data', concat([SIGNATURE, ihdr(image), idat(raw.subarray(0, raw.length - 1)), iend]), /inflates to \d+ bytes/],
    ['too much data (a deflate bomb)', concat([SIGNATURE, ihdr(image), idat(new Uint8Array(50_000_000)), iend]), /more than/],
    ['filter type 5', concat([SIGNATURE, ihdr(image), idat(raw.map((b, i) => (i === 0 ? 5 : b))), iend]), /filter type 5/],
    ['not zlib', concat([SIGNATURE, ihdr(image), chunk('IDAT', new Uint8Array(40).fill(7)), iend]), /zlib/],
    ['bad Adler-32', concat([SIGNATURE, ihdr(image), chunk('IDAT', deflateSync(raw).map((b, i, a) => (i === a.length - 1 ? b ^ 1 : b))), iend]), /Adler/],
  ];
  it.each(bad)('%s', (_name, bytes, message) => {
    expect(() => decodePngGrib(engine, bytes)).toThrow(CodecError);
    expect(() => decodePngGrib(engine, bytes)).toThrow(message);
  });

  // A fixed number of files: a decoder that looped on one would fail the test at its timeout.
  it('2 400 mutated PNGs each decode or throw CodecError', () => {
    const random = seededRandom(0x9e3779b9);
    const sources = [good, encodePng(randomImage(64, 40, 8, 6, 1), (y) => y % 5), encodePng(randomImage(90, 17, 4, 0, 2), () => 4)];
    let errors = 0;
    for (let i = 0; i < 2400; i++) {
      const damaged = mutate(sources[i % sources.length], random);
      try {
        const out = decodePngGrib(engine, damaged);
        expect(out.values.length).toBe(out.width * out.height);
      } catch (error) {
        if (!(error instanceof CodecError)) throw new Error(`mutation ${i}: ${String(error)}`, { cause: error });
        errors++;
      }
    }
    // CRCs and Adler-32 catch nearly every change; the rest are mutations of ancillary bytes.
    expect(errors).toBeGreaterThan(2200);
  });
});

const PNG_FILE = 'grib2/gfs0p25_gh500_20220210T00_f024_t5.41-png.grib2';

describeWithFixtures('decodePngGrib on real GRIB2 (../shared/data)', () => {
  it('GFS 0.25 deg 500 hPa height matches ecCodes', () => {
    const [field] = readGribFields(PNG_FILE);
    expect(field.template).toBe(41);
    const image = decodePngGrib(engine, field.stream);
    expect([image.width, image.height, image.bitDepth]).toEqual([1440, 721, 16]);
    const stats = fieldStats(unpackField(field, image.values));
    const want = eccodesRecords(PNG_FILE)[0];
    expect(image.values.length).toBe(want.numberOfValues);
    expect(stats.min).toBeCloseTo(want.min, 6);
    expect(stats.max).toBeCloseTo(want.max, 6);
    expect(stats.mean).toBeCloseTo(want.mean, 6);
    stats.first5.forEach((v, i) => expect(v).toBeCloseTo(want.first5[i] as number, 6));
  });
});
