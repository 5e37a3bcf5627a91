/**
 * Initial JS (issue 4 target: <= 170 KB gzip with every panel lazy): the entry chunk of the built
 * app and every chunk it imports statically, transitively — what the browser must load before the
 * app can start — plus the UI half of the boot (ui/startUi.tsx, imported dynamically by the entry
 * but always loaded at start-up) and its static imports, gzip-compressed at level 9 as the build
 * report does. Read from Vite's manifest.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

export interface InitialJs {
  files: { file: string; gzipBytes: number }[];
  gzipBytes: number;
  /** Chunks loaded only when needed (panels, languages). */
  lazyChunks: number;
}

/** Modules loaded dynamically by the entry that every start-up loads anyway. */
export const BOOT_MODULES = ['startUi.tsx'];

export function measureInitialJs(distDir: string): InitialJs {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry);
  if (!entry) throw new Error('no entry chunk in the Vite manifest');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) visit(i);
  };
  visit(entry[0]);
  for (const key of BOOT_MODULES) {
    if (!manifest[key]) throw new Error(`${key} is not in the Vite manifest`);
    visit(key);
  }
  const files = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')).map((file) => ({
    file, gzipBytes: gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length,
  }));
  const lazyChunks = Object.values(manifest).filter((c) => c.file.endsWith('.js')).length - files.length;
  return { files, gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0), lazyChunks };
}
