/**
 * GET /forecast/point/{product}/v2.9/{lat}/{lon} (SPEC §7): every variable of the product at one
 * place for every step of the current run. For the demo product the series comes straight from
 * the demo model, the same values its tiles hold.
 */

import type { FastifyInstance } from 'fastify';
import { wrapLon } from '../../common/tiling.ts';
import { ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';
import { evaluatePoint } from '../demo/demoModel.ts';
import { DEMO_STEP_HOURS, demoRun } from '../demo/demoRun.ts';
import { servedProductByIdent } from './servedProducts.ts';

/** Clients cache GET answers for 5 minutes by default (SPEC §7); the run changes every 12 hours. */
export const FORECAST_MAX_AGE_S = 300;
/** SPEC §9: map bounds lat ±90, lon ±720; longitudes are wrapped into [-180, 180). */
const MAX_ABS_LON = 720;

/** Base units of the series (common/catalogue METRICS). */
export const POINT_UNITS = { wind: 'm/s', gust: 'm/s', temp: 'K', pressure: 'Pa', rain: 'mm/h', clouds: '%' } as const;

const SERIES = ['wind_u', 'wind_v', 'gust', 'temp', 'pressure', 'rain', 'clouds'] as const;
type SeriesName = (typeof SERIES)[number];

/** Decimals kept per series: well below what any unit shows, and a third of the JSON. */
const DECIMALS: Readonly<Record<SeriesName, number>> = {
  wind_u: 2, wind_v: 2, gust: 2, temp: 2, pressure: 1, rain: 3, clouds: 1,
};

const numberArray = { type: 'array', items: { type: 'number' } } as const;

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
      refTime: { type: 'string' },
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
            units: { type: 'object', additionalProperties: { type: 'string' } },
          },
        },
        ts: numberArray,
        data: { type: 'object', properties: Object.fromEntries(SERIES.map((name) => [name, numberArray])) },
      },
    },
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

export interface ForecastRouteOptions {
  now: () => number;
}

interface PointForecast {
  header: { product: string; refTime: number; lat: number; lon: number; step: number; demo: true; units: typeof POINT_UNITS };
  ts: number[];
  data: Record<SeriesName, number[]>;
}

function demoPointForecast(product: string, refTime: number, steps: readonly number[], lat: number, lon: number, step: number): PointForecast {
  const ts = steps.filter((_, k) => (k * DEMO_STEP_HOURS) % step === 0);
  const data: Record<SeriesName, number[]> = {
    wind_u: [], wind_v: [], gust: [], temp: [], pressure: [], rain: [], clouds: [],
  };
  for (const time of ts) {
    const p = evaluatePoint(lat, lon, time);
    data.wind_u.push(round(p.u, DECIMALS.wind_u));
    data.wind_v.push(round(p.v, DECIMALS.wind_v));
    data.gust.push(round(p.gust, DECIMALS.gust));
    data.temp.push(round(p.temp, DECIMALS.temp));
    data.pressure.push(round(p.pressure, DECIMALS.pressure));
    data.rain.push(round(p.rain, DECIMALS.rain));
    data.clouds.push(round(p.clouds, DECIMALS.clouds));
  }
  return { header: { product, refTime, lat, lon, step, demo: true, units: POINT_UNITS }, ts, data };
}

/** Recent answers by (run, place, step): demo values never change, so a repeated place costs nothing. */
const ANSWER_CACHE_ENTRIES = 2048;

export async function forecastRoutes(app: FastifyInstance, options: ForecastRouteOptions): Promise<void> {
  const answers = new Map<string, PointForecast>();

  app.get<{ Params: { product: string; lat: number; lon: number }; Querystring: { step?: number } }>(
    '/forecast/point/:product/v2.9/:lat/:lon',
    { schema: pointSchema },
    async (request, reply) => {
      const product = servedProductByIdent(request.params.product);
      const { lat } = request.params;
      // wrapLon's arithmetic would turn 14.4 into 14.399999999999977; only wrap what needs it.
      const lon = request.params.lon >= -180 && request.params.lon < 180 ? request.params.lon : wrapLon(request.params.lon);
      const step = request.query.step ?? DEMO_STEP_HOURS;
      const run = demoRun(options.now());
      const key = `${product.ident}/${run.refTime}/${lat}/${lon}/${step}`;
      let answer = answers.get(key);
      if (answer) {
        answers.delete(key); // re-insert: Map order is the LRU order
      } else {
        answer = demoPointForecast(product.ident, run.refTime, run.steps, lat, lon, step);
        if (answers.size >= ANSWER_CACHE_ENTRIES) answers.delete(answers.keys().next().value as string);
      }
      answers.set(key, answer);
      reply.header('cache-control', `public, max-age=${FORECAST_MAX_AGE_S}`);
      return answer;
    },
  );
}
