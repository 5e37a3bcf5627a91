/**
 * GET /metadata/v1.0/{directory}/minifest.json (SPEC §7; the contract is common/api/products.ts): the
 * current run's reference time and steps, for ingested runs and the demo product alike
 * (server/data/servedProducts.ts). Cached 10 minutes (SPEC §9: minifest 10 min).
 *
 * GET /metadata/v1.0/products.json: the products this server has data for (the product picker's
 * list), `{ products: [{ ident, directory, ref, demo?, sample?, minifest }] }`, each with its free
 * minifest, so a page starts from one request; cached 1 minute.
 */

import type { FastifyInstance } from 'fastify';
import { DIRECTORY_PATTERN, MINIFEST_ANSWER, MINIFEST_ROUTE, PRODUCTS_ANSWER, PRODUCTS_PATH } from '../../common/api/products.ts';
import { isPremiumRequest } from '../auth/tier.ts';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import type { ServedProducts } from '../data/servedProducts.ts';

const MINIFEST_MAX_AGE_S = 600;
const PRODUCTS_MAX_AGE_S = 60;

const productsSchema = { response: { 200: PRODUCTS_ANSWER } } as const;

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
    200: MINIFEST_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface MetadataRouteOptions {
  served: ServedProducts;
}

export async function metadataRoutes(app: FastifyInstance, options: MetadataRouteOptions): Promise<void> {
  app.get(PRODUCTS_PATH, { schema: productsSchema }, async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${PRODUCTS_MAX_AGE_S}`);
    return { products: await options.served.served() };
  });

  app.get<{ Params: { dir: string }; Querystring: { premium?: boolean } }>(MINIFEST_ROUTE, { schema: minifestSchema }, async (request, reply) => {
    const data = await options.served.byDirectory(request.params.dir);
    const minifest = await data.minifest();
    // SPEC §6: ?premium=true is only honoured for a Premium bearer token; for anyone else it is the
    // free minifest. (Both are the same runs today: the premium update intervals come with live
    // sources that publish more runs.) A Premium answer is kept only by its browser.
    const premium = request.query.premium === true && await isPremiumRequest(request);
    reply.header('cache-control', `${premium ? 'private' : 'public'}, max-age=${MINIFEST_MAX_AGE_S}`);
    if (request.query.premium !== undefined) reply.header('vary', 'Authorization');
    return minifest;
  });
}
