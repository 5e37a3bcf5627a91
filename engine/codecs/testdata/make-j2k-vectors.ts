/**
 * Writes testdata/j2k/<name>.j2k (opj_compress) and <name>.pgm (opj_decompress of it) for each
 * vector of j2k-vectors.ts, with OpenJPEG's tools (Debian `libopenjp2-tools`). Run once when a
 * vector is added: `npx tsx engine/codecs/testdata/make-j2k-vectors.ts`. The tests need only the
 * committed files, never the tools.
 */

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { J2K_HEIGHT, J2K_VECTORS, J2K_WIDTH, j2kImage } from './j2k-vectors.ts';

const outDir = fileURLToPath(new URL('./j2k/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'j2k-vectors-'));
try {
  const image = j2kImage();
  const header = new TextEncoder().encode(`P5\n${J2K_WIDTH} ${J2K_HEIGHT}\n65535\n`);
  const pgm = new Uint8Array(header.length + image.length * 2);
  pgm.set(header);
  image.forEach((v, i) => {
    pgm[header.length + 2 * i] = v >> 8;
    pgm[header.length + 2 * i + 1] = v & 0xff;
  });
  const source = join(work, 'source.pgm');
  writeFileSync(source, pgm);
  for (const v of J2K_VECTORS) {
    const j2k = join(work, `${v.name}.j2k`);
    const decoded = join(work, `${v.name}.pgm`);
    execFileSync('opj_compress', ['-i', source, '-o', j2k, ...v.options], { stdio: 'pipe' });
    execFileSync('opj_decompress', ['-i', j2k, '-o', decoded], { stdio: 'pipe' });
    copyFileSync(j2k, join(outDir, `${v.name}.j2k`));
    copyFileSync(decoded, join(outDir, `${v.name}.pgm`));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
