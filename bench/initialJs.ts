/**
 * Initial JS (issue 4 target: <= 170 KB gzip with every panel lazy): the entry chunk of the built
 * app and every chunk it imports statically, transitively — what the browser must load before the
 * app can start — plus the UI half of the boot (ui/startUi.tsx, imported dynamically by the entry
 * but always loaded at start-up) and its static imports, gzip-compressed at level 9 as the build
 * report does. Read from index.html and Vite's manifest.
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

/** The scripts index.html loads: its module script and modulepreload links, as dist-relative paths. */
export function htmlScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const tag = m[0];
    const module = /^<script\b/.test(tag) ? /\btype="module"/.test(tag) : /\brel="modulepreload"/.test(tag);
    const url = /\b(?:src|href)="\/?([^"]+\.js)"/.exec(tag)?.[1];
    if (module && url) out.push(url);
  }
  return out;
}

export function measureInitialJs(distDir: string): InitialJs {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  // From what the page itself loads: the entry module may sit in a chunk of its own name (the
  // build groups the entry's static imports into one chunk), which the manifest lists as no entry.
  const start = htmlScripts(readFileSync(join(distDir, 'index.html'), 'utf8'));
  if (!start.length) throw new Error('index.html loads no module script');
  const byFile = new Map(Object.entries(manifest).map(([key, c]) => [c.file, key]));
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) visit(i);
  };
  for (const file of start) {
    const key = byFile.get(file);
    if (!key) throw new Error(`${file}, loaded by index.html, is not in the Vite manifest`);
    visit(key);
  }
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
