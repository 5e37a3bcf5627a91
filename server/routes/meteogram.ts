/**
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}?refTime&step (SPEC §7): the pressure-level
 * series of one place for every step of a run — temperature, wind and geopotential height per
 * level — from the run's level store (levels.bin beside the point-series store,
 * server/ingest/points.ts). The detail window's airgram and meteogram read it.
 *
 *   { header: { product, refTime, lat, lon, step, levels: ['975h', ..., '10h'], units, sample?, modelElevation? },
 *     ts: [ms, ...],
 *     data: { 'temp-850h': [K, ...], 'wind_u-850h': [m/s, ...], 'wind_v-850h': [...], 'gh-850h': [m, ...] } }
 *
 * A product without pressure levels (the demo product, wave and air-quality models, runs ingested
 * before the level store existed) answers 200 with `levels: []` and no series; an unknown product,
 * a run no longer kept or a place outside the model's area is a 404 naming what exists.
 */

import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import type { LevelForecast } from '../../common/forecast.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import {
  AnswerCache, POINT_HEADER_PROPERTIES, POINT_PARAMS_SCHEMA, POINT_QUERY_PROPERTIES, resolvePointRequest, SERIES_SCHEMA,
  setForecastCaching, type PointParams, type PointQuery,
} from './pointRequest.ts';

/** Recent answers by (product, run, place, options); runs never change. */
const ANSWER_CACHE_ENTRIES = 512;

const meteogramSchema = {
  params: POINT_PARAMS_SCHEMA,
  querystring: { type: 'object', properties: POINT_QUERY_PROPERTIES },
  response: {
    200: {
      type: 'object',
      required: ['header', 'ts', 'data'],
      properties: {
        header: { type: 'object', properties: { ...POINT_HEADER_PROPERTIES, levels: { type: 'array', items: { type: 'string' } } } },
        ts: { type: 'array', items: { type: 'number' } },
        data: { type: 'object', additionalProperties: SERIES_SCHEMA },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface MeteogramRouteOptions {
  served: ServedProducts;
}

export async function meteogramRoutes(app: FastifyInstance, options: MeteogramRouteOptions): Promise<void> {
  const answers = new AnswerCache<LevelForecast>(ANSWER_CACHE_ENTRIES);

  app.get<{ Params: PointParams; Querystring: PointQuery }>(
    '/forecast/meteogram/:product/v1.2/:lat/:lon',
    { schema: meteogramSchema },
    async (request, reply) => {
      const r = await resolvePointRequest(options.served, request);
      const answer = await answers.get(r.key, () => r.run.levels(r.lat, r.lon, { step: r.step, interpolate: r.interpolate, to: r.to, modelElevation: true }));
      setForecastCaching(reply, r.premium);
      return answer;
    },
  );
}
