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
import type { LevelForecast } from '../../common/api/forecast.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import { FORECAST_QUERY_PROPERTIES, LEVEL_ANSWER, METEOGRAM_ROUTE, type ForecastQuery } from '../../common/api/forecast.ts';
import { AnswerCache, POINT_PARAMS_SCHEMA, resolvePointRequest, setForecastCaching, type PointParams } from './pointRequest.ts';

/** Recent answers by (product, run, place, options); runs never change. */
const ANSWER_CACHE_ENTRIES = 512;

const meteogramSchema = {
  params: POINT_PARAMS_SCHEMA,
  querystring: { type: 'object', properties: FORECAST_QUERY_PROPERTIES },
  response: {
    200: LEVEL_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface MeteogramRouteOptions {
  served: ServedProducts;
}

export async function meteogramRoutes(app: FastifyInstance, options: MeteogramRouteOptions): Promise<void> {
  const answers = new AnswerCache<LevelForecast>(ANSWER_CACHE_ENTRIES);

  app.get<{ Params: PointParams; Querystring: ForecastQuery }>(
    METEOGRAM_ROUTE,
    { schema: meteogramSchema },
    async (request, reply) => {
      const r = await resolvePointRequest(options.served, request);
      const answer = await answers.get(r.key, () => r.run.levels(r.lat, r.lon, { step: r.step, interpolate: r.interpolate, to: r.to, modelElevation: true }));
      setForecastCaching(reply, r.premium);
      return answer;
    },
  );
}
