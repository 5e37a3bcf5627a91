/**
 * Decodes one field's values: finds its sections again in the bytes (never trusting the info
 * object alone), checks every length against what the data representation promises, and runs the
 * WASM kernels of engine/assembly/grib/unpack.ts on regions it lays out in the engine's memory:
 *
 *   region   bytes                     holds
 *   src      payload + 8 (zeroed)      section 7 after its 5-octet header, slack for the bit reader
 *   x        4 * packed                the packed integers X (i32 / u32); complex packing: 8 * packed, f64
 *   groups   12 * NG                   complex packing: group references, widths, lengths
 *   mask     packed                    complex packing with missing value management: 1 = missing
 *   bitmap   ceil(points / 8) + 8      section 6's bits
 *   dst      4 * points                f32 values in scanning order, NaN = missing
 *
 * All of them are released before decodeField returns; the result is a copy (a plain
 * Float32Array the caller may transfer). JPEG 2000, PNG and CCSDS payloads go through
 * engine/codecs first; their integers then take the same scaling path.
 */

import { EngineRegions, type Engine } from '../engine.ts';
import type { GribFieldInfo } from './message.ts';
import { messageRanges, parseMessage } from './message.ts';
import { assertDecodable, type Packing } from './packing.ts';
import { GribError } from './reader.ts';

/** Largest grid decodeField accepts: 2^26 points (a 0.03° global grid; 256 MiB of f32). */
export const MAX_GRIB_POINTS = 1 << 26;

/**
 * The codec interface of engine/codecs/index.ts (5.40, 5.41, 5.42): each decodes its payload into
 * a region it allocates in `regions` (the engine's memory) and returns the region's address (and
 * the image's size), the packed integers before scaling.
 */
export interface GribCodecs {
  decodeJpeg2000Into(regions: Regions, data: Uint8Array): { width: number; height: number; ptr: number };
  decodePngGribInto(regions: Regions, data: Uint8Array): { width: number; height: number; ptr: number };
  decodeAecInto(
    regions: Regions, data: Uint8Array,
    params: { bitsPerSample: number; blockSize: number; referenceSampleInterval: number; flags: number; count: number },
  ): number;
}

interface GribKernels {
  gribUnpackBits(src: number, nbits: number, count: number, x: number): void;
  gribUnpackComplex(
    src: number, srcBytes: number, count: number, nbits: number, groups: number,
    refWidth: number, widthBits: number, refLength: number, lengthIncrement: number, lastLength: number, lengthBits: number,
    mvm: number, order: number, descriptorOctets: number, x: number, mask: number, scratch: number,
  ): number;
  gribScale(
    x: number, count: number, xSigned: number, mask: number, bitmap: number, points: number, dst: number,
    reference: number, binaryFactor: number, decimalFactor: number,
  ): number;
}

/** Error codes of unpack.ts. */
const KERNEL_ERRORS: Record<number, string> = {
  [-1]: 'the spatial differencing descriptors, group references, widths or lengths run past the end of section 7',
  [-2]: 'a group is wider than 32 bits',
  [-3]: 'the group lengths do not add up to the number of packed values',
  [-4]: 'the group values run past the end of section 7',
  [-5]: 'the bit-map marks more points present than there are packed values',
  [-6]: 'spatial differencing gives values past 2^53, beyond exact arithmetic (a damaged section 7)',
};

/** How gribScale reads X (unpack.ts). */
const X_U32 = 0;
const X_I32 = 1;
const X_F64 = 2;

const BIT_READER_SLACK = 8;

let codecsPromise: Promise<GribCodecs> | null = null;

// The codec module is loaded on first use only (its own chunk in the browser): most fields (GFS
// complex packing, ICON) never need it, and the JPEG 2000 decoder is large.
async function loadCodecs(template: number): Promise<GribCodecs> {
  codecsPromise ??= import('../codecs/index.ts').then((module) => module as unknown as GribCodecs);
  try {
    return await codecsPromise;
  } catch (cause) {
    codecsPromise = null;
    throw new GribError(`data representation template 5.${template} needs engine/codecs, which could not be loaded`, { cause });
  }
}

/** ecCodes' codes_power: 10^-D by repeated division, so the factor is bit-identical to ecCodes'. */
function powerOf(base: number, exponent: number): number {
  let result = 1;
  for (let e = exponent; e < 0 && result !== 0; e++) result /= base;
  for (let e = exponent; e > 0 && Number.isFinite(result); e--) result *= base;
  return result;
}

/** The message holding `info` in `bytes`: the whole file, or that message alone. */
function locateField(bytes: Uint8Array, info: GribFieldInfo): { base: number; field: GribFieldInfo } {
  if (!(bytes instanceof Uint8Array)) throw new GribError('decodeField() takes the file or message as a Uint8Array');
  if (!info || !Number.isInteger(info.offset) || !Number.isInteger(info.length) || !Number.isInteger(info.field)) {
    throw new GribError('decodeField() needs a GribFieldInfo from inventory()');
  }
  const base = bytes.length === info.length ? 0 : info.offset;
  if (base < 0 || base + info.length > bytes.length) {
    throw new GribError(`field info points at bytes ${base}..${base + info.length}, past the ${bytes.length} bytes given`);
  }
  const [range] = messageRanges(bytes.subarray(base, base + info.length));
  if (range.offset !== 0 || range.length !== info.length) {
    throw new GribError(`the bytes at ${base} are not the ${info.length}-byte message the field info describes`);
  }
  const fields = parseMessage(bytes, base, info.length, info.message);
  const field = fields[info.field];
  if (!field || field.dataTemplate !== info.dataTemplate || field.numberOfValues !== info.numberOfValues
    || field.sections.data !== info.sections.data) {
    throw new GribError(`message ${info.message} has no field ${info.field} like the one described: inventory these bytes again`);
  }
  return { base, field };
}

function sectionPayload(bytes: Uint8Array, at: number, header: number): Uint8Array {
  const length = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
  return bytes.subarray(at + header, at + length);
}

/** The regions of one decode; the codecs (engine/codecs/wasm.ts CodecMemory) lay theirs out here too. */
type Regions = EngineRegions;

/** How X reached WASM memory: where, whether to read it as signed, and the missing mask (0: none). */
interface Unpacked {
  x: number;
  signed: boolean;
  /** Complex packing: X as f64 (gribUnpackComplex), exact past 32 bits. */
  f64?: true;
  mask: number;
}

async function unpackX(
  field: GribFieldInfo, payload: Uint8Array, regions: Regions, kernels: GribKernels,
): Promise<Unpacked> {
  const packing = field.packing;
  const { template, bitsPerValue: nbits, packedValues: count } = packing;
  const what = `data representation template 5.${template}`;
  if (template === 0) {
    const needed = Math.ceil((count * nbits) / 8);
    if (payload.length < needed) {
      throw new GribError(`${what}: section 7 holds ${payload.length} bytes, ${count} values of ${nbits} bits need ${needed}`);
    }
    const src = regions.copyIn(payload.subarray(0, needed), BIT_READER_SLACK);
    const x = regions.alloc(count * 4);
    kernels.gribUnpackBits(src, nbits, count, x);
    return { x, signed: false, mask: 0 };
  }
  if (template === 2 || template === 3) return unpackComplex(packing, payload, regions, kernels);
  const codecs = await loadCodecs(template);
  let decoded: { ptr: number; count: number };
  try {
    if (template === 40 || template === 41) {
      const image = template === 40 ? codecs.decodeJpeg2000Into(regions, payload) : codecs.decodePngGribInto(regions, payload);
      decoded = { ptr: image.ptr, count: image.width * image.height };
    } else {
      const { flags, blockSize, referenceSampleInterval } = packing.ccsds!;
      decoded = { ptr: codecs.decodeAecInto(regions, payload, { bitsPerSample: nbits, blockSize, referenceSampleInterval, flags, count }), count };
    }
  } catch (cause) {
    if (cause instanceof GribError) throw cause;
    throw new GribError(`${what} (${packing.packingType}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (decoded.count !== count) {
    throw new GribError(`${what} (${packing.packingType}): the codec gave ${decoded.count} values, section 5 says ${count}`);
  }
  return { x: decoded.ptr, signed: template === 40, mask: 0 };
}

function unpackComplex(packing: Packing, payload: Uint8Array, regions: Regions, kernels: GribKernels): Unpacked {
  const c = packing.complex!;
  const count = packing.packedValues;
  const what = `data representation template 5.${packing.template}`;
  if (c.groups === 0 || c.groups > count) {
    throw new GribError(`${what}: ${c.groups} groups for ${count} packed values`);
  }
  const src = regions.copyIn(payload, BIT_READER_SLACK);
  const x = regions.alloc(count * 8);
  const mask = c.missingManagement > 0 ? regions.alloc(count) : 0;
  const scratch = regions.alloc(c.groups * 12);
  const result = kernels.gribUnpackComplex(
    src, payload.length, count, packing.bitsPerValue, c.groups,
    c.referenceForGroupWidths, c.bitsForGroupWidths, c.referenceForGroupLengths, c.lengthIncrement,
    c.trueLengthOfLastGroup, c.bitsForScaledGroupLengths, c.missingManagement, c.spatialOrder, c.descriptorOctets,
    x, mask, scratch,
  );
  if (result < 0) throw new GribError(`${what}: ${KERNEL_ERRORS[result] ?? `unpacking failed (${result})`}`);
  return { x, signed: packing.template === 3, f64: true, mask };
}

/** True when every packed X is 0: no values, or 0 bits per value outside complex packing (whose groups may still vary). */
function isConstant(packing: Packing): boolean {
  return packing.packedValues === 0 || (packing.bitsPerValue === 0 && packing.template !== 2 && packing.template !== 3);
}

/**
 * A constant field, Y = R / 10^D at every point the bit-map keeps, filled in JavaScript: such a
 * field can have millions of points in a few bytes (ICON's constant fields), and its values have
 * no reason to grow the engine's memory.
 */
function constantField(field: GribFieldInfo, value: number, bitmap: Uint8Array | null): Float32Array {
  const points = field.numberOfValues;
  const out = new Float32Array(points).fill(value);
  if (!bitmap) return out;
  let present = 0;
  for (let p = 0; p < points; p++) {
    if ((bitmap[p >> 3] >> (7 - (p & 7))) & 1) present++;
    else out[p] = Number.NaN;
  }
  if (present !== field.packing.packedValues) {
    throw new GribError(`the bit-map marks ${present} points present, section 5 packs ${field.packing.packedValues} values`);
  }
  return out;
}

/** 5.4: IEEE floats, big-endian, 32 or 64 bits; scaled only by the bit-map. */
function decodeIeee(field: GribFieldInfo, payload: Uint8Array, bitmap: Uint8Array | null): Float32Array {
  const { packedValues: count, ieeePrecision } = field.packing;
  const size = ieeePrecision === 2 ? 8 : 4;
  if (payload.length < count * size) {
    throw new GribError(`data representation template 5.4: section 7 holds ${payload.length} bytes, ${count} values need ${count * size}`);
  }
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const points = field.numberOfValues;
  const out = new Float32Array(points);
  let k = 0;
  for (let p = 0; p < points; p++) {
    if (bitmap && !((bitmap[p >> 3] >> (7 - (p & 7))) & 1)) {
      out[p] = Number.NaN;
      continue;
    }
    if (k >= count) throw new GribError(`data representation template 5.4: ${KERNEL_ERRORS[-5]}`);
    out[p] = size === 8 ? view.getFloat64(k * 8) : view.getFloat32(k * 4);
    k++;
  }
  if (k !== count) throw new GribError(`data representation template 5.4: the bit-map marks ${k} points present, section 5 packs ${count}`);
  return out;
}

/**
 * The field's values, one per grid point in the file's scanning order (as ecCodes and wgrib2 give
 * them), NaN where the bit-map or the packing marks a value missing. `bytes` is the file
 * inventory() read, or the message alone (bytes.length === info.length). Throws a GribError for
 * anything it cannot decode exactly — an unsupported template, a damaged section — never
 * returns approximate numbers.
 */
export async function decodeField(engine: Engine, bytes: Uint8Array, info: GribFieldInfo): Promise<Float32Array> {
  const { base, field } = locateField(bytes, info);
  const packing = field.packing;
  assertDecodable(packing);
  const points = field.numberOfValues;
  if (points > MAX_GRIB_POINTS) {
    throw new GribError(`grid of ${points} points exceeds the decoder's limit of ${MAX_GRIB_POINTS}`);
  }
  let bitmap: Uint8Array | null = null;
  if (field.bitmapPresent) {
    bitmap = sectionPayload(bytes, base + field.sections.bitmap, 6);
    const needed = Math.ceil(points / 8);
    if (bitmap.length < needed) {
      throw new GribError(`the bit-map holds ${bitmap.length} bytes, ${points} points need ${needed}`);
    }
    bitmap = bitmap.subarray(0, needed);
  } else if (packing.packedValues !== points) {
    throw new GribError(`section 5 packs ${packing.packedValues} values for ${points} grid points and there is no bit-map`);
  }
  const payload = sectionPayload(bytes, base + field.sections.data, 5);
  if (packing.template === 4) return decodeIeee(field, payload, bitmap);
  const binaryFactor = powerOf(2, packing.binaryScale);
  const decimalFactor = powerOf(10, -packing.decimalScale);
  if (isConstant(packing)) return constantField(field, Math.fround(packing.reference * decimalFactor), bitmap);

  const { exports, memory, allocator } = engine.extension();
  const kernels = exports as unknown as GribKernels;
  const regions = new EngineRegions({ allocator, memory, exports });
  try {
    const { x, signed, f64, mask } = await unpackX(field, payload, regions, kernels);
    const bitmapPtr = bitmap ? regions.copyIn(bitmap, BIT_READER_SLACK) : 0;
    const dst = regions.alloc(points * 4);
    const used = kernels.gribScale(
      x, packing.packedValues, f64 ? X_F64 : signed ? X_I32 : X_U32, mask, bitmapPtr, points, dst,
      packing.reference, binaryFactor, decimalFactor,
    );
    if (used < 0) throw new GribError(KERNEL_ERRORS[used] ?? `scaling failed (${used})`);
    if (used !== packing.packedValues) {
      throw new GribError(`the bit-map marks ${used} points present, section 5 packs ${packing.packedValues} values`);
    }
    return new Float32Array(memory.buffer, dst, points).slice();
  } finally {
    regions.releaseAll();
  }
}
