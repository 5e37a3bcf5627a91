/**
 * GET /metadata/v1.0/{directory}/minifest.json (SPEC §7; common/minifest.ts minifestPath): the
 * current run's reference time and steps. Cached 10 minutes (SPEC §9: minifest 10 min).
 */

import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import { demoMinifest, demoRun } from '../demo/demoRun.ts';
import { servedProductByDirectory } from './servedProducts.ts';

export const MINIFEST_MAX_AGE_S = 600;

export const DIRECTORY_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

const minifestSchema = {
  params: {
    type: 'object',
    required: ['dir'],
    properties: { dir: { type: 'string', pattern: DIRECTORY_PATTERN } },
  },
  querystring: {
    type: 'object',
    // SPEC §7: ?premium=true for Premium; the request layer adds more fields, which are ignored.
    properties: { premium: { type: 'boolean' } },
  },
  response: {
    200: {
      type: 'object',
      required: ['ref', 'dst', 'v'],
      properties: {
        ref: { type: 'string' },
        dst: { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 3 } },
        update: { type: 'string' },
        v: { type: 'string' },
        demo: { type: 'boolean' },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface MetadataRouteOptions {
  now: () => number;
}

export async function metadataRoutes(app: FastifyInstance, options: MetadataRouteOptions): Promise<void> {
  app.get<{ Params: { dir: string } }>('/metadata/v1.0/:dir/minifest.json', { schema: minifestSchema }, async (request, reply) => {
    servedProductByDirectory(request.params.dir);
    reply.header('cache-control', `public, max-age=${MINIFEST_MAX_AGE_S}`);
    return demoMinifest(demoRun(options.now()));
  });
}
