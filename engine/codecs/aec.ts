/**
 * GRIB2 template 5.42: the adaptive entropy decoder of CCSDS 121.0-B-3 (Lossless Data
 * Compression), with the options and behaviour of libaec (https://gitlab.dkrz.de/k202009/libaec),
 * which ecCodes and wgrib2 call. Written from the standard; libaec's decode.c settled the corners
 * the standard leaves to implementations (zero-run limits, flag semantics).
 *
 *   stream, MSB first; one RSI (reference sample interval) = `referenceSampleInterval` blocks of
 *   `blockSize` samples; with AEC_PAD_RSI each RSI after the first starts on a byte boundary.
 *
 *   block: | option id (idLen bits) | [ref: n bits] | payload                                  |
 *     id 0, then 1 bit: 0 = zero block(s): [ref] FS(r) -> r+1 all-zero blocks (r+1 = 5: up to
 *                           the end of the 64-block segment; r+1 > 5: r blocks)
 *                       1 = second extension: [ref] one FS per sample pair (pair sum table)
 *     id 1 .. 2^idLen-2 = split sample, k = id-1: [ref] one FS per sample (high bits), then the
 *                          k low bits of every sample
 *     id 2^idLen-1      = uncompressed: blockSize samples of n bits (the ref sample included)
 *   idLen = 5 for n > 16, 4 for n > 8, else 3 (AEC_RESTRICTED, n <= 4: 1 for n <= 2, else 2).
 *   The reference sample [ref] comes only in the first block of an RSI and only with the
 *   preprocessor (AEC_DATA_PREPROCESS); the block's other samples are then mapped prediction
 *   residuals (CCSDS 121.0-B-3 section 4.3), undone here once the RSI is complete.
 *
 * Output: `count` samples, unsigned; with AEC_DATA_SIGNED each Uint32 holds the sample's 32-bit
 * two's complement (read it through an Int32Array view). AEC_DATA_3BYTE and AEC_DATA_MSB only
 * say how libaec lays samples out as bytes, so they do not change the numbers decoded here.
 */

import { CodecError, MAX_CODEC_VALUES } from './error.ts';

/** libaec.h flags, as the ccsdsFlags octet of GRIB2 template 5.42 carries them. */
const AEC_DATA_SIGNED = 1;
const AEC_DATA_3BYTE = 2;
const AEC_DATA_MSB = 4;
const AEC_DATA_PREPROCESS = 8;
const AEC_RESTRICTED = 16;
const AEC_PAD_RSI = 32;
const AEC_NOT_ENFORCE = 64;
const KNOWN_FLAGS = AEC_DATA_SIGNED | AEC_DATA_3BYTE | AEC_DATA_MSB | AEC_DATA_PREPROCESS | AEC_RESTRICTED | AEC_PAD_RSI | AEC_NOT_ENFORCE;

export interface AecParams {
  /** Bits per sample, 1..32 (GRIB2 section 5 octet 20). */
  bitsPerSample: number;
  /** Samples per block: 8, 16, 32 or 64 (any even size up to 64 with AEC_NOT_ENFORCE). */
  blockSize: number;
  /** Blocks per reference sample interval, 1..65535. */
  referenceSampleInterval: number;
  flags: number;
  /** Samples to decode (the field's packed values). */
  count: number;
}

/** Largest input accepted: keeps every bit position below 2^31, so bit arithmetic stays in int32. */
const MAX_INPUT_BYTES = 1 << 28;
/** Zero bytes after the copied input: one block's worst-case read past the end (64 x 32-bit samples + headers). */
const INPUT_SLACK = 512;
/** Zero blocks: an FS value of 4 (5 blocks) means "to the end of the 64-block segment" (CCSDS 121.0-B-3 section 5.1.4). */
const ROS = 5;
const SEGMENT_BLOCKS = 64;
/** Second extension: pair sums up to 12, so 91 codewords (CCSDS 121.0-B-3 section 5.1.5). */
const SE_CODEWORDS = 91;

/** For second-extension codeword m: the pair's sum (SE_SUM) and its second sample (SE_SECOND). */
const SE_SUM = new Uint8Array(SE_CODEWORDS);
const SE_SECOND = new Uint8Array(SE_CODEWORDS);
for (let sum = 0, m = 0; sum <= 12; sum++) {
  for (let second = 0; second <= sum; second++, m++) {
    SE_SUM[m] = sum;
    SE_SECOND[m] = second;
  }
}

/** The 32 bits starting at bit `pos` (MSB first); `buf` carries INPUT_SLACK zero bytes. */
function peek32(buf: Uint8Array, pos: number): number {
  const i = pos >>> 3;
  const s = pos & 7;
  const word = (buf[i] << 24) | (buf[i + 1] << 16) | (buf[i + 2] << 8) | buf[i + 3];
  return ((word << s) | (buf[i + 4] >>> (8 - s))) >>> 0;
}

function checkParams(data: Uint8Array, p: AecParams): void {
  const { bitsPerSample: n, blockSize, referenceSampleInterval: rsi, flags, count } = p;
  if (!(data instanceof Uint8Array)) throw new CodecError('AEC: data must be a Uint8Array');
  if (!Number.isInteger(n) || n < 1 || n > 32) throw new CodecError(`AEC: bits per sample ${n} is outside 1..32`);
  if (!Number.isInteger(flags) || flags < 0 || (flags & ~KNOWN_FLAGS) !== 0) {
    throw new CodecError(`AEC: unknown flags in ${flags} (libaec knows 1..64)`);
  }
  const standardBlock = blockSize === 8 || blockSize === 16 || blockSize === 32 || blockSize === 64;
  const relaxedBlock = (flags & AEC_NOT_ENFORCE) !== 0 && Number.isInteger(blockSize)
    && blockSize >= 2 && blockSize <= 64 && blockSize % 2 === 0;
  if (!standardBlock && !relaxedBlock) throw new CodecError(`AEC: block size ${blockSize} is not 8, 16, 32 or 64`);
  if (!Number.isInteger(rsi) || rsi < 1 || rsi > 65535) {
    throw new CodecError(`AEC: reference sample interval ${rsi} is outside 1..65535 blocks`);
  }
  if (flags & AEC_RESTRICTED && n > 4) throw new CodecError(`AEC: the restricted code option set needs <= 4 bits per sample, not ${n}`);
  if (!Number.isInteger(count) || count < 0 || count > MAX_CODEC_VALUES) {
    throw new CodecError(`AEC: sample count ${count} is outside 0..${MAX_CODEC_VALUES}`);
  }
  if (data.length > MAX_INPUT_BYTES) throw new CodecError(`AEC: stream of ${data.length} bytes is larger than ${MAX_INPUT_BYTES}`);
}

/**
 * Decodes `count` samples. Throws CodecError on bad parameters and on any stream that libaec
 * would reject or that cannot come from an encoder: truncation, a zero run or second-extension
 * codeword out of range, a sample wider than `bitsPerSample`.
 */
export function decodeAec(data: Uint8Array, params: AecParams): Uint32Array {
  checkParams(data, params);
  const { bitsPerSample: n, blockSize, referenceSampleInterval: rsi, flags, count } = params;
  const out = new Uint32Array(count);
  if (count === 0) return out;
  if (data.length === 0) throw new CodecError(`AEC: empty stream for ${count} samples`);

  const idLen = n > 16 ? 5 : n > 8 ? 4 : flags & AEC_RESTRICTED ? (n <= 2 ? 1 : 2) : 3;
  const uncompressedId = (1 << idLen) - 1;
  const maxSample = 2 ** n - 1;
  const preprocessed = (flags & AEC_DATA_PREPROCESS) !== 0;
  const padRsi = (flags & AEC_PAD_RSI) !== 0;
  const rsiSamples = rsi * blockSize;
  const endBits = data.length * 8;
  const buf = new Uint8Array(data.length + INPUT_SLACK);
  buf.set(data);
  const high = new Float64Array(blockSize);

  let pos = 0;
  let o = 0;
  while (o < count) {
    if (padRsi && o > 0) pos = (pos + 7) & ~7;
    const rsiStart = o;
    const rsiEnd = Math.min(count, o + rsiSamples);
    let ref = preprocessed ? 1 : 0;
    while (o < rsiEnd) {
      const id = peek32(buf, pos) >>> (32 - idLen);
      pos += idLen;
      if (id === 0) {
        const secondExtension = peek32(buf, pos) >>> 31;
        pos += 1;
        if (ref) {
          out[o++] = peek32(buf, pos) >>> (32 - n);
          pos += n;
        }
        if (secondExtension) {
          for (let i = ref; i < blockSize;) {
            let word = peek32(buf, pos);
            let m = 0;
            while (word === 0) {
              m += 32;
              pos += 32;
              if (pos > endBits || m >= SE_CODEWORDS) throw new CodecError(`AEC: second-extension codeword out of range at bit ${pos}`);
              word = peek32(buf, pos);
            }
            const zeros = Math.clz32(word);
            m += zeros;
            pos += zeros + 1;
            if (m >= SE_CODEWORDS) throw new CodecError(`AEC: second-extension codeword ${m} out of range at bit ${pos}`);
            const second = SE_SECOND[m];
            if ((i & 1) === 0) {
              const first = SE_SUM[m] - second;
              if (first > maxSample) throw new CodecError(`AEC: second-extension sample ${first} wider than ${n} bits`);
              if (o < rsiEnd) out[o] = first;
              o++;
              i++;
            }
            if (second > maxSample) throw new CodecError(`AEC: second-extension sample ${second} wider than ${n} bits`);
            if (o < rsiEnd) out[o] = second;
            o++;
            i++;
          }
        } else {
          let word = peek32(buf, pos);
          let fs = 0;
          while (word === 0) {
            fs += 32;
            pos += 32;
            if (pos > endBits) throw new CodecError('AEC: stream truncated inside a zero-block run');
            word = peek32(buf, pos);
          }
          const zeros = Math.clz32(word);
          fs += zeros;
          pos += zeros + 1;
          let blocks = fs + 1;
          if (blocks === ROS) {
            const used = Math.floor((o - rsiStart) / blockSize);
            blocks = Math.min(rsi - used, SEGMENT_BLOCKS - (used % SEGMENT_BLOCKS));
          } else if (blocks > ROS) {
            blocks--;
          }
          const zeroSamples = blocks * blockSize - ref;
          if (o - rsiStart + zeroSamples > rsiSamples) {
            throw new CodecError(`AEC: a run of ${blocks} zero blocks passes the end of the reference sample interval`);
          }
          o += zeroSamples; // `out` is zero already
        }
      } else if (id === uncompressedId) {
        for (let i = 0; i < blockSize; i++) {
          const sample = peek32(buf, pos) >>> (32 - n);
          pos += n;
          if (o < rsiEnd) out[o] = sample;
          o++;
        }
      } else {
        const k = id - 1;
        if (ref) {
          out[o++] = peek32(buf, pos) >>> (32 - n);
          pos += n;
        }
        const samples = blockSize - ref;
        const highLimit = Math.floor(maxSample / 2 ** k);
        for (let i = 0; i < samples; i++) {
          let word = peek32(buf, pos);
          let fs = 0;
          while (word === 0) {
            fs += 32;
            pos += 32;
            if (pos > endBits || fs > highLimit) throw new CodecError(`AEC: split-sample code out of range at bit ${pos}`);
            word = peek32(buf, pos);
          }
          const zeros = Math.clz32(word);
          fs += zeros;
          pos += zeros + 1;
          if (fs > highLimit) throw new CodecError(`AEC: split-sample value wider than ${n} bits at bit ${pos}`);
          high[i] = fs;
        }
        if (k === 0) {
          for (let i = 0; i < samples; i++, o++) if (o < rsiEnd) out[o] = high[i];
        } else {
          const scale = 2 ** k;
          for (let i = 0; i < samples; i++, o++) {
            const low = peek32(buf, pos) >>> (32 - k);
            pos += k;
            if (o < rsiEnd) out[o] = high[i] * scale + low;
          }
        }
      }
      if (pos > endBits) throw new CodecError(`AEC: stream truncated: ${data.length} bytes end inside sample ${Math.min(o, count)} of ${count}`);
      ref = 0;
    }
    o = rsiEnd;
    if (preprocessed) undoPreprocessor(out, rsiStart, rsiEnd, n, (flags & AEC_DATA_SIGNED) !== 0);
    else if (flags & AEC_DATA_SIGNED) signExtend(out, rsiStart, rsiEnd, n);
  }
  return out;
}

/**
 * The inverse of the unit-delay predictor and its mapping (CCSDS 121.0-B-3 section 4.3.2, equation
 * 12): out[start] is the reference sample, each later entry a mapped residual delta. With theta the
 * distance from the previous sample to the nearer end of the range, delta <= 2 theta encodes the
 * signed difference zig-zag (even: +delta/2, odd: -(delta+1)/2); a larger delta is the distance
 * from that nearer end.
 */
function undoPreprocessor(out: Uint32Array, start: number, end: number, n: number, signed: boolean): void {
  if (signed) {
    const xmax = 2 ** (n - 1) - 1;
    const xmin = -xmax - 1;
    const shift = 32 - n;
    let x = (out[start] << shift) >> shift;
    out[start] = x;
    for (let j = start + 1; j < end; j++) {
      const d = out[j];
      const theta = x < 0 ? x - xmin : xmax - x;
      if (d <= 2 * theta) x += d & 1 ? -(d + 1) / 2 : d / 2;
      else x = x < 0 ? xmin + d : xmax - d;
      out[j] = x;
    }
  } else {
    const xmax = 2 ** n - 1;
    const half = Math.floor(xmax / 2) + 1;
    let x = out[start];
    for (let j = start + 1; j < end; j++) {
      const d = out[j];
      const low = x < half;
      const theta = low ? x : xmax - x;
      if (d <= 2 * theta) x += d & 1 ? -(d + 1) / 2 : d / 2;
      else x = low ? d : xmax - d;
      out[j] = x;
    }
  }
}

function signExtend(out: Uint32Array, start: number, end: number, n: number): void {
  const shift = 32 - n;
  for (let j = start; j < end; j++) out[j] = (out[j] << shift) >> shift;
}
