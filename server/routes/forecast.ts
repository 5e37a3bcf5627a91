/**
 * GET /forecast/point/{product}/v2.9/{lat}/{lon} (SPEC §7): every point variable of the product at
 * one place for every step of a run: for ingested runs from the point-series store (one read per
 * place, server/ingest/points.ts), for the demo product straight from the demo model, the same
 * values its tiles hold (server/data/servedProducts.ts). The header carries the model's terrain height
 * at the place (`modelElevation`, m) where the run has it (points.ts static section); the demo
 * product has none.
 */

import type { FastifyInstance } from 'fastify';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import type { PointForecast } from '../../common/forecast.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import {
  AnswerCache, POINT_HEADER_PROPERTIES, POINT_PARAMS_SCHEMA, POINT_QUERY_PROPERTIES, resolvePointRequest, SERIES_SCHEMA,
  setForecastCaching, type PointParams, type PointQuery,
} from './pointRequest.ts';

export { FORECAST_MAX_AGE_S } from './pointRequest.ts';
export { DEMO_POINT_UNITS as POINT_UNITS } from '../data/servedProducts.ts';

const POINT_SERIES = Object.values(VARIABLES).filter((v) => v.point).map((v) => v.ident);

const pointSchema = {
  params: POINT_PARAMS_SCHEMA,
  querystring: {
    type: 'object',
    // SPEC §7 lists refTime, step, interpolate, extended; the request layer adds token, uid, ...
    properties: { ...POINT_QUERY_PROPERTIES, extended: { type: 'boolean' } },
  },
  response: {
    200: {
      type: 'object',
      required: ['header', 'ts', 'data'],
      properties: {
        header: { type: 'object', properties: POINT_HEADER_PROPERTIES },
        ts: { type: 'array', items: { type: 'number' } },
        data: { type: 'object', properties: Object.fromEntries(POINT_SERIES.map((name) => [name, SERIES_SCHEMA])) },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface ForecastRouteOptions {
  served: ServedProducts;
}

/** Recent answers by (product, run, place, options). */
const ANSWER_CACHE_ENTRIES = 2048;

export async function forecastRoutes(app: FastifyInstance, options: ForecastRouteOptions): Promise<void> {
  const answers = new AnswerCache<PointForecast>(ANSWER_CACHE_ENTRIES);

  app.get<{ Params: PointParams; Querystring: PointQuery }>(
    '/forecast/point/:product/v2.9/:lat/:lon',
    { schema: pointSchema },
    async (request, reply) => {
      const r = await resolvePointRequest(options.served, request);
      const answer = await answers.get(r.key, () => r.run.point(r.lat, r.lon, { step: r.step, interpolate: r.interpolate, to: r.to, modelElevation: true }));
      setForecastCaching(reply, r.premium);
      return answer;
    },
  );
}
