/**
 * JPEG 2000 tier-1: the MQ arithmetic decoder (ITU-T T.800 Annex C) and the code-block decoder
 * that runs the three coding passes over bit-planes (Annex D) run in the engine's WebAssembly
 * module (engine/assembly/codecs/jpeg2000.ts, which draws the per-sample state); this wrapper lays
 * out each code-block's segments there; the coefficients go straight to their subband, in the same
 * memory. Used by jpeg2000.ts only.
 *
 * Reconstruction: a sample becoming significant at bit-plane p is set to 1.5 * 2^p (the middle of
 * [2^p, 2^(p+1))), each refinement moves it half its interval up or down, so a truncated
 * magnitude sits at the middle of its interval (mid-point reconstruction, as OpenJPEG does) and
 * reversible coefficients are truncated back to integers.
 */

import { CodecError } from './error.ts';
import type { CodecMemory } from './wasm.ts';

/** Subband orientations, as their zero-coding context tables differ (T.800 Table D.1). */
export const enum Orientation { LL = 0, HL = 1, LH = 2, HH = 3 }

/** Code-block style bits (COD / COC SPcod, T.800 Table A.19). */
export const CBLK_BYPASS = 1;
export const CBLK_TERMALL = 4;

/** One terminated segment of a code-block: its pieces (one per layer that carried bytes) and their passes. */
export interface CodeBlockSegment {
  /** The segment's index within the code-block (which pieces belong together). */
  segment: number;
  pieces: Uint8Array[];
  passes: number;
}

/** engine/assembly/codecs/jpeg2000.ts */
interface Tier1Kernels {
  j2kDecodeBlock(
    width: number, height: number, orientation: number, style: number, firstPlane: number,
    segs: number, segCount: number, out: number, outStride: number, step: number,
  ): number;
}

const TIER1_ERRORS: Record<number, string> = {
  [-1]: 'a code-block has more coding passes than bit-planes',
  [-2]: 'corrupt code-block (segmentation symbol mismatch)',
};

/** Decodes code-blocks one at a time through one scratch region of the engine's memory, grown as needed. */
export class CodeBlockDecoder {
  private readonly kernels: Tier1Kernels;
  private scratch = 0;
  private capacity = 0;

  constructor(private readonly regions: CodecMemory) {
    this.kernels = regions.exports as unknown as Tier1Kernels;
  }

  /**
   * Decodes one code-block of `width` x `height` samples whose first (cleanup) pass codes
   * bit-plane `firstPlane`, and writes the f64 coefficients at address `out` of the engine's
   * memory, rows `outStride` samples apart: with `step` 0 (reversible) the integers, truncated as
   * OpenJPEG does; otherwise the mid-point reconstruction times the quantization step `step`
   * (T.800 E.1.1).
   */
  decode(
    width: number, height: number, orientation: Orientation, style: number, firstPlane: number,
    segments: CodeBlockSegment[], out: number, outStride: number, step: number,
  ): void {
    // Layout: u32 [address, passes] per segment | each segment's bytes + 0xFF 0xFF.
    const descriptors = segments.length * 8;
    let bytes = descriptors + 2 * segments.length;
    for (const segment of segments) for (const piece of segment.pieces) bytes += piece.length;
    if (bytes > this.capacity) {
      this.capacity = Math.max(bytes, 2 * this.capacity);
      this.scratch = this.regions.alloc(this.capacity);
    }
    const base = this.scratch;
    const buffer = this.regions.memory.buffer;
    const heap = new Uint8Array(buffer);
    const descriptorView = new Uint32Array(buffer, base, segments.length * 2);
    let at = base + descriptors;
    segments.forEach((segment, s) => {
      descriptorView[2 * s] = at;
      descriptorView[2 * s + 1] = segment.passes;
      for (const piece of segment.pieces) {
        heap.set(piece, at);
        at += piece.length;
      }
      heap[at++] = 0xff;
      heap[at++] = 0xff;
    });
    const code = this.kernels.j2kDecodeBlock(
      width, height, orientation, style, firstPlane, base, segments.length, out, outStride, step,
    );
    if (code < 0) throw new CodecError(`JPEG 2000: ${TIER1_ERRORS[code] ?? `code-block decoding failed (${code})`}`);
  }
}
