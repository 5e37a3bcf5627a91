/**
 * What the per-place forecast routes share (GET /forecast/point/... and /forecast/meteogram/...):
 * the path and query schema, resolving the product, run and place of a request with the Premium
 * rules of SPEC §6 (1-hour steps need Premium; free answers end before the premium days), and a
 * small LRU of answers (runs never change, so a repeated place costs nothing).
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { premiumDaysFrom, stepNeed } from '../../common/entitlements.ts';
import { wrapLon } from '../../common/tiling.ts';
import { isPremiumRequest, premiumRequired } from '../auth/tier.ts';
import { hourStampParam, type ServedProducts, type ProductData, type RunData } from '../data/servedProducts.ts';

/** Clients cache GET answers for 5 minutes by default (SPEC §7); the run changes every 12 hours. */
export const FORECAST_MAX_AGE_S = 300;
/** SPEC §9: map bounds lat ±90, lon ±720; longitudes are wrapped into [-180, 180). */
const MAX_ABS_LON = 720;

export const POINT_PARAMS_SCHEMA = {
  type: 'object',
  required: ['product', 'lat', 'lon'],
  properties: {
    product: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -MAX_ABS_LON, maximum: MAX_ABS_LON },
  },
} as const;

/** SPEC §7 query fields both routes read; the request layer adds token, uid, ... which are ignored. */
export const POINT_QUERY_PROPERTIES = {
  step: { type: 'integer', enum: [1, 3] },
  // A run still kept on the server, as the tile paths write it (YYYYMMDDHH) or in ms.
  refTime: { type: 'string', pattern: '^[0-9]{10,13}$' },
  interpolate: { type: 'boolean' },
} as const;

/** The header fields both answers carry. */
export const POINT_HEADER_PROPERTIES = {
  product: { type: 'string' },
  refTime: { type: 'number' },
  lat: { type: 'number' },
  lon: { type: 'number' },
  step: { type: 'integer' },
  demo: { type: 'boolean' },
  sample: { type: 'boolean' },
  units: { type: 'object', additionalProperties: { type: 'string' } },
  /** The model's terrain height at the place, m (server/data/servedProducts.ts PointForecast); absent when the model has none. */
  modelElevation: { type: 'number' },
} as const;

export const SERIES_SCHEMA = { type: 'array', items: { type: ['number', 'null'] } } as const;

export interface PointParams { product: string; lat: number; lon: number }
export interface PointQuery { step?: number; refTime?: string; interpolate?: boolean }

export interface PointRequest {
  data: ProductData;
  run: RunData;
  lat: number;
  lon: number;
  step?: number;
  interpolate?: boolean;
  /** Last valid time a free request may see; undefined for Premium and for samples. */
  to?: number;
  premium: boolean;
  /** The answer cache key of this request. */
  key: string;
}

export async function resolvePointRequest(
  served: ServedProducts,
  request: FastifyRequest<{ Params: PointParams; Querystring: PointQuery }>,
): Promise<PointRequest> {
  const data = await served.byIdent(request.params.product);
  const { lat } = request.params;
  // wrapLon's arithmetic would turn 14.4 into 14.399999999999977; only wrap what needs it.
  const lon = request.params.lon >= -180 && request.params.lon < 180 ? request.params.lon : wrapLon(request.params.lon);
  const { step, refTime, interpolate } = request.query;
  const run = refTime === undefined ? await data.current()
    : await data.run(refTime.length === 10 ? hourStampParam(refTime, 'refTime') : Number(refTime));
  const need = stepNeed(step);
  const premium = await isPremiumRequest(request);
  if (need && !premium) throw premiumRequired(need);
  const premiumDays = premium ? null : premiumDaysFrom(data.product, run.refTime);
  const to = premiumDays === null ? undefined : premiumDays - 1;
  const key = `${data.product.ident}/${run.refTime}/${lat}/${lon}/${step}/${interpolate}/${to}`;
  return { data, run, lat, lon, step, interpolate, to, premium, key };
}

/** Premium answers are private to their token; free ones may sit in shared caches. */
export function setForecastCaching(reply: FastifyReply, premium: boolean): void {
  reply.header('cache-control', `${premium ? 'private' : 'public'}, max-age=${FORECAST_MAX_AGE_S}`).header('vary', 'Authorization');
}

/** A least-recently-used cache of answers by key. */
export class AnswerCache<T> {
  private readonly answers = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  async get(key: string, compute: () => Promise<T>): Promise<T> {
    let answer = this.answers.get(key);
    if (answer !== undefined) {
      this.answers.delete(key); // re-insert: Map order is the LRU order
    } else {
      answer = await compute();
      if (this.answers.size >= this.capacity) this.answers.delete(this.answers.keys().next().value as string);
    }
    this.answers.set(key, answer);
    return answer;
  }
}
