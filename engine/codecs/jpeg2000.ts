/**
 * GRIB2 template 5.40: a JPEG 2000 Part 1 decoder (ITU-T T.800 | ISO/IEC 15444-1) for the
 * single-component images GRIB2 encoders write (g2clib with JasPer or OpenJPEG, ecCodes), as a raw
 * code stream or inside a JP2 file. Plain TypeScript with no Node or DOM API; the tier-1 decoding
 * runs in the engine's WebAssembly module (jpeg2000-tier1.ts).
 *
 * Why not an npm codec: @cornerstonejs/codec-openjpeg (OpenJPEG in WASM) keeps width and height
 * in 16 bits and clamps samples to 16 bits, and GRIB2 writes a bitmapped field as an N x 1 image
 * with N up to millions (the GFS-Wave sample: 546 583 x 1 comes back as its first 22 295 values);
 * `jpeg2000` (pdf.js's decoder) returns 8-bit samples. OpenJPEG stays the reference in the tests.
 *
 *   code stream:  SOC | SIZ | COD | QCD | [COC QCC COM TLM PLM CRG ...] | tile-part* | EOC
 *   tile-part:    SOT (tile index, length) | [COD COC QCD QCC PLT COM] | SOD | packets
 *   tile:         resolutions 0..NL, each split into precincts; a packet = one layer of one
 *                 precinct: a header (tag trees, pass counts, lengths) then code-block bytes
 *
 * Supported: any tiling, all five progression orders, precincts, layers, SOP / EPH markers, every
 * code-block style of Part 1, reversible 5/3 and irreversible 9/7 wavelets, the three
 * quantization styles, up to 31-bit unsigned or 32-bit signed samples. Refused with a CodecError
 * naming the feature: several components, component sub-sampling, ROI (RGN), progression changes
 * (POC), packed packet headers (PPM / PPT), high-throughput code-blocks (Part 15).
 */

import { CodecError, MAX_CODEC_VALUES } from './error.ts';
import { CodecRegions, type CodecEngine, type CodecMemory } from './wasm.ts';
import {
  CBLK_BYPASS, CBLK_TERMALL, CodeBlockDecoder, Orientation, type CodeBlockSegment,
} from './jpeg2000-tier1.ts';

export interface Jpeg2000Image {
  width: number;
  height: number;
  /** width x height samples, row-major. */
  values: Int32Array;
}

/** The largest number of tiles accepted (the tile index is 16 bits). */
const MAX_TILES = 65535;

const SOC = 0xff4f;
const SIZ = 0xff51;
const COD = 0xff52;
const COC = 0xff53;
const RGN = 0xff5e;
const QCD = 0xff5c;
const QCC = 0xff5d;
const POC = 0xff5f;
const PPM = 0xff60;
const PPT = 0xff61;
const SOT = 0xff90;
const SOP = 0xff91;
const EPH = 0xff92;
const SOD = 0xff93;
const EOC = 0xffd9;

interface ImageSize {
  x0: number; y0: number; x1: number; y1: number;
  tileWidth: number; tileHeight: number; tileX0: number; tileY0: number;
  tilesX: number; tilesY: number;
  precision: number;
  signed: boolean;
}

/** COD / COC: how one component is coded (T.800 A.6.1, A.6.2). */
interface CodingStyle {
  progression: number;
  layers: number;
  sop: boolean;
  eph: boolean;
  levels: number;
  /** Code-block width and height exponents. */
  xcb: number;
  ycb: number;
  blockStyle: number;
  reversible: boolean;
  /** Precinct size exponents per resolution, (PPy << 4) | PPx; 15 x 15 when not given. */
  precincts: number[];
}

/** QCD / QCC (T.800 A.6.4, A.6.5). */
interface Quantization {
  style: number;
  guardBits: number;
  exponents: number[];
  mantissas: number[];
}

interface TileParams {
  cod: CodingStyle;
  qcd: Quantization;
}

class Reader {
  constructor(readonly bytes: Uint8Array, public at = 0) {}
  need(n: number, what: string): void {
    if (this.at + n > this.bytes.length) throw new CodecError(`JPEG 2000: truncated in ${what}`);
  }
  u8(): number {
    return this.bytes[this.at++];
  }
  u16(): number {
    const v = (this.bytes[this.at] << 8) | this.bytes[this.at + 1];
    this.at += 2;
    return v;
  }
  u32(): number {
    const b = this.bytes;
    const v = ((b[this.at] << 24) | (b[this.at + 1] << 16) | (b[this.at + 2] << 8) | b[this.at + 3]) >>> 0;
    this.at += 4;
    return v;
  }
}

/** The code stream inside a JP2 file (T.800 Annex I): the payload of its 'jp2c' box. */
function unwrapJp2(data: Uint8Array): Uint8Array {
  const r = new Reader(data);
  while (r.at + 8 <= data.length) {
    const start = r.at;
    let length = r.u32();
    const type = r.u32();
    let header = 8;
    if (length === 1) {
      r.need(8, 'a JP2 box length');
      const high = r.u32();
      length = high * 2 ** 32 + r.u32();
      header = 16;
    } else if (length === 0) {
      length = data.length - start;
    }
    if (length < header || start + length > data.length) throw new CodecError('JPEG 2000: a JP2 box runs past the end of the data');
    if (type === 0x6a703263) return data.subarray(start + header, start + length); // 'jp2c'
    r.at = start + length;
  }
  throw new CodecError('JPEG 2000: JP2 file without a code stream (jp2c) box');
}

function readSiz(r: Reader, length: number): ImageSize {
  r.need(length - 2, 'SIZ');
  if (length < 41) throw new CodecError(`JPEG 2000: SIZ segment of ${length} bytes is too short`);
  r.u16(); // Rsiz: capabilities
  const x1 = r.u32();
  const y1 = r.u32();
  const x0 = r.u32();
  const y0 = r.u32();
  const tileWidth = r.u32();
  const tileHeight = r.u32();
  const tileX0 = r.u32();
  const tileY0 = r.u32();
  const components = r.u16();
  if (length !== 38 + 3 * components) throw new CodecError(`JPEG 2000: SIZ length ${length} does not match ${components} components`);
  if (components !== 1) throw new CodecError(`JPEG 2000: ${components} components; GRIB2 fields have one`);
  const ssiz = r.u8();
  const dx = r.u8();
  const dy = r.u8();
  if (dx !== 1 || dy !== 1) throw new CodecError(`JPEG 2000: component sub-sampling ${dx} x ${dy} is not supported`);
  const precision = (ssiz & 0x7f) + 1;
  const signed = (ssiz & 0x80) !== 0;
  if (precision > (signed ? 32 : 31)) {
    throw new CodecError(`JPEG 2000: ${precision}-bit ${signed ? 'signed' : 'unsigned'} samples do not fit 32-bit integers`);
  }
  if (x1 <= x0 || y1 <= y0) throw new CodecError(`JPEG 2000: empty image area ${x0}..${x1} x ${y0}..${y1}`);
  if ((x1 - x0) * (y1 - y0) > MAX_CODEC_VALUES) {
    throw new CodecError(`JPEG 2000: ${x1 - x0} x ${y1 - y0} samples is more than ${MAX_CODEC_VALUES}`);
  }
  if (tileWidth === 0 || tileHeight === 0 || tileX0 > x0 || tileY0 > y0
    || tileX0 + tileWidth <= x0 || tileY0 + tileHeight <= y0) {
    throw new CodecError('JPEG 2000: tile grid does not cover the image');
  }
  const tilesX = Math.ceil((x1 - tileX0) / tileWidth);
  const tilesY = Math.ceil((y1 - tileY0) / tileHeight);
  if (tilesX * tilesY > MAX_TILES) throw new CodecError(`JPEG 2000: ${tilesX * tilesY} tiles is more than ${MAX_TILES}`);
  return { x0, y0, x1, y1, tileWidth, tileHeight, tileX0, tileY0, tilesX, tilesY, precision, signed };
}

/** SPcod / SPcoc: the component part of a COD or COC segment. */
function readComponentStyle(r: Reader, customPrecincts: boolean, end: number, base: CodingStyle): CodingStyle {
  const levels = r.u8();
  const xcb = (r.u8() & 0x0f) + 2;
  const ycb = (r.u8() & 0x0f) + 2;
  const blockStyle = r.u8();
  const transform = r.u8();
  if (levels > 32) throw new CodecError(`JPEG 2000: ${levels} decomposition levels (at most 32)`);
  if (xcb > 10 || ycb > 10 || xcb + ycb > 12) throw new CodecError(`JPEG 2000: code-block size 2^${xcb} x 2^${ycb} is invalid`);
  if (blockStyle & 0x40) throw new CodecError('JPEG 2000: high-throughput (HTJ2K) code-blocks are not supported');
  if (transform > 1) throw new CodecError(`JPEG 2000: wavelet transform ${transform} is not 5/3 or 9/7`);
  const precincts: number[] = [];
  for (let i = 0; i <= levels; i++) {
    if (customPrecincts) {
      if (r.at >= end) throw new CodecError('JPEG 2000: precinct sizes missing');
      const p = r.u8();
      if (i > 0 && ((p & 0x0f) === 0 || p >> 4 === 0)) throw new CodecError('JPEG 2000: precinct size 1 above resolution 0');
      precincts.push(p);
    } else {
      precincts.push(0xff);
    }
  }
  return { ...base, levels, xcb, ycb, blockStyle, reversible: transform === 1, precincts };
}

function readCod(r: Reader, length: number): CodingStyle {
  r.need(length - 2, 'COD');
  const end = r.at + length - 2;
  if (length < 12) throw new CodecError(`JPEG 2000: COD segment of ${length} bytes is too short`);
  const scod = r.u8();
  const progression = r.u8();
  const layers = r.u16();
  r.u8(); // multiple component transform: meaningless with one component
  if (progression > 4) throw new CodecError(`JPEG 2000: progression order ${progression} is invalid`);
  if (layers === 0) throw new CodecError('JPEG 2000: zero quality layers');
  const base: CodingStyle = {
    progression, layers, sop: (scod & 2) !== 0, eph: (scod & 4) !== 0,
    levels: 0, xcb: 0, ycb: 0, blockStyle: 0, reversible: true, precincts: [],
  };
  const style = readComponentStyle(r, (scod & 1) !== 0, end, base);
  r.at = end;
  return style;
}

function readCoc(r: Reader, length: number, cod: CodingStyle): CodingStyle {
  r.need(length - 2, 'COC');
  const end = r.at + length - 2;
  if (r.u8() !== 0) throw new CodecError('JPEG 2000: COC for a component that does not exist');
  const scoc = r.u8();
  const style = readComponentStyle(r, (scoc & 1) !== 0, end, cod);
  r.at = end;
  return style;
}

function readQuantization(r: Reader, length: number, what: string, skipComponent: boolean): Quantization {
  r.need(length - 2, what);
  const end = r.at + length - 2;
  if (skipComponent && r.u8() !== 0) throw new CodecError('JPEG 2000: QCC for a component that does not exist');
  const sq = r.u8();
  const style = sq & 0x1f;
  const guardBits = sq >> 5;
  const exponents: number[] = [];
  const mantissas: number[] = [];
  if (style === 0) {
    while (r.at < end) {
      exponents.push(r.u8() >> 3);
      mantissas.push(0);
    }
  } else if (style === 1 || style === 2) {
    while (r.at + 1 < end) {
      const v = r.u16();
      exponents.push(v >> 11);
      mantissas.push(v & 0x7ff);
    }
  } else {
    throw new CodecError(`JPEG 2000: quantization style ${style} is invalid`);
  }
  if (exponents.length === 0) throw new CodecError(`JPEG 2000: ${what} has no step sizes`);
  r.at = end;
  return { style, guardBits, exponents, mantissas };
}

function skipSegment(r: Reader, marker: number): void {
  r.need(2, `marker ${marker.toString(16)}`);
  const length = r.u16();
  if (length < 2) throw new CodecError(`JPEG 2000: marker segment ${marker.toString(16)} with length ${length}`);
  r.need(length - 2, `marker segment ${marker.toString(16)}`);
  r.at += length - 2;
}

function refuse(marker: number): never {
  const names: Record<number, string> = {
    [RGN]: 'regions of interest (RGN)', [POC]: 'progression order changes (POC)',
    [PPM]: 'packed packet headers (PPM)', [PPT]: 'packed packet headers (PPT)',
  };
  throw new CodecError(`JPEG 2000: ${names[marker]} are not supported`);
}

// ---------------------------------------------------------------- tier 2: packets

/** A tag tree (T.800 B.10.2) over a grid of code-blocks. */
class TagTree {
  private readonly widths: number[] = [];
  private readonly offsets: number[] = [];
  private readonly value: Int32Array;
  private readonly low: Int32Array;

  constructor(width: number, height: number) {
    let total = 0;
    let w = width;
    let h = height;
    for (;;) {
      this.widths.push(w);
      this.offsets.push(total);
      total += w * h;
      if (w === 1 && h === 1) break;
      w = Math.ceil(w / 2);
      h = Math.ceil(h / 2);
    }
    this.value = new Int32Array(total).fill(0x7fffffff);
    this.low = new Int32Array(total);
  }

  /** Reads bits until the leaf's value is known to be < threshold (true) or >= threshold (false). */
  decode(bits: HeaderBits, x: number, y: number, threshold: number): boolean {
    let low = 0;
    let k = 0;
    for (let level = this.widths.length - 1; level >= 0; level--) {
      k = this.offsets[level] + (y >> level) * this.widths[level] + (x >> level);
      if (low > this.low[k]) this.low[k] = low;
      else low = this.low[k];
      while (low < threshold && low < this.value[k]) {
        if (bits.bit()) this.value[k] = low;
        else low++;
      }
      this.low[k] = low;
    }
    return this.value[k] < threshold;
  }

  leafValue(x: number, y: number): number {
    return this.value[y * this.widths[0] + x];
  }
}

/** Packet header bits (T.800 B.10.1): after a 0xFF byte, the next byte carries 7 bits. */
class HeaderBits {
  private byte = 0;
  private left = 0;
  private afterFF = false;
  constructor(private readonly data: Uint8Array, public at: number, private readonly end: number) {}

  bit(): number {
    if (this.left === 0) {
      if (this.at >= this.end) throw new CodecError('JPEG 2000: truncated packet header');
      this.left = this.afterFF ? 7 : 8;
      this.byte = this.data[this.at++];
      this.afterFF = this.byte === 0xff;
    }
    this.left--;
    return (this.byte >> this.left) & 1;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  /** The header ends on a byte boundary; a final 0xFF is followed by a stuffed byte. */
  align(): void {
    this.left = 0;
    if (this.afterFF) {
      this.at++;
      this.afterFF = false;
    }
  }
}

interface CodeBlock {
  /** Absolute subband coordinates. */
  x0: number; y0: number; x1: number; y1: number;
  included: boolean;
  zeroPlanes: number;
  passes: number;
  lblock: number;
  /** Contributions as (segment index, bytes, passes), in stream order. */
  pieces: { segment: number; data: Uint8Array; passes: number }[];
}

interface Subband {
  orientation: Orientation;
  /** Absolute subband coordinates. */
  x0: number; y0: number; x1: number; y1: number;
  /** Index into the quantization step sizes (LL, then HL LH HH per resolution). */
  quantIndex: number;
  gainLog2: number;
  /** Decomposition levels between the tile and this subband. */
  levels: number;
  /** Address of the subband's f64 coefficients in the engine's memory (set by decodeTile). */
  coefficients: number;
}

interface PrecinctBand {
  subband: Subband;
  blocksWide: number;
  blocksHigh: number;
  blocks: CodeBlock[];
  inclusion: TagTree;
  zeroPlanes: TagTree;
}

interface Precinct {
  bands: PrecinctBand[];
  /** Reference-grid position of the precinct's first sample, for the position-driven orders. */
  refX: number;
  refY: number;
}

interface Resolution {
  x0: number; y0: number; x1: number; y1: number;
  subbands: Subband[];
  precincts: Precinct[];
}

/** Which codeword segment coding pass `pass` belongs to (T.800 D.4.1): termination points. */
function segmentOfPass(pass: number, blockStyle: number): number {
  if (blockStyle & CBLK_TERMALL) return pass;
  if (!(blockStyle & CBLK_BYPASS) || pass < 10) return 0;
  const p = pass - 10;
  return 1 + 2 * Math.floor(p / 3) + (p % 3 === 2 ? 1 : 0);
}

const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

/** Builds the resolutions, subbands, precincts and code-blocks of a tile (T.800 B.5 - B.7). */
function buildTile(tx0: number, ty0: number, tx1: number, ty1: number, cod: CodingStyle): Resolution[] {
  const resolutions: Resolution[] = [];
  const levels = cod.levels;
  for (let r = 0; r <= levels; r++) {
    const scale = 2 ** (levels - r);
    const rx0 = ceilDiv(tx0, scale);
    const ry0 = ceilDiv(ty0, scale);
    const rx1 = ceilDiv(tx1, scale);
    const ry1 = ceilDiv(ty1, scale);
    const subbands: Subband[] = [];
    if (r === 0) {
      subbands.push(makeSubband(Orientation.LL, rx0, ry0, rx1, ry1, 0, 0, levels));
    } else {
      const nb = levels - r + 1;
      const s = 2 ** nb;
      const h = 2 ** (nb - 1);
      const band = (orientation: Orientation, xob: number, yob: number, index: number, gain: number) =>
        makeSubband(orientation, ceilDiv(tx0 - h * xob, s), ceilDiv(ty0 - h * yob, s),
          ceilDiv(tx1 - h * xob, s), ceilDiv(ty1 - h * yob, s), 1 + 3 * (r - 1) + index, gain, nb);
      subbands.push(band(Orientation.HL, 1, 0, 0, 1), band(Orientation.LH, 0, 1, 1, 1), band(Orientation.HH, 1, 1, 2, 2));
    }
    const ppx = cod.precincts[r] & 0x0f;
    const ppy = cod.precincts[r] >> 4;
    const precincts: Precinct[] = [];
    if (rx1 > rx0 && ry1 > ry0) {
      const px0 = Math.floor(rx0 / 2 ** ppx);
      const py0 = Math.floor(ry0 / 2 ** ppy);
      const wide = ceilDiv(rx1, 2 ** ppx) - px0;
      const high = ceilDiv(ry1, 2 ** ppy) - py0;
      // Precinct and code-block sizes inside the subbands of this resolution.
      const bandPpx = r === 0 ? ppx : ppx - 1;
      const bandPpy = r === 0 ? ppy : ppy - 1;
      const xcb = Math.min(cod.xcb, bandPpx);
      const ycb = Math.min(cod.ycb, bandPpy);
      for (let j = 0; j < high; j++) {
        for (let i = 0; i < wide; i++) {
          const bands: PrecinctBand[] = [];
          for (const subband of subbands) {
            // The precinct's area in this subband, clipped to the subband.
            const bx0 = Math.max(subband.x0, (px0 + i) * 2 ** bandPpx);
            const by0 = Math.max(subband.y0, (py0 + j) * 2 ** bandPpy);
            const bx1 = Math.min(subband.x1, (px0 + i + 1) * 2 ** bandPpx);
            const by1 = Math.min(subband.y1, (py0 + j + 1) * 2 ** bandPpy);
            const cbx0 = Math.floor(bx0 / 2 ** xcb);
            const cby0 = Math.floor(by0 / 2 ** ycb);
            const blocksWide = bx1 > bx0 ? ceilDiv(bx1, 2 ** xcb) - cbx0 : 0;
            const blocksHigh = by1 > by0 ? ceilDiv(by1, 2 ** ycb) - cby0 : 0;
            const blocks: CodeBlock[] = [];
            for (let cy = 0; cy < blocksHigh; cy++) {
              for (let cx = 0; cx < blocksWide; cx++) {
                blocks.push({
                  x0: Math.max(bx0, (cbx0 + cx) * 2 ** xcb),
                  y0: Math.max(by0, (cby0 + cy) * 2 ** ycb),
                  x1: Math.min(bx1, (cbx0 + cx + 1) * 2 ** xcb),
                  y1: Math.min(by1, (cby0 + cy + 1) * 2 ** ycb),
                  included: false, zeroPlanes: 0, passes: 0, lblock: 3, pieces: [],
                });
              }
            }
            const empty = blocks.length === 0;
            bands.push({
              subband, blocksWide, blocksHigh, blocks,
              inclusion: new TagTree(empty ? 1 : blocksWide, empty ? 1 : blocksHigh),
              zeroPlanes: new TagTree(empty ? 1 : blocksWide, empty ? 1 : blocksHigh),
            });
          }
          precincts.push({
            bands,
            refX: Math.max(tx0, (px0 + i) * 2 ** ppx * scale),
            refY: Math.max(ty0, (py0 + j) * 2 ** ppy * scale),
          });
        }
      }
    }
    resolutions.push({ x0: rx0, y0: ry0, x1: rx1, y1: ry1, subbands, precincts });
  }
  return resolutions;
}

function makeSubband(
  orientation: Orientation, x0: number, y0: number, x1: number, y1: number, quantIndex: number, gainLog2: number, levels: number,
): Subband {
  return {
    orientation, x0, y0, x1, y1, quantIndex, gainLog2, levels, coefficients: 0,
  };
}

/** Number of packets of a tile, computed before anything is allocated for them. */
function countPackets(tx0: number, ty0: number, tx1: number, ty1: number, cod: CodingStyle): number {
  let precincts = 0;
  for (let r = 0; r <= cod.levels; r++) {
    const scale = 2 ** (cod.levels - r);
    const rx0 = ceilDiv(tx0, scale);
    const ry0 = ceilDiv(ty0, scale);
    const rx1 = ceilDiv(tx1, scale);
    const ry1 = ceilDiv(ty1, scale);
    if (rx1 <= rx0 || ry1 <= ry0) continue;
    const ppx = 2 ** (cod.precincts[r] & 0x0f);
    const ppy = 2 ** (cod.precincts[r] >> 4);
    precincts += (ceilDiv(rx1, ppx) - Math.floor(rx0 / ppx)) * (ceilDiv(ry1, ppy) - Math.floor(ry0 / ppy));
  }
  return precincts * cod.layers;
}

/** The tile's packets as [layer, resolution, precinct] in the progression order (T.800 B.12). */
function packetOrder(resolutions: Resolution[], cod: CodingStyle): Int32Array {
  const entries: { r: number; p: number; x: number; y: number }[] = [];
  resolutions.forEach((res, r) => res.precincts.forEach((pr, p) => entries.push({ r, p, x: pr.refX, y: pr.refY })));
  const layers = cod.layers;
  const order = new Int32Array(entries.length * layers * 3);
  let o = 0;
  const push = (l: number, r: number, p: number) => {
    order[o++] = l;
    order[o++] = r;
    order[o++] = p;
  };
  switch (cod.progression) {
    case 0: // LRCP
      for (let l = 0; l < layers; l++) for (const e of entries) push(l, e.r, e.p);
      break;
    case 1: // RLCP
      for (let r = 0; r < resolutions.length; r++) {
        for (let l = 0; l < layers; l++) for (const e of entries) if (e.r === r) push(l, e.r, e.p);
      }
      break;
    case 2: // RPCL: precincts of a resolution in raster order, as built
      for (const e of entries) for (let l = 0; l < layers; l++) push(l, e.r, e.p);
      break;
    default: // PCRL, CPRL (the same with one component): by position, then resolution
      entries.sort((a, b) => a.y - b.y || a.x - b.x || a.r - b.r);
      for (const e of entries) for (let l = 0; l < layers; l++) push(l, e.r, e.p);
      break;
  }
  return order;
}

/** Reads the tile's packets (T.800 B.9, B.10), attaching code-block bytes to their code-blocks. */
function readPackets(data: Uint8Array, resolutions: Resolution[], cod: CodingStyle, mb: (s: Subband) => number): void {
  const order = packetOrder(resolutions, cod);
  let at = 0;
  for (let k = 0; k < order.length; k += 3) {
    const layer = order[k];
    const precinct = resolutions[order[k + 1]].precincts[order[k + 2]];
    if (cod.sop && at + 6 <= data.length && data[at] === 0xff && data[at + 1] === (SOP & 0xff)) at += 6;
    const bits = new HeaderBits(data, at, data.length);
    const included: { block: CodeBlock; lengths: number[]; segments: number[]; passes: number[] }[] = [];
    if (bits.bit()) {
      for (const band of precinct.bands) {
        const maxPlanes = mb(band.subband);
        for (let b = 0; b < band.blocks.length; b++) {
          const block = band.blocks[b];
          const bx = b % band.blocksWide;
          const by = Math.floor(b / band.blocksWide);
          let isIncluded: boolean;
          const first = !block.included;
          if (first) isIncluded = band.inclusion.decode(bits, bx, by, layer + 1);
          else isIncluded = bits.bit() === 1;
          if (!isIncluded) continue;
          if (first) {
            let threshold = 1;
            while (!band.zeroPlanes.decode(bits, bx, by, threshold)) {
              if (++threshold > maxPlanes + 1) throw new CodecError('JPEG 2000: corrupt packet header (zero bit-planes)');
            }
            block.zeroPlanes = band.zeroPlanes.leafValue(bx, by);
            block.included = true;
          }
          let passes: number;
          // T.800 Table B.4: each bits.bit() reads the next bit, so the repeated test is not a duplicate.
          if (!bits.bit()) passes = 1;
          // eslint-disable-next-line no-dupe-else-if
          else if (!bits.bit()) passes = 2;
          else {
            const two = bits.bits(2);
            if (two < 3) passes = 3 + two;
            else {
              const five = bits.bits(5);
              passes = five < 31 ? 6 + five : 37 + bits.bits(7);
            }
          }
          while (bits.bit()) {
            if (++block.lblock > 32) throw new CodecError('JPEG 2000: corrupt packet header (code-block length bits)');
          }
          // One length per codeword segment these passes touch (T.800 B.10.7).
          const lengths: number[] = [];
          const segments: number[] = [];
          const segmentPasses: number[] = [];
          let pass = block.passes;
          const end = block.passes + passes;
          while (pass < end) {
            const segment = segmentOfPass(pass, cod.blockStyle);
            let n = 1;
            while (pass + n < end && segmentOfPass(pass + n, cod.blockStyle) === segment) n++;
            const width = block.lblock + Math.floor(Math.log2(n));
            if (width > 31) throw new CodecError('JPEG 2000: corrupt packet header (segment length)');
            lengths.push(bits.bits(width));
            segments.push(segment);
            segmentPasses.push(n);
            pass += n;
          }
          block.passes = end;
          if (end > 3 * (maxPlanes - block.zeroPlanes) - 2) {
            throw new CodecError('JPEG 2000: corrupt packet header (more coding passes than bit-planes)');
          }
          included.push({ block, lengths, segments, passes: segmentPasses });
        }
      }
    }
    bits.align();
    at = bits.at;
    if (cod.eph) {
      if (at + 2 > data.length || data[at] !== 0xff || data[at + 1] !== (EPH & 0xff)) {
        throw new CodecError('JPEG 2000: EPH marker missing after a packet header');
      }
      at += 2;
    }
    for (const { block, lengths, segments, passes } of included) {
      for (let s = 0; s < lengths.length; s++) {
        if (at + lengths[s] > data.length) throw new CodecError('JPEG 2000: truncated: code-block data runs past the tile');
        block.pieces.push({ segment: segments[s], data: data.subarray(at, at + lengths[s]), passes: passes[s] });
        at += lengths[s];
      }
    }
  }
}

// ---------------------------------------------------------------- wavelet synthesis

/** engine/assembly/codecs/jpeg2000.ts: the wavelet and the level shift. */
interface WaveletKernels {
  j2kSynthesize(
    ll: number, hl: number, lh: number, hh: number, lowW: number, highW: number,
    x0: number, y0: number, w: number, h: number, reversible: boolean, next: number, line: number,
  ): void;
  j2kStoreTile(
    samples: number, w: number, h: number, reversible: boolean, shift: number, lo: number, hi: number, out: number, outStride: number,
  ): void;
}

/** Filter taps on each side of a lifting step need this much symmetric extension (9/7: 4): the kernel's PAD. */
const PAD = 5;

/**
 * Inverse DWT of a tile (T.800 F.3.1 - F.3.3), in the engine's memory: from the LL subband up,
 * each resolution is the interleave of the previous one with its HL, LH and HH subbands, filtered
 * along rows then columns. Returns the address of the tile's f64 samples.
 */
function inverseDwt(resolutions: Resolution[], reversible: boolean, regions: CodecMemory): number {
  const kernels = regions.exports as unknown as WaveletKernels;
  let current = resolutions[0].subbands[0].coefficients;
  let width = resolutions[0].x1 - resolutions[0].x0;
  const longest = resolutions.reduce((m, r) => Math.max(m, r.x1 - r.x0, r.y1 - r.y0), 0);
  const line = regions.alloc((longest + 2 * PAD) * 8);
  for (let r = 1; r < resolutions.length; r++) {
    const res = resolutions[r];
    const [hl, lh, hh] = res.subbands;
    const w = res.x1 - res.x0;
    const h = res.y1 - res.y0;
    const next = regions.alloc(w * h * 8);
    kernels.j2kSynthesize(
      current, hl.coefficients, lh.coefficients, hh.coefficients, width, hl.x1 - hl.x0,
      res.x0, res.y0, w, h, reversible, next, line,
    );
    current = next;
    width = w;
  }
  return current;
}

// ---------------------------------------------------------------- tiles

interface TileInput {
  params: TileParams;
  parts: Uint8Array[];
}

function decodeTile(
  index: number, tile: TileInput, size: ImageSize, out: number, blockDecoder: CodeBlockDecoder, regions: CodecMemory,
): void {
  const { cod, qcd } = tile.params;
  const p = index % size.tilesX;
  const q = Math.floor(index / size.tilesX);
  const tx0 = Math.max(size.tileX0 + p * size.tileWidth, size.x0);
  const ty0 = Math.max(size.tileY0 + q * size.tileHeight, size.y0);
  const tx1 = Math.min(size.tileX0 + (p + 1) * size.tileWidth, size.x1);
  const ty1 = Math.min(size.tileY0 + (q + 1) * size.tileHeight, size.y1);

  let bytes = 0;
  for (const part of tile.parts) bytes += part.length;
  // Every packet takes at least one byte: refuse impossible packet counts before allocating for them.
  const packets = countPackets(tx0, ty0, tx1, ty1, cod);
  if (packets > bytes) throw new CodecError(`JPEG 2000: tile ${index} has ${packets} packets in ${bytes} bytes (truncated or corrupt)`);
  const data = tile.parts.length === 1 ? tile.parts[0] : new Uint8Array(bytes);
  if (tile.parts.length > 1) {
    let offset = 0;
    for (const part of tile.parts) {
      data.set(part, offset);
      offset += part.length;
    }
  }

  const resolutions = buildTile(tx0, ty0, tx1, ty1, cod);
  const bandCount = 1 + 3 * cod.levels;
  if (qcd.style !== 1 && qcd.exponents.length < bandCount) {
    throw new CodecError(`JPEG 2000: ${qcd.exponents.length} quantization step sizes for ${bandCount} subbands`);
  }
  const exponent = (s: Subband) => (qcd.style === 1 ? qcd.exponents[0] - cod.levels + s.levels : qcd.exponents[s.quantIndex]);
  const mantissa = (s: Subband) => (qcd.style === 1 ? qcd.mantissas[0] : qcd.mantissas[s.quantIndex]);
  const magnitudeBits = (s: Subband) => qcd.guardBits + exponent(s) - 1;
  readPackets(data, resolutions, cod, magnitudeBits);

  // Every subband's coefficients in one zeroed region: code-blocks without data stay 0.
  let coefficientBytes = 0;
  for (const res of resolutions) for (const subband of res.subbands) coefficientBytes += subbandArea(subband) * 8;
  let coefficientsAt = regions.alloc(coefficientBytes);
  new Uint8Array(regions.memory.buffer, coefficientsAt, coefficientBytes).fill(0);
  for (const res of resolutions) {
    for (const subband of res.subbands) {
      subband.coefficients = coefficientsAt;
      coefficientsAt += subbandArea(subband) * 8;
    }
  }

  for (const res of resolutions) {
    for (const subband of res.subbands) {
      const mb = magnitudeBits(subband);
      // T.800 E.1.1: step = 2^(R_b - eps_b) (1 + mu_b / 2^11), R_b = precision + log2 gain.
      const step = cod.reversible ? 0
        : 2 ** (size.precision + subband.gainLog2 - exponent(subband)) * (1 + mantissa(subband) / 2048);
      const bandWidth = subband.x1 - subband.x0;
      for (const precinct of res.precincts) {
        for (const band of precinct.bands) {
          if (band.subband !== subband) continue;
          for (const block of band.blocks) {
            if (block.pieces.length === 0) continue;
            const segments: CodeBlockSegment[] = [];
            for (const piece of block.pieces) {
              const last = segments.at(-1);
              if (last && last.segment === piece.segment) {
                last.pieces.push(piece.data);
                last.passes += piece.passes;
              } else {
                segments.push({ segment: piece.segment, pieces: [piece.data], passes: piece.passes });
              }
            }
            blockDecoder.decode(
              block.x1 - block.x0, block.y1 - block.y0, subband.orientation, cod.blockStyle,
              mb - 1 - block.zeroPlanes, segments,
              subband.coefficients + ((block.y0 - subband.y0) * bandWidth + (block.x0 - subband.x0)) * 8, bandWidth, step,
            );
          }
        }
      }
    }
  }

  const samples = inverseDwt(resolutions, cod.reversible, regions);
  // DC level shift and clamp to the sample range (T.800 G.1.2), as OpenJPEG does.
  const shift = size.signed ? 0 : 2 ** (size.precision - 1);
  const min = size.signed ? -(2 ** (size.precision - 1)) : 0;
  const max = size.signed ? 2 ** (size.precision - 1) - 1 : 2 ** size.precision - 1;
  const imageWidth = size.x1 - size.x0;
  (regions.exports as unknown as WaveletKernels).j2kStoreTile(
    samples, tx1 - tx0, ty1 - ty0, cod.reversible, shift, min, max,
    out + ((ty0 - size.y0) * imageWidth + (tx0 - size.x0)) * 4, imageWidth,
  );
}

function subbandArea(s: Subband): number {
  return Math.max(0, s.x1 - s.x0) * Math.max(0, s.y1 - s.y0);
}

/**
 * Decodes a JPEG 2000 code stream (or JP2 file) of one component into a region of `regions`: the
 * image's integer samples (i32), row-major, at `ptr`.
 */
export function decodeJpeg2000Into(regions: CodecMemory, data: Uint8Array): { width: number; height: number; ptr: number } {
  if (!(data instanceof Uint8Array)) throw new CodecError('JPEG 2000: data must be a Uint8Array');
  let stream = data;
  if (data.length >= 12 && data[4] === 0x6a && data[5] === 0x50 && data[6] === 0x20 && data[7] === 0x20) stream = unwrapJp2(data);
  const r = new Reader(stream);
  r.need(4, 'the code stream header');
  if (r.u16() !== SOC || r.u16() !== SIZ) throw new CodecError('JPEG 2000: data is neither a code stream (SOC, SIZ) nor a JP2 file');
  r.need(2, 'SIZ');
  const size = readSiz(r, r.u16());

  // Main header (T.800 A.4): COD and QCD, possibly overridden for the component by COC and QCC.
  let cod: CodingStyle | null = null;
  let cocAt = -1;
  let qcd: Quantization | null = null;
  let qcc: Quantization | null = null;
  for (;;) {
    r.need(2, 'the main header');
    const marker = r.u16();
    if (marker === SOT) break;
    if (marker === COD) {
      r.need(2, 'COD');
      cod = readCod(r, r.u16());
    } else if (marker === COC) {
      cocAt = r.at;
      skipSegment(r, marker);
    } else if (marker === QCD) {
      r.need(2, 'QCD');
      qcd = readQuantization(r, r.u16(), 'QCD', false);
    } else if (marker === QCC) {
      r.need(2, 'QCC');
      qcc = readQuantization(r, r.u16(), 'QCC', true);
    } else if (marker === RGN || marker === POC || marker === PPM) {
      refuse(marker);
    } else if ((marker & 0xff00) !== 0xff00 || marker < 0xff30) {
      throw new CodecError(`JPEG 2000: expected a marker at byte ${r.at - 2} of the main header`);
    } else {
      skipSegment(r, marker);
    }
  }
  if (!cod) throw new CodecError('JPEG 2000: no COD segment in the main header');
  const mainQuantization = qcc ?? qcd;
  if (!mainQuantization) throw new CodecError('JPEG 2000: no QCD segment in the main header');
  const applyCoc = (at: number, base: CodingStyle) => {
    const coc = new Reader(stream, at);
    return readCoc(coc, coc.u16(), base);
  };
  const mainParams: TileParams = { cod: cocAt >= 0 ? applyCoc(cocAt, cod) : cod, qcd: mainQuantization };

  // Tile-parts (T.800 A.4.2); SOT was just read. Precedence: tile COC > tile COD > main COC >
  // main COD, and tile QCC > tile QCD > main QCC > main QCD.
  const tileCount = size.tilesX * size.tilesY;
  const tiles: (TileInput | undefined)[] = new Array(tileCount);
  for (;;) {
    const sotAt = r.at - 2;
    r.need(10, 'SOT');
    if (r.u16() !== 10) throw new CodecError('JPEG 2000: SOT segment length is not 10');
    const index = r.u16();
    const partLength = r.u32();
    r.u8(); // tile-part index
    r.u8(); // number of tile-parts
    if (index >= tileCount) throw new CodecError(`JPEG 2000: tile index ${index} outside the ${tileCount} tiles`);
    const end = partLength === 0 ? stream.length - 2 : sotAt + partLength;
    if (partLength !== 0 && partLength < 14) throw new CodecError(`JPEG 2000: tile-part length ${partLength} is too short`);
    if (end > stream.length) throw new CodecError(`JPEG 2000: truncated: tile-part of ${partLength} bytes runs past the end of the data`);
    const firstPart = !tiles[index];
    let tileCod: CodingStyle | null = null;
    let tileCocAt = -1;
    let tileQcd: Quantization | null = null;
    let tileQcc: Quantization | null = null;
    for (;;) {
      r.need(2, 'a tile-part header');
      const marker = r.u16();
      if (marker === SOD) break;
      if (marker === COD || marker === COC || marker === QCD || marker === QCC) {
        if (!firstPart) throw new CodecError('JPEG 2000: coding parameters in a tile-part other than the first');
        r.need(2, 'a tile-part header');
        if (marker === COD) tileCod = readCod(r, r.u16());
        else if (marker === QCD) tileQcd = readQuantization(r, r.u16(), 'QCD', false);
        else if (marker === QCC) tileQcc = readQuantization(r, r.u16(), 'QCC', true);
        else {
          tileCocAt = r.at;
          skipSegmentBody(r, r.u16(), 'COC');
        }
      } else if (marker === RGN || marker === POC || marker === PPT) {
        refuse(marker);
      } else if ((marker & 0xff00) !== 0xff00 || marker < 0xff30) {
        throw new CodecError(`JPEG 2000: expected a marker at byte ${r.at - 2} of a tile-part header`);
      } else {
        skipSegment(r, marker);
      }
      if (r.at > end) throw new CodecError('JPEG 2000: tile-part header runs past its tile-part');
    }
    if (firstPart) {
      const base = tileCod ?? mainParams.cod;
      tiles[index] = {
        params: {
          cod: tileCocAt >= 0 ? applyCoc(tileCocAt, base) : base,
          qcd: tileQcc ?? tileQcd ?? mainParams.qcd,
        },
        parts: [],
      };
    }
    (tiles[index] as TileInput).parts.push(stream.subarray(r.at, end));
    r.at = end;
    r.need(2, 'the end of the code stream (EOC)');
    const next = r.u16();
    if (next === EOC) break;
    if (next !== SOT) throw new CodecError(`JPEG 2000: expected SOT or EOC at byte ${r.at - 2}`);
  }

  const width = size.x1 - size.x0;
  const height = size.y1 - size.y0;
  const values = regions.alloc(width * height * 4);
  const blockDecoder = new CodeBlockDecoder(regions);
  for (let t = 0; t < tileCount; t++) {
    const tile = tiles[t];
    if (!tile) throw new CodecError(`JPEG 2000: tile ${t} of ${tileCount} is missing`);
    decodeTile(t, tile, size, values, blockDecoder, regions);
  }
  return { width, height, ptr: values };
}

function skipSegmentBody(r: Reader, length: number, what: string): void {
  if (length < 2) throw new CodecError(`JPEG 2000: ${what} segment with length ${length}`);
  r.need(length - 2, what);
  r.at += length - 2;
}

/** GRIB2 template 5.40: JPEG 2000 code stream -> the packed integers, row-major, width x height. */
export function decodeJpeg2000(engine: CodecEngine, data: Uint8Array): Jpeg2000Image {
  const regions = new CodecRegions(engine);
  try {
    const { width, height, ptr } = decodeJpeg2000Into(regions, data);
    return { width, height, values: new Int32Array(regions.memory.buffer, ptr, width * height).slice() };
  } finally {
    regions.releaseAll();
  }
}
