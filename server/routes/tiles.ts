/**
 * GET /tiles/v1.0/{directory}/{ref}/{valid}/{z}/{x}/{y}/{file}-{level}.{suffix}
 * (common/api/tiles.ts; hour stamps YYYYMMDDHH), for ingested runs and the demo product
 * alike (server/data/servedProducts.ts). Data tiles are immutable per run, so they are cached for a year.
 * Accumulation files (rainAccu, gustAccu: common/catalogue/accumulations.ts) are asked with an
 * `acRange` query, whole hours: the answer is the amount or the extreme over [valid, valid + acRange],
 * made on request from the run's stored steps (server/data/accumulationTiles.ts); every other file
 * is refused with an acRange, an accumulation without one.
 * They are kept in the forms they are sent (server/data/servedTile.ts): gzip bytes for every client
 * that accepts gzip, and for the few that do not, identity bytes inflated once per cached tile.
 *
 * A tile that must be generated first waits for a worker thread (demo tiles: server/demo/demoTiles.ts);
 * when too many already wait, the answer is 503 with Retry-After, while cached tiles keep answering.
 */

import type { FastifyInstance } from 'fastify';
import { isValidTile, tileColumns, tileRows } from '../../common/tiling.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA, notFound } from '../http/httpError.ts';
import { hourStampParam, type ServedProducts } from '../data/servedProducts.ts';
import { BusyError } from '../data/workerPool.ts';
import { entitle } from '../auth/tier.ts';
import { DIRECTORY_PATTERN } from '../../common/api/products.ts';
import { TILE_ROUTE } from '../../common/api/tiles.ts';
import { AC_RANGE_MAX_HOURS, AC_RANGE_MIN_HOURS, isAccumulationFile } from '../../common/catalogue/accumulations.ts';
import { HOUR_MS } from '../../common/time.ts';

const TILE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Premium tiles (SPEC §6): only the browser that was allowed them keeps them. */
const PREMIUM_TILE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
const FILE_PATTERN = /^([A-Za-z0-9]+)-([A-Za-z0-9]+)\.([A-Za-z0-9]+)$/;

interface TileParams {
  dir: string;
  ref: string;
  valid: string;
  z: number;
  x: number;
  y: number;
  file: string;
}

const tileSchema = {
  params: {
    type: 'object',
    required: ['dir', 'ref', 'valid', 'z', 'x', 'y', 'file'],
    properties: {
      dir: { type: 'string', pattern: DIRECTORY_PATTERN },
      ref: { type: 'string', pattern: '^[0-9]{10}$' },
      valid: { type: 'string', pattern: '^[0-9]{10}$' },
      z: { type: 'integer', minimum: 0, maximum: 30 },
      x: { type: 'integer', minimum: 0 },
      y: { type: 'integer', minimum: 0 },
      file: { type: 'string', pattern: FILE_PATTERN.source },
    },
  },
  // acRange for accumulation files; fields the request layer adds (token, uid, ...) are ignored.
  querystring: {
    type: 'object',
    properties: { acRange: { type: 'integer', minimum: AC_RANGE_MIN_HOURS, maximum: AC_RANGE_MAX_HOURS } },
  },
  response: { '4xx': ERROR_RESPONSE_SCHEMA, '5xx': ERROR_RESPONSE_SCHEMA },
} as const;

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): "gzip" or "*" with q > 0,
 * unless gzip itself is listed with q=0.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (name === 'gzip' || name === 'x-gzip') gzip = q;
    else if (name === '*') any = q;
  }
  return gzip !== undefined ? gzip > 0 : (any ?? 0) > 0;
}

export interface TileRouteOptions {
  served: ServedProducts;
}

export async function tileRoutes(app: FastifyInstance, options: TileRouteOptions): Promise<void> {
  app.get<{ Params: TileParams; Querystring: { acRange?: number } }>(TILE_ROUTE, { schema: tileSchema, compress: false }, async (request, reply) => {
    const { dir, ref, valid, z, x, y, file } = request.params;
    const { acRange } = request.query;
    const data = await options.served.byDirectory(dir);
    const { product } = data;

    const [, name, level, suffix] = FILE_PATTERN.exec(file) ?? [];
    data.checkLayer(name, level, suffix);
    const run = await data.run(hourStampParam(ref, 'Reference time'));
    const validTime = hourStampParam(valid, 'Valid time');
    const accumulation = isAccumulationFile(name);
    if (accumulation && acRange === undefined) throw badRequest(`${name} is an accumulation: ask it with acRange, the range in hours (${AC_RANGE_MIN_HOURS} to ${AC_RANGE_MAX_HOURS})`);
    if (!accumulation && acRange !== undefined) throw badRequest(`acRange applies to accumulation tiles only, not to ${name}`);
    // An accumulation's steps are checked when it is planned (its start may be the run's start).
    if (!accumulation) run.checkStep(validTime, name, level);
    if (z > product.maxTileZoom.premium) throw notFound(`${product.ident} has tiles up to data zoom ${product.maxTileZoom.premium}, not ${z}`);
    if (!isValidTile({ z, x, y })) {
      throw notFound(`Tile ${z}/${x}/${y} is outside the pyramid: at data zoom ${z}, x < ${tileColumns(z)} and y < ${tileRows(z)}`);
    }
    // SPEC §6: higher zooms and the premium days need a Premium bearer token (403 otherwise).
    // An accumulation holds values up to the end of its range: that end decides the premium days.
    const lastValid = accumulation ? validTime + acRange! * HOUR_MS : validTime;
    const { premiumOnly } = await entitle(request, { kind: 'tile', product, refTime: run.refTime, validTime: lastValid, z, layer: name });

    let tile;
    try {
      tile = accumulation ? await run.accumulation(validTime, { z, x, y }, name, level, acRange!) : await run.tile(validTime, { z, x, y }, name, level);
    } catch (error) {
      if (!(error instanceof BusyError)) throw error;
      // Answered here, not thrown: a full queue under load is expected, not a server error to log.
      return reply.code(503).header('retry-after', String(error.retryAfterS)).header('cache-control', 'no-store')
        .send({ statusCode: 503, error: 'Service Unavailable', message: `Tile ${z}/${x}/${y} is not generated yet and the server is busy: ${error.message}` });
    }
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    const etag = gzip ? tile.etagGzip : tile.etagIdentity;
    reply
      .header('cache-control', premiumOnly ? PREMIUM_TILE_CACHE_CONTROL : TILE_CACHE_CONTROL)
      .header('vary', premiumOnly ? 'Accept-Encoding, Authorization' : 'Accept-Encoding')
      .header('etag', etag);
    if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag)) {
      return reply.code(304).send();
    }
    reply.type('application/octet-stream');
    if (gzip) {
      reply.header('content-encoding', 'gzip');
      return reply.send(tile.gzip);
    }
    return reply.send(await tile.identity());
  });
}
