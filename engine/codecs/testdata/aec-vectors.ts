/**
 * AEC test vectors: streams encoded by libaec's own `aec` tool (libaec-tools 1.0.6) from samples
 * this module generates, so decodeAec is checked against the reference encoder for every flag,
 * sample width and code option, not only against itself. `make-aec-vectors.ts` writes
 * testdata/aec/<name>.aec; the tests regenerate the samples here and compare value for value.
 */

import { seededRandom } from '../../../common/seededRandom.ts';

/** libaec flags (libaec.h), as GRIB2 template 5.42's ccsdsFlags octet carries them. */
export const AEC_FLAG = {
  signed: 1, threeByte: 2, msb: 4, preprocess: 8, restricted: 16, padRsi: 32,
} as const;

export interface AecVector {
  name: string;
  bitsPerSample: number;
  blockSize: number;
  referenceSampleInterval: number;
  flags: number;
  count: number;
  seed: number;
}

const { signed, threeByte, msb, preprocess, restricted, padRsi } = AEC_FLAG;

/** Each vector differs from the others in sample width, flags, block size or RSI. */
export const AEC_VECTORS: readonly AecVector[] = [
  { name: 'n16-ecmwf', bitsPerSample: 16, blockSize: 32, referenceSampleInterval: 128, flags: threeByte | msb | preprocess, count: 9001, seed: 1 },
  { name: 'n8-j16-r64', bitsPerSample: 8, blockSize: 16, referenceSampleInterval: 64, flags: preprocess, count: 7003, seed: 2 },
  { name: 'n12-signed', bitsPerSample: 12, blockSize: 32, referenceSampleInterval: 16, flags: signed | preprocess, count: 8191, seed: 3 },
  { name: 'n24-3byte-j64', bitsPerSample: 24, blockSize: 64, referenceSampleInterval: 32, flags: threeByte | msb | preprocess, count: 9000, seed: 4 },
  { name: 'n32-j8-r4096', bitsPerSample: 32, blockSize: 8, referenceSampleInterval: 4096, flags: preprocess, count: 6007, seed: 5 },
  { name: 'n32-signed-r3', bitsPerSample: 32, blockSize: 16, referenceSampleInterval: 3, flags: signed | preprocess, count: 5001, seed: 6 },
  { name: 'n4-restricted', bitsPerSample: 4, blockSize: 8, referenceSampleInterval: 32, flags: restricted | preprocess, count: 6000, seed: 7 },
  { name: 'n2-restricted', bitsPerSample: 2, blockSize: 16, referenceSampleInterval: 8, flags: restricted | preprocess, count: 5003, seed: 8 },
  { name: 'n16-nopp', bitsPerSample: 16, blockSize: 32, referenceSampleInterval: 128, flags: msb, count: 9001, seed: 9 },
  { name: 'n10-pad-rsi', bitsPerSample: 10, blockSize: 16, referenceSampleInterval: 5, flags: padRsi | preprocess, count: 7001, seed: 10 },
  { name: 'n1-j8-r2', bitsPerSample: 1, blockSize: 8, referenceSampleInterval: 2, flags: preprocess, count: 4099, seed: 11 },
  { name: 'n17-j16-r100', bitsPerSample: 17, blockSize: 16, referenceSampleInterval: 100, flags: msb | preprocess, count: 8000, seed: 12 },
  { name: 'n20-signed-nopp', bitsPerSample: 20, blockSize: 32, referenceSampleInterval: 7, flags: signed | threeByte, count: 6001, seed: 13 },
  { name: 'n5-nopp-j64-r1', bitsPerSample: 5, blockSize: 64, referenceSampleInterval: 1, flags: 0, count: 5000, seed: 14 },
  { name: 'n31-pad-rsi', bitsPerSample: 31, blockSize: 32, referenceSampleInterval: 2, flags: padRsi | msb | preprocess, count: 5001, seed: 15 },
];

/** The `aec` command-line options that encode `v` (its flag letters differ from libaec.h's names). */
export function aecToolOptions(v: AecVector): string[] {
  const options = ['-n', String(v.bitsPerSample), '-j', String(v.blockSize), '-r', String(v.referenceSampleInterval)];
  if (v.flags & signed) options.push('-s');
  if (v.flags & threeByte) options.push('-3');
  if (v.flags & msb) options.push('-m');
  if (!(v.flags & preprocess)) options.push('-N');
  if (v.flags & restricted) options.push('-t');
  if (v.flags & padRsi) options.push('-p');
  return options;
}

/** Bytes per sample in libaec's sample layout. */
export function aecSampleBytes(v: AecVector): number {
  if (v.bitsPerSample <= 8) return 1;
  if (v.bitsPerSample <= 16) return 2;
  return v.bitsPerSample <= 24 && v.flags & threeByte ? 3 : 4;
}

/**
 * The samples of `v` as 32-bit two's complement (signed vectors) or plain unsigned values: runs
 * chosen to reach every code option — long zero and constant runs (zero blocks, remainder of
 * segment), +-1 jitter (second extension), smooth waves (split samples at several k), full-range
 * noise (uncompressed blocks) and values pinned to both ends of the range (the preprocessor's
 * boundary cases).
 */
export function aecSamples(v: AecVector): Uint32Array {
  const random = seededRandom(v.seed);
  const n = v.bitsPerSample;
  const isSigned = (v.flags & signed) !== 0;
  const min = isSigned ? -(2 ** (n - 1)) : 0;
  const max = isSigned ? 2 ** (n - 1) - 1 : 2 ** n - 1;
  const span = max - min;
  const clamp = (x: number) => Math.min(max, Math.max(min, Math.round(x)));
  const out = new Uint32Array(v.count);
  let i = 0;
  let kind = 0;
  while (i < v.count) {
    const length = Math.min(v.count - i, 40 + Math.floor(random() * 900));
    const base = min + Math.floor(random() * (span + 1));
    for (let j = 0; j < length; j++, i++) {
      let x: number;
      switch (kind % 7) {
        case 0: x = isSigned ? 0 : min; break;
        case 1: x = base; break;
        case 2: x = base + Math.floor(random() * 3) - 1; break;
        case 3: x = base + span * 0.01 * Math.sin(j / 17); break;
        case 4: x = min + random() * span; break;
        case 5: x = j & 1 ? max : min; break;
        default: x = (j % 3 === 0 ? max : max - Math.floor(random() * 4)); break;
      }
      out[i] = clamp(x) >>> 0;
    }
    kind++;
  }
  return out;
}
