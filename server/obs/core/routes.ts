/**
 * The observation products' files (contract common/api/obs.ts):
 *
 *   GET /obs/v1.0/status.json          the observation sources this server follows, with freshness
 *   GET /obs/v1.0/{kind}/{path...}     a published file of a family (store.ts), as written
 *
 * Documents at a family's top (its manifests, lists) are cached briefly; files inside items (tiles,
 * tracks) longer. A family can refuse some paths to some users (history for Premium only) through
 * `access`, which throws an HttpError, or answer a user a document of its own (`{ json }`: the part
 * of a manifest this user may read), sent uncached by shared caches; entitlement decisions
 * themselves live in common/entitlements.ts.
 */

import { createGunzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OBS_FILE_ROUTE, OBS_STATUS_ANSWER, OBS_STATUS_PATH, type ObsStatusAnswer } from '../../../common/api/obs.ts';
import { ERROR_RESPONSE_SCHEMA, notFound } from '../../http/httpError.ts';
import { acceptsGzip } from '../../routes/tiles.ts';
import type { ObsSourceStatus } from './poller.ts';
import { isObsKind, type ObsKind } from './source.ts';
import { isSafeObsPath, type ObsStore } from './store.ts';

const TOP_MAX_AGE_S = 30;
const ITEM_MAX_AGE_S = 3600;
/** Files of this extension are stored gzip-compressed (data tiles, common/tile.ts). */
const GZIP_STORED = 'tile';

const CONTENT_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  geojson: 'application/geo+json; charset=utf-8',
  png: 'image/png',
  webp: 'image/webp',
  tile: 'application/octet-stream',
  bin: 'application/octet-stream',
};

/**
 * What `access` decides: nothing (serve the file), the document to answer instead, or `private`:
 * serve the file, but as one only some users may have (Premium history), never kept by shared caches.
 */
export type ObsAccessAnswer = void | undefined | { json: unknown } | { private: true };

export interface ObsRouteOptions {
  store: ObsStore | null;
  status: () => ObsSourceStatus[];
  access?: (kind: ObsKind, path: string, request: FastifyRequest, store: ObsStore) => ObsAccessAnswer | Promise<ObsAccessAnswer>;
}

export async function obsRoutes(app: FastifyInstance, options: ObsRouteOptions): Promise<void> {
  app.get(OBS_STATUS_PATH, { schema: { response: { 200: OBS_STATUS_ANSWER } } }, async (_request, reply): Promise<ObsStatusAnswer> => {
    reply.header('cache-control', `public, max-age=${TOP_MAX_AGE_S}`);
    return {
      sources: options.status().map((s) => ({
        id: s.id, kind: s.kind, label: s.label, attribution: s.attribution, intervalMinutes: s.intervalMinutes,
        lastSuccess: s.lastSuccessAt === null ? null : new Date(s.lastSuccessAt).toISOString(),
        ok: s.lastError === null,
      })),
    };
  });

  app.get<{ Params: { kind: string; '*': string } }>(OBS_FILE_ROUTE, { schema: { response: { 404: ERROR_RESPONSE_SCHEMA } } }, async (request, reply) => {
    const { kind, '*': path } = request.params;
    if (!isObsKind(kind) || !isSafeObsPath(path) || options.store === null) throw notFound('No such observation file');
    const own = await options.access?.(kind, path, request, options.store);
    if (own && 'json' in own) {
      // Answered for this user (their tier decided what is in it): no shared cache may keep it.
      reply.header('content-type', CONTENT_TYPES.json);
      reply.header('cache-control', `private, max-age=${TOP_MAX_AGE_S}`);
      return reply.send(JSON.stringify(own.json));
    }
    const file = await options.store.file(kind, path);
    if (!file) throw notFound('No such observation file');
    const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    reply.header('content-type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
    reply.header('cache-control', `${own && 'private' in own ? 'private' : 'public'}, max-age=${path.includes('/') ? ITEM_MAX_AGE_S : TOP_MAX_AGE_S}`);
    reply.header('last-modified', new Date(file.modified).toUTCString());
    if (extension === GZIP_STORED) {
      // Data tiles are stored gzip-compressed (as the model tiles): sent as they are to clients
      // that take gzip, decompressed for the others.
      reply.header('vary', 'Accept-Encoding');
      if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(file.body().pipe(createGunzip()));
      reply.header('content-encoding', 'gzip');
    }
    reply.header('content-length', file.size);
    return reply.send(file.body());
  });
}
