/**
 * GRIB2 message structure: finds the messages of a file, walks their sections in the order the
 * Manual on Codes allows, and lists one GribFieldInfo per field without decoding any data.
 *
 *   message = 0 indicator | 1 identification | (2 local)? | 3 grid | 4 product | 5 data repr.
 *             | 6 bit-map | 7 data | then, per further field, (2)? 3 ... 7, or 4 ... 7 | 8 '7777'
 *
 * Sections 3 to 6 stay in force until replaced, so a field is every section 7 with the latest
 * 3, 4, 5 and 6 before it (FM 92 regulation 92.1.3).
 *
 *   octets of section 0: 1-4 'GRIB', 7 discipline, 8 edition (2), 9-16 total length (u64, BE)
 *   every other section: 1-4 length (u32, BE), 5 section number, then its contents; '7777' ends
 */

import { skipBulletinFraming } from './bulletin.ts';
import { parseGrid, type GribGrid } from './grid.ts';
import { parsePacking, type Packing } from './packing.ts';
import { parameterName } from './params.ts';
import { parseProduct, stepOf, type Interval } from './product.ts';
import { GribError, SECTION_NAMES, SectionReader } from './reader.ts';
import { centreName, levelOf, MISSING_U8 } from './tables.ts';

/** Everything the inventory knows about one field. Plain data: structured-clone and JSON safe but for grid.latitudes. */
export interface GribFieldInfo {
  /** 0-based message index in the file and field index within the message. */
  message: number;
  field: number;
  /** Byte offset and length of the whole message in the file. */
  offset: number;
  length: number;
  edition: 2;
  /** ecCodes centre abbreviation ('kwbc', 'ecmf', 'edzw', or the number as text) and the C-11 code. */
  centre: string;
  centreCode: number;
  subCentre: number;
  discipline: number;
  parameterCategory: number;
  parameterNumber: number;
  /** ecCodes shortName and paramId where params.ts knows the parameter, else 'unknown' and 0. */
  shortName: string;
  paramId: number;
  /** ecCodes typeOfLevel ('isobaricInhPa', 'heightAboveGround', ... 'unknown') and level (hPa for pressure). */
  typeOfLevel: string;
  level: number;
  /** Layers: the level of the second fixed surface (ecCodes bottomLevel). */
  bottomLevel?: number;
  /** Code Table 4.5 surfaces and their values in their own units (Pa, m...); 255 / NaN when missing. */
  typeOfFirstFixedSurface: number;
  firstSurfaceValue: number;
  typeOfSecondFixedSurface: number;
  secondSurfaceValue: number;
  /** Reference time (section 1), ms since 1970 UTC, and as ecCodes' dataDate (yyyymmdd) and dataTime (hhmm). */
  refTime: number;
  dataDate: number;
  dataTime: number;
  /** Code Table 1.2: 0 analysis, 1 start of forecast... */
  significanceOfReferenceTime: number;
  /** ecCodes stepRange ("6", "0-6"); 'unknown' when the product template is not read. */
  stepRange: string;
  /** Forecast hours after refTime of the start and end of the field's time range (equal at a point in time). */
  forecastStart: number;
  forecastEnd: number;
  /** ecCodes stepType: 'instant', or over a time range 'accum', 'avg', 'max', 'min'...; absent where ecCodes has none. */
  stepType?: string;
  /** Code Table 4.10 (0 average, 1 accumulation, 2 maximum, 3 minimum) for statistically processed fields. */
  statisticalProcessing?: number;
  productTemplate: number;
  /** False when the product template is not read here: level and step are unknown. */
  productSupported: boolean;
  /** Ensemble templates (4.1, 4.11, 4.41, 4.43): the member; 4.2, 4.12: Code Table 4.7 derived forecast. */
  perturbationNumber?: number;
  numberOfForecastsInEnsemble?: number;
  derivedForecast?: number;
  /** Templates 4.5, 4.9: Code Table 4.9 probability type and its limits (NaN when missing). */
  probabilityType?: number;
  lowerLimit?: number;
  upperLimit?: number;
  /** Templates 4.6, 4.10: the percentile (100 to 0). */
  percentileValue?: number;
  /** Templates 4.40-4.48: Code Table 4.230 chemical constituent or 4.233 aerosol type (62000 total aerosol). */
  constituentType?: number;
  /**
   * Template 4.48: the particle diameters (PM2.5: type 0 "smaller than first limit", first 2.5e-6)
   * and wavelengths (550 nm AOD: first 5.45e-7, second 5.65e-7) of the field, metres (Code Table 4.91 types).
   */
  sizeInterval?: Interval;
  wavelengthInterval?: Interval;
  grid: GribGrid;
  dataTemplate: number;
  packingType: string;
  bitsPerValue: number;
  /** Grid points, the length of the decoded values (ecCodes numberOfValues). */
  numberOfValues: number;
  /** Values packed in section 7 (section 5 octets 6-9). */
  numberOfPackedValues: number;
  /**
   * Points the bit-map leaves out. Complex packing may mark further values missing inside the data
   * (missing value management): count the NaN of decodeField's result for the full number.
   */
  numberOfMissing: number;
  bitmapPresent: 0 | 1;
  packing: Packing;
  /**
   * Byte offsets from the message start of the sections this field uses (bitmap: the section 6
   * holding the bits, -1 when there is none).
   */
  sections: { grid: number; product: number; dataRepresentation: number; bitmap: number; data: number };
}

const MAGIC = [0x47, 0x52, 0x49, 0x42]; // 'GRIB'
const END = [0x37, 0x37, 0x37, 0x37]; // '7777'
const INDICATOR_BYTES = 16;
const MIN_SECTION_BYTES = 5;

function isAt(bytes: Uint8Array, offset: number, pattern: number[]): boolean {
  if (offset < 0 || offset + pattern.length > bytes.length) return false;
  for (let k = 0; k < pattern.length; k++) if (bytes[offset + k] !== pattern[k]) return false;
  return true;
}

function findMagic(bytes: Uint8Array, from: number): number {
  for (let p = bytes.indexOf(0x47, from); p >= 0; p = bytes.indexOf(0x47, p + 1)) {
    if (isAt(bytes, p, MAGIC)) return p;
  }
  return -1;
}

/**
 * What we accept between messages: NUL padding and WMO bulletin framing (SOH, sequence number,
 * abbreviated heading, ETX, CR, LF, space: bulletin.ts). Anything else is a damaged file.
 */
function isPadding(bytes: Uint8Array, from: number, to: number): boolean {
  let p = from;
  while (p < to) {
    if (bytes[p] === 0) p++;
    else {
      const next = skipBulletinFraming(bytes, p, to);
      if (next === p) return false;
      p = next;
    }
  }
  return true;
}

/**
 * Byte ranges of the messages in a file. Throws a GribError for anything but GRIB2 messages,
 * padding and WMO bulletin headers.
 */
export function messageRanges(bytes: Uint8Array): { offset: number; length: number }[] {
  const ranges: { offset: number; length: number }[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 0;
  while (position < bytes.length) {
    const start = findMagic(bytes, position);
    const gapEnd = start < 0 ? bytes.length : start;
    if (!isPadding(bytes, position, gapEnd)) {
      if (ranges.length === 0) {
        throw new GribError(start < 0
          ? 'Not a GRIB file: no GRIB message found'
          : `Not a GRIB file: it does not start with a GRIB message (${start} bytes of other data come first)`);
      }
      throw new GribError(`Unexpected data at byte ${position} after message ${ranges.length - 1} (${gapEnd - position} bytes that are not a GRIB message)`);
    }
    if (start < 0) break;
    if (start + INDICATOR_BYTES > bytes.length) {
      throw new GribError(`GRIB message ${ranges.length} at byte ${start} is truncated: the file ends inside its indicator section`);
    }
    const edition = bytes[start + 7];
    if (edition === 1) {
      throw new GribError(`GRIB edition 1 message at byte ${start} is not supported: this decoder reads GRIB edition 2`);
    }
    if (edition !== 2) throw new GribError(`GRIB message at byte ${start} has edition ${edition}; only edition 2 is supported`);
    const high = view.getUint32(start + 8);
    const length = high * 2 ** 32 + view.getUint32(start + 12);
    if (high >= 2 ** 21 || length < INDICATOR_BYTES + 4) {
      throw new GribError(`GRIB message ${ranges.length} at byte ${start} declares an impossible length of ${length} bytes`);
    }
    if (start + length > bytes.length) {
      throw new GribError(
        `GRIB message ${ranges.length} at byte ${start} is truncated: it declares ${length} bytes, the file has ${bytes.length - start}`,
      );
    }
    if (!isAt(bytes, start + length - 4, END)) {
      throw new GribError(`GRIB message ${ranges.length} at byte ${start} does not end with '7777' where its length (${length}) says`);
    }
    ranges.push({ offset: start, length });
    position = start + length;
  }
  if (ranges.length === 0) throw new GribError(bytes.length === 0 ? 'Empty file: no GRIB message' : 'Not a GRIB file: no GRIB message found');
  return ranges;
}

/** The sections that may follow each section (FM 92 regulation 92.1.3); 8 stands for '7777'. */
const NEXT_SECTIONS: Record<number, number[]> = {
  1: [2, 3], 2: [3], 3: [4], 4: [5], 5: [6], 6: [7], 7: [2, 3, 4, 8],
};

/** Parses the message at `offset` (from messageRanges) into its fields. */
export function parseMessage(bytes: Uint8Array, offset: number, length: number, message: number): GribFieldInfo[] {
  const label = (n: number) => `section ${n} (${SECTION_NAMES[n]}) of message ${message}`;
  const end = offset + length - 4; // the '7777'
  const discipline = bytes[offset + 6];
  const fields: GribFieldInfo[] = [];
  let position = offset + INDICATOR_BYTES;
  let previous = 0;
  let previousStart = position;
  let identification: SectionReader | null = null;
  let grid: { at: number; grid: GribGrid } | null = null;
  let product: { at: number; reader: SectionReader } | null = null;
  let packing: { at: number; packing: Packing } | null = null;
  let bitmap: { at: number; present: boolean } | null = null;
  let lastDefinedBitmap = -1;
  for (;;) {
    if (position === end) {
      if (!NEXT_SECTIONS[previous]?.includes(8)) {
        throw new GribError(`message ${message} ends after section ${previous}; a message ends after section 7`);
      }
      break;
    }
    if (position + MIN_SECTION_BYTES > end) {
      throw new GribError(`message ${message}: ${end - position} stray bytes at byte ${position} before the end section`);
    }
    const sectionLength = new DataView(bytes.buffer, bytes.byteOffset + position, 4).getUint32(0);
    const number = bytes[position + 4];
    // A number no section has: the previous section's length is what is corrupt.
    if (previous > 0 && (number < 1 || number > 7)) {
      throw new GribError(
        `message ${message}: section ${previous} length ${position - previousStart} is corrupt: it ends at byte ${position}, where octet 5 holds ${number}, not a section number`,
      );
    }
    if (sectionLength < MIN_SECTION_BYTES || position + sectionLength > end) {
      throw new GribError(sectionLength < MIN_SECTION_BYTES
        ? `message ${message}: section ${number} at byte ${position} declares a length of ${sectionLength} octets, under the ${MIN_SECTION_BYTES} of a section header`
        : `message ${message}: section ${number} length ${sectionLength} runs past the message end at byte ${end + 4} (${end - position} octets remain before '7777')`);
    }
    // Section 8 is the '7777' at the message's end, never a section with a length.
    const expected = previous === 0 ? [1] : NEXT_SECTIONS[previous].filter((n) => n !== 8);
    if (!expected.includes(number)) {
      throw new GribError(`message ${message}: section ${number} at byte ${position} cannot follow section ${previous} (expected ${expected.join(' or ')})`);
    }
    const reader = new SectionReader(bytes, position, sectionLength, label(number));
    const at = position - offset;
    switch (number) {
      case 1:
        reader.need(21, 'the identification section');
        identification = reader;
        break;
      case 3:
        grid = { at, grid: parseGrid(reader) };
        break;
      case 4:
        product = { at, reader };
        break;
      case 5:
        packing = { at, packing: parsePacking(reader) };
        break;
      case 6: {
        const indicator = reader.u8(6);
        if (indicator === 0) {
          lastDefinedBitmap = at;
          bitmap = { at, present: true };
        } else if (indicator === 254) {
          if (lastDefinedBitmap < 0) throw new GribError(`${label(6)} reuses a previous bit-map (indicator 254) but none was defined`);
          bitmap = { at: lastDefinedBitmap, present: true };
        } else if (indicator === 255) {
          bitmap = { at: -1, present: false };
        } else {
          throw new GribError(`${label(6)}: predefined bit-map ${indicator} is not supported (only 0, 254 and 255)`);
        }
        break;
      }
      case 7:
        fields.push(fieldInfo({
          bytes, message, field: fields.length, offset, length, discipline,
          identification: identification!, grid: grid!, product: product!, packing: packing!, bitmap: bitmap!, data: at,
        }));
        break;
      default:
        break; // section 2 (local use) is skipped
    }
    previous = number;
    previousStart = position;
    position += sectionLength;
  }
  return fields;
}

interface FieldSections {
  bytes: Uint8Array;
  message: number;
  field: number;
  offset: number;
  length: number;
  discipline: number;
  identification: SectionReader;
  grid: { at: number; grid: GribGrid };
  product: { at: number; reader: SectionReader };
  packing: { at: number; packing: Packing };
  bitmap: { at: number; present: boolean };
  data: number;
}

function fieldInfo(f: FieldSections): GribFieldInfo {
  const id = f.identification;
  const centreCode = id.u16(6);
  const year = id.u16(13);
  const month = id.u8(15);
  const day = id.u8(16);
  const hour = id.u8(17);
  const minute = id.u8(18);
  const second = id.u8(19);
  const product = parseProduct(f.product.reader);
  const { typeOfLevel, level, bottomLevel } = product.known
    ? levelOf(centreCode, product.first, product.second)
    : { typeOfLevel: 'unknown', level: 0, bottomLevel: undefined };
  const step = stepOf(product);
  const { packing } = f.packing;
  const grid = f.grid.grid;
  if (packing.packedValues > grid.numberOfPoints) {
    throw new GribError(
      `message ${f.message} field ${f.field}: section 5 packs ${packing.packedValues} values into a grid of ${grid.numberOfPoints} points`,
    );
  }
  // Over time only (4.8, 4.11...): 4.15's statistic is over space and says nothing about the step.
  const statisticalProcessing = product.timeRanges?.[0]?.statisticalProcessing;
  const name = parameterName({
    centre: centreCode, discipline: f.discipline, category: product.parameterCategory, number: product.parameterNumber,
    typeOfFirstFixedSurface: product.first.type, firstSurfaceValue: product.first.value,
    typeOfSecondFixedSurface: product.second.type, statisticalProcessing, constituentType: product.constituentType,
    productTemplate: product.template, localTablesVersion: id.u8(11),
    lengthInHours: product.timeRanges?.[0]?.unit === 1 ? product.timeRanges[0].length : undefined,
  });
  const info: GribFieldInfo = {
    message: f.message, field: f.field, offset: f.offset, length: f.length, edition: 2,
    centre: centreName(centreCode), centreCode, subCentre: id.u16(8),
    discipline: f.discipline, parameterCategory: product.parameterCategory, parameterNumber: product.parameterNumber,
    shortName: name.shortName, paramId: name.paramId, typeOfLevel, level,
    typeOfFirstFixedSurface: product.first.type, firstSurfaceValue: product.first.value,
    typeOfSecondFixedSurface: product.second.type, secondSurfaceValue: product.second.value,
    refTime: Date.UTC(year, month - 1, day, hour, minute, second),
    dataDate: year * 10000 + month * 100 + day, dataTime: hour * 100 + minute,
    significanceOfReferenceTime: id.u8(12),
    stepRange: step.stepRange, forecastStart: step.forecastStart, forecastEnd: step.forecastEnd,
    productTemplate: product.template, productSupported: product.known,
    grid, dataTemplate: packing.template, packingType: packing.packingType, bitsPerValue: packing.bitsPerValue,
    numberOfValues: grid.numberOfPoints, numberOfPackedValues: packing.packedValues,
    numberOfMissing: f.bitmap.present ? grid.numberOfPoints - packing.packedValues : 0,
    bitmapPresent: f.bitmap.present ? 1 : 0, packing,
    sections: { grid: f.grid.at, product: f.product.at, dataRepresentation: f.packing.at, bitmap: f.bitmap.at, data: f.data },
  };
  if (bottomLevel !== undefined && product.second.type !== MISSING_U8) info.bottomLevel = bottomLevel;
  if (statisticalProcessing !== undefined) info.statisticalProcessing = statisticalProcessing;
  if (step.stepType !== undefined) info.stepType = step.stepType;
  for (const key of ['perturbationNumber', 'numberOfForecastsInEnsemble', 'derivedForecast', 'probabilityType', 'lowerLimit', 'upperLimit', 'percentileValue'] as const) {
    if (product[key] !== undefined) info[key] = product[key];
  }
  if (product.constituentType !== undefined) info.constituentType = product.constituentType;
  if (product.sizeInterval) info.sizeInterval = product.sizeInterval;
  if (product.wavelengthInterval) info.wavelengthInterval = product.wavelengthInterval;
  return info;
}

/** Every field of every message in `bytes`, without decoding data. Throws a GribError for a bad file. */
export function inventory(bytes: Uint8Array): GribFieldInfo[] {
  if (!(bytes instanceof Uint8Array)) throw new GribError('inventory() takes the file as a Uint8Array');
  const fields: GribFieldInfo[] = [];
  messageRanges(bytes).forEach(({ offset, length }, message) => {
    fields.push(...parseMessage(bytes, offset, length, message));
  });
  return fields;
}
