/**
 * Section 5, the data representation: how section 7 packs the values. Every template read here
 * starts with the same simple-packing parameters (R, E, D, bits per value), decoded as
 *
 *   Y = (R + X * 2^E) / 10^D        (WMO Manual on Codes, GRIB2 regulation 92.9.4)
 *
 * where X is the packed unsigned integer. decode.ts applies it.
 */

import { GribError, type SectionReader } from './reader.ts';

/** ecCodes' packingType for each data representation template (Code Table 5.0). */
const PACKING_TYPES: Record<number, string> = {
  0: 'grid_simple', 2: 'grid_complex', 3: 'grid_complex_spatial_differencing', 4: 'grid_ieee',
  40: 'grid_jpeg', 41: 'grid_png', 42: 'grid_ccsds', 50: 'spectral_simple', 51: 'spectral_complex',
  61: 'grid_simple_log_preprocessing', 200: 'grid_run_length',
};

export interface ComplexPacking {
  /** Code Table 5.5: 0 none, 1 primary missing values, 2 primary and secondary. */
  missingManagement: number;
  groups: number;
  referenceForGroupWidths: number;
  bitsForGroupWidths: number;
  referenceForGroupLengths: number;
  lengthIncrement: number;
  trueLengthOfLastGroup: number;
  bitsForScaledGroupLengths: number;
  /** 5.3 only: order of spatial differencing (1 or 2; 0 for 5.2) and octets of each extra descriptor. */
  spatialOrder: number;
  descriptorOctets: number;
}

export interface Packing {
  template: number;
  packingType: string;
  /** Octets 6-9: values packed in section 7 (grid points minus those the bitmap leaves out). */
  packedValues: number;
  reference: number;
  binaryScale: number;
  decimalScale: number;
  bitsPerValue: number;
  /** Code Table 5.1: 0 floating point, 1 integer. */
  originalType: number;
  complex?: ComplexPacking;
  ccsds?: { flags: number; blockSize: number; referenceSampleInterval: number };
  /** 5.4: Code Table 5.7 precision (1 = 32-bit, 2 = 64-bit IEEE). */
  ieeePrecision?: number;
}

function packingTypeOf(template: number): string {
  return PACKING_TYPES[template] ?? 'unknown';
}

/** Templates decodeField can unpack. */
const DECODABLE_TEMPLATES = new Set([0, 2, 3, 4, 40, 41, 42]);

export function parsePacking(s: SectionReader): Packing {
  s.need(11, 'the data representation header');
  const template = s.u16(10);
  const packing: Packing = {
    template, packingType: packingTypeOf(template), packedValues: s.u32(6),
    reference: 0, binaryScale: 0, decimalScale: 0, bitsPerValue: 0, originalType: 0,
  };
  if (template === 4) {
    packing.ieeePrecision = s.u8(12);
    packing.bitsPerValue = packing.ieeePrecision === 1 ? 32 : packing.ieeePrecision === 2 ? 64 : 0;
    return packing;
  }
  if (!DECODABLE_TEMPLATES.has(template)) return packing; // decodeField names the template
  const what = `data representation template 5.${template} (${packing.packingType})`;
  s.need(21, what);
  packing.reference = s.f32(12);
  packing.binaryScale = s.s16(16);
  packing.decimalScale = s.s16(18);
  packing.bitsPerValue = s.u8(20);
  packing.originalType = s.u8(21);
  if (template === 2 || template === 3) {
    s.need(template === 3 ? 49 : 47, what);
    packing.complex = {
      missingManagement: s.u8(23), groups: s.u32(32), referenceForGroupWidths: s.u8(36), bitsForGroupWidths: s.u8(37),
      referenceForGroupLengths: s.u32(38), lengthIncrement: s.u8(42), trueLengthOfLastGroup: s.u32(43),
      bitsForScaledGroupLengths: s.u8(47), spatialOrder: template === 3 ? s.u8(48) : 0,
      descriptorOctets: template === 3 ? s.u8(49) : 0,
    };
  } else if (template === 42) {
    s.need(25, what);
    packing.ccsds = { flags: s.u8(22), blockSize: s.u8(23), referenceSampleInterval: s.u16(24) };
  }
  return packing;
}

/** Checks what every decodable template needs; throws a GribError naming the template otherwise. */
export function assertDecodable(packing: Packing): void {
  const { template } = packing;
  if (!DECODABLE_TEMPLATES.has(template)) {
    throw new GribError(`GRIB2 data representation template 5.${template} (${packing.packingType}) is not supported`);
  }
  const what = `data representation template 5.${template}`;
  if (template === 4) {
    if (packing.ieeePrecision !== 1 && packing.ieeePrecision !== 2) {
      throw new GribError(`${what}: IEEE precision ${packing.ieeePrecision} is not supported (1 = 32-bit, 2 = 64-bit)`);
    }
    return;
  }
  if (packing.bitsPerValue > 32) throw new GribError(`${what}: ${packing.bitsPerValue} bits per value exceeds 32`);
  if (!Number.isFinite(packing.reference)) throw new GribError(`${what}: the reference value is not a finite number`);
  const c = packing.complex;
  if (c) {
    if (c.missingManagement > 2) throw new GribError(`${what}: missing value management ${c.missingManagement} is not defined (Code Table 5.5)`);
    if (c.bitsForGroupWidths > 32 || c.bitsForScaledGroupLengths > 32) {
      throw new GribError(`${what}: group widths and lengths take at most 32 bits each`);
    }
    if (template === 3 && (c.spatialOrder < 1 || c.spatialOrder > 2)) {
      throw new GribError(`${what}: spatial differencing of order ${c.spatialOrder} is not supported (1 or 2)`);
    }
    if (template === 3 && (c.descriptorOctets < 1 || c.descriptorOctets > 4)) {
      throw new GribError(`${what}: ${c.descriptorOctets} octets per spatial differencing descriptor (1 to 4 supported)`);
    }
  }
}
