/**
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}?refTime&step (SPEC §7): the pressure-level
 * series of one place for every step of a run — temperature, wind and geopotential height per
 * level — from the run's level store (levels.bin beside the point-series store,
 * server/ingest/points.ts). The detail window's airgram and meteogram read it.
 *
 *   { header: { product, refTime, lat, lon, step, levels: ['975h', ..., '10h'], units, sample? },
 *     ts: [ms, ...],
 *     data: { 'temp-850h': [K, ...], 'wind_u-850h': [m/s, ...], 'wind_v-850h': [...], 'gh-850h': [m, ...] } }
 *
 * A product without pressure levels (the demo product, wave and air-quality models, runs ingested
 * before the level store existed) answers 200 with `levels: []` and no series; an unknown product,
 * a run no longer kept or a place outside the model's area is a 404 naming what exists.
 */

import type { FastifyInstance } from 'fastify';
import { wrapLon } from '../../common/tiling.ts';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import { premiumDaysFrom, stepNeed } from '../../common/entitlements.ts';
import { isPremiumRequest, premiumRequired } from '../auth/tier.ts';
import { hourStampParam, type DataSources, type LevelForecast } from '../data/sources.ts';
import { FORECAST_MAX_AGE_S } from './forecast.ts';

/** SPEC §9: map bounds lat ±90, lon ±720. */
const MAX_ABS_LON = 720;
/** Recent answers by (product, run, place, options); runs never change. */
const ANSWER_CACHE_ENTRIES = 512;

const series = { type: 'array', items: { type: ['number', 'null'] } } as const;

const meteogramSchema = {
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
    properties: {
      step: { type: 'integer', enum: [1, 3] },
      refTime: { type: 'string', pattern: '^[0-9]{10,13}$' },
      interpolate: { type: 'boolean' },
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
            levels: { type: 'array', items: { type: 'string' } },
            units: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        ts: { type: 'array', items: { type: 'number' } },
        data: { type: 'object', additionalProperties: series },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface MeteogramRouteOptions {
  sources: DataSources;
}

interface MeteogramQuery {
  step?: number;
  refTime?: string;
  interpolate?: boolean;
}

export async function meteogramRoutes(app: FastifyInstance, options: MeteogramRouteOptions): Promise<void> {
  const answers = new Map<string, LevelForecast>();

  app.get<{ Params: { product: string; lat: number; lon: number }; Querystring: MeteogramQuery }>(
    '/forecast/meteogram/:product/v1.2/:lat/:lon',
    { schema: meteogramSchema },
    async (request, reply) => {
      const data = await options.sources.byIdent(request.params.product);
      const { lat } = request.params;
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
        answers.delete(key);
      } else {
        answer = await run.levels(lat, lon, { step, interpolate, to });
        if (answers.size >= ANSWER_CACHE_ENTRIES) answers.delete(answers.keys().next().value as string);
      }
      answers.set(key, answer);
      reply.header('cache-control', `${premium ? 'private' : 'public'}, max-age=${FORECAST_MAX_AGE_S}`).header('vary', 'Authorization');
      return answer;
    },
  );
}
