/**
 * GET /forecast/point/{product}/v2.9/{lat}/{lon} (SPEC §7): every point variable of the product at
 * one place for every step of a run: for ingested runs from the point-series store (one read per
 * place, server/ingest/points.ts), for the demo product straight from the demo model, the same
 * values its tiles hold (server/data/servedProducts.ts). The header carries the model's terrain height
 * at the place (`modelElevation`, m) where the run has it (points.ts static section); the demo
 * product has none.
 */

import type { FastifyInstance } from 'fastify';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import type { PointForecast } from '../../common/api/forecast.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import {
  FORECAST_QUERY_PROPERTIES, POINT_ANSWER, POINT_ROUTE, POINT_SERIES, SERIES_SCHEMA, type ForecastQuery,
} from '../../common/api/forecast.ts';
import { AnswerCache, POINT_PARAMS_SCHEMA, resolvePointRequest, setForecastCaching, type PointParams } from './pointRequest.ts';

const pointSchema = {
  params: POINT_PARAMS_SCHEMA,
  querystring: {
    type: 'object',
    // SPEC §7 lists refTime, step, interpolate, extended; the request layer adds token, uid, ...
    properties: { ...FORECAST_QUERY_PROPERTIES, extended: { type: 'boolean' } },
  },
  response: {
    // The answer's series are the catalogue's point series: nothing else reaches a client.
    200: { ...POINT_ANSWER, properties: { ...POINT_ANSWER.properties, data: { type: 'object', properties: Object.fromEntries(POINT_SERIES.map((name) => [name, SERIES_SCHEMA])) } } },
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

  app.get<{ Params: PointParams; Querystring: ForecastQuery }>(
    POINT_ROUTE,
    { schema: pointSchema },
    async (request, reply) => {
      const r = await resolvePointRequest(options.served, request);
      const answer = await answers.get(r.key, () => r.run.point(r.lat, r.lon, { step: r.step, interpolate: r.interpolate, to: r.to, modelElevation: true }));
      setForecastCaching(reply, r.premium);
      return answer;
    },
  );
}
