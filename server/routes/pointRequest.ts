/**
 * What the per-place forecast routes share (GET /forecast/point/... and /forecast/meteogram/...):
 * the path and query schema, resolving the product, run and place of a request with the Premium
 * rules of SPEC §6 and §9 (server/auth/tier.ts entitle: the default step is 3 h free, 1 h Premium;
 * 1-hour steps need Premium; free answers end before the premium days), and a
 * small LRU of answers (runs never change, so a repeated place costs nothing).
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ForecastQuery } from '../../common/api/forecast.ts';
import { wrapLon } from '../../common/tiling.ts';
import { entitle } from '../auth/tier.ts';
import { COORDINATE_SCHEMA, parseCoordinate } from '../http/coordinates.ts';
import { hourStampParam, type ServedProducts, type ProductData, type RunData } from '../data/servedProducts.ts';

/** Clients cache GET answers for 5 minutes by default (SPEC §7); the run changes every 12 hours. */
const FORECAST_MAX_AGE_S = 300;
export const POINT_PARAMS_SCHEMA = {
  type: 'object',
  required: ['product', 'lat', 'lon'],
  properties: {
    product: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    // SPEC §9 map bounds lat ±90, lon ±720 (parseCoordinate); longitudes are wrapped into [-180, 180).
    lat: COORDINATE_SCHEMA,
    lon: COORDINATE_SCHEMA,
  },
} as const;

export interface PointParams { product: string; lat: string; lon: string }

export interface PointRequest {
  data: ProductData;
  run: RunData;
  lat: number;
  lon: number;
  /** Hours between values: the one asked, else the tier's default (SPEC §9). */
  step: number;
  interpolate?: boolean;
  /** Last valid time a free request may see; undefined for Premium and for samples. */
  to?: number;
  premium: boolean;
  /** The answer cache key of this request. */
  key: string;
}

export async function resolvePointRequest(
  served: ServedProducts,
  request: FastifyRequest<{ Params: PointParams; Querystring: ForecastQuery }>,
): Promise<PointRequest> {
  const lat = parseCoordinate(request.params.lat, 'lat');
  const rawLon = parseCoordinate(request.params.lon, 'lon');
  const data = await served.byIdent(request.params.product);
  // wrapLon's arithmetic would turn 14.4 into 14.399999999999977; only wrap what needs it.
  const lon = rawLon >= -180 && rawLon < 180 ? rawLon : wrapLon(rawLon);
  const { refTime, interpolate } = request.query;
  const run = refTime === undefined ? await data.current()
    : await data.run(refTime.length === 10 ? hourStampParam(refTime, 'refTime') : Number(refTime));
  const { step, to, premium } = await entitle(request, { kind: 'series', product: data.product, refTime: run.refTime, step: request.query.step });
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
