/** Deterministic pseudo-random numbers for the demo product (systems and noise). */

/**
 * A 32-bit integer hash of up to four integers (each folded in with the "lowbias32" mixer by
 * Chris Wellons, hash-prospector), mapped to [0, 1). Integer-only, so identical on every machine.
 */
export function hash01(a: number, b: number, c = 0, d = 0): number {
  let h = 0x9e3779b9;
  h = mix(h ^ (a | 0));
  h = mix(h ^ (b | 0));
  h = mix(h ^ (c | 0));
  h = mix(h ^ (d | 0));
  return (h >>> 0) / 4294967296;
}

function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x;
}
