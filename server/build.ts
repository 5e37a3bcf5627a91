/**
 * The server compiled ahead of time (`npm run build:server`): each entry below bundled by esbuild
 * into dist-server/<its path>.js, packages left to node_modules. `node dist-server/server/main.js`
 * then starts in ~2.5 s where `tsx server/main.ts` took ~9 s on this machine (ready to serve the demo
 * product, no samples: 2.2 s against 9.3 s; CPU until then 2.7 s against 12.9 s): tsx compiles every module
 * and its source map on each start, in the main thread and again in every worker thread.
 *
 * Paths stay those of the sources: `import.meta.url` in a module is replaced by the URL of its source
 * file, computed from the bundle's own URL at run time, so `new URL('../../shared/data', ...)`,
 * createRequire and the WASM files resolve as under tsx, and a moved checkout still works. The task
 * modules of worker threads, loaded by URL, are mapped to their built twins, entries here
 * (runtimeModule, server/ops/builtModules.ts). Lazy imports are literal, so each is in its bundle.
 *
 * Source maps are written beside the bundles; `NODE_OPTIONS=--enable-source-maps` shows the
 * TypeScript positions in stack traces (not on by default: Node then reads every map at start).
 */

import { readFile, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { bundlePath, DIST_SERVER } from './ops/builtModules.ts';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST_SERVER_DIR = resolve(REPO_ROOT, DIST_SERVER);

/**
 * Every module started as a program or as a worker thread's task module. The last one is a test
 * server (tests/fixedClock.ts starts it for the render and observation specs).
 */
export const SERVER_ENTRIES = [
  'server/main.ts',
  'server/data/tileThread.ts',
  'server/geo/alternatesThread.ts',
  'tests/fixedClockServer.ts',
] as const;

/** The name the bundles give their own URL (the banner below defines it). */
const BUNDLE_URL = '__isobarBundleUrl';

/** Replaces `import.meta.url` in every source with its source file's URL, relative to the bundle. */
function sourceUrls(bundleDir: string): Plugin {
  return {
    name: 'source-urls',
    setup(pluginBuild) {
      // Packages stay external, so every module loaded here is a source of the repository.
      pluginBuild.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const fromBundle = relative(bundleDir, args.path).split('\\').join('/');
        return {
          contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, ${BUNDLE_URL}).href`),
          loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
        };
      });
    },
  };
}

/**
 * The first lines of a bundle: its own URL, and where the sources and the bundles are (BuiltServer,
 * server/ops/builtModules.ts), relative to it.
 */
function banner(toRepo: string, toOut: string): string {
  const dir = (path: string) => JSON.stringify(`${path.split('\\').join('/') || '.'}/`);
  return [
    `const ${BUNDLE_URL} = import.meta.url;`,
    `globalThis.__isobarBuiltServer ??= { sources: new URL(${dir(toRepo)}, import.meta.url).href, bundles: new URL(${dir(toOut)}, import.meta.url).href };`,
  ].join('\n');
}

/** Builds every entry; returns the bundles written. */
export async function buildServer(options: { outDir?: string; entries?: readonly string[] } = {}): Promise<string[]> {
  const outDir = options.outDir ?? DIST_SERVER_DIR;
  const entries = options.entries ?? SERVER_ENTRIES;
  await rm(outDir, { recursive: true, force: true });
  const written: string[] = [];
  // One build per entry: each bundle knows its own place, from which its sources' URLs are made.
  await Promise.all(entries.map(async (entry) => {
    const outFile = resolve(outDir, bundlePath(entry));
    const result = await build({
      entryPoints: [resolve(REPO_ROOT, entry)],
      outfile: outFile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
      banner: { js: banner(relative(dirname(outFile), REPO_ROOT), relative(dirname(outFile), outDir)) },
      plugins: [sourceUrls(dirname(outFile))],
    });
    if (result.errors.length) throw new Error(`${entry}: ${result.errors.map((e) => e.text).join('; ')}`);
    written.push(outFile);
  }));
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const written = await buildServer();
  console.log(`server built: ${written.map((f) => relative(REPO_ROOT, f)).join(', ')} in ${Math.round(performance.now() - started)} ms`);
}
