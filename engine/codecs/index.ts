/**
 * The data codecs of the GRIB2 decoder: GRIB2 data representation templates 5.40 (JPEG 2000),
 * 5.41 (PNG) and 5.42 (CCSDS / AEC). Each takes the bytes of section 7 and returns the packed
 * integers; scaling, bitmaps and missing values are the decoder's. Plain TypeScript with no Node
 * or DOM API, so the same module runs in the server and in a browser Worker; the hot loops run in
 * the engine's WebAssembly module (engine/assembly/codecs), in its memory (wasm.ts).
 */

export { CodecError } from './error.ts';
export { decodePngGrib, decodePngGribInto } from './png.ts';
export { decodeAec, decodeAecInto } from './aec.ts';
export { decodeJpeg2000, decodeJpeg2000Into } from './jpeg2000.ts';
export { CodecRegions, type CodecEngine, type CodecMemory } from './wasm.ts';
