/*
 * GRIB2 template 5.42: the block decoding of the CCSDS 121.0-B-3 adaptive entropy coder, as
 * engine/codecs/aec.ts describes it (block options, zero runs, second extension, the inverse
 * preprocessor). The wrapper there checks the parameters and lays out:
 *
 *   src   u8[bytes + AEC_SLACK]   the stream, then zero bytes: a block may read up to 64 x 32-bit
 *                                 samples + headers past the end before the end is checked
 *   out   u32[count]              the samples (signed ones as 32-bit two's complement)
 *
 * Returns 0, or a negative code (the wrapper's messages) for a stream libaec would reject.
 */

export const AEC_SLACK: i32 = 1024;

const ERR_SE_RANGE: i32 = -1; // second-extension codeword out of range
const ERR_SE_WIDE: i32 = -2; // second-extension sample wider than n bits
const ERR_ZERO_TRUNCATED: i32 = -3; // stream ends inside a zero-block run
const ERR_ZERO_RUN: i32 = -4; // zero run passes the end of the reference sample interval
const ERR_SPLIT: i32 = -5; // split-sample value wider than n bits / out of range
const ERR_TRUNCATED: i32 = -6; // stream ends inside the samples

const AEC_DATA_SIGNED: i32 = 1;
const AEC_DATA_PREPROCESS: i32 = 8;
const AEC_RESTRICTED: i32 = 16;
const AEC_PAD_RSI: i32 = 32;
const ROS: i32 = 5;
const SEGMENT_BLOCKS: i32 = 64;
const SE_CODEWORDS: u32 = 91;

/** Second-extension codeword m: the pair's sum and its second sample (CCSDS 121.0-B-3 section 5.1.5). */
const SE_SUM = memory.data<u8>([
  0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10,
  11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
]);
const SE_SECOND = memory.data<u8>([
  0, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
]);
/** The high parts of one split-sample block (at most 64 samples). */
const HIGH = memory.data(64 * 4, 16);

/** The 32 bits from bit `pos` of src, MSB first (8 readable bytes from pos / 8). */
@inline function peek32(src: usize, pos: u32): u32 {
  const word = bswap<u64>(load<u64>(src + <usize>(pos >> 3)));
  return <u32>((word << <u64>(pos & 7)) >> 32);
}

/** The 64 bits from bit `pos` of src, MSB first, the last pos % 8 of them 0. */
@inline function peek64(src: usize, pos: u32): u64 {
  return bswap<u64>(load<u64>(src + <usize>(pos >> 3))) << <u64>(pos & 7);
}

@inline function put(out: usize, o: i32, value: u32): void {
  store<u32>(out + (<usize>o << 2), value);
}

export function aecDecode(
  src: usize, bytes: i32, n: i32, blockSize: i32, rsi: i32, flags: i32, count: i32, out: usize,
): i32 {
  const idLen: u32 = n > 16 ? 5 : n > 8 ? 4 : flags & AEC_RESTRICTED ? (n <= 2 ? 1 : 2) : 3;
  const uncompressedId: u32 = (1 << idLen) - 1;
  const maxSample: u64 = (<u64>1 << <u64>n) - 1;
  const preprocessed = (flags & AEC_DATA_PREPROCESS) != 0;
  const padRsi = (flags & AEC_PAD_RSI) != 0;
  const rsiSamples = rsi * blockSize;
  const endBits = <u32>bytes << 3;
  const nShift = <u32>(32 - n);

  let pos: u32 = 0;
  let o: i32 = 0;
  while (o < count) {
    if (padRsi && o > 0) pos = (pos + 7) & ~7;
    const rsiStart = o;
    const rsiEnd = min(count, o + rsiSamples);
    let ref: i32 = preprocessed ? 1 : 0;
    while (o < rsiEnd) {
      const id = peek32(src, pos) >> (32 - idLen);
      pos += idLen;
      if (id == 0) {
        const secondExtension = peek32(src, pos) >> 31;
        pos += 1;
        if (ref) {
          put(out, o++, peek32(src, pos) >> nShift);
          pos += <u32>n;
        }
        if (secondExtension) {
          for (let i = ref; i < blockSize;) {
            let word = peek32(src, pos);
            let m: u32 = 0;
            while (word == 0) {
              m += 32;
              pos += 32;
              if (pos > endBits || m >= SE_CODEWORDS) return ERR_SE_RANGE;
              word = peek32(src, pos);
            }
            const zeros = <u32>clz(word);
            m += zeros;
            pos += zeros + 1;
            if (m >= SE_CODEWORDS) return ERR_SE_RANGE;
            const second = <u32>load<u8>(SE_SECOND + m);
            if ((i & 1) == 0) {
              const first = <u32>load<u8>(SE_SUM + m) - second;
              if (<u64>first > maxSample) return ERR_SE_WIDE;
              if (o < rsiEnd) put(out, o, first);
              o++;
              i++;
            }
            if (<u64>second > maxSample) return ERR_SE_WIDE;
            if (o < rsiEnd) put(out, o, second);
            o++;
            i++;
          }
        } else {
          let word = peek32(src, pos);
          let fs: i32 = 0;
          while (word == 0) {
            fs += 32;
            pos += 32;
            if (pos > endBits) return ERR_ZERO_TRUNCATED;
            word = peek32(src, pos);
          }
          const zeros = clz(word);
          fs += zeros;
          pos += <u32>zeros + 1;
          let blocks = fs + 1;
          if (blocks == ROS) {
            const used = (o - rsiStart) / blockSize;
            blocks = min(rsi - used, SEGMENT_BLOCKS - (used % SEGMENT_BLOCKS));
          } else if (blocks > ROS) {
            blocks--;
          }
          const zeroSamples = <i64>blocks * <i64>blockSize - <i64>ref;
          if (<i64>(o - rsiStart) + zeroSamples > <i64>rsiSamples) return ERR_ZERO_RUN;
          const end = min(<i64>rsiEnd, <i64>o + zeroSamples);
          if (end > <i64>o) memory.fill(out + (<usize>o << 2), 0, <usize>(<i32>end - o) << 2);
          o += <i32>zeroSamples;
        }
      } else if (id == uncompressedId) {
        for (let i = 0; i < blockSize; i++) {
          const sample = peek32(src, pos) >> nShift;
          pos += <u32>n;
          if (o < rsiEnd) put(out, o, sample);
          o++;
        }
      } else {
        const k = id - 1;
        if (ref) {
          put(out, o++, peek32(src, pos) >> nShift);
          pos += <u32>n;
        }
        const samples = blockSize - ref;
        const highLimit: u64 = maxSample >> <u64>k;
        // The fundamental sequences from a 64-bit window (its top `avail` bits are the stream's),
        // refilled when fewer than 33 bits are left; a code of 32 or more zeros takes the long way.
        let acc = peek64(src, pos);
        let avail: u32 = 64 - (pos & 7);
        for (let i = 0; i < samples; i++) {
          if (avail < 33) {
            acc = peek64(src, pos);
            avail = 64 - (pos & 7);
          }
          let zeros = <u32>clz(acc);
          let fs: u64 = 0;
          if (zeros >= 32) {
            let word = peek32(src, pos);
            while (word == 0) {
              fs += 32;
              pos += 32;
              if (pos > endBits || fs > highLimit) return ERR_SPLIT;
              word = peek32(src, pos);
            }
            zeros = <u32>clz(word);
            fs += <u64>zeros;
            pos += zeros + 1;
            acc = peek64(src, pos);
            avail = 64 - (pos & 7);
          } else {
            fs = <u64>zeros;
            pos += zeros + 1;
            acc <<= <u64>(zeros + 1);
            avail -= zeros + 1;
          }
          if (fs > highLimit) return ERR_SPLIT;
          store<u32>(HIGH + (<usize>i << 2), <u32>fs);
        }
        if (k == 0) {
          for (let i = 0; i < samples; i++, o++) if (o < rsiEnd) put(out, o, load<u32>(HIGH + (<usize>i << 2)));
        } else {
          const lowShift = <u64>(64 - k);
          for (let i = 0; i < samples; i++, o++) {
            if (avail < k) {
              acc = peek64(src, pos);
              avail = 64 - (pos & 7);
            }
            const low = <u32>(acc >> lowShift);
            acc <<= <u64>k;
            avail -= k;
            pos += k;
            if (o < rsiEnd) put(out, o, (load<u32>(HIGH + (<usize>i << 2)) << k) | low);
          }
        }
      }
      if (pos > endBits) return ERR_TRUNCATED;
      ref = 0;
    }
    o = rsiEnd;
    if (preprocessed) undoPreprocessor(out, rsiStart, rsiEnd, n, (flags & AEC_DATA_SIGNED) != 0);
    else if (flags & AEC_DATA_SIGNED) signExtend(out, rsiStart, rsiEnd, n);
  }
  return 0;
}

/**
 * The inverse of the unit-delay predictor and its mapping (CCSDS 121.0-B-3 section 4.3.2,
 * equation 12), in 64-bit arithmetic so 32-bit samples cannot overflow; see engine/codecs/aec.ts.
 */
function undoPreprocessor(out: usize, start: i32, end: i32, n: i32, signed: bool): void {
  if (signed) {
    const xmax: i64 = (<i64>1 << <i64>(n - 1)) - 1;
    const xmin: i64 = -xmax - 1;
    const shift = <i64>(64 - n);
    let x = (<i64>load<u32>(out + (<usize>start << 2)) << shift) >> shift;
    store<i32>(out + (<usize>start << 2), <i32>x);
    for (let j = start + 1; j < end; j++) {
      const at = out + (<usize>j << 2);
      const d = <i64>load<u32>(at);
      const theta = x < 0 ? x - xmin : xmax - x;
      if (d <= 2 * theta) x += d & 1 ? -((d + 1) >> 1) : d >> 1;
      else x = x < 0 ? xmin + d : xmax - d;
      store<i32>(at, <i32>x);
    }
  } else {
    const xmax: i64 = (<i64>1 << <i64>n) - 1;
    const half: i64 = (xmax >> 1) + 1;
    let x = <i64>load<u32>(out + (<usize>start << 2));
    for (let j = start + 1; j < end; j++) {
      const at = out + (<usize>j << 2);
      const d = <i64>load<u32>(at);
      const low = x < half;
      const theta = low ? x : xmax - x;
      if (d <= 2 * theta) x += d & 1 ? -((d + 1) >> 1) : d >> 1;
      else x = low ? d : xmax - d;
      store<u32>(at, <u32>x);
    }
  }
}

function signExtend(out: usize, start: i32, end: i32, n: i32): void {
  const shift = 32 - n;
  for (let j = start; j < end; j++) {
    const at = out + (<usize>j << 2);
    store<i32>(at, (load<i32>(at) << shift) >> shift);
  }
}
