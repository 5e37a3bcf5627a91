/**
 * GRIB2 template 5.41: the packed integers stored as the pixels of a PNG image (PNG, ISO/IEC
 * 15948 / W3C PNG 2nd edition). Encoders (g2clib, ecCodes) write one pixel per value, row-major:
 * grey 8 or 16 bit, or 8-bit RGB / RGBA read as 24 / 32-bit big-endian integers; grey 1/2/4 bit
 * and grey+alpha are decoded the same way (channels x depth bits per pixel, MSB first).
 *
 *   file:   89 50 4E 47 0D 0A 1A 0A | chunk | chunk | ...
 *   chunk:  length u32 BE | type (4 ASCII letters) | data (length bytes) | CRC-32 of type + data
 *   IHDR:   width u32 | height u32 | bit depth u8 | colour type u8 | compression 0 | filter 0 | interlace 0
 *   IDAT*:  one zlib stream, split over consecutive chunks; inflated: height rows of
 *           [filter type u8 | ceil(width x bitsPerPixel / 8) bytes]
 *
 * Every chunk's CRC and the zlib Adler-32 are checked, so a corrupt file is an error, never
 * different numbers. Inflate, unfiltering and unpacking run in the engine's WebAssembly module
 * (engine/assembly/codecs/png.ts); inflate stops at the header's image size, so a deflate bomb
 * costs no more than the image.
 */

import { CodecError, MAX_CODEC_VALUES } from './error.ts';
import { CodecRegions, type CodecEngine, type CodecMemory } from './wasm.ts';

export interface PngGribImage {
  width: number;
  height: number;
  /** Bits per pixel (channels x bit depth): the width of each packed integer. */
  bitDepth: number;
  /** width x height integers, row-major. */
  values: Uint32Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = 0x49484452;
const IDAT = 0x49444154;
const IEND = 0x49454e44;
const PLTE = 0x504c5445;

/** Channels per colour type (PNG section 11.2.2); palette (3) carries indices, not GRIB integers. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 4: [8, 16], 6: [8, 16] };

const CRC_TABLE = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  CRC_TABLE[n] = c >>> 0;
}

/** CRC-32 (ISO 3309, PNG Annex D) of bytes[start, end). */
function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

function readU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function chunkName(type: number): string {
  return String.fromCharCode(type >>> 24, (type >>> 16) & 0xff, (type >>> 8) & 0xff, type & 0xff);
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  bitsPerPixel: number;
}

function parseHeader(data: Uint8Array, at: number, length: number): Header {
  if (length !== 13) throw new CodecError(`PNG: IHDR is ${length} bytes, not 13`);
  const width = readU32(data, at);
  const height = readU32(data, at + 4);
  const depth = data[at + 8];
  const colourType = data[at + 9];
  if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new CodecError(`PNG: image size ${width} x ${height} is invalid`);
  }
  if (width * height > MAX_CODEC_VALUES) throw new CodecError(`PNG: ${width} x ${height} pixels is more than ${MAX_CODEC_VALUES}`);
  if (colourType === 3) throw new CodecError('PNG: palette images hold colour indices, not GRIB2 packed integers');
  const channels = CHANNELS[colourType];
  if (channels === undefined) throw new CodecError(`PNG: colour type ${colourType} is invalid`);
  if (!DEPTHS[colourType].includes(depth)) throw new CodecError(`PNG: bit depth ${depth} is invalid for colour type ${colourType}`);
  const bitsPerPixel = channels * depth;
  if (bitsPerPixel > 32) throw new CodecError(`PNG: ${bitsPerPixel}-bit pixels do not fit the 32-bit GRIB2 integers`);
  if (data[at + 10] !== 0) throw new CodecError(`PNG: compression method ${data[at + 10]} is not deflate (0)`);
  if (data[at + 11] !== 0) throw new CodecError(`PNG: filter method ${data[at + 11]} is not 0`);
  if (data[at + 12] === 1) throw new CodecError('PNG: Adam7-interlaced images are not supported (GRIB2 encoders never interlace)');
  if (data[at + 12] !== 0) throw new CodecError(`PNG: interlace method ${data[at + 12]} is invalid`);
  return { width, height, depth, colourType, bitsPerPixel };
}

/** Walks the chunks, checking each CRC; returns the header and the zlib stream of the IDAT chunks. */
function readChunks(data: Uint8Array): { header: Header; zlib: Uint8Array } {
  if (data.length < SIGNATURE.length || SIGNATURE.some((b, i) => data[i] !== b)) {
    throw new CodecError('PNG: data does not start with the PNG signature');
  }
  let header: Header | null = null;
  const idat: Uint8Array[] = [];
  let idatBytes = 0;
  let idatDone = false;
  let at = SIGNATURE.length;
  for (;;) {
    if (at + 12 > data.length) throw new CodecError(`PNG: truncated at byte ${at}: no IEND chunk`);
    const length = readU32(data, at);
    const type = readU32(data, at + 4);
    const name = chunkName(type);
    if (!/^[A-Za-z]{4}$/.test(name)) throw new CodecError(`PNG: invalid chunk type at byte ${at + 4}`);
    if (length > 0x7fffffff || at + 12 + length > data.length) {
      throw new CodecError(`PNG: chunk ${name} of ${length} bytes runs past the end of the data (truncated?)`);
    }
    const body = at + 8;
    const crc = readU32(data, body + length);
    if (crc32(data, at + 4, body + length) !== crc) throw new CodecError(`PNG: CRC mismatch in chunk ${name} at byte ${at}`);
    if (header === null && type !== IHDR) throw new CodecError(`PNG: first chunk is ${name}, not IHDR`);
    if (type === IHDR) {
      if (header !== null) throw new CodecError('PNG: second IHDR chunk');
      header = parseHeader(data, body, length);
    } else if (type === IDAT) {
      if (idatDone) throw new CodecError('PNG: IDAT chunks are not consecutive');
      idat.push(data.subarray(body, body + length));
      idatBytes += length;
    } else if (type === IEND) {
      break;
    } else {
      if (idat.length > 0) idatDone = true;
      // Ancillary chunks (lower-case first letter) carry nothing GRIB2 needs; PLTE is only a
      // suggested palette for the colour types accepted here.
      if (type !== PLTE && (type & 0x20000000) === 0) throw new CodecError(`PNG: unknown critical chunk ${name}`);
    }
    at = body + length + 4;
  }
  if (header === null) throw new CodecError('PNG: no IHDR chunk');
  if (idat.length === 0) throw new CodecError('PNG: no IDAT chunk');
  const zlib = idat.length === 1 ? idat[0] : new Uint8Array(idatBytes);
  if (idat.length > 1) {
    let offset = 0;
    for (const part of idat) {
      zlib.set(part, offset);
      offset += part.length;
    }
  }
  return { header, zlib };
}

/** engine/assembly/codecs/png.ts */
interface PngKernels {
  /** The u32 as WebAssembly returns it: a signed i32. */
  pngAdler32(bytes: number, length: number): number;
  pngUnfilter(raw: number, height: number, rowBytes: number, bpp: number): number;
  pngUnpack(raw: number, width: number, height: number, rowBytes: number, bitsPerPixel: number, out: number): void;
  /** Bytes written (at most `size`), or a negative code. */
  pngInflate(src: number, bytes: number, out: number, size: number): number;
  INFLATE_SLACK: WebAssembly.Global;
}

/** pngInflate's error codes. */
const INFLATE_ERRORS: Record<number, string> = {
  [-1]: 'the stream ends inside a block',
  [-3]: 'invalid block type 3',
  [-4]: 'invalid code lengths',
  [-5]: 'invalid literal/length or distance code',
  [-6]: 'a distance reaches back before the first byte',
  [-7]: 'a stored block\'s length and its complement disagree',
  [-8]: 'not a zlib header of a deflate stream without preset dictionary',
};
const ERR_TOO_MUCH = -2;

/**
 * Decodes a GRIB2 template-5.41 PNG into a region of `regions`: the image's size, its bits per
 * pixel and the address of its width x height (u32) values. The inflated rows go straight into the engine's memory,
 * where the Adler-32 check, the unfiltering and the unpacking run (engine/assembly/codecs/png.ts).
 * CodecError for anything that is not a well-formed PNG of integers.
 */
export function decodePngGribInto(
  regions: CodecMemory, data: Uint8Array,
): { width: number; height: number; bitDepth: number; ptr: number } {
  if (!(data instanceof Uint8Array)) throw new CodecError('PNG: data must be a Uint8Array');
  const { header, zlib } = readChunks(data);
  const { width, height, bitsPerPixel } = header;
  const kernels = regions.exports as unknown as PngKernels;
  const rowBytes = Math.ceil((width * bitsPerPixel) / 8);
  const size = height * (rowBytes + 1);
  if (zlib.length < 6) throw new CodecError(`PNG: image data of ${zlib.length} bytes is too short for a zlib stream`);
  const src = regions.copyIn(zlib, kernels.INFLATE_SLACK.value as number);
  const raw = regions.alloc(size);
  const out = regions.alloc(width * height * 4);
  const inflated = kernels.pngInflate(src, zlib.length, raw, size);
  if (inflated === ERR_TOO_MUCH) throw new CodecError(`PNG: image data inflates to more than the ${size} bytes the header gives`);
  if (inflated < 0) throw new CodecError(`PNG: corrupt zlib image data (${INFLATE_ERRORS[inflated] ?? `code ${inflated}`})`);
  if (inflated !== size) throw new CodecError(`PNG: image data inflates to ${inflated} bytes, the header gives ${size}`);
  if (kernels.pngAdler32(raw, size) >>> 0 !== readU32(zlib, zlib.length - 4)) throw new CodecError('PNG: Adler-32 mismatch in the image data');
  const bad = kernels.pngUnfilter(raw, height, rowBytes, Math.max(1, bitsPerPixel >>> 3));
  if (bad < 0) {
    const y = -bad - 1;
    throw new CodecError(`PNG: row ${y} has filter type ${new Uint8Array(regions.memory.buffer)[raw + y * (rowBytes + 1)]}, not 0..4`);
  }
  kernels.pngUnpack(raw, width, height, rowBytes, bitsPerPixel, out);
  return { width, height, bitDepth: bitsPerPixel, ptr: out };
}

/** Decodes a GRIB2 template-5.41 PNG (decodePngGribInto, copied out of the engine's memory). */
export function decodePngGrib(engine: CodecEngine, data: Uint8Array): PngGribImage {
  const regions = new CodecRegions(engine);
  try {
    const { width, height, bitDepth, ptr } = decodePngGribInto(regions, data);
    return { width, height, bitDepth, values: new Uint32Array(regions.memory.buffer, ptr, width * height).slice() };
  } finally {
    regions.releaseAll();
  }
}
