import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from './assets/build/precompress.ts';

const root = fileURLToPath(new URL('./ui', import.meta.url));

export default defineConfig({
  root,
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  // precompress: .br and .gz beside the built files, sent as stored by the server (staticApp.ts).
  plugins: [react(), precompress()],
  // The render worker is an ES module worker (DESIGN: workers/), so it can import the WASM loader.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Never inline .wasm as base64: the worker streams and compiles it (TOOLCHAIN.md).
    assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
    sourcemap: true,
    // dist/.vite/manifest.json: the import graph, from which the bench sums the initial JS.
    manifest: true,
    rolldownOptions: {
      // The service worker (Web Push, ui/push/sw.ts) is its own entry at a fixed address: its scope
      // is the folder it is served from, so it must be /sw.js, not a hashed asset.
      input: { index: fileURLToPath(new URL('./ui/index.html', import.meta.url)), sw: fileURLToPath(new URL('./ui/push/sw.ts', import.meta.url)) },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        // What the page's entry imports statically is one chunk (not a file per module shared with
        // a lazy panel): each module request costs the main thread while the page starts. The entry
        // module itself stays out (it awaits startUi, which imports this chunk: a cycle through a
        // top-level await never settles), and so do the service worker's modules (ui/push/): a
        // classic script, it shares no chunk.
        codeSplitting: { groups: [{ name: 'boot', tags: ['$initial'], test: (id: string) => !/[\\/]ui[\\/](?:push[\\/]|main\.ts$|index\.html)/.test(id) }] },
      },
    },
  },
  server: { port: 5173, fs: { allow: ['..'] } },
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['{common,engine,workers,ui,server,bench,assets}/**/*.test.{ts,tsx}'],
    environment: 'node',
    // No live-source probe of the internet from a server a test starts (server/live/config.ts).
    env: { ISOBAR_SOURCES: 'none' },
    testTimeout: 30_000,
    pool: 'threads',
    // Two at a time on two cores (vitest's default is one less than the cores): many files wait on
    // servers, databases and worker threads; server/routes + server/live took 85 s against 108 s.
    maxWorkers: 2,
  },
});
