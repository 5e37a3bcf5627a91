/**
 * The per-place forecast contract (SPEC §7) shared by the server (server/routes/forecast.ts,
 * meteogram.ts) and the detail window (ui/panels/detail/):
 *
 *   GET /forecast/point/{product}/v2.9/{lat}/{lon}?refTime&step&interpolate&extended -> PointForecast
 *   GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}?refTime&step                 -> LevelForecast
 *
 * Values are in the catalogue's base units, one per step, null where there is no data. Without
 * `step` the answer has the caller's tier's default step (SPEC §9: 3 h free, 1 h Premium).
 */

import { VARIABLES } from '../catalogue/variables.ts';
import type { Infer, Same } from './schema.ts';

export const POINT_ROUTE = '/forecast/point/:product/v2.9/:lat/:lon';
export const METEOGRAM_ROUTE = '/forecast/meteogram/:product/v1.2/:lat/:lon';

/** SPEC §7 query fields the forecast routes read; the request layer adds token, uid, ... which are ignored. */
export interface ForecastQuery {
  /** Hours between values (1 needs Premium). */
  step?: 1 | 3;
  /** A run still kept on the server, as the tile paths write it (YYYYMMDDHH), or in ms. */
  refTime?: string;
  interpolate?: boolean;
}

export const FORECAST_QUERY_PROPERTIES = {
  step: { type: 'integer', enum: [1, 3] },
  refTime: { type: 'string', pattern: '^[0-9]{10,13}$' },
  interpolate: { type: 'boolean' },
} as const;

function withQuery(path: string, query: ForecastQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const pointPath = (product: string, lat: number, lon: number, query: ForecastQuery = {}): string =>
  withQuery(`/forecast/point/${encodeURIComponent(product)}/v2.9/${lat}/${lon}`, query);
export const meteogramPath = (product: string, lat: number, lon: number, query: ForecastQuery = {}): string =>
  withQuery(`/forecast/meteogram/${encodeURIComponent(product)}/v1.2/${lat}/${lon}`, query);

/** The header fields both answers carry (see PointForecast's). */
const FORECAST_HEADER_PROPERTIES = {
  product: { type: 'string' },
  refTime: { type: 'number' },
  lat: { type: 'number' },
  lon: { type: 'number' },
  step: { type: 'integer' },
  modelStep: { type: 'integer' },
  demo: { type: 'boolean' },
  sample: { type: 'boolean' },
  units: { type: 'object', additionalProperties: { type: 'string' } },
  modelElevation: { type: 'number' },
} as const;
const HEADER_REQUIRED = ['product', 'refTime', 'lat', 'lon', 'step', 'modelStep', 'units'] as const;

export const SERIES_SCHEMA = { type: 'array', items: { type: ['number', 'null'] } } as const;
/** The point series of the catalogue (SPEC §3 variables with a point forecast). */
export const POINT_SERIES = Object.values(VARIABLES).filter((v) => v.point).map((v) => v.ident);

export const POINT_ANSWER = {
  type: 'object',
  required: ['header', 'ts', 'data'],
  properties: {
    header: { type: 'object', required: HEADER_REQUIRED, properties: FORECAST_HEADER_PROPERTIES },
    ts: { type: 'array', items: { type: 'number' } },
    data: { type: 'object', additionalProperties: SERIES_SCHEMA },
  },
} as const;

export const LEVEL_ANSWER = {
  type: 'object',
  required: ['header', 'ts', 'data'],
  properties: {
    header: {
      type: 'object',
      required: [...HEADER_REQUIRED, 'levels'],
      properties: { ...FORECAST_HEADER_PROPERTIES, levels: { type: 'array', items: { type: 'string' } } },
    },
    ts: { type: 'array', items: { type: 'number' } },
    data: { type: 'object', additionalProperties: SERIES_SCHEMA },
  },
} as const;

/** GET /forecast/point/{product}/v2.9/{lat}/{lon}. */
export interface PointForecast {
  header: {
    product: string;
    refTime: number;
    lat: number;
    lon: number;
    /** Hours between the values sent: the step asked, else the caller's tier's default (SPEC §9). */
    step: number;
    /**
     * The model's own step, hours: the smallest gap between the run's steps before `step` kept
     * some of them (a free answer of an hourly model holds 3-hourly values; this says it is hourly).
     */
    modelStep: number;
    demo?: boolean;
    sample?: boolean;
    units: Record<string, string>;
    /**
     * The forecast model's terrain height at the place, m above mean sea level (bilinear between
     * its grid points, as the values): what the model's surface values are for, which may differ
     * from the place's real height by hundreds of metres in the mountains. Absent when the run has
     * no orography (the demo product, waves, air quality) or the request did not ask for it.
     */
    modelElevation?: number;
  };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

/**
 * GET /forecast/meteogram/{product}/v1.2/{lat}/{lon}: pressure-level series keyed
 * `{ident}-{level}` (temp-850h, wind_u-850h, wind_v-850h, gh-850h); `levels` lists the levels
 * present from the ground up, empty when the product has none.
 */
export interface LevelForecast {
  header: PointForecast['header'] & { levels: string[] };
  ts: number[];
  data: Record<string, (number | null)[]>;
}

// The documented interfaces above and the schemas describe the same answers.
const pointSchemaMatches: Same<Infer<typeof POINT_ANSWER>['header'], PointForecast['header']> = true;
const levelSchemaMatches: Same<Infer<typeof LEVEL_ANSWER>['header'], LevelForecast['header']> = true;
void pointSchemaMatches;
void levelSchemaMatches;
