/*
 * Isobar numeric engine: the WASM module's entry. Every export takes primitives or pointers into
 * linear memory; the module owns no memory itself (runtime stub, nothing is allocated here). The
 * TypeScript wrapper (engine/engine.ts) lays out and owns every region above __heap_base:
 *
 *   linear memory (little-endian, grows upward with memory.grow, 64 KiB pages)
 *   +--------------------+ 0
 *   | static data        |  AssemblyScript's constants, particles.ts's per-step vectors and
 *   |                    |  its spawn table (written once by the wrapper, engine/spawn.ts)
 *   +--------------------+ __heap_base (heapBase(), rounded up to 16 by the wrapper)
 *   | tile input scratch |  the tile bytes being decoded, + 16 bytes of slack       (tile.ts)
 *   | texel scratch      |  u8[256*256*4] texels of the last decoded tile            (tile.ts)
 *   | sample scratch     |  f64[2] written by fieldSample                            (field.ts)
 *   | blocks             |  f32[65536] each (256 KiB): one per decoded tile channel  (tile.ts)
 *   | field              |  descriptor + interleaved [U, V] nodes + row cosines      (field.ts)
 *   | particles          |  SoA lon/lat/age + vertex output                          (particles.ts)
 *   +--------------------+ memory.buffer.byteLength
 *
 * The regions after the scratches come and go in any order: the wrapper's allocator hands them
 * out first-fit from a free list, so this module never assumes where they are, only their
 * internal layout, drawn at the top of each file.
 */

export { decodeTile } from './tile';
export { blend, fieldWriteTile, fieldFinish, fieldSample } from './field';
export { particlesInit, particlesStepSimd, particlesStepScalar, particlesSpawnTable, particlesSpawnTableBytes } from './particles';

/** First byte the wrapper may use: everything below holds the module's static data. */
export function heapBase(): usize {
  return __heap_base;
}
export { gribUnpackBits, gribUnpackComplex, gribScale } from './grib/unpack';
export { regridBilinear, regridNearest, quantizeRows } from './regrid';
export { aecDecode, AEC_SLACK } from './codecs/aec';
export { j2kDecodeBlock, j2kSynthesize, j2kStoreTile } from './codecs/jpeg2000';
export { pngAdler32, pngUnfilter, pngUnpack, pngInflate, INFLATE_SLACK } from './codecs/png';
export { isolinesPrepare, isolinesBucket, isolinesClassify, isolinesTrace, isolinesExtrema } from './isolines';
