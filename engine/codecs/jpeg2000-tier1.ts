/**
 * JPEG 2000 tier-1: the MQ arithmetic decoder (ITU-T T.800 Annex C) and the code-block decoder
 * that runs the three coding passes over bit-planes (Annex D). Used by jpeg2000.ts only.
 *
 * Per code-block state, one entry per sample plus a one-sample border (so neighbours need no
 * bounds checks), stride = width + 2, sample (x, y) at (y + 1) * stride + x + 1:
 *
 *   nb[i]     bit 7 = significant | bits 4-6 = significant diagonal neighbours (0..4)
 *             | bits 2-3 = vertical (0..2) | bits 0-1 = horizontal (0..2)
 *   flags[i]  VISITED (coded in this bit-plane's significance pass) | REFINED (refined before)
 *             | NEGATIVE (sign)
 *   mag[i]    magnitude in half units: becoming significant at bit-plane p gives 3 * 2^p
 *             (1.5 * 2^p: the middle of [2^p, 2^(p+1))), each refinement moves it 2^(p-1) * 2 up
 *             or down — so a fully decoded integer q ends as 2q + 1, and a truncated one at the
 *             middle of its interval (mid-point reconstruction, as OpenJPEG does).
 */

import { CodecError } from './error.ts';

/** T.800 Table C.2: probability estimate Qe, next index after MPS / LPS, and the MPS switch flag. */
const QE = new Uint16Array([
  0x5601, 0x3401, 0x1801, 0x0ac1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801, 0x3001, 0x2401,
  0x1c01, 0x1601, 0x5601, 0x5401, 0x5101, 0x4801, 0x3801, 0x3401, 0x3001, 0x2801, 0x2401, 0x2201,
  0x1c01, 0x1801, 0x1601, 0x1401, 0x1201, 0x1101, 0x0ac1, 0x09c1, 0x08a1, 0x0521, 0x0441, 0x02a1,
  0x0221, 0x0141, 0x0111, 0x0085, 0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
]);
const NMPS = new Uint8Array([
  1, 2, 3, 4, 5, 38, 7, 8, 9, 10, 11, 12, 13, 29, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
  27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 46,
]);
const NLPS = new Uint8Array([
  1, 6, 9, 12, 29, 33, 6, 14, 14, 14, 17, 18, 20, 21, 14, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22,
  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 46,
]);
const SWITCH = new Uint8Array(47);
SWITCH[0] = SWITCH[6] = SWITCH[14] = 1;

/** Context labels (T.800 D.3): 0-8 significance, 9-13 sign, 14-16 refinement, 17 run length, 18 uniform. */
const CTX_RUN = 17;
const CTX_UNIFORM = 18;
const CONTEXTS = 19;

/** MQ decoder over one terminated segment; `data` ends with two 0xFF bytes (an artificial marker). */
class MqDecoder {
  private data: Uint8Array = new Uint8Array(2);
  private bp = 0;
  private a = 0;
  private chigh = 0;
  private clow = 0;
  private ct = 0;
  /** Per context: state index << 1 | MPS. */
  readonly contexts = new Uint8Array(CONTEXTS);

  resetContexts(): void {
    this.contexts.fill(0);
    this.contexts[0] = 4 << 1;
    this.contexts[CTX_RUN] = 3 << 1;
    this.contexts[CTX_UNIFORM] = 46 << 1;
  }

  /** INITDEC (T.800 C.3.5). */
  start(data: Uint8Array, at: number): void {
    this.data = data;
    this.bp = at;
    this.chigh = data[at];
    this.clow = 0;
    this.byteIn();
    this.chigh = ((this.chigh << 7) & 0xffff) | ((this.clow >> 9) & 0x7f);
    this.clow = (this.clow << 7) & 0xffff;
    this.ct -= 7;
    this.a = 0x8000;
  }

  /** BYTEIN (T.800 C.3.4): a 0xFF followed by a byte above 0x8F is a marker: feed 1-bits, stay. */
  private byteIn(): void {
    const data = this.data;
    if (data[this.bp] === 0xff) {
      if (data[this.bp + 1] > 0x8f) {
        this.clow += 0xff00;
        this.ct = 8;
      } else {
        this.bp++;
        this.clow += data[this.bp] << 9;
        this.ct = 7;
      }
    } else {
      this.bp++;
      this.clow += data[this.bp] << 8;
      this.ct = 8;
    }
    if (this.clow > 0xffff) {
      this.chigh += this.clow >> 16;
      this.clow &= 0xffff;
    }
  }

  /** DECODE (T.800 C.3.2) with the LPS / MPS exchange and RENORMD folded in. */
  decode(cx: number): number {
    const state = this.contexts[cx];
    let index = state >> 1;
    let mps = state & 1;
    const qe = QE[index];
    let a = this.a - qe;
    let bit: number;
    if (this.chigh < qe) {
      // LPS sub-interval; conditional exchange when it is the larger one.
      if (a < qe) {
        bit = mps;
        index = NMPS[index];
      } else {
        bit = 1 - mps;
        if (SWITCH[index]) mps = bit;
        index = NLPS[index];
      }
      a = qe;
    } else {
      this.chigh -= qe;
      if (a & 0x8000) {
        this.a = a;
        return mps;
      }
      if (a < qe) {
        bit = 1 - mps;
        if (SWITCH[index]) mps = bit;
        index = NLPS[index];
      } else {
        bit = mps;
        index = NMPS[index];
      }
    }
    do {
      if (this.ct === 0) this.byteIn();
      a <<= 1;
      this.chigh = ((this.chigh << 1) & 0xffff) | ((this.clow >> 15) & 1);
      this.clow = (this.clow << 1) & 0xffff;
      this.ct--;
    } while ((a & 0x8000) === 0);
    this.a = a;
    this.contexts[cx] = (index << 1) | mps;
    return bit;
  }
}

/** Raw (bypass) bits of a segment (T.800 D.6), with the same 0xFF bit stuffing and marker rule. */
class RawDecoder {
  private data: Uint8Array = new Uint8Array(2);
  private bp = 0;
  private c = 0;
  private ct = 0;

  start(data: Uint8Array, at: number): void {
    this.data = data;
    this.bp = at;
    this.c = 0;
    this.ct = 0;
  }

  decode(): number {
    if (this.ct === 0) {
      if (this.c === 0xff) {
        if (this.data[this.bp] > 0x8f) {
          this.ct = 8;
        } else {
          this.c = this.data[this.bp++];
          this.ct = 7;
        }
      } else {
        this.c = this.data[this.bp++];
        this.ct = 8;
      }
    }
    this.ct--;
    return (this.c >> this.ct) & 1;
  }
}

/** Subband orientations, as their zero-coding context tables differ (T.800 Table D.1). */
export const enum Orientation { LL = 0, HL = 1, LH = 2, HH = 3 }

/** Code-block style bits (COD / COC SPcod, T.800 Table A.19). */
export const CBLK_BYPASS = 1;
const CBLK_RESET = 2;
export const CBLK_TERMALL = 4;
const CBLK_VCAUSAL = 8;
const CBLK_SEGSYM = 32;

/** Zero-coding context for each neighbourhood (nb & 0x7f = h + 4 v + 16 d), per orientation. */
const ZC_TABLES: Uint8Array[] = [0, 1, 2, 3].map((orientation) => {
  const table = new Uint8Array(128);
  for (let d = 0; d <= 4; d++) {
    for (let v = 0; v <= 2; v++) {
      for (let h0 = 0; h0 <= 2; h0++) {
        let h = h0;
        let vv = v;
        // HL (horizontally high-pass) uses the LL / LH table with H and V exchanged.
        if (orientation === Orientation.HL) [h, vv] = [v, h0];
        let label: number;
        if (orientation === Orientation.HH) {
          const hv = h + vv;
          if (d >= 3) label = 8;
          else if (d === 2) label = hv >= 1 ? 7 : 6;
          else if (d === 1) label = hv >= 2 ? 5 : hv === 1 ? 4 : 3;
          else label = hv >= 2 ? 2 : hv === 1 ? 1 : 0;
        } else if (h === 2) label = 8;
        else if (h === 1) label = vv >= 1 ? 7 : d >= 1 ? 6 : 5;
        else if (vv === 2) label = 4;
        else if (vv === 1) label = 3;
        else label = d >= 2 ? 2 : d === 1 ? 1 : 0;
        table[h0 + 4 * v + 16 * d] = label;
      }
    }
  }
  return table;
});

/**
 * Sign context and XOR bit (T.800 Table D.3) for the horizontal and vertical contributions, each
 * clamped to -1..1, indexed (h + 1) * 3 + (v + 1): context in the low bits, XOR bit at 0x10.
 */
const SIGN_LUT = new Uint8Array([
  13 | 0x10, 12 | 0x10, 11 | 0x10, // h = -1: v = -1, 0, 1
  10 | 0x10, 9, 10, //                h = 0
  11, 12, 13, //                      h = 1
]);

const VISITED = 1;
const REFINED = 2;
const NEGATIVE = 4;
/** Largest code-block (T.800: width and height <= 1024, area <= 4096) with its border. */
const MAX_STATE = (4096 + 2 * (1024 + 4) + 4);

export interface CodeBlockSegment {
  /** Bytes of the segment followed by two 0xFF bytes. */
  data: Uint8Array;
  passes: number;
}

/** Decodes code-blocks one at a time; owns the scratch state, reused across blocks. */
export class CodeBlockDecoder {
  private readonly nb = new Uint8Array(MAX_STATE);
  private readonly flags = new Uint8Array(MAX_STATE);
  private readonly mag = new Float64Array(MAX_STATE);
  private readonly mq = new MqDecoder();
  private readonly raw = new RawDecoder();

  /**
   * Decodes one code-block of `width` x `height` samples whose first (cleanup) pass codes
   * bit-plane `firstPlane`, and writes the coefficients into `out` at `outOffset`, rows
   * `outStride` apart: with `step` 0 (reversible) the integers, truncated as OpenJPEG does;
   * otherwise the mid-point reconstruction times the quantization step `step` (T.800 E.1.1).
   */
  decode(
    width: number, height: number, orientation: Orientation, style: number, firstPlane: number,
    segments: CodeBlockSegment[], out: Float64Array, outOffset: number, outStride: number, step: number,
  ): void {
    const stride = width + 2;
    const size = stride * (height + 2);
    const { nb, flags, mag, mq, raw } = this;
    nb.fill(0, 0, size);
    flags.fill(0, 0, size);
    mag.fill(0, 0, size);
    mq.resetContexts();
    const zc = ZC_TABLES[orientation];
    const vcausal = (style & CBLK_VCAUSAL) !== 0;
    const bypass = (style & CBLK_BYPASS) !== 0;

    const becomeSignificant = (i: number, y: number, negative: number) => {
      nb[i] |= 0x80;
      if (negative) flags[i] |= NEGATIVE;
      nb[i - 1] += 1;
      nb[i + 1] += 1;
      if (!(vcausal && (y & 3) === 0)) {
        nb[i - stride] += 4;
        nb[i - stride - 1] += 16;
        nb[i - stride + 1] += 16;
      }
      nb[i + stride] += 4;
      nb[i + stride - 1] += 16;
      nb[i + stride + 1] += 16;
    };
    const contribution = (j: number) => (nb[j] & 0x80 ? (flags[j] & NEGATIVE ? -1 : 1) : 0);
    const decodeSign = (i: number, y: number) => {
      const h = Math.max(-1, Math.min(1, contribution(i - 1) + contribution(i + 1)));
      const below = vcausal && (y & 3) === 3 ? 0 : contribution(i + stride);
      const v = Math.max(-1, Math.min(1, contribution(i - stride) + below));
      const lut = SIGN_LUT[(h + 1) * 3 + v + 1];
      return mq.decode(lut & 0x0f) ^ (lut >> 4);
    };

    let plane = firstPlane;
    let passType = 2; // the first pass is a cleanup pass
    let segment = 0;
    let passesLeftInSegment = 0;
    let pass = 0;
    let rawMode = false;
    for (;;) {
      if (passesLeftInSegment === 0) {
        if (segment === segments.length) break;
        const next = segments[segment++];
        passesLeftInSegment = next.passes;
        if (passesLeftInSegment === 0) continue;
        // Bypass: from the 11th pass on, significance and refinement passes are raw (T.800 D.6).
        rawMode = bypass && pass >= 10 && passType !== 2;
        if (rawMode) raw.start(next.data, 0);
        else mq.start(next.data, 0);
      }
      if (plane < 0) throw new CodecError('JPEG 2000: a code-block has more coding passes than bit-planes');
      if (style & CBLK_RESET) mq.resetContexts();
      const half = 2 ** plane; // half units: one step of this bit-plane is 2 * 2^plane
      const significantValue = 3 * half;

      if (passType === 0) {
        // Significance propagation (D.3.1): insignificant samples with a significant neighbour.
        for (let y0 = 0; y0 < height; y0 += 4) {
          const yEnd = Math.min(y0 + 4, height);
          for (let x = 0; x < width; x++) {
            for (let y = y0, i = (y0 + 1) * stride + x + 1; y < yEnd; y++, i += stride) {
              const n = nb[i];
              if (n === 0 || n & 0x80) continue;
              flags[i] |= VISITED;
              if (rawMode) {
                if (raw.decode()) {
                  becomeSignificant(i, y, raw.decode());
                  mag[i] = significantValue;
                }
              } else if (mq.decode(zc[n])) {
                becomeSignificant(i, y, decodeSign(i, y));
                mag[i] = significantValue;
              }
            }
          }
        }
      } else if (passType === 1) {
        // Magnitude refinement (D.3.3): samples significant before this bit-plane.
        for (let y0 = 0; y0 < height; y0 += 4) {
          const yEnd = Math.min(y0 + 4, height);
          for (let x = 0; x < width; x++) {
            for (let y = y0, i = (y0 + 1) * stride + x + 1; y < yEnd; y++, i += stride) {
              if (!(nb[i] & 0x80) || flags[i] & VISITED) continue;
              let bit: number;
              if (rawMode) bit = raw.decode();
              else bit = mq.decode(flags[i] & REFINED ? 16 : nb[i] & 0x7f ? 15 : 14);
              mag[i] += bit ? half : -half;
              flags[i] |= REFINED;
            }
          }
        }
      } else {
        // Cleanup (D.3.4), with run-length coding of empty four-sample columns.
        for (let y0 = 0; y0 < height; y0 += 4) {
          const yEnd = Math.min(y0 + 4, height);
          for (let x = 0; x < width; x++) {
            const top = (y0 + 1) * stride + x + 1;
            let y = y0;
            if (yEnd - y0 === 4 && nb[top] === 0 && nb[top + stride] === 0 && nb[top + 2 * stride] === 0
              && nb[top + 3 * stride] === 0 && ((flags[top] | flags[top + stride] | flags[top + 2 * stride]
              | flags[top + 3 * stride]) & VISITED) === 0) {
              if (!mq.decode(CTX_RUN)) continue;
              const first = (mq.decode(CTX_UNIFORM) << 1) | mq.decode(CTX_UNIFORM);
              y = y0 + first;
              const i = top + first * stride;
              becomeSignificant(i, y, decodeSign(i, y));
              mag[i] = significantValue;
              y++;
            }
            for (let i = (y + 1) * stride + x + 1; y < yEnd; y++, i += stride) {
              if (!(nb[i] & 0x80) && !(flags[i] & VISITED) && mq.decode(zc[nb[i] & 0x7f])) {
                becomeSignificant(i, y, decodeSign(i, y));
                mag[i] = significantValue;
              }
              flags[i] &= ~VISITED;
            }
          }
        }
        if (style & CBLK_SEGSYM) {
          const symbol = (mq.decode(CTX_UNIFORM) << 3) | (mq.decode(CTX_UNIFORM) << 2)
            | (mq.decode(CTX_UNIFORM) << 1) | mq.decode(CTX_UNIFORM);
          if (symbol !== 0b1010) throw new CodecError('JPEG 2000: corrupt code-block (segmentation symbol mismatch)');
        }
      }

      pass++;
      passesLeftInSegment--;
      if (passType === 2) {
        passType = 0;
        plane--;
      } else {
        passType++;
      }
      // A new raw / MQ segment starts where the bypass schedule switches (handled by the caller's
      // segment split); within a segment the mode cannot change.
    }

    for (let y = 0; y < height; y++) {
      for (let x = 0, i = (y + 1) * stride + 1, o = outOffset + y * outStride; x < width; x++, i++, o++) {
        const m = step === 0 ? Math.floor(mag[i] / 2) : (mag[i] / 2) * step;
        out[o] = flags[i] & NEGATIVE ? -m : m;
      }
    }
  }
}
