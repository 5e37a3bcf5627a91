/**
 * Test helpers for the GRIB2 decoder: where the shared fixtures are (and what to do when they are
 * not), and a small GRIB2 encoder that writes the cases no fixture has — every scanning mode,
 * complex packing with missing values, IEEE packing, several fields sharing sections.
 * Node only (reads files).
 *
 * The encoder writes what the WMO Manual on Codes (FM 92 GRIB2) describes, independently of the
 * decoder's code: its complex packing follows the encoder side of NCEP's g2clib (groups of fixed
 * size, widths and lengths relative to their minimum, missing values as all-ones codes).
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

// ---- fixtures ----

/** ../shared/data relative to the repository root (DESIGN.md: fixtures are never copied in). */
export const FIXTURES_DIR = new URL('../../../shared/data/', import.meta.url);
export const fixturesPresent = existsSync(fileURLToPath(new URL('expected-eccodes.json', FIXTURES_DIR)));
/** CI sets ISOBAR_REQUIRE_FIXTURES=1: missing fixtures then fail the run instead of skipping. */
export const fixturesRequired = process.env.ISOBAR_REQUIRE_FIXTURES === '1';

/**
 * describe() when the fixtures are present; otherwise a failing test when they are required, or a
 * skipped suite whose name says why.
 */
export function describeWithFixtures(name: string, body: () => void): void {
  if (fixturesPresent) {
    describe(name, body);
  } else if (fixturesRequired) {
    describe(name, () => {
      it('finds the fixtures in ../shared/data', () => {
        throw new Error(`ISOBAR_REQUIRE_FIXTURES=1 but ${fileURLToPath(FIXTURES_DIR)}expected-eccodes.json is missing`);
      });
    });
  } else {
    console.warn(`[fixtures] ${fileURLToPath(FIXTURES_DIR)} is absent: "${name}" is skipped (set ISOBAR_REQUIRE_FIXTURES=1 to fail instead)`);
    describe.skip(`${name} (skipped: ../shared/data is absent)`, body);
  }
}

export async function readFixture(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(new URL(path, FIXTURES_DIR)));
}

/** One record of expected-eccodes.json: ecCodes 2.28's view of a field. */
export interface EccodesRecord {
  edition: number; centre: string; shortName: string; paramId: number; discipline: number;
  parameterCategory: number; parameterNumber: number; typeOfLevel: string; level: number;
  dataDate: number; dataTime: number; stepRange: string; gridType: string; gridDefinitionTemplateNumber: number;
  Ni: number | null; Nj: number | null; scanningMode: number | null; dataRepresentationTemplateNumber: number;
  packingType: string; bitsPerValue: number; bitmapPresent: number; numberOfValues: number; numberOfMissing: number;
  min: number; max: number; mean: number; first5: (number | null)[];
}

export async function readExpected(): Promise<Record<string, { bytes: number; sha256: string; fields: number; records: EccodesRecord[] }>> {
  return JSON.parse(await readFile(new URL('expected-eccodes.json', FIXTURES_DIR), 'utf8'));
}

/** True when engine/codecs/index.ts (templates 5.40-5.42) exists in this checkout. */
const codecsPresent = existsSync(fileURLToPath(new URL('../codecs/index.ts', import.meta.url)));

const codecExports = codecsPresent ? new Set(Object.keys(await import('../codecs/index.ts'))) : new Set<string>();
const CODEC_FUNCTIONS: Record<number, string> = { 40: 'decodeJpeg2000', 41: 'decodePngGrib', 42: 'decodeAec' };

/**
 * Why the codec tests of these data representation templates cannot run yet, or null when they
 * can: engine/codecs is written alongside this decoder, so the module, or one of its functions,
 * may not be there yet. Tests skip (saying so) only then; once it exists, they must pass.
 */
export function codecUnavailable(templates: Iterable<number>): string | null {
  if (!codecsPresent) return 'engine/codecs/index.ts is absent';
  const missing = [...new Set(templates)].map((t) => CODEC_FUNCTIONS[t]).filter((name) => name && !codecExports.has(name));
  return missing.length ? `engine/codecs/index.ts does not export ${missing.join(', ')} yet` : null;
}

// ---- encoder ----

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private used = 0;

  /** Writes the low `n` (0..32) bits of `value`, most significant first. */
  write(value: number, n: number): void {
    for (let b = n - 1; b >= 0; b--) {
      this.acc = (this.acc << 1) | (Math.floor(value / 2 ** b) & 1);
      if (++this.used === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.used = 0;
      }
    }
  }

  /** Pads to the next byte boundary with zero bits. */
  align(): void {
    if (this.used > 0) this.write(0, 8 - this.used);
  }

  finish(): Uint8Array {
    this.align();
    return Uint8Array.from(this.bytes);
  }
}

/** Octet-level section builder: `set(octet, width, value)` with WMO 1-based octets. */
class Section {
  readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(number: number, length: number) {
    this.bytes = new Uint8Array(length);
    this.view = new DataView(this.bytes.buffer);
    this.view.setUint32(0, length);
    this.bytes[4] = number;
  }

  u(octet: number, width: 1 | 2 | 4, value: number): this {
    if (width === 1) this.view.setUint8(octet - 1, value);
    else if (width === 2) this.view.setUint16(octet - 1, value);
    else this.view.setUint32(octet - 1, value >>> 0);
    return this;
  }

  /** Sign-and-magnitude integer (GRIB2 92.1.5). */
  s(octet: number, width: 1 | 2 | 4, value: number): this {
    const sign = 2 ** (8 * width - 1);
    return this.u(octet, width, value < 0 ? sign + -value : value);
  }

  f32(octet: number, value: number): this {
    this.view.setFloat32(octet - 1, value);
    return this;
  }
}

export interface TestGrid {
  template: 0 | 10 | 30 | 40 | 101;
  Ni: number;
  Nj: number;
  /** Degrees. */
  lat1?: number;
  lon1?: number;
  lat2?: number;
  lon2?: number;
  dLon?: number;
  /** Lat/lon: degrees; Gaussian: N. */
  dLat?: number;
  scanningMode?: number;
  /** Override section 3's number of data points (unstructured grids have no Ni, Nj). */
  numberOfPoints?: number;
}

/** A Code Table 4.91 interval with its limits as [scale factor, scaled value] (value / 10^factor metres); absent limits are missing. */
export interface TestInterval {
  type: number;
  first?: [number, number];
  second?: [number, number];
}

export interface TestProduct {
  template?: 0 | 8 | 48;
  category?: number;
  number?: number;
  surface?: number;
  surfaceScale?: number;
  surfaceValue?: number;
  secondSurface?: number;
  forecastTime?: number;
  timeUnit?: number;
  /** Template 4.8: statistic (Code Table 4.10) over `length` units of `unit`. */
  statistic?: { type: number; length: number; unit?: number };
  /** Template 4.48: aerosol type (Code Table 4.233), particle size and wavelength intervals. */
  aerosol?: { type: number; size?: TestInterval; wavelength?: TestInterval };
}

export interface TestPacking {
  template: 0 | 2 | 3 | 4;
  /** 5.0: bits per value (chosen when omitted). */
  bits?: number;
  binaryScale?: number;
  decimalScale?: number;
  /** 5.2 / 5.3: values per group, missing value management (0, 1, 2), spatial differencing order (5.3). */
  groupSize?: number;
  missingManagement?: 0 | 1 | 2;
  order?: 1 | 2;
  /** 5.3: octets of each spatial differencing descriptor (2 when omitted). */
  descriptorOctets?: 1 | 2 | 3 | 4;
  /** 5.4: 1 = 32-bit, 2 = 64-bit. */
  precision?: 1 | 2;
}

export interface TestField {
  grid: TestGrid;
  product?: TestProduct;
  packing: TestPacking;
  /** Values in scanning order: integers (times 10^D, 2^E) so packing is exact; null = missing. */
  values: (number | null)[];
  /**
   * Missing values go through the bit-map ('bitmap', the default when any is null), or through
   * complex packing's missing value management ('packing'); 'previous' reuses the last bit-map
   * (indicator 254); 'none' writes indicator 255.
   */
  missing?: 'bitmap' | 'packing' | 'previous' | 'none';
}

function bitsFor(max: number): number {
  let bits = 0;
  while (2 ** bits <= max) bits++;
  return bits;
}

const MICRO = 1e6;

function gridSection(grid: TestGrid): Uint8Array {
  const points = grid.numberOfPoints ?? grid.Ni * grid.Nj;
  if (grid.template === 101) {
    return new Section(3, 35).u(6, 1, 0).u(7, 4, points).u(13, 2, 101).u(15, 1, 6).u(16, 2, 0).u(18, 1, 26).u(19, 1, 1).bytes;
  }
  if (grid.template === 10 || grid.template === 30) {
    const s = new Section(3, grid.template === 10 ? 72 : 81).u(6, 1, 0).u(7, 4, points).u(13, 2, grid.template).u(15, 1, 6)
      .u(31, 4, grid.Ni).u(35, 4, grid.Nj).s(39, 4, Math.round((grid.lat1 ?? 0) * MICRO)).s(43, 4, Math.round((grid.lon1 ?? 0) * MICRO));
    if (grid.template === 10) s.u(60, 1, grid.scanningMode ?? 0).u(65, 4, 12000000).u(69, 4, 12000000);
    else s.u(56, 4, 3000000).u(60, 4, 3000000).u(65, 1, grid.scanningMode ?? 0).s(66, 4, 25000000).s(70, 4, 25000000);
    return s.bytes;
  }
  return new Section(3, 72).u(6, 1, 0).u(7, 4, points).u(11, 1, 0).u(13, 2, grid.template).u(15, 1, 6)
    .u(31, 4, grid.Ni).u(35, 4, grid.Nj).u(39, 4, 0).u(43, 4, 0xffffffff)
    .s(47, 4, Math.round((grid.lat1 ?? 0) * MICRO)).s(51, 4, Math.round((grid.lon1 ?? 0) * MICRO)).u(55, 1, 0x30)
    .s(56, 4, Math.round((grid.lat2 ?? 0) * MICRO)).s(60, 4, Math.round((grid.lon2 ?? 0) * MICRO))
    .u(64, 4, Math.round((grid.dLon ?? 0) * MICRO))
    .u(68, 4, grid.template === 40 ? grid.dLat ?? 0 : Math.round((grid.dLat ?? 0) * MICRO)).u(72, 1, grid.scanningMode ?? 0).bytes;
}

function writeInterval(s: Section, octet: number, interval: TestInterval = { type: 255 }): void {
  s.u(octet, 1, interval.type);
  for (const [k, limit] of [interval.first, interval.second].entries()) {
    const at = octet + 1 + 5 * k;
    if (limit) s.s(at, 1, limit[0]).u(at + 1, 4, limit[1]);
    else s.u(at, 1, 255).u(at + 1, 4, 0xffffffff);
  }
}

function productSection(p: TestProduct = {}): Uint8Array {
  const template = p.template ?? 0;
  // 4.48 puts 24 octets of aerosol type, size and wavelength before the common block.
  const h = template === 48 ? 24 : 0;
  const s = new Section(4, (template === 8 ? 58 : 34) + h).u(6, 2, 0).u(8, 2, template).u(10, 1, p.category ?? 0).u(11, 1, p.number ?? 0)
    .u(12 + h, 1, 2).u(18 + h, 1, p.timeUnit ?? 1).s(19 + h, 4, p.forecastTime ?? 0)
    .u(23 + h, 1, p.surface ?? 1).s(24 + h, 1, p.surfaceScale ?? 0).u(25 + h, 4, p.surfaceValue ?? 0)
    .u(29 + h, 1, p.secondSurface ?? 255).u(30 + h, 1, 255).u(31 + h, 4, 0xffffffff);
  if (template === 48) {
    s.u(12, 2, p.aerosol?.type ?? 62000);
    writeInterval(s, 14, p.aerosol?.size);
    writeInterval(s, 25, p.aerosol?.wavelength);
  }
  if (template === 8) {
    const st = p.statistic ?? { type: 1, length: 6 };
    s.u(35, 2, 2020).u(37, 1, 1).u(38, 1, 1).u(42, 1, 1).u(43, 4, 0)
      .u(47, 1, st.type).u(48, 1, 2).u(49, 1, st.unit ?? 1).u(50, 4, st.length).u(54, 1, 255).u(55, 4, 0);
  }
  return s.bytes;
}

interface Packed {
  section5: Uint8Array;
  section7: Uint8Array;
}

function simplePack(values: number[], packing: TestPacking): Packed {
  const reference = values.length ? Math.min(...values) : 0;
  const bits = packing.bits ?? bitsFor(Math.max(0, ...values.map((v) => v - reference)));
  const w = new BitWriter();
  for (const v of values) w.write(v - reference, bits);
  const s5 = new Section(5, 21).u(6, 4, values.length).u(10, 2, 0).f32(12, reference)
    .s(16, 2, packing.binaryScale ?? 0).s(18, 2, packing.decimalScale ?? 0).u(20, 1, bits).u(21, 1, 1);
  return { section5: s5.bytes, section7: w.finish() };
}

function ieeePack(values: number[], precision: 1 | 2): Packed {
  const size = precision === 2 ? 8 : 4;
  const data = new Uint8Array(values.length * size);
  const view = new DataView(data.buffer);
  values.forEach((v, k) => (size === 8 ? view.setFloat64(k * 8, v) : view.setFloat32(k * 4, v)));
  return { section5: new Section(5, 12).u(6, 4, values.length).u(10, 2, 4).u(12, 1, precision).bytes, section7: data };
}

/**
 * Complex packing (5.2), with spatial differencing (5.3) when `order` is set, of values in which
 * null is a missing value coded in the data (missing value management 1 or 2; 2 alternates
 * primary and secondary codes).
 */
function complexPack(values: (number | null)[], packing: TestPacking): Packed {
  const mvm = packing.missingManagement ?? 0;
  const order = packing.template === 3 ? packing.order ?? 1 : 0;
  const present = values.filter((v): v is number => v !== null);
  // Spatial differencing over the values present (regulation 92.9.6 / g2clib's encoder).
  let stream = [...present];
  let ival1 = 0;
  let ival2 = 0;
  let minsd = 0;
  if (order > 0 && present.length > order) {
    ival1 = present[0];
    ival2 = present[1];
    const diffs = present.map((v, k) => (k < order ? 0 : order === 1 ? v - present[k - 1] : v - 2 * present[k - 1] + present[k - 2]));
    minsd = Math.min(...diffs.slice(order));
    stream = diffs.map((d, k) => (k < order ? 0 : d - minsd));
  }
  let next = 0;
  const full = values.map((v) => (v === null ? null : stream[next++]));
  const groupSize = packing.groupSize ?? 4;
  const groups: { ref: number; width: number; values: (number | null)[] }[] = [];
  for (let start = 0; start < full.length; start += groupSize) {
    const chunk = full.slice(start, start + groupSize);
    const known = chunk.filter((v): v is number => v !== null);
    const ref = known.length ? Math.min(...known) : -1;
    const spread = known.length ? Math.max(...known) - ref : 0;
    // Decoders read the top code(s) of every group as missing (92.9.6), so every group keeps them free.
    const width = known.length === chunk.length && spread === 0 ? 0 : bitsFor(spread + mvm);
    groups.push({ ref, width: known.length === 0 ? 0 : width, values: chunk });
  }
  const maxRef = Math.max(0, ...groups.map((g) => g.ref));
  const nbits = bitsFor(maxRef + mvm); // leave room for the all-ones "missing group" references
  const allOnesRef = 2 ** nbits - 1;
  const widthBits = bitsFor(Math.max(0, ...groups.map((g) => g.width)));
  const lengths = groups.map((g) => g.values.length);
  const lengthBits = bitsFor(Math.max(...lengths) - Math.min(...lengths));
  const refLength = Math.min(...lengths);
  const descriptorOctets = packing.descriptorOctets ?? 2;
  const w = new BitWriter();
  if (order > 0) {
    for (const d of order === 2 ? [ival1, ival2, minsd] : [ival1, minsd]) {
      w.write(d < 0 ? 2 ** (8 * descriptorOctets - 1) + -d : d, 8 * descriptorOctets);
    }
  }
  let missingToggle = 0;
  for (const g of groups) w.write(g.ref < 0 ? allOnesRef - (mvm === 2 && g.values.length % 2 ? 1 : 0) : g.ref, nbits);
  w.align();
  for (const g of groups) w.write(g.width, widthBits);
  w.align();
  for (const length of lengths) w.write(length - refLength, lengthBits);
  w.align();
  for (const g of groups) {
    if (g.width === 0) continue;
    for (const v of g.values) {
      if (v === null) {
        const secondary = mvm === 2 && missingToggle++ % 2 === 1;
        w.write(2 ** g.width - 1 - (secondary ? 1 : 0), g.width);
      } else {
        w.write(v - g.ref, g.width);
      }
    }
  }
  const s5 = new Section(5, order > 0 ? 49 : 47).u(6, 4, values.length).u(10, 2, packing.template).f32(12, 0)
    .s(16, 2, packing.binaryScale ?? 0).s(18, 2, packing.decimalScale ?? 0).u(20, 1, nbits).u(21, 1, 1)
    .u(22, 1, 1).u(23, 1, mvm).u(24, 4, 0xffffffff).u(28, 4, 0xffffffff).u(32, 4, groups.length)
    .u(36, 1, 0).u(37, 1, widthBits).u(38, 4, refLength).u(42, 1, 1).u(43, 4, lengths[lengths.length - 1]).u(47, 1, lengthBits);
  if (order > 0) s5.u(48, 1, order).u(49, 1, descriptorOctets);
  return { section5: s5.bytes, section7: w.finish() };
}

function withHeader(number: number, headerBytes: number, payload: Uint8Array, header?: (s: Section) => void): Uint8Array {
  const s = new Section(number, headerBytes + payload.length);
  header?.(s);
  s.bytes.set(payload, headerBytes);
  return s.bytes;
}

export interface MessageOptions {
  discipline?: number;
  centre?: number;
  /** [year, month, day, hour, minute]. */
  refTime?: [number, number, number, number, number];
  /** Write a section 2 (local use) before the first grid section, or before every one. */
  localSection?: boolean | 'every grid';
}

/**
 * One GRIB2 message holding `fields`. A field whose grid equals the previous field's reuses it
 * (the next field starts at section 4, FM 92 regulation 92.1.3); otherwise section 3 is repeated.
 */
export function encodeMessage(fields: TestField[], options: MessageOptions = {}): Uint8Array {
  const [year, month, day, hour, minute] = options.refTime ?? [2024, 3, 9, 12, 0];
  const parts: Uint8Array[] = [];
  parts.push(new Section(1, 21).u(6, 2, options.centre ?? 7).u(8, 2, 0).u(10, 1, 2).u(11, 1, 1).u(12, 1, 1)
    .u(13, 2, year).u(15, 1, month).u(16, 1, day).u(17, 1, hour).u(18, 1, minute).u(19, 1, 0).bytes);
  let previousGrid = '';
  for (const [k, field] of fields.entries()) {
    const gridKey = JSON.stringify(field.grid);
    if (options.localSection && (k === 0 || (options.localSection === 'every grid' && gridKey !== previousGrid))) {
      parts.push(withHeader(2, 5, Uint8Array.of(1, 2, 3)));
    }
    if (gridKey !== previousGrid || (k > 0 && options.localSection === 'every grid')) parts.push(gridSection(field.grid));
    previousGrid = gridKey;
    parts.push(productSection(field.product));
    const anyMissing = field.values.some((v) => v === null);
    const mode = field.missing ?? (anyMissing ? 'bitmap' : 'none');
    const inData = mode === 'packing';
    const packedValues = inData ? field.values : field.values.filter((v): v is number => v !== null);
    const { packing } = field;
    const packed = packing.template === 0 ? simplePack(packedValues as number[], packing)
      : packing.template === 4 ? ieeePack(packedValues as number[], packing.precision ?? 1)
        : complexPack(packedValues, packing);
    parts.push(packed.section5);
    if (mode === 'bitmap') {
      const w = new BitWriter();
      for (const v of field.values) w.write(v === null ? 0 : 1, 1);
      parts.push(withHeader(6, 6, w.finish(), (s) => s.u(6, 1, 0)));
    } else {
      parts.push(new Section(6, 6).u(6, 1, mode === 'previous' ? 254 : 255).bytes);
    }
    parts.push(withHeader(7, 5, packed.section7));
  }
  const body = parts.reduce((n, p) => n + p.length, 0);
  const total = 16 + body + 4;
  const out = new Uint8Array(total);
  out.set([0x47, 0x52, 0x49, 0x42, 0, 0, options.discipline ?? 0, 2]);
  new DataView(out.buffer).setUint32(12, total);
  let at = 16;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set([0x37, 0x37, 0x37, 0x37], at);
  return out;
}

/** Concatenates messages into one file. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
