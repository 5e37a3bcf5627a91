/*
 * GRIB2 template 5.40, JPEG 2000 tier-1: the MQ arithmetic decoder (ITU-T T.800 Annex C) and the
 * code-block decoder that runs the three coding passes over bit-planes (Annex D), as
 * engine/codecs/jpeg2000-tier1.ts describes them; the code stream, packets and wavelet stay in
 * engine/codecs/jpeg2000.ts. The wrapper lays out, per code-block:
 *
 *   segs   u32[2 * segCount]    per terminated segment: its address, its number of coding passes
 *   data   u8[...]              each segment's bytes followed by two 0xFF bytes (a marker, which
 *                               stops both decoders from reading further)
 *   out    f64                  the coefficients, rows outStride samples apart (the subband's)
 *
 * The per-sample state is this module's own static scratch (one code-block at a time), one entry
 * per sample plus a one-sample border, stride = width + 2, sample (x, y) at (y + 1) * stride + x + 1:
 *
 *   NB[i]   bit 7 = significant | bits 4-6 = significant diagonal neighbours (0..4)
 *           | bits 2-3 = vertical (0..2) | bits 0-1 = horizontal (0..2)
 *   FL[i]   VISITED | REFINED | NEGATIVE
 *   MAG[i]  magnitude in half units (mid-point reconstruction, see jpeg2000-tier1.ts)
 *
 * Returns 0, or a negative code for a corrupt code-block.
 */

const ERR_PASSES: i32 = -1; // more coding passes than bit-planes
const ERR_SEGSYM: i32 = -2; // segmentation symbol mismatch

/** T.800 Table C.2: probability estimate Qe, next index after MPS / LPS, and the MPS switch flag. */
const QE = memory.data<u16>([
  0x5601, 0x3401, 0x1801, 0x0ac1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801, 0x3001, 0x2401,
  0x1c01, 0x1601, 0x5601, 0x5401, 0x5101, 0x4801, 0x3801, 0x3401, 0x3001, 0x2801, 0x2401, 0x2201,
  0x1c01, 0x1801, 0x1601, 0x1401, 0x1201, 0x1101, 0x0ac1, 0x09c1, 0x08a1, 0x0521, 0x0441, 0x02a1,
  0x0221, 0x0141, 0x0111, 0x0085, 0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
]);
const NMPS = memory.data<u8>([
  1, 2, 3, 4, 5, 38, 7, 8, 9, 10, 11, 12, 13, 29, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
  27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 46,
]);
const NLPS = memory.data<u8>([
  1, 6, 9, 12, 29, 33, 6, 14, 14, 14, 17, 18, 20, 21, 14, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22,
  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 46,
]);
const SWITCH = memory.data<u8>([
  1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/** Context labels (T.800 D.3): 0-8 significance, 9-13 sign, 14-16 refinement, 17 run length, 18 uniform. */
const CTX_RUN: u32 = 17;
const CTX_UNIFORM: u32 = 18;
/** Per context: state index << 1 | MPS. */
const CONTEXTS = memory.data(19);

/**
 * Sign context and XOR bit (T.800 Table D.3), indexed (h + 1) * 3 + (v + 1) with h, v the clamped
 * horizontal and vertical contributions: context in the low bits, XOR bit at 0x10.
 */
const SIGN_LUT = memory.data<u8>([13 | 0x10, 12 | 0x10, 11 | 0x10, 10 | 0x10, 9, 10, 11, 12, 13]);

/** Zero-coding context per orientation (LL, HL, LH, HH) and neighbourhood nb & 0x7f (T.800 Table D.1). */
const ZC = memory.data(4 * 128);

function initZc(): void {
  for (let orientation = 0; orientation < 4; orientation++) {
    for (let d = 0; d <= 4; d++) {
      for (let v = 0; v <= 2; v++) {
        for (let h0 = 0; h0 <= 2; h0++) {
          let h = h0;
          let vv = v;
          // HL (horizontally high-pass) uses the LL / LH table with H and V exchanged.
          if (orientation == 1) {
            h = v;
            vv = h0;
          }
          let label: i32;
          if (orientation == 3) {
            const hv = h + vv;
            if (d >= 3) label = 8;
            else if (d == 2) label = hv >= 1 ? 7 : 6;
            else if (d == 1) label = hv >= 2 ? 5 : hv == 1 ? 4 : 3;
            else label = hv >= 2 ? 2 : hv == 1 ? 1 : 0;
          } else if (h == 2) label = 8;
          else if (h == 1) label = vv >= 1 ? 7 : d >= 1 ? 6 : 5;
          else if (vv == 2) label = 4;
          else if (vv == 1) label = 3;
          else label = d >= 2 ? 2 : d == 1 ? 1 : 0;
          store<u8>(ZC + <usize>(orientation * 128 + h0 + 4 * v + 16 * d), <u8>label);
        }
      }
    }
  }
}
initZc();

const VISITED: u8 = 1;
const REFINED: u8 = 2;
const NEGATIVE: u8 = 4;
/** Largest code-block (T.800: width and height <= 1024, area <= 4096) with its border. */
const MAX_STATE: i32 = 4096 + 2 * (1024 + 4) + 4;
const NB = memory.data(MAX_STATE, 16);
const FL = memory.data(MAX_STATE, 16);
const MAG = memory.data(MAX_STATE * 8, 16);

const CBLK_BYPASS: i32 = 1;
const CBLK_RESET: i32 = 2;
const CBLK_VCAUSAL: i32 = 8;
const CBLK_SEGSYM: i32 = 32;

// ---- MQ decoder state (one segment at a time). C is one 32-bit register: Chigh in bits 16-31,
// Clow in bits 0-15 (the register of OpenJPEG's opj_mqc_decode, which T.800 C.3 splits in two).
let mqBp: usize = 0;
let mqA: u32 = 0;
let mqC: u32 = 0;
let mqCt: i32 = 0;

function resetContexts(): void {
  memory.fill(CONTEXTS, 0, 19);
  store<u8>(CONTEXTS, 4 << 1);
  store<u8>(CONTEXTS + CTX_RUN, 3 << 1);
  store<u8>(CONTEXTS + CTX_UNIFORM, 46 << 1);
}

/** BYTEIN (T.800 C.3.4): a 0xFF followed by a byte above 0x8F is a marker: feed 1-bits, stay. */
@inline function byteIn(): void {
  const bp = mqBp;
  if (load<u8>(bp) == 0xff) {
    if (load<u8>(bp, 1) > 0x8f) {
      mqC += 0xff00;
      mqCt = 8;
    } else {
      mqBp = bp + 1;
      mqC += <u32>load<u8>(bp, 1) << 9;
      mqCt = 7;
    }
  } else {
    mqBp = bp + 1;
    mqC += <u32>load<u8>(bp, 1) << 8;
    mqCt = 8;
  }
}

/** INITDEC (T.800 C.3.5). */
function mqStart(data: usize): void {
  mqBp = data;
  mqC = <u32>load<u8>(data) << 16;
  byteIn();
  mqC <<= 7;
  mqCt -= 7;
  mqA = 0x8000;
}

/**
 * RENORMD (T.800 C.3.3): shifts A and C left until A >= 0x8000, a byte in before any shift that
 * finds CT at 0; the shifts up to the next byte are made at once.
 */
@inline function renormalize(a: u32): void {
  let shift = <i32>clz(a) - 16;
  while (shift > mqCt) {
    a <<= <u32>mqCt;
    mqC <<= <u32>mqCt;
    shift -= mqCt;
    mqCt = 0;
    byteIn();
  }
  mqA = a << <u32>shift;
  mqC <<= <u32>shift;
  mqCt -= shift;
}

/** DECODE (T.800 C.3.2) with the LPS / MPS exchange. */
@inline function mqDecode(cx: u32): u32 {
  const state = <u32>load<u8>(CONTEXTS + cx);
  let index = state >> 1;
  let mps = state & 1;
  const qe = <u32>load<u16>(QE + (index << 1));
  let a = mqA - qe;
  let bit: u32;
  if ((mqC >> 16) < qe) {
    // LPS sub-interval; conditional exchange when it is the larger one.
    if (a < qe) {
      bit = mps;
      index = load<u8>(NMPS + index);
    } else {
      bit = 1 - mps;
      if (load<u8>(SWITCH + index)) mps = bit;
      index = load<u8>(NLPS + index);
    }
    a = qe;
  } else {
    mqC -= qe << 16;
    if (a & 0x8000) {
      mqA = a;
      return mps;
    }
    if (a < qe) {
      bit = 1 - mps;
      if (load<u8>(SWITCH + index)) mps = bit;
      index = load<u8>(NLPS + index);
    } else {
      bit = mps;
      index = load<u8>(NMPS + index);
    }
  }
  renormalize(a);
  store<u8>(CONTEXTS + cx, <u8>((index << 1) | mps));
  return bit;
}

// ---- raw (bypass) bits of a segment (T.800 D.6), with the same 0xFF bit stuffing and marker rule
let rawBp: usize = 0;
let rawC: u32 = 0;
let rawCt: i32 = 0;

function rawStart(data: usize): void {
  rawBp = data;
  rawC = 0;
  rawCt = 0;
}

function rawDecode(): u32 {
  if (rawCt == 0) {
    if (rawC == 0xff) {
      if (load<u8>(rawBp) > 0x8f) {
        rawCt = 8;
      } else {
        rawC = load<u8>(rawBp++);
        rawCt = 7;
      }
    } else {
      rawC = load<u8>(rawBp++);
      rawCt = 8;
    }
  }
  rawCt--;
  return (rawC >> <u32>rawCt) & 1;
}

// ---- the code-block passes

@inline function addNb(i: usize, value: u8): void {
  store<u8>(NB + i, load<u8>(NB + i) + value);
}

@inline function becomeSignificant(i: usize, y: i32, negative: u32, stride: usize, vcausal: bool): void {
  store<u8>(NB + i, load<u8>(NB + i) | 0x80);
  if (negative) store<u8>(FL + i, load<u8>(FL + i) | NEGATIVE);
  addNb(i - 1, 1);
  addNb(i + 1, 1);
  if (!(vcausal && (y & 3) == 0)) {
    addNb(i - stride, 4);
    addNb(i - stride - 1, 16);
    addNb(i - stride + 1, 16);
  }
  addNb(i + stride, 4);
  addNb(i + stride - 1, 16);
  addNb(i + stride + 1, 16);
}

@inline function contribution(j: usize): i32 {
  return load<u8>(NB + j) & 0x80 ? (load<u8>(FL + j) & NEGATIVE ? -1 : 1) : 0;
}

@inline function clamp1(x: i32): i32 {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

@inline function decodeSign(i: usize, y: i32, stride: usize, vcausal: bool): u32 {
  const h = clamp1(contribution(i - 1) + contribution(i + 1));
  const below = vcausal && (y & 3) == 3 ? 0 : contribution(i + stride);
  const v = clamp1(contribution(i - stride) + below);
  const lut = <u32>load<u8>(SIGN_LUT + <usize>((h + 1) * 3 + v + 1));
  return mqDecode(lut & 0x0f) ^ (lut >> 4);
}

/**
 * Whether the 4 x 16 neighbourhood bytes from `at` (rows `stride` apart) hold a significant
 * sample (`significant`) or else a significance-propagation candidate: insignificant (bit 7
 * clear) with a significant neighbour (bits 0-6 not all 0), i.e. 1..127 as a signed byte.
 */
@inline function stripeHas(at: usize, stride: usize, significant: bool): bool {
  const zero = i8x16.splat(0);
  const r0 = v128.load(at);
  const r1 = v128.load(at + stride);
  const r2 = v128.load(at + 2 * stride);
  const r3 = v128.load(at + 3 * stride);
  const any = significant
    ? v128.or(v128.or(i8x16.lt_s(r0, zero), i8x16.lt_s(r1, zero)), v128.or(i8x16.lt_s(r2, zero), i8x16.lt_s(r3, zero)))
    : v128.or(v128.or(i8x16.gt_s(r0, zero), i8x16.gt_s(r1, zero)), v128.or(i8x16.gt_s(r2, zero), i8x16.gt_s(r3, zero)));
  return v128.any_true(any);
}

/**
 * Decodes one code-block of `width` x `height` samples whose first (cleanup) pass codes
 * bit-plane `firstPlane` into out: with `step` 0 (reversible) the integers, truncated as OpenJPEG
 * does; otherwise the mid-point reconstruction times the quantization step (T.800 E.1.1).
 */
export function j2kDecodeBlock(
  width: i32, height: i32, orientation: i32, style: i32, firstPlane: i32,
  segs: usize, segCount: i32, out: usize, outStride: i32, step: f64,
): i32 {
  const stride = <usize>(width + 2);
  const size = stride * <usize>(height + 2);
  memory.fill(NB, 0, size);
  memory.fill(FL, 0, size);
  memory.fill(MAG, 0, size << 3);
  resetContexts();
  const zc = ZC + <usize>(orientation * 128);
  const vcausal = (style & CBLK_VCAUSAL) != 0;
  const bypass = (style & CBLK_BYPASS) != 0;

  let plane = firstPlane;
  let passType = 2; // the first pass is a cleanup pass
  let segment = 0;
  let passesLeftInSegment = 0;
  let pass = 0;
  let rawMode = false;
  for (;;) {
    if (passesLeftInSegment == 0) {
      if (segment == segCount) break;
      const desc = segs + (<usize>segment << 3);
      segment++;
      passesLeftInSegment = load<i32>(desc, 4);
      if (passesLeftInSegment == 0) continue;
      // Bypass: from the 11th pass on, significance and refinement passes are raw (T.800 D.6).
      rawMode = bypass && pass >= 10 && passType != 2;
      if (rawMode) rawStart(<usize>load<u32>(desc));
      else mqStart(<usize>load<u32>(desc));
    }
    if (plane < 0) return ERR_PASSES;
    if (style & CBLK_RESET) resetContexts();
    const half = Math.pow(2, <f64>plane); // half units: one step of this bit-plane is 2 * 2^plane
    const significantValue = 3 * half;

    if (passType == 0) {
      // Significance propagation (D.3.1): insignificant samples with a significant neighbour.
      for (let y0 = 0; y0 < height; y0 += 4) {
        const yEnd = min(y0 + 4, height);
        for (let x = 0; x < width; x++) {
          // Sixteen columns of a full stripe with no candidate (neighbourhood 1..127) are skipped
          // at once: nothing before them in this pass can make one of them a candidate later.
          if ((x & 15) == 0 && yEnd - y0 == 4 && x + 16 <= width
            && !stripeHas(NB + <usize>(y0 + 1) * stride + <usize>(x + 1), stride, false)) {
            x += 15;
            continue;
          }
          let i = <usize>(y0 + 1) * stride + <usize>(x + 1);
          for (let y = y0; y < yEnd; y++, i += stride) {
            const n = <u32>load<u8>(NB + i);
            if (n == 0 || n & 0x80) continue;
            store<u8>(FL + i, load<u8>(FL + i) | VISITED);
            if (rawMode) {
              if (rawDecode()) {
                becomeSignificant(i, y, rawDecode(), stride, vcausal);
                store<f64>(MAG + (i << 3), significantValue);
              }
            } else if (mqDecode(load<u8>(zc + n))) {
              becomeSignificant(i, y, decodeSign(i, y, stride, vcausal), stride, vcausal);
              store<f64>(MAG + (i << 3), significantValue);
            }
          }
        }
      }
    } else if (passType == 1) {
      // Magnitude refinement (D.3.3): samples significant before this bit-plane.
      for (let y0 = 0; y0 < height; y0 += 4) {
        const yEnd = min(y0 + 4, height);
        for (let x = 0; x < width; x++) {
          // Sixteen columns of a full stripe with no significant sample are skipped at once.
          if ((x & 15) == 0 && yEnd - y0 == 4 && x + 16 <= width
            && !stripeHas(NB + <usize>(y0 + 1) * stride + <usize>(x + 1), stride, true)) {
            x += 15;
            continue;
          }
          let i = <usize>(y0 + 1) * stride + <usize>(x + 1);
          for (let y = y0; y < yEnd; y++, i += stride) {
            const n = <u32>load<u8>(NB + i);
            const f = load<u8>(FL + i);
            if (!(n & 0x80) || f & VISITED) continue;
            let bit: u32;
            if (rawMode) bit = rawDecode();
            else bit = mqDecode(f & REFINED ? 16 : n & 0x7f ? 15 : 14);
            const at = MAG + (i << 3);
            store<f64>(at, load<f64>(at) + (bit ? half : -half));
            store<u8>(FL + i, f | REFINED);
          }
        }
      }
    } else {
      // Cleanup (D.3.4), with run-length coding of empty four-sample columns.
      for (let y0 = 0; y0 < height; y0 += 4) {
        const yEnd = min(y0 + 4, height);
        for (let x = 0; x < width; x++) {
          const top = <usize>(y0 + 1) * stride + <usize>(x + 1);
          let y = y0;
          if (yEnd - y0 == 4 && load<u8>(NB + top) == 0 && load<u8>(NB + top + stride) == 0
            && load<u8>(NB + top + 2 * stride) == 0 && load<u8>(NB + top + 3 * stride) == 0
            && ((load<u8>(FL + top) | load<u8>(FL + top + stride) | load<u8>(FL + top + 2 * stride)
              | load<u8>(FL + top + 3 * stride)) & VISITED) == 0) {
            if (!mqDecode(CTX_RUN)) continue;
            const first = (mqDecode(CTX_UNIFORM) << 1) | mqDecode(CTX_UNIFORM);
            y = y0 + <i32>first;
            const i = top + <usize>first * stride;
            becomeSignificant(i, y, decodeSign(i, y, stride, vcausal), stride, vcausal);
            store<f64>(MAG + (i << 3), significantValue);
            y++;
          }
          let i = <usize>(y + 1) * stride + <usize>(x + 1);
          for (; y < yEnd; y++, i += stride) {
            const n = <u32>load<u8>(NB + i);
            if (!(n & 0x80) && !(load<u8>(FL + i) & VISITED) && mqDecode(load<u8>(zc + (n & 0x7f)))) {
              becomeSignificant(i, y, decodeSign(i, y, stride, vcausal), stride, vcausal);
              store<f64>(MAG + (i << 3), significantValue);
            }
            store<u8>(FL + i, load<u8>(FL + i) & ~VISITED);
          }
        }
      }
      if (style & CBLK_SEGSYM) {
        const symbol = (mqDecode(CTX_UNIFORM) << 3) | (mqDecode(CTX_UNIFORM) << 2)
          | (mqDecode(CTX_UNIFORM) << 1) | mqDecode(CTX_UNIFORM);
        if (symbol != 0b1010) return ERR_SEGSYM;
      }
    }

    pass++;
    passesLeftInSegment--;
    if (passType == 2) {
      passType = 0;
      plane--;
    } else {
      passType++;
    }
  }

  for (let y = 0; y < height; y++) {
    let i = <usize>(y + 1) * stride + 1;
    let o = out + (<usize>(y * outStride) << 3);
    for (let x = 0; x < width; x++, i++, o += 8) {
      const mag = load<f64>(MAG + (i << 3));
      const m = step == 0 ? Math.floor(mag / 2) : (mag / 2) * step;
      store<f64>(o, load<u8>(FL + i) & NEGATIVE ? -m : m);
    }
  }
  return 0;
}

// ---- wavelet synthesis (T.800 Annex F) and the DC level shift, as engine/codecs/jpeg2000.ts
// drives them: f64 arithmetic in the order of the equations, so the samples are those of the
// floating-point reference.

/** Filter taps on each side of a lifting step need this much symmetric extension (9/7: 4). */
const PAD: i32 = 5;

@inline function at(buf: usize, q: i32): usize {
  return buf + (<usize>q << 3);
}

/** Whole-sample symmetric extension (T.800 F.3.7) of buf[PAD, PAD + n) to PAD samples each side. */
function extend(buf: usize, n: i32): void {
  const period = 2 * (n - 1);
  for (let j = 1; j <= PAD; j++) {
    let left = j % period;
    if (left >= n) left = period - left;
    store<f64>(at(buf, PAD - j), load<f64>(at(buf, PAD + left)));
    let right = (n - 1 + j) % period;
    if (right >= n) right = period - right;
    store<f64>(at(buf, PAD + n - 1 + j), load<f64>(at(buf, PAD + right)));
  }
}

/** 1D_SR (T.800 F.3.6) on buf[PAD, PAD + n), interleaved, first sample at absolute index i0. */
function synthesize1d(buf: usize, n: i32, i0: i32, reversible: bool): void {
  if (n == 0) return;
  if (n == 1) {
    if (i0 & 1) {
      const v = load<f64>(at(buf, PAD));
      store<f64>(at(buf, PAD), reversible ? Math.trunc(v / 2) : v / 2);
    }
    return;
  }
  extend(buf, n);
  // Position q in buf has absolute index i0 - PAD + q: even absolute indices are low-pass.
  const firstEven = (i0 - PAD) & 1 ? 1 : 0;
  const end = n + 2 * PAD;
  if (reversible) {
    // F.3.8.1, equations F-5 and F-6: even positions from their odd neighbours, then odd ones.
    for (let q = firstEven == 0 ? 2 : 1; q <= end - 2; q += 2) {
      const p = at(buf, q);
      store<f64>(p, load<f64>(p) - Math.floor((load<f64>(p - 8) + load<f64>(p + 8) + 2) / 4));
    }
    for (let q = firstEven == 0 ? 3 : 2; q <= end - 3; q += 2) {
      const p = at(buf, q);
      store<f64>(p, load<f64>(p) + Math.floor((load<f64>(p - 8) + load<f64>(p + 8)) / 2));
    }
  } else {
    // F.3.8.2, equation F-7 (lifting steps of the 9/7 filter, T.800 Table F.4)
    const alpha = -1.586134342059924;
    const beta = -0.052980118572961;
    const gamma = 0.882911075530934;
    const delta = 0.443506852043971;
    const k = 1.230174104914001;
    const invK = 1 / k;
    for (let q = 0; q < end; q++) {
      const p = at(buf, q);
      store<f64>(p, load<f64>(p) * (((q - firstEven) & 1) == 0 ? k : invK));
    }
    const even = firstEven == 0 ? 2 : 1;
    const odd = firstEven == 0 ? 1 : 2;
    lift(buf, end, even, delta);
    lift(buf, end, odd, gamma);
    lift(buf, end, even, beta);
    lift(buf, end, odd, alpha);
  }
}

@inline function lift(buf: usize, end: i32, start: i32, c: f64): void {
  for (let q = start; q <= end - 2; q += 2) {
    const p = at(buf, q);
    store<f64>(p, load<f64>(p) - c * (load<f64>(p - 8) + load<f64>(p + 8)));
  }
}

/**
 * One resolution of the inverse DWT (T.800 F.3.2 - F.3.3): interleaves the previous resolution
 * (ll, lowW wide) with its HL, LH and HH subbands (hl and hh highW wide, lh lowW wide) into next
 * (w x h, origin x0, y0 on the reference grid), then filters rows, then columns. `line` holds
 * max(w, h) + 2 PAD f64.
 */
export function j2kSynthesize(
  ll: usize, hl: usize, lh: usize, hh: usize, lowW: i32, highW: i32,
  x0: i32, y0: i32, w: i32, h: i32, reversible: bool, next: usize, line: usize,
): void {
  // Even absolute coordinates take low-pass samples, odd ones high-pass.
  const lowX0 = (x0 + 1) >> 1;
  const highX0 = x0 >> 1;
  const lowY0 = (y0 + 1) >> 1;
  const highY0 = y0 >> 1;
  for (let y = 0; y < h; y++) {
    const v = y0 + y;
    const lowRow = (v & 1) == 0;
    const rowL = lowRow ? ll : lh;
    const rowH = lowRow ? hl : hh;
    const ry = lowRow ? (v >> 1) - lowY0 : (v >> 1) - highY0;
    const baseL = rowL + (<usize>(ry * lowW) << 3);
    const baseH = rowH + (<usize>(ry * highW) << 3);
    const row = next + (<usize>(y * w) << 3);
    for (let x = 0; x < w; x++) {
      const u = x0 + x;
      const value = (u & 1) == 0
        ? load<f64>(baseL + (<usize>((u >> 1) - lowX0) << 3))
        : load<f64>(baseH + (<usize>((u >> 1) - highX0) << 3));
      store<f64>(row + (<usize>x << 3), value);
    }
  }
  const padded = line + (<usize>PAD << 3);
  for (let y = 0; y < h; y++) {
    const row = next + (<usize>(y * w) << 3);
    memory.copy(padded, row, <usize>w << 3);
    synthesize1d(line, w, x0, reversible);
    memory.copy(row, padded, <usize>w << 3);
  }
  const rowBytes = <usize>w << 3;
  for (let x = 0; x < w; x++) {
    let p = next + (<usize>x << 3);
    for (let y = 0; y < h; y++, p += rowBytes) store<f64>(padded + (<usize>y << 3), load<f64>(p));
    synthesize1d(line, h, y0, reversible);
    p = next + (<usize>x << 3);
    for (let y = 0; y < h; y++, p += rowBytes) store<f64>(p, load<f64>(padded + (<usize>y << 3)));
  }
}

/**
 * The tile's samples (w x h f64, row-major) into the image's i32 samples at `out` (rows
 * `outStride` apart): rounded half up when irreversible, DC level shifted by `shift` and clamped
 * to [min, max] (T.800 G.1.2, as OpenJPEG does).
 */
export function j2kStoreTile(
  samples: usize, w: i32, h: i32, reversible: bool, shift: f64, lo: f64, hi: f64, out: usize, outStride: i32,
): void {
  for (let y = 0; y < h; y++) {
    let i = samples + (<usize>(y * w) << 3);
    let o = out + (<usize>(y * outStride) << 2);
    for (let x = 0; x < w; x++, i += 8, o += 4) {
      let s = load<f64>(i);
      if (!reversible) {
        // Math.round of JavaScript: to the nearest integer, halves towards +infinity.
        const c = Math.ceil(s);
        s = c - 0.5 > s ? c - 1 : c;
      }
      const v = s + shift;
      store<i32>(o, <i32>(v < lo ? lo : v > hi ? hi : v));
    }
  }
}
