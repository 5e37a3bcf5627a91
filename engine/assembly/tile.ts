/*
 * Data tile decoding. The format is common/tile.ts; the wrapper has already validated the header
 * with readTileHeader (magic, version, channels, predictor, size, byte length), so this file
 * trusts it and reads only what it needs.
 *
 *   src: the tile bytes, copied in by the wrapper, followed by >= 16 bytes of slack
 *   +0        'ISBT'  u16 version  u8 channels (c)  u8 predictor  u16 width (w)  u16 height (h)
 *   +48       per channel: f32 offset, f32 scale            value = f32(offset + scale * q)
 *   +48+8c    u16 q[w*h] of channel 0, rows north to south, then channel 1, ...
 *
 *   dst0, dst1, dst2: one block per channel, f32[w*h] row-major, row 0 north, NaN where q = 65535
 *   texels:           u8[w*h*4], per node:  byte 0    byte 1     byte 2    byte 3
 *                                            q0 >> 8   q0 & 255   q1 >> 8   q1 & 255
 *                     q is the un-predicted 16-bit value; q1 bytes are 0 in a one-channel tile.
 *
 * Rows are processed in whole vectors of 8 nodes. When w is not a multiple of 8, the last vector
 * of a row spills up to 7 nodes into the next row's place in dst and texels; that row is decoded
 * afterwards and overwrites them. The last row's spill stays inside the block: a tile of at most
 * 256x256 nodes with w % 8 != 0 has w <= 255, so w*h + 7 <= 65280 + 7 < 65536. The spill reads up
 * to 14 bytes past the q data, which is what the 16 bytes of slack after src are for.
 */

const HEADER_BYTES: usize = 48;
const CHANNEL_BYTES: usize = 8;
const NODES_PER_VECTOR: i32 = 8;
const NO_DATA: i16 = -1; // q = 65535 as a signed 16-bit lane

@inline function tileChannels(src: usize): i32 {
  return <i32>load<u8>(src, 6);
}
@inline function tilePredictor(src: usize): i32 {
  return <i32>load<u8>(src, 7);
}
@inline function tileWidth(src: usize): i32 {
  return <i32>load<u16>(src, 8);
}
@inline function tileHeight(src: usize): i32 {
  return <i32>load<u16>(src, 10);
}
@inline function channelOffset(src: usize, c: i32): f64 {
  return <f64>load<f32>(src + HEADER_BYTES + CHANNEL_BYTES * <usize>c);
}
@inline function channelScale(src: usize, c: i32): f64 {
  return <f64>load<f32>(src + HEADER_BYTES + CHANNEL_BYTES * <usize>c, 4);
}

/**
 * Undoes the row-delta predictor on 8 lanes: an inclusive 16-bit prefix sum in three shifted adds
 * (log2 8), plus the running total of the row so far. Wrapping i16 adds are exactly the format's
 * "modulo 2^16". Each shift is a byte window over (zero, v) at consecutive indices, which V8
 * compiles to one palignr; other shuffle patterns cost two pshufb and a constant load each.
 */
@inline function prefixSum16(delta: v128, carry: v128): v128 {
  const zero = i16x8.splat(0);
  let s = i16x8.add(delta, i8x16.shuffle(zero, delta, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29));
  s = i16x8.add(s, i8x16.shuffle(zero, s, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27));
  s = i16x8.add(s, i8x16.shuffle(zero, s, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23));
  return i16x8.add(s, carry);
}

/** The last lane of a prefix sum, in every lane: the carry into the next 8 nodes of the row. */
@inline function lastLane16(s: v128): v128 {
  return i16x8.shuffle(s, s, 7, 7, 7, 7, 7, 7, 7, 7);
}

/**
 * offset + scale * q for two lanes in f64, then demoted to f32: the same operations as the
 * reference decoder (Math.fround(offset + scale * q)), so the floats agree bit for bit. scale * q
 * is exact in f64 (24 + 16 bits); the f64 add and the demotion round exactly as the reference's
 * do. q < 2^16, so the signed conversion (one cvtdq2pd) is exact.
 */
@inline function dequantize2(q32: v128, offset: v128, scale: v128): v128 {
  return f32x4.demote_f64x2_zero(f64x2.add(offset, f64x2.mul(scale, f64x2.convert_low_i32x4_s(q32))));
}

/** Writes 8 floats for 8 q (u16 lanes), NaN where q is NO_DATA. */
@inline function dequantize8(q: v128, offset: v128, scale: v128, dst: usize): void {
  const noData = i16x8.eq(q, i16x8.splat(NO_DATA));
  const lo = i32x4.extend_low_i16x8_u(q);
  const hi = i32x4.extend_high_i16x8_u(q);
  const v0 = f32x4.shuffle(
    dequantize2(lo, offset, scale), dequantize2(i32x4.shuffle(lo, lo, 2, 3, 2, 3), offset, scale), 0, 1, 4, 5,
  );
  const v1 = f32x4.shuffle(
    dequantize2(hi, offset, scale), dequantize2(i32x4.shuffle(hi, hi, 2, 3, 2, 3), offset, scale), 0, 1, 4, 5,
  );
  const nan = f32x4.splat(NaN);
  v128.store(dst, v128.bitselect(nan, v0, i32x4.extend_low_i16x8_s(noData)));
  v128.store(dst, v128.bitselect(nan, v1, i32x4.extend_high_i16x8_s(noData)), 16);
}

/** Texels of 8 nodes: the big-endian bytes of q0 then q1, 4 bytes per node. */
@inline function storeTexels8(q0: v128, q1: v128, texels: usize): void {
  v128.store(texels, i8x16.shuffle(q0, q1, 1, 0, 17, 16, 3, 2, 19, 18, 5, 4, 21, 20, 7, 6, 23, 22));
  v128.store(texels, i8x16.shuffle(q0, q1, 9, 8, 25, 24, 11, 10, 27, 26, 13, 12, 29, 28, 15, 14, 31, 30), 16);
}

/**
 * Decodes channels a and b together and writes the texels. `predict` and `hasB` are constants at
 * every call site, so the inlined copies lose the branches. Without b, q1 is zero.
 */
@inline function decodeTwoChannels(
  predict: bool, hasB: bool,
  srcA: usize, srcB: usize, dstA: usize, dstB: usize, texels: usize,
  width: i32, height: i32, offsetA: f64, scaleA: f64, offsetB: f64, scaleB: f64,
): void {
  const offA = f64x2.splat(offsetA);
  const scA = f64x2.splat(scaleA);
  const offB = f64x2.splat(offsetB);
  const scB = f64x2.splat(scaleB);
  for (let j = 0; j < height; j++) {
    let carryA = i16x8.splat(0);
    let carryB = i16x8.splat(0);
    const row = <usize>(j * width);
    for (let i = 0; i < width; i += NODES_PER_VECTOR) {
      const node = row + <usize>i;
      let qA = v128.load(srcA + (node << 1));
      if (predict) {
        qA = prefixSum16(qA, carryA);
        carryA = lastLane16(qA);
      }
      dequantize8(qA, offA, scA, dstA + (node << 2));
      let qB = i16x8.splat(0);
      if (hasB) {
        qB = v128.load(srcB + (node << 1));
        if (predict) {
          qB = prefixSum16(qB, carryB);
          carryB = lastLane16(qB);
        }
        dequantize8(qB, offB, scB, dstB + (node << 2));
      }
      storeTexels8(qA, qB, texels + (node << 2));
    }
  }
}

/** Decodes one channel without texels (the third channel of a tile). */
@inline function decodeOneChannel(predict: bool, src: usize, dst: usize, width: i32, height: i32, offset: f64, scale: f64): void {
  const off = f64x2.splat(offset);
  const sc = f64x2.splat(scale);
  for (let j = 0; j < height; j++) {
    let carry = i16x8.splat(0);
    const row = <usize>(j * width);
    for (let i = 0; i < width; i += NODES_PER_VECTOR) {
      const node = row + <usize>i;
      let q = v128.load(src + (node << 1));
      if (predict) {
        q = prefixSum16(q, carry);
        carry = lastLane16(q);
      }
      dequantize8(q, off, sc, dst + (node << 2));
    }
  }
}

/**
 * Decodes a validated tile at `src` into one block per channel (dst1 / dst2 are ignored when the
 * tile has fewer channels) and writes its texels.
 */
export function decodeTile(src: usize, dst0: usize, dst1: usize, dst2: usize, texels: usize): void {
  const channels = tileChannels(src);
  const predict = tilePredictor(src) != 0;
  const width = tileWidth(src);
  const height = tileHeight(src);
  const q0 = src + HEADER_BYTES + CHANNEL_BYTES * <usize>channels;
  const plane = <usize>(width * height) << 1;
  const off0 = channelOffset(src, 0);
  const sc0 = channelScale(src, 0);
  if (channels == 1) {
    if (predict) decodeTwoChannels(true, false, q0, 0, dst0, 0, texels, width, height, off0, sc0, 0, 0);
    else decodeTwoChannels(false, false, q0, 0, dst0, 0, texels, width, height, off0, sc0, 0, 0);
    return;
  }
  const off1 = channelOffset(src, 1);
  const sc1 = channelScale(src, 1);
  if (predict) decodeTwoChannels(true, true, q0, q0 + plane, dst0, dst1, texels, width, height, off0, sc0, off1, sc1);
  else decodeTwoChannels(false, true, q0, q0 + plane, dst0, dst1, texels, width, height, off0, sc0, off1, sc1);
  if (channels == 3) {
    const off2 = channelOffset(src, 2);
    const sc2 = channelScale(src, 2);
    if (predict) decodeOneChannel(true, q0 + 2 * plane, dst2, width, height, off2, sc2);
    else decodeOneChannel(false, q0 + 2 * plane, dst2, width, height, off2, sc2);
  }
}
