/**
 * JPEG 2000 test vectors: one 97 x 61 16-bit grey image (a smooth field with noise, like a GRIB2
 * field's packed integers) encoded by OpenJPEG's opj_compress with each code-block style and the
 * code stream options GRIB2 encoders may use; the expected samples are opj_decompress's output.
 * make-j2k-vectors.ts writes testdata/j2k/<name>.j2k and <name>.pgm.
 */

import { seededRandom } from '../../../common/seededRandom.ts';

export interface J2kVector {
  name: string;
  /** opj_compress options besides -i and -o. */
  options: string[];
  /**
   * Largest difference allowed from opj_decompress: 0, except for the irreversible 9/7 wavelet,
   * which OpenJPEG computes in 32-bit floats and this decoder in 64-bit (T.800 F.3.8.2), so a
   * sample near a rounding boundary may land 1 apart.
   */
  tolerance: number;
}

export const J2K_VECTORS: J2kVector[] = [
  { name: 'lossless', options: [], tolerance: 0 },
  { name: 'bypass', options: ['-M', '1'], tolerance: 0 },
  { name: 'reset', options: ['-M', '2'], tolerance: 0 },
  { name: 'termall', options: ['-M', '4'], tolerance: 0 },
  { name: 'vcausal', options: ['-M', '8'], tolerance: 0 },
  { name: 'erterm', options: ['-M', '16'], tolerance: 0 },
  { name: 'segmark', options: ['-M', '32'], tolerance: 0 },
  { name: 'all-styles', options: ['-M', '63'], tolerance: 0 },
  { name: 'bypass-layers', options: ['-M', '1', '-r', '40,10,1'], tolerance: 0 },
  { name: 'tiles-precincts-rpcl', options: ['-t', '48,32', '-c', '[32,32],[16,16]', '-b', '16,16', '-p', 'RPCL', '-n', '3'], tolerance: 0 },
  { name: 'sop-eph-cprl', options: ['-SOP', '-EPH', '-p', 'CPRL', '-n', '2'], tolerance: 0 },
  { name: 'no-wavelet', options: ['-n', '1'], tolerance: 0 },
  { name: 'irreversible', options: ['-I'], tolerance: 1 },
  { name: 'irreversible-lossy', options: ['-I', '-r', '20', '-M', '1'], tolerance: 1 },
];

export const J2K_WIDTH = 97;
export const J2K_HEIGHT = 61;

/** The source image, row-major. */
export function j2kImage(): Uint16Array {
  const random = seededRandom(0x1a2b);
  const out = new Uint16Array(J2K_WIDTH * J2K_HEIGHT);
  for (let y = 0; y < J2K_HEIGHT; y++) {
    for (let x = 0; x < J2K_WIDTH; x++) {
      const v = 30000 + 12000 * Math.sin(x / 13) * Math.cos(y / 9) + Math.floor(random() * 600) - 300;
      out[y * J2K_WIDTH + x] = Math.max(0, Math.min(65535, Math.round(v)));
    }
  }
  return out;
}

/** The samples of a binary 16-bit PGM (P5, maxval > 255: big-endian), comments allowed. */
export function readPgm16(bytes: Uint8Array): { width: number; height: number; values: Uint16Array } {
  const tokens: string[] = [];
  let at = 0;
  while (tokens.length < 4) {
    while (bytes[at] === 0x23) while (bytes[at++] !== 0x0a);
    let token = '';
    while (bytes[at] > 0x20) token += String.fromCharCode(bytes[at++]);
    at++;
    if (token) tokens.push(token);
  }
  const [magic, w, h, maxval] = tokens;
  if (magic !== 'P5' || Number(maxval) < 256) throw new Error(`not a 16-bit binary PGM (${magic}, maxval ${maxval})`);
  const width = Number(w);
  const height = Number(h);
  const values = new Uint16Array(width * height);
  for (let i = 0; i < values.length; i++) values[i] = (bytes[at + 2 * i] << 8) | bytes[at + 2 * i + 1];
  return { width, height, values };
}
