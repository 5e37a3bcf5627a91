/**
 * The Isobar data tile: one forecast step of one overlay over one tile of the equirectangular
 * data pyramid (see tiling.ts), as 1–3 quantized 16-bit channels. DESIGN.md "Data tile".
 *
 * Layout, version 1, little-endian throughout:
 *
 *   offset      size      field
 *   0           4         magic 'I' 'S' 'B' 'T'
 *   4           2         version (u16) = 1
 *   6           1         channel count c, 1..3
 *   7           1         predictor: 0 none, 1 row delta (see below)
 *   8           2         width  (u16, nodes per row, >= 2)
 *   10          2         height (u16, rows, >= 2)
 *   12          4         reserved, 0
 *   16          8         west  (f64, degrees east) — longitude of column 0
 *   24          8         north (f64, degrees north) — latitude of row 0
 *   32          8         east  (f64) — longitude of column width-1
 *   40          8         south (f64) — latitude of row height-1
 *   48          8 * c     per channel: offset (f32), scale (f32); value = offset + scale * q
 *   48 + 8c     2*w*h*c   q (u16), planar: channel 0 rows north to south, then channel 1, ...
 *
 * Nodes are grid points, not cells: column i lies at west + i * (east - west) / (width - 1), so two
 * neighbouring tiles share their edge nodes and bilinear sampling never needs a neighbour tile.
 * q = NO_DATA (65535) marks a missing value. With predictor 1 each row stores its first q as is and
 * then q[i] - q[i-1] modulo 2^16, which makes smooth fields compress well under the HTTP gzip the
 * tiles travel with; undoing it is a 16-bit wrapping prefix sum, so it is lossless for every q.
 */

import type { TileBounds } from './tiling.ts';

export const TILE_MAGIC = 0x54425349; // 'ISBT' read as a little-endian u32
export const TILE_VERSION = 1;
export const TILE_HEADER_BYTES = 48;
export const TILE_CHANNEL_BYTES = 8;
export const NO_DATA = 0xffff;
/** Largest quantized value that carries data. */
const Q_MAX = 0xfffe;
export const MAX_CHANNELS = 3;

export const Predictor = { None: 0, RowDelta: 1 } as const;
export type Predictor = (typeof Predictor)[keyof typeof Predictor];

/** Where a tile's nodes are: its bounds in degrees (corner nodes) and its size in nodes. */
export interface TileGeometry extends TileBounds {
  width: number;
  height: number;
}

export interface TileHeader extends TileGeometry {
  version: number;
  channels: number;
  predictor: Predictor;
  /** Per channel: value = offsets[c] + scales[c] * q. */
  offsets: number[];
  scales: number[];
  /** Byte offset of the first q of channel 0. */
  dataOffset: number;
}

export interface DecodedTile {
  header: TileHeader;
  /** One Float32Array of width * height values per channel, row 0 = north, NaN = no data. */
  channels: Float32Array[];
}

export class DataTileError extends Error {
  override name = 'DataTileError';
}

export function tileByteLength(channels: number, width: number, height: number): number {
  return TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * channels + 2 * width * height * channels;
}

function asBytes(data: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new DataTileError('Data tile must be an ArrayBuffer or a typed array');
}

/** Reads and checks the header; throws DataTileError naming what is wrong. Trusts nothing. */
export function readTileHeader(data: ArrayBuffer | ArrayBufferView): TileHeader {
  const bytes = asBytes(data);
  if (bytes.byteLength < TILE_HEADER_BYTES) {
    throw new DataTileError(`Data tile is truncated: ${bytes.byteLength} bytes, the header alone is ${TILE_HEADER_BYTES}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== TILE_MAGIC) {
    throw new DataTileError('Data does not appear to be an Isobar data tile (bad magic bytes)');
  }
  const version = view.getUint16(4, true);
  if (version !== TILE_VERSION) {
    throw new DataTileError(`Unsupported data tile version ${version}: this build reads version ${TILE_VERSION}`);
  }
  const channels = view.getUint8(6);
  if (channels < 1 || channels > MAX_CHANNELS) {
    throw new DataTileError(`Data tile has ${channels} channels; 1 to ${MAX_CHANNELS} are allowed`);
  }
  const predictor = view.getUint8(7);
  if (predictor !== Predictor.None && predictor !== Predictor.RowDelta) {
    throw new DataTileError(`Data tile uses unknown predictor ${predictor}`);
  }
  const width = view.getUint16(8, true);
  const height = view.getUint16(10, true);
  if (width < 2 || height < 2) {
    throw new DataTileError(`Data tile grid ${width}x${height} is too small (at least 2x2)`);
  }
  const west = view.getFloat64(16, true);
  const north = view.getFloat64(24, true);
  const east = view.getFloat64(32, true);
  const south = view.getFloat64(40, true);
  if (![west, north, east, south].every(Number.isFinite) || !(east > west) || !(north > south) || north > 90 || south < -90) {
    throw new DataTileError(`Data tile bounds are invalid: west ${west}, north ${north}, east ${east}, south ${south}`);
  }
  const expected = tileByteLength(channels, width, height);
  if (bytes.byteLength < expected) {
    throw new DataTileError(`Data tile is truncated: ${bytes.byteLength} bytes, expected ${expected}`);
  }
  if (bytes.byteLength > expected) {
    throw new DataTileError(`Data tile has ${bytes.byteLength - expected} unexpected trailing bytes`);
  }
  const offsets: number[] = [];
  const scales: number[] = [];
  for (let c = 0; c < channels; c++) {
    const offset = view.getFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES, true);
    const scale = view.getFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES + 4, true);
    if (!Number.isFinite(offset) || !Number.isFinite(scale)) {
      throw new DataTileError(`Data tile channel ${c} has a non-finite offset or scale`);
    }
    offsets.push(offset);
    scales.push(scale);
  }
  return {
    version, channels, predictor: predictor as Predictor, width, height, west, north, east, south,
    offsets, scales, dataOffset: TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * channels,
  };
}

/**
 * Reference decoder in plain TypeScript. The engine's WASM decoder must give the same floats;
 * this one serves tests, the server and tools.
 */
export function decodeDataTile(data: ArrayBuffer | ArrayBufferView): DecodedTile {
  const bytes = asBytes(data);
  const header = readTileHeader(bytes);
  const { width, height, channels } = header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Float32Array[] = [];
  let p = header.dataOffset;
  for (let c = 0; c < channels; c++) {
    const values = new Float32Array(width * height);
    const offset = header.offsets[c];
    const scale = header.scales[c];
    for (let j = 0; j < height; j++) {
      let q = 0;
      for (let i = 0; i < width; i++, p += 2) {
        const raw = view.getUint16(p, true);
        q = header.predictor === Predictor.RowDelta && i > 0 ? (q + raw) & 0xffff : raw;
        values[j * width + i] = q === NO_DATA ? NaN : Math.fround(offset + scale * q);
      }
    }
    out.push(values);
  }
  return { header, channels: out };
}

export interface EncodeTileOptions extends TileGeometry {
  /** One array of width * height values per channel, row 0 north; NaN (or non-finite) = no data. */
  channels: ArrayLike<number>[];
  predictor?: Predictor;
  /**
   * Optional fixed quantization per channel. By default each channel spans its own min..max with
   * 65535 levels, the best precision 16 bits can give.
   */
  quantization?: ({ offset: number; scale: number } | undefined)[];
}

export interface QuantizedChannel {
  offset: number;
  scale: number;
  /** Un-predicted q, width * height, NO_DATA for a missing value. */
  q: ArrayLike<number>;
}

export interface PackTileOptions extends TileGeometry {
  predictor?: Predictor;
  channels: QuantizedChannel[];
}

/** Writes a tile from channels already quantized (tests use it to control every q). */
export function packDataTile(options: PackTileOptions): Uint8Array {
  const { width, height, channels, west, north, east, south } = options;
  const predictor = options.predictor ?? Predictor.RowDelta;
  if (channels.length < 1 || channels.length > MAX_CHANNELS) {
    throw new DataTileError(`A data tile holds 1 to ${MAX_CHANNELS} channels, not ${channels.length}`);
  }
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 2 || height < 2 || width > 0xffff || height > 0xffff) {
    throw new DataTileError(`Data tile grid ${width}x${height} is invalid`);
  }
  if (!(east > west) || !(north > south)) throw new DataTileError('Data tile bounds are invalid');
  const n = width * height;
  const bytes = new Uint8Array(tileByteLength(channels.length, width, height));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, TILE_MAGIC, true);
  view.setUint16(4, TILE_VERSION, true);
  view.setUint8(6, channels.length);
  view.setUint8(7, predictor);
  view.setUint16(8, width, true);
  view.setUint16(10, height, true);
  view.setFloat64(16, west, true);
  view.setFloat64(24, north, true);
  view.setFloat64(32, east, true);
  view.setFloat64(40, south, true);
  let p = TILE_HEADER_BYTES + TILE_CHANNEL_BYTES * channels.length;
  channels.forEach(({ offset, scale, q }, c) => {
    if (q.length !== n) throw new DataTileError(`Channel ${c} has ${q.length} values, expected ${n}`);
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES, offset, true);
    view.setFloat32(TILE_HEADER_BYTES + c * TILE_CHANNEL_BYTES + 4, scale, true);
    for (let j = 0; j < height; j++) {
      for (let i = 0; i < width; i++, p += 2) {
        const k = j * width + i;
        view.setUint16(p, predictor === Predictor.RowDelta && i > 0 ? (q[k] - q[k - 1]) & 0xffff : q[k], true);
      }
    }
  });
  return bytes;
}

/** Quantizes and packs a tile. Values outside a fixed quantization are clamped. */
export function encodeDataTile(options: EncodeTileOptions): Uint8Array {
  const { width, height, channels } = options;
  const n = width * height;
  const quantized = channels.map((values, c): QuantizedChannel => {
    if (values.length !== n) throw new DataTileError(`Channel ${c} has ${values.length} values, expected ${n}`);
    let offset: number;
    let scale: number;
    const fixed = options.quantization?.[c];
    if (fixed) {
      ({ offset, scale } = fixed);
    } else {
      let min = Infinity;
      let max = -Infinity;
      for (let i = 0; i < n; i++) {
        const v = values[i];
        if (Number.isFinite(v)) {
          if (v < min) min = v;
          if (v > max) max = v;
        }
      }
      if (min === Infinity) { min = 0; max = 0; }
      offset = min;
      scale = max > min ? (max - min) / Q_MAX : 0;
    }
    // Quantize with what the decoder will read: the f32 values themselves.
    offset = Math.fround(offset);
    scale = Math.fround(scale);
    const q = new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) q[i] = NO_DATA;
      else if (scale === 0) q[i] = 0;
      else q[i] = Math.min(Q_MAX, Math.max(0, Math.round((v - offset) / scale)));
    }
    return { offset, scale, q };
  });
  return packDataTile({ ...options, channels: quantized });
}
