/**
 * Where a module loaded by URL (a worker thread's task module, a program) is, under tsx or in the
 * server built by server/build.ts. A bundle's first lines set globalThis.__isobarBuiltServer: the URLs
 * of the sources' root and of the bundles' root; there, a source module's twin is the bundle of the
 * same path with .js for .ts (bundlePath; an entry of SERVER_ENTRIES).
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface BuiltServer {
  /** The repository's root, where the sources are: the `import.meta.url` of a bundled module is its source's URL. */
  sources: string;
  /** dist-server/, where the bundles are. */
  bundles: string;
}

/** The bundles' directory, in the repository's root. */
export const DIST_SERVER = 'dist-server';

/** A source module's path (relative, .ts, .mts or .cts) -> its bundle's path under DIST_SERVER. */
export function bundlePath(source: string): string {
  return source.replace(/\.([cm]?)ts$/, '.$1js');
}

const built = (globalThis as { __isobarBuiltServer?: BuiltServer }).__isobarBuiltServer ?? null;

/** Whether this process runs the built server (not tsx). */
export const isBuiltServer = built !== null;

/** The module to load for a source module's URL: itself under tsx, its bundle in the built server. */
export function runtimeModule(source: URL): URL {
  return built ? builtTwin(source, built) : source;
}

/** A source module's bundle; throws for a module outside the sources or without a bundle of its own. */
export function builtTwin(source: URL, server: BuiltServer): URL {
  if (!source.href.startsWith(server.sources)) throw new Error(`${source.href} is not a module of this server (${server.sources})`);
  const path = source.href.slice(server.sources.length);
  if (!/\.[cm]?ts$/.test(path)) throw new Error(`${path}: only TypeScript modules have a built twin`);
  return new URL(bundlePath(path), server.bundles);
}

/**
 * The bundle of a program of SERVER_ENTRIES (server/build.ts), for `node <it>`: what the tests, the
 * bench and `npm start` run (built by `npm run build`, like the app's dist/). Throws, naming the
 * build, when it is missing.
 */
export function builtProgram(entry: 'server/main.ts' | 'tests/fixedClockServer.ts'): string {
  const root = new URL('../../', import.meta.url);
  const bundle = fileURLToPath(new URL(`${DIST_SERVER}/${bundlePath(entry)}`, root));
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: build the server first (npm run build, or npm run build:server)`);
  return bundle;
}
