/**
 * The tile base maps this server offers (SPEC §2; contract common/api/basemaps.ts):
 *
 *   GET /metadata/v1.0/basemaps.json     which of outdoor, winter, satellite and topoMap are
 *                                        configured, and where their tiles are
 *   GET /basemap/v1/{style}.pmtiles      a PMTiles archive configured as a local file, by byte
 *                                        range (Range: bytes=a-b, 206), as PMTiles readers ask
 *
 * Configuration (README "Base maps"), one environment variable per style
 * (common/basemapStyles.ts TILE_BASEMAP_ENV), each one of:
 *   - a raster XYZ URL template with {z}, {x} and {y} (https://tiles.example/{z}/{x}/{y}.png);
 *   - the URL of a PMTiles archive of vector tiles (https://.../planet.pmtiles);
 *   - the path of a PMTiles archive on this machine (/srv/maps/planet.pmtiles), served here.
 * ISOBAR_BASEMAP_ATTRIBUTION is the credit line shown with every configured map. Browsers fetch
 * the tiles of another host from the render worker: that host must answer with CORS headers.
 */

import { open, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { BASEMAP_ARCHIVE_ROUTE, BASEMAPS_ANSWER, BASEMAPS_PATH, basemapArchivePath, type BasemapSource, type BasemapsAnswer } from '../../common/api/basemaps.ts';
import { TILE_BASEMAP_ENV, TILE_BASEMAP_STYLES, type TileBasemapStyle } from '../../common/basemapStyles.ts';
import { ERROR_RESPONSE_SCHEMA, HttpError, notFound } from '../http/httpError.ts';

/** Raster templates without a stated range: the zooms most XYZ servers have. */
const RASTER_MIN_ZOOM = 0;
const RASTER_MAX_ZOOM = 19;
/** PMTiles v3 header: 127 bytes; min and max zoom at bytes 100 and 101 (PMTiles v3 spec, "Header"). */
const PMTILES_HEADER_BYTES = 127;
const PMTILES_MAGIC = 'PMTiles';
const BASEMAPS_MAX_AGE_S = 60;
/** The largest range one request may ask for (a PMTiles reader asks for 16 KiB, then single tiles and leaf directories). */
const MAX_RANGE_BYTES = 32 * 1024 * 1024;

/** A configured style: the source as the clients see it, and, for a local archive, its file. */
export interface BasemapEntry {
  source: BasemapSource;
  file?: string;
}
export type BasemapConfig = Partial<Record<TileBasemapStyle, BasemapEntry>>;

export class BasemapConfigError extends Error {
  override name = 'BasemapConfigError';
}

/** Reads the min and max zoom of a local PMTiles v3 archive's header; a file that is not one is an error. */
async function archiveZooms(file: string): Promise<{ minZoom: number; maxZoom: number }> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(PMTILES_HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, PMTILES_HEADER_BYTES, 0);
    if (bytesRead < PMTILES_HEADER_BYTES || header.toString('latin1', 0, 7) !== PMTILES_MAGIC || header[7] !== 3) {
      throw new BasemapConfigError(`${file} is not a PMTiles v3 archive`);
    }
    return { minZoom: header[100], maxZoom: header[101] };
  } finally {
    await handle.close();
  }
}

/**
 * The configured base maps from the environment (TILE_BASEMAP_ENV). A value that is none of the
 * three forms, or a local archive that cannot be read, stops the server with the variable named.
 */
export async function basemapConfigFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<BasemapConfig> {
  const config: BasemapConfig = {};
  const attribution = env.ISOBAR_BASEMAP_ATTRIBUTION?.trim() || undefined;
  for (const style of TILE_BASEMAP_STYLES) {
    const name = TILE_BASEMAP_ENV[style];
    const value = env[name]?.trim();
    if (!value) continue;
    const remote = /^https?:\/\//i.test(value);
    const extra = attribution ? { attribution } : {};
    if (remote && /\{z\}/.test(value) && /\{x\}/.test(value) && /\{y\}/.test(value)) {
      config[style] = { source: { kind: 'raster', url: value, minZoom: RASTER_MIN_ZOOM, maxZoom: RASTER_MAX_ZOOM, ...extra } };
    } else if (/\.pmtiles([?#].*)?$/i.test(value)) {
      if (remote) {
        // The reader takes the zooms from the archive's own header.
        config[style] = { source: { kind: 'pmtiles', url: value, minZoom: 0, maxZoom: 24, ...extra } };
      } else {
        const file = isAbsolute(value) ? value : resolve(value);
        const zooms = await archiveZooms(file).catch((error: unknown) => {
          throw new BasemapConfigError(`${name}=${value}: ${(error as Error).message}`);
        });
        config[style] = { source: { kind: 'pmtiles', url: basemapArchivePath(style), ...zooms, ...extra }, file };
      }
    } else {
      throw new BasemapConfigError(`${name}=${value}: expected an http(s) URL template with {z}, {x} and {y}, or a PMTiles archive (URL or path ending in .pmtiles)`);
    }
  }
  return config;
}

/** The origins of the configured sources on other hosts (the Content-Security-Policy's connect-src lets the worker fetch them). */
export function basemapOrigins(config: BasemapConfig): string[] {
  const origins = new Set<string>();
  for (const entry of Object.values(config)) {
    if (entry && /^https?:\/\//i.test(entry.source.url)) origins.add(new URL(entry.source.url.replace(/[{}]/g, '')).origin);
  }
  return [...origins];
}

/** The byte range of a `Range: bytes=a-b` header (one range; a suffix `bytes=-n` too) within size bytes, else null. */
export function parseByteRange(header: string, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return null;
  return { start, end };
}

const basemapsSchema = { response: { 200: BASEMAPS_ANSWER } } as const;
const archiveSchema = {
  params: { type: 'object', required: ['file'], properties: { file: { type: 'string', pattern: '^[A-Za-z]{1,32}\\.pmtiles$' } } },
  response: { '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

export interface BasemapRouteOptions {
  config: BasemapConfig;
}

export async function basemapRoutes(app: FastifyInstance, { config }: BasemapRouteOptions): Promise<void> {
  const answer: BasemapsAnswer = { sources: {} };
  for (const style of TILE_BASEMAP_STYLES) {
    const entry = config[style];
    if (entry) answer.sources[style] = entry.source;
  }

  app.get(BASEMAPS_PATH, { schema: basemapsSchema }, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${BASEMAPS_MAX_AGE_S}`);
    return answer;
  });

  // The archive is sent as stored (its tiles are compressed inside it): no response compression.
  app.get<{ Params: { file: string } }>(BASEMAP_ARCHIVE_ROUTE, { schema: archiveSchema, compress: false }, async (request, reply) => {
    const style = request.params.file.replace(/\.pmtiles$/, '') as TileBasemapStyle;
    const file = TILE_BASEMAP_STYLES.includes(style) ? config[style]?.file : undefined;
    if (!file) throw notFound(`No local archive is configured for the base map ${style}`);
    const { size, mtimeMs } = await stat(file);
    reply.header('accept-ranges', 'bytes');
    reply.header('etag', `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`);
    reply.header('cache-control', 'public, max-age=3600');
    reply.header('content-type', 'application/vnd.pmtiles');
    const rangeHeader = request.headers.range;
    let start = 0;
    let end = size - 1;
    if (rangeHeader !== undefined) {
      const range = parseByteRange(rangeHeader, size);
      if (!range) {
        reply.header('content-range', `bytes */${size}`);
        throw new HttpError(416, `Range ${rangeHeader} is not within the ${size} bytes of the archive`);
      }
      ({ start, end } = range);
      if (end - start + 1 > MAX_RANGE_BYTES) throw new HttpError(416, `Range ${rangeHeader} is larger than ${MAX_RANGE_BYTES} bytes`);
      reply.code(206);
      reply.header('content-range', `bytes ${start}-${end}/${size}`);
    } else if (size > MAX_RANGE_BYTES) {
      throw new HttpError(416, `The archive is read by byte range (Range: bytes=a-b), at most ${MAX_RANGE_BYTES} bytes at a time`);
    }
    const length = end - start + 1;
    const handle = await open(file, 'r');
    try {
      const bytes = Buffer.alloc(length);
      await handle.read(bytes, 0, length, start);
      return reply.send(bytes);
    } finally {
      await handle.close();
    }
  });
}
