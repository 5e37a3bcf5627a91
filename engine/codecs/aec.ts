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
import { CodecRegions, type CodecEngine, type CodecMemory } from './wasm.ts';

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

/** engine/assembly/codecs/aec.ts */
interface AecKernels {
  aecDecode(src: number, bytes: number, n: number, blockSize: number, rsi: number, flags: number, count: number, out: number): number;
  AEC_SLACK: WebAssembly.Global;
}

/** The kernel's error codes. */
const AEC_ERRORS: Record<number, string> = {
  [-1]: 'second-extension codeword out of range',
  [-2]: 'a second-extension sample is wider than the bits per sample',
  [-3]: 'stream truncated inside a zero-block run',
  [-4]: 'a run of zero blocks passes the end of the reference sample interval',
  [-5]: 'split-sample value wider than the bits per sample',
  [-6]: 'stream truncated: the data end inside the samples',
};

/**
 * Decodes `count` samples into a region of `regions` (u32[count]) and returns its address. Throws
 * CodecError on bad parameters and on any stream that libaec would reject or that cannot come from
 * an encoder: truncation, a zero run or second-extension codeword out of range, a sample wider
 * than `bitsPerSample`.
 */
export function decodeAecInto(regions: CodecMemory, data: Uint8Array, params: AecParams): number {
  checkParams(data, params);
  const { bitsPerSample: n, blockSize, referenceSampleInterval: rsi, flags, count } = params;
  const kernels = regions.exports as unknown as AecKernels;
  const out = regions.alloc(count * 4);
  if (count === 0) return out;
  if (data.length === 0) throw new CodecError(`AEC: empty stream for ${count} samples`);
  const src = regions.copyIn(data, kernels.AEC_SLACK.value as number);
  const code = kernels.aecDecode(src, data.length, n, blockSize, rsi, flags, count, out);
  if (code < 0) throw new CodecError(`AEC: ${AEC_ERRORS[code] ?? `decoding failed (${code})`} (${data.length} bytes for ${count} samples)`);
  return out;
}

/** Decodes `count` samples (decodeAecInto, copied out of the engine's memory). */
export function decodeAec(engine: CodecEngine, data: Uint8Array, params: AecParams): Uint32Array {
  const regions = new CodecRegions(engine);
  try {
    const out = decodeAecInto(regions, data, params);
    return new Uint32Array(regions.memory.buffer, out, params.count).slice();
  } finally {
    regions.releaseAll();
  }
}
