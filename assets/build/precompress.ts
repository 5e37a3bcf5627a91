/**
 * Compresses the built app once, at build time: a .br (Brotli, quality 11) and a .gz (gzip, level 9)
 * beside every text or WASM file the bundle writes, so the server sends them as stored
 * (server/routes/staticApp.ts, preCompressed) instead of compressing each response while the page
 * starts. Compressing the 240 KB render worker on every request took the server's event loop
 * ~200 ms at start-up on a 2-core machine, and every request queued behind it.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text and WASM. Images, fonts and tiles are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|wasm|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost (the server's threshold too). */
export const PRECOMPRESS_MIN_BYTES = 1024;

export function shouldPrecompress(fileName: string, size: number): boolean {
  return COMPRESSIBLE.test(fileName) && size >= PRECOMPRESS_MIN_BYTES;
}

/** Writes file.br and file.gz beside one file; a copy that is not smaller than the file is not written. */
export async function precompressFile(path: string): Promise<{ br: number; gz: number } | null> {
  if (!COMPRESSIBLE.test(path)) return null;
  const bytes = await readFile(path);
  if (bytes.length < PRECOMPRESS_MIN_BYTES) return null;
  const [b, g] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gz(bytes, { level: 9 }),
  ]);
  if (b.length < bytes.length) await writeFile(`${path}.br`, b);
  if (g.length < bytes.length) await writeFile(`${path}.gz`, g);
  return { br: b.length, gz: g.length };
}

/** The Vite plugin: after the bundle is written, its compressible files get their compressed siblings. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'isobar-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle(options, bundle) {
      const dir = options.dir ?? outDir;
      const files = Object.keys(bundle);
      // Eight files (sixteen compressions) at a time: libuv's pool runs four at once; more in
      // flight would only hold more buffers.
      for (let i = 0; i < files.length; i += 8) {
        await Promise.all(files.slice(i, i + 8).map((name) => precompressFile(join(dir, name))));
      }
    },
  };
}
