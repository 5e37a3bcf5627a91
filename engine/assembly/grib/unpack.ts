/*
 * GRIB2 data unpacking: the bit-level work of data representation templates 5.0 (simple packing),
 * 5.2 / 5.3 (complex packing, spatial differencing), and the scaling and bit-map expansion shared
 * by every template. engine/grib/decode.ts parses and validates the sections, lays out these
 * regions with the engine's allocator and calls the kernels in this order:
 *
 *   src     u8[bytes + 8]   section 7's payload (from octet 6), then 8 zero bytes of slack: the
 *                           bit reader loads 8 bytes at a time and may read up to 7 past the end
 *   x       i32[count]      the packed integers X, in section 7's order (gribUnpackBits, codecs)
 *           f64[count]      complex packing (gribUnpackComplex): X as exact integers in f64, as
 *                           they can pass 32 bits (a 32-bit reference plus a group value, or
 *                           spatial differencing's running sums; ecCodes sums in 64 bits)
 *   groups  u32[3 * NG]     complex packing only: group references, widths, lengths (scratch)
 *   mask    u8[count]       complex packing with missing value management: 1 = missing X
 *   bitmap  u8[(points+7)/8 + 8]  section 6's bits (from octet 7), MSB first, 1 = value present
 *   dst     f32[points]     Y = (R + X * 2^E) * 10^-D in scanning order, NaN where missing
 *
 * Bit streams are big-endian: the first value's most significant bit is bit 7 of byte 0
 * (WMO Manual on Codes, 92.1.4). Every kernel checks its reads against the byte counts it is
 * given and returns a negative code instead of reading past them; the wrapper turns codes into
 * GribErrors. Integer arithmetic wraps (no traps): a damaged file gives wrong-but-finite X that the
 * consistency checks (group lengths, bit budget) reject, never a crash.
 */

/** Error codes (negative returns); decode.ts maps them to messages. */
const ERR_HEADER_BITS: i32 = -1; // descriptors, references, widths or lengths run past section 7
const ERR_GROUP_WIDTH: i32 = -2; // a group width over 32 bits
const ERR_GROUP_LENGTHS: i32 = -3; // group lengths do not add up to the number of packed values
const ERR_VALUE_BITS: i32 = -4; // the group values run past section 7
const ERR_BITMAP_COUNT: i32 = -5; // the bit-map sets more points than there are packed values
const ERR_DIFFERENCING_RANGE: i32 = -6; // spatial differencing leaves the exact integers of f64 (|X| > 2^53)

/** Largest integer f64 holds exactly: spatial differencing's sums past it would be rounded. */
const EXACT_F64: f64 = 9007199254740992; // 2^53

/** `n` (0..32) bits at bit position `pos` of `src`; needs 8 readable bytes from src + pos / 8. */
@inline function readBits(src: usize, pos: u64, n: u32): u32 {
  if (n == 0) return 0;
  const word = bswap<u64>(load<u64>(src + <usize>(pos >> 3)));
  return <u32>((word << (pos & 7)) >> (64 - <u64>n));
}

/** Reads a sign-and-magnitude integer of `octets` bytes (spatial differencing descriptors). */
@inline function readSigned(src: usize, pos: u64, octets: u32): i32 {
  const bits = octets * 8;
  const raw = readBits(src, pos, bits);
  const magnitude = <i32>(raw & ((<u32>1 << (bits - 1)) - 1));
  return (raw >> (bits - 1)) & 1 ? -magnitude : magnitude;
}

@inline function bytesFor(bits: u64): u64 {
  return (bits + 7) >> 3;
}

/**
 * Simple packing (5.0) and the X of codecs: `count` unsigned integers of `nbits` (1..32) bits each
 * from `src` into x. The wrapper has checked that src holds ceil(count * nbits / 8) bytes + slack.
 */
export function gribUnpackBits(src: usize, nbits: i32, count: i32, x: usize): void {
  const n = <u32>nbits;
  if (n == 8) {
    for (let k = 0; k < count; k++) store<u32>(x + (<usize>k << 2), load<u8>(src + <usize>k));
    return;
  }
  if (n == 16) {
    for (let k = 0; k < count; k++) store<u32>(x + (<usize>k << 2), bswap<u16>(load<u16>(src + (<usize>k << 1))));
    return;
  }
  let pos: u64 = 0;
  for (let k = 0; k < count; k++) {
    store<u32>(x + (<usize>k << 2), readBits(src, pos, n));
    pos += <u64>n;
  }
}

/**
 * Complex packing (5.2) and complex packing with spatial differencing (5.3), after NCEP's
 * g2clib comunpack.c and WMO Manual on Codes 92.9.6: section 7 holds, each part starting on a
 * byte boundary,
 *
 *   [5.3: ival1 (ival2 if order 2) minsd, `descriptorOctets` each, sign and magnitude]
 *   group references   NG x nbits
 *   group widths       NG x widthBits     (+ refWidth)
 *   group lengths      NG x lengthBits    (* lengthIncrement + refLength; the last group: lastLength)
 *   group values       sum over groups of length * width bits, X = reference + value
 *
 * Missing value management 1: a value of all ones (2^width - 1) is missing, or the whole group
 * when its width is 0 and its reference is all ones (2^nbits - 1); management 2 also treats
 * 2^width - 2 (2^nbits - 2) as the secondary missing value. Spatial differencing then runs over
 * the values that are not missing: order 1 X[k] = X[k] + minsd + X[k-1]; order 2
 * X[k] = X[k] + minsd + 2 X[k-1] - X[k-2], with X[0] = ival1 (and X[1] = ival2).
 *
 * Writes count X into x as f64 (exact integers: a reference plus a group value can pass 32 bits,
 * and the differencing sums of extreme first values and minimum do) and, when mvm > 0, a missing
 * flag per value into mask. Returns the number of missing values, or a negative error code.
 */
export function gribUnpackComplex(
  src: usize, srcBytes: i32, count: i32, nbits: i32, groups: i32,
  refWidth: i32, widthBits: i32, refLength: i32, lengthIncrement: i32, lastLength: i32, lengthBits: i32,
  mvm: i32, order: i32, descriptorOctets: i32, x: usize, mask: usize, scratch: usize,
): i32 {
  const available: u64 = <u64>srcBytes * 8;
  const ng = <u64>groups;
  let pos: u64 = 0;
  let ival1: i32 = 0;
  let ival2: i32 = 0;
  let minsd: i32 = 0;
  if (order > 0) {
    const octets = <u32>descriptorOctets;
    if (<u64>(order + 1) * <u64>octets * 8 > available) return ERR_HEADER_BITS;
    ival1 = readSigned(src, pos, octets);
    pos += <u64>octets * 8;
    if (order == 2) {
      ival2 = readSigned(src, pos, octets);
      pos += <u64>octets * 8;
    }
    minsd = readSigned(src, pos, octets);
    pos += <u64>octets * 8;
  }
  const refsAt = pos;
  const widthsAt = refsAt + bytesFor(ng * <u64>nbits) * 8;
  const lengthsAt = widthsAt + bytesFor(ng * <u64>widthBits) * 8;
  const valuesAt = lengthsAt + bytesFor(ng * <u64>lengthBits) * 8;
  if (valuesAt > available) return ERR_HEADER_BITS;

  const refs = scratch;
  const widths = scratch + (<usize>groups << 2);
  const lengths = widths + (<usize>groups << 2);
  let totalLength: u64 = 0;
  let totalBits: u64 = 0;
  for (let g = 0; g < groups; g++) {
    const offset = <u64>g;
    const ref = readBits(src, refsAt + offset * <u64>nbits, <u32>nbits);
    const width = <u64>refWidth + <u64>readBits(src, widthsAt + offset * <u64>widthBits, <u32>widthBits);
    if (width > 32) return ERR_GROUP_WIDTH;
    const length: u64 = g == groups - 1
      ? <u64><u32>lastLength
      : <u64><u32>refLength + <u64>lengthIncrement * <u64>readBits(src, lengthsAt + offset * <u64>lengthBits, <u32>lengthBits);
    totalLength += length;
    totalBits += length * width;
    store<u32>(refs + (<usize>g << 2), ref);
    store<u32>(widths + (<usize>g << 2), <u32>width);
    store<u32>(lengths + (<usize>g << 2), <u32>length);
  }
  if (totalLength != <u64>count) return ERR_GROUP_LENGTHS;
  if (valuesAt + totalBits > available) return ERR_VALUE_BITS;

  const refAllOnes: u32 = nbits >= 32 ? 0xffffffff : (<u32>1 << <u32>nbits) - 1;
  let missing: i32 = 0;
  let k: usize = 0;
  pos = valuesAt;
  for (let g = 0; g < groups; g++) {
    const ref = load<u32>(refs + (<usize>g << 2));
    const width = load<u32>(widths + (<usize>g << 2));
    const length = <usize>load<u32>(lengths + (<usize>g << 2));
    const end = k + length;
    if (mvm == 0) {
      if (width == 0) {
        for (; k < end; k++) store<f64>(x + (k << 3), <f64>ref);
      } else {
        for (; k < end; k++) {
          store<f64>(x + (k << 3), <f64>ref + <f64>readBits(src, pos, width));
          pos += <u64>width;
        }
      }
    } else if (width == 0) {
      const isMissing = ref == refAllOnes || (mvm == 2 && ref == refAllOnes - 1);
      for (; k < end; k++) {
        store<f64>(x + (k << 3), isMissing ? 0 : <f64>ref);
        store<u8>(mask + k, isMissing ? 1 : 0);
      }
      if (isMissing) missing += <i32>length;
    } else {
      const allOnes: u32 = width == 32 ? 0xffffffff : (<u32>1 << width) - 1;
      for (; k < end; k++) {
        const v = readBits(src, pos, width);
        pos += <u64>width;
        const isMissing = v == allOnes || (mvm == 2 && v == allOnes - 1);
        store<f64>(x + (k << 3), isMissing ? 0 : <f64>ref + <f64>v);
        store<u8>(mask + k, isMissing ? 1 : 0);
        if (isMissing) missing++;
      }
    }
  }

  if (order == 1) return undoFirstOrder(x, mask, count, mvm, ival1, minsd) ? missing : ERR_DIFFERENCING_RANGE;
  if (order == 2) return undoSecondOrder(x, mask, count, mvm, ival1, ival2, minsd) ? missing : ERR_DIFFERENCING_RANGE;
  return missing;
}

/*
 * The differencing sums run in f64, which holds them exactly while |X| <= 2^53: every term is an
 * integer under 2^34 (a value of 32-bit reference plus 32-bit group value, minsd and ival under
 * 2^31) and each sum is checked before it is used again, so no sum is ever rounded or wrapped
 * (i32 sums wrapped: ival1 = 2^31 - 1 and a difference of 1 gave -2^31).
 */

function undoFirstOrder(x: usize, mask: usize, count: i32, mvm: i32, ival1: i32, minsd: i32): bool {
  let seen = 0;
  let previous: f64 = 0;
  for (let k = 0; k < count; k++) {
    const at = x + (<usize>k << 3);
    if (mvm != 0 && load<u8>(mask + <usize>k)) continue;
    const value = seen == 0 ? <f64>ival1 : load<f64>(at) + <f64>minsd + previous;
    if (Math.abs(value) > EXACT_F64) return false;
    store<f64>(at, value);
    previous = value;
    seen++;
  }
  return true;
}

function undoSecondOrder(x: usize, mask: usize, count: i32, mvm: i32, ival1: i32, ival2: i32, minsd: i32): bool {
  let seen = 0;
  let previous: f64 = 0;
  let beforePrevious: f64 = 0;
  for (let k = 0; k < count; k++) {
    const at = x + (<usize>k << 3);
    if (mvm != 0 && load<u8>(mask + <usize>k)) continue;
    const value = seen == 0 ? <f64>ival1 : seen == 1 ? <f64>ival2 : load<f64>(at) + <f64>minsd + 2 * previous - beforePrevious;
    if (Math.abs(value) > EXACT_F64) return false;
    store<f64>(at, value);
    beforePrevious = previous;
    previous = value;
    seen++;
  }
  return true;
}

@inline function scaled(xValue: f64, reference: f64, binaryFactor: f64, decimalFactor: f64): f32 {
  // ecCodes' order of operations (grib_decode_double_array): ((X * 2^E) + R) * 10^-D, in f64.
  return <f32>((xValue * binaryFactor + reference) * decimalFactor);
}

/** X kinds of gribScale: u32, i32, or f64 (complex packing). */
const X_U32: i32 = 0;
const X_I32: i32 = 1;
const X_F64: i32 = 2;

@inline function xAt(x: usize, k: usize, kind: i32): f64 {
  if (x == 0) return 0; // a constant field (0 bits per value): every X is 0
  if (kind == X_F64) return load<f64>(x + (k << 3));
  return kind == X_I32 ? <f64>load<i32>(x + (k << 2)) : <f64>load<u32>(x + (k << 2));
}

/**
 * Scales X into dst and expands the bit-map: point p takes the next X when bit p of the bit-map is
 * set (or always, when bitmap = 0), and NaN otherwise or when mask marks that X missing.
 * x = 0 means every X is 0 (constant field); mask = 0 means none is missing. xSigned says how X
 * are stored: 0 u32, 1 i32 (JPEG 2000), 2 f64 (complex packing, gribUnpackComplex).
 * Returns how many X were used (the wrapper checks it equals count) or ERR_BITMAP_COUNT.
 */
export function gribScale(
  x: usize, count: i32, xSigned: i32, mask: usize, bitmap: usize, points: i32, dst: usize,
  reference: f64, binaryFactor: f64, decimalFactor: f64,
): i32 {
  const kind = xSigned;
  const nan = <f32>NaN;
  if (bitmap == 0) {
    if (points > count) return ERR_BITMAP_COUNT;
    if (mask == 0 && x != 0 && kind == X_U32) {
      for (let p = 0; p < points; p++) {
        store<f32>(dst + (<usize>p << 2), scaled(<f64>load<u32>(x + (<usize>p << 2)), reference, binaryFactor, decimalFactor));
      }
      return points;
    }
    for (let p = 0; p < points; p++) {
      const k = <usize>p;
      const value = mask != 0 && load<u8>(mask + k) ? nan : scaled(xAt(x, k, kind), reference, binaryFactor, decimalFactor);
      store<f32>(dst + (k << 2), value);
    }
    return points;
  }
  let k: usize = 0;
  const limit = <usize>count;
  for (let p = 0; p < points; p++) {
    const present = (<u32>load<u8>(bitmap + (<usize>p >> 3)) >> (7 - (<u32>p & 7))) & 1;
    let value = nan;
    if (present) {
      if (k >= limit) return ERR_BITMAP_COUNT;
      if (mask == 0 || !load<u8>(mask + k)) value = scaled(xAt(x, k, kind), reference, binaryFactor, decimalFactor);
      k++;
    }
    store<f32>(dst + (<usize>p << 2), value);
  }
  return <i32>k;
}
