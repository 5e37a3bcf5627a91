import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompress, precompressFile, PRECOMPRESS_MIN_BYTES, shouldPrecompress } from './precompress.ts';

describe('precompress', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'isobar-precompress-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['assets/index-1a2b.js', 5000, true],
    ['assets/index-1a2b.css', 5000, true],
    ['index.html', 2000, true],
    ['assets/release-9f.wasm', 90_000, true],
    ['favicon.svg', 1500, true],
    ['assets/index-1a2b.js', PRECOMPRESS_MIN_BYTES - 1, false],
    ['assets/index-1a2b.js.map', 50_000, false],
    ['assets/photo.png', 50_000, false],
    ['assets/index-1a2b.js.br', 50_000, false],
  ])('%s of %i bytes: %s', (name, size, expected) => {
    expect(shouldPrecompress(name, size)).toBe(expected);
  });

  it('writes .br and .gz siblings that decompress to the file', async () => {
    const text = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i % 37}`))};`;
    const path = join(dir, 'chunk.js');
    writeFileSync(path, text);
    const sizes = await precompressFile(path);
    expect(sizes!.br).toBeLessThan(text.length / 3);
    expect(brotliDecompressSync(readFileSync(`${path}.br`)).toString()).toBe(text);
    expect(gunzipSync(readFileSync(`${path}.gz`)).toString()).toBe(text);
  });

  it('leaves small files and files it does not compress alone', async () => {
    writeFileSync(join(dir, 'small.js'), 'export {};');
    writeFileSync(join(dir, 'map.js.map'), 'x'.repeat(5000));
    expect(await precompressFile(join(dir, 'small.js'))).toBeNull();
    expect(await precompressFile(join(dir, 'map.js.map'))).toBeNull();
    expect(existsSync(join(dir, 'small.js.br'))).toBe(false);
    expect(existsSync(join(dir, 'map.js.map.gz'))).toBe(false);
  });

  it('does not write a copy that would be larger than random bytes it cannot shrink', async () => {
    const random = new Uint8Array(4096).map(() => Math.floor(Math.random() * 256));
    writeFileSync(join(dir, 'noise.wasm'), random);
    await precompressFile(join(dir, 'noise.wasm'));
    expect(existsSync(join(dir, 'noise.wasm.br'))).toBe(false);
    expect(existsSync(join(dir, 'noise.wasm.gz'))).toBe(false);
  });

  it('as a Vite plugin, compresses what the bundle wrote', async () => {
    const js = 'console.log("isobar");\n'.repeat(200);
    writeFileSync(join(dir, 'entry.js'), js);
    writeFileSync(join(dir, 'entry.js.map'), '{}'.repeat(1000));
    const plugin = precompress();
    const writeBundle = plugin.writeBundle as (options: { dir: string }, bundle: Record<string, unknown>) => Promise<void>;
    await writeBundle({ dir }, { 'entry.js': {}, 'entry.js.map': {} });
    expect(brotliDecompressSync(readFileSync(join(dir, 'entry.js.br'))).toString()).toBe(js);
    expect(existsSync(join(dir, 'entry.js.map.br'))).toBe(false);
  });
});
