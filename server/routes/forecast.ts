/**
 * GET /forecast/point/{product}/v2.9/{lat}/{lon} (SPEC §7): every point variable of the product at
 * one place for every step of a run: for ingested runs from the point-series store (one read per
 * place, server/ingest/points.ts), for the demo product straight from the demo model, the same
 * values its tiles hold (server/data/sources.ts).
 */

import type { FastifyInstance } from 'fastify';
import { VARIABLES } from '../../common/catalogue/variables.ts';
import { wrapLon } from '../../common/tiling.ts';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import { premiumDaysFrom, stepNeed } from '../../common/entitlements.ts';
import { isPremiumRequest, premiumRequired } from '../auth/tier.ts';
import { hourStampParam, type DataSources, type PointForecast } from '../data/sources.ts';

/** Clients cache GET answers for 5 minutes by default (SPEC §7); the run changes every 12 hours. */
export const FORECAST_MAX_AGE_S = 300;
/** SPEC §9: map bounds lat ±90, lon ±720; longitudes are wrapped into [-180, 180). */
const MAX_ABS_LON = 720;

export { DEMO_POINT_UNITS as POINT_UNITS } from '../data/sources.ts';

const series = { type: 'array', items: { type: ['number', 'null'] } } as const;
const POINT_SERIES = Object.values(VARIABLES).filter((v) => v.point).map((v) => v.ident);

const pointSchema = {
  params: {
    type: 'object',
    required: ['product', 'lat', 'lon'],
    properties: {
      product: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lon: { type: 'number', minimum: -MAX_ABS_LON, maximum: MAX_ABS_LON },
    },
  },
  querystring: {
    type: 'object',
    // SPEC §7 lists refTime, step, interpolate, extended; the request layer adds token, uid, ...
    properties: {
      step: { type: 'integer', enum: [1, 3] },
      // A run still kept on the server, as the tile paths write it (YYYYMMDDHH) or in ms.
      refTime: { type: 'string', pattern: '^[0-9]{10,13}$' },
      interpolate: { type: 'boolean' },
      extended: { type: 'boolean' },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['header', 'ts', 'data'],
      properties: {
        header: {
          type: 'object',
          properties: {
            product: { type: 'string' },
            refTime: { type: 'number' },
            lat: { type: 'number' },
            lon: { type: 'number' },
            step: { type: 'integer' },
            demo: { type: 'boolean' },
            sample: { type: 'boolean' },
            units: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        ts: { type: 'array', items: { type: 'number' } },
        data: { type: 'object', properties: Object.fromEntries(POINT_SERIES.map((name) => [name, series])) },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface ForecastRouteOptions {
  sources: DataSources;
}

interface PointQuery {
  step?: number;
  refTime?: string;
  interpolate?: boolean;
}

/** Recent answers by (product, run, place, options): runs never change, so a repeated place costs nothing. */
const ANSWER_CACHE_ENTRIES = 2048;

export async function forecastRoutes(app: FastifyInstance, options: ForecastRouteOptions): Promise<void> {
  const answers = new Map<string, PointForecast>();

  app.get<{ Params: { product: string; lat: number; lon: number }; Querystring: PointQuery }>(
    '/forecast/point/:product/v2.9/:lat/:lon',
    { schema: pointSchema },
    async (request, reply) => {
      const data = await options.sources.byIdent(request.params.product);
      const { lat } = request.params;
      // wrapLon's arithmetic would turn 14.4 into 14.399999999999977; only wrap what needs it.
      const lon = request.params.lon >= -180 && request.params.lon < 180 ? request.params.lon : wrapLon(request.params.lon);
      const { step, refTime, interpolate } = request.query;
      const run = refTime === undefined ? await data.current()
        : await data.run(refTime.length === 10 ? hourStampParam(refTime, 'refTime') : Number(refTime));
      // SPEC §6: 1-hour steps need Premium (403); free answers end before the premium days.
      const need = stepNeed(step);
      const premium = await isPremiumRequest(request);
      if (need && !premium) throw premiumRequired(need);
      // Free answers end before the premium days.
      const premiumDays = premium ? null : premiumDaysFrom(data.product, run.refTime);
      const to = premiumDays === null ? undefined : premiumDays - 1;
      const key = `${data.product.ident}/${run.refTime}/${lat}/${lon}/${step}/${interpolate}/${to}`;
      let answer = answers.get(key);
      if (answer) {
        answers.delete(key); // re-insert: Map order is the LRU order
      } else {
        answer = await run.point(lat, lon, { step, interpolate, to });
        if (answers.size >= ANSWER_CACHE_ENTRIES) answers.delete(answers.keys().next().value as string);
      }
      answers.set(key, answer);
      reply.header('cache-control', `${premium ? 'private' : 'public'}, max-age=${FORECAST_MAX_AGE_S}`).header('vary', 'Authorization');
      return answer;
    },
  );
}
