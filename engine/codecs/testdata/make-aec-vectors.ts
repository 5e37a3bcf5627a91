/**
 * Writes testdata/aec/<name>.aec with libaec's reference encoder (Debian `libaec-tools`:
 * `apt-get install libaec-tools`). Run once when a vector is added: `npx tsx engine/codecs/testdata/make-aec-vectors.ts`.
 * The tests need only the committed .aec files, never the tool.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AEC_FLAG, AEC_VECTORS, aecSampleBytes, aecSamples, aecToolOptions } from './aec-vectors.ts';

const outDir = fileURLToPath(new URL('./aec/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'aec-vectors-'));
try {
  for (const v of AEC_VECTORS) {
    const samples = aecSamples(v);
    const bytes = aecSampleBytes(v);
    const msbFirst = (v.flags & AEC_FLAG.msb) !== 0;
    // libaec's encoder wants signed samples as n-bit two's complement patterns: bits above n
    // (a sign extension) corrupt its preprocessor. The samples go in masked to n bits.
    const mask = 2 ** v.bitsPerSample;
    const pack = (values: ArrayLike<number>) => {
      const raw = new Uint8Array(values.length * bytes);
      for (let i = 0; i < values.length; i++) {
        const x = values[i] % mask;
        for (let b = 0; b < bytes; b++) {
          raw[i * bytes + b] = Math.floor(x / 2 ** (8 * (msbFirst ? bytes - 1 - b : b))) & 0xff;
        }
      }
      return raw;
    };
    const raw = pack(samples);
    const rawPath = join(work, `${v.name}.raw`);
    const encodedPath = join(outDir, `${v.name}.aec`);
    if (v.flags & AEC_FLAG.padRsi) {
      // The encoder does not pad RSIs (the flag exists for decoding old CCSDS sample data), but a
      // stream it ends is padded to a byte: encode each RSI alone and concatenate.
      const rsiBytes = v.blockSize * v.referenceSampleInterval * bytes;
      const tool = aecToolOptions(v).filter((option) => option !== '-p');
      const parts: Buffer[] = [];
      for (let start = 0; start < raw.length; start += rsiBytes) {
        writeFileSync(rawPath, raw.subarray(start, start + rsiBytes));
        execFileSync('aec', [...tool, rawPath, `${rawPath}.part`]);
        parts.push(readFileSync(`${rawPath}.part`));
      }
      writeFileSync(encodedPath, Buffer.concat(parts));
    } else {
      writeFileSync(rawPath, raw);
      execFileSync('aec', [...aecToolOptions(v), rawPath, encodedPath]);
    }
    // Round trip through the reference decoder too, so a vector is never written wrong. The tool
    // decodes whole blocks (its output runs on to the end of the last block) and sign-extends
    // preprocessed signed samples to the byte width: compare the low n bits of each sample.
    const decodedPath = join(work, `${v.name}.dec`);
    execFileSync('aec', ['-d', ...aecToolOptions(v), encodedPath, decodedPath]);
    const decoded = readFileSync(decodedPath);
    const back = new Array<number>(samples.length);
    for (let i = 0; i < samples.length; i++) {
      let x = 0;
      for (let b = 0; b < bytes; b++) x += decoded[i * bytes + b] * 2 ** (8 * (msbFirst ? bytes - 1 - b : b));
      back[i] = x;
    }
    if (!Buffer.from(pack(back)).equals(raw)) throw new Error(`${v.name}: libaec does not round-trip its own stream`);
    console.log(`${v.name}: ${raw.length} -> ${readFileSync(encodedPath).length} bytes`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
