/**
 * The one error every codec throws for input it cannot decode: truncated or corrupt streams, bad
 * headers, parameters out of range, features a codec does not implement. Callers can tell a bad
 * GRIB file (CodecError) from a bug (anything else).
 */
export class CodecError extends Error {
  override name = 'CodecError';
}

/** Largest field any codec agrees to decode: 64 Mi values (256 MiB of 32-bit output), far above a 0.1 deg global grid. */
export const MAX_CODEC_VALUES = 1 << 26;
