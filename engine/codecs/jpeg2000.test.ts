import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine } from '../testing.ts';
import { CodecError, decodeJpeg2000 } from './index.ts';
import { J2K_HEIGHT, J2K_VECTORS, J2K_WIDTH, j2kImage, readPgm16 } from './testdata/j2k-vectors.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

const vectorFile = (name: string, ext: string) => new Uint8Array(readFileSync(new URL(`./testdata/j2k/${name}.${ext}`, import.meta.url)));

describe('decodeJpeg2000 against OpenJPEG (streams from opj_compress, samples from opj_decompress)', () => {
  it.each(J2K_VECTORS.map((v) => [v.name, v] as const))('%s', (name, v) => {
    const decoded = decodeJpeg2000(engine, vectorFile(name, 'j2k'));
    const expected = readPgm16(vectorFile(name, 'pgm'));
    expect([decoded.width, decoded.height]).toEqual([J2K_WIDTH, J2K_HEIGHT]);
    expect([expected.width, expected.height]).toEqual([J2K_WIDTH, J2K_HEIGHT]);
    const firstBeyond = decoded.values.findIndex((x, i) => Math.abs(x - expected.values[i]) > v.tolerance);
    expect(firstBeyond).toBe(-1);
  });

  it('the lossless streams give back the source image', () => {
    const source = j2kImage();
    for (const name of ['lossless', 'bypass', 'all-styles', 'tiles-precincts-rpcl']) {
      const decoded = decodeJpeg2000(engine, vectorFile(name, 'j2k'));
      expect(decoded.values.findIndex((v, i) => v !== source[i]), name).toBe(-1);
    }
  });

  it('refuses a truncated code stream with a CodecError and leaves the engine memory as it was', () => {
    const full = vectorFile('all-styles', 'j2k');
    const before = engine.stats().liveBytes;
    for (let length = 0; length < full.length; length += 397) {
      try {
        decodeJpeg2000(engine, full.subarray(0, length));
      } catch (error) {
        expect(error, `truncated to ${length}`).toBeInstanceOf(CodecError);
      }
    }
    expect(engine.stats().liveBytes).toBe(before);
  });
});
