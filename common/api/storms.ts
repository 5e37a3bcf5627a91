/**
 * Tropical cyclones as the server publishes them (issue 15 §4; SPEC §2 /hurricanes/{id?}, §3
 * overlay hurricanes, §7 /tc/v2/storms): static JSON files of the observation publication
 * (server/obs/tropical), read by the hurricanes window and drawn by the render worker:
 *
 *   GET /obs/v1.0/storms/storms.json            -> StormList (every storm: active ones and the season's)
 *   GET /obs/v1.0/storms/{source}/{id}.json     -> StormDetail (track, forecast, cone)
 *
 * Times are ms since the epoch (UTC); winds knots (1-minute sustained, as NHC and JTWC give them);
 * pressures hPa; wind radii nautical miles per quadrant NE, SE, SW, NW.
 */

import type { Infer } from './schema.ts';

/** The storm kind of the observation publication: files under /obs/v1.0/storms/. */
export const STORMS_KIND = 'storms';
export const STORMS_BASE_PATH = `/obs/v1.0/${STORMS_KIND}`;
export const STORM_LIST_PATH = `${STORMS_BASE_PATH}/storms.json`;
export const stormDetailPath = (source: string, id: string): string => `${STORMS_BASE_PATH}/${source}/${id}.json`;

/** Storm ids: ATCF's basin, number and year in lower case (`al142018`, `wp192014`). */
export const STORM_ID_PATTERN = '^(al|ep|cp|wp|io|sh)[0-9]{2}[0-9]{4}$';

const NULLABLE_NUMBER = { type: ['number', 'null'] } as const;
const CATEGORY = { type: 'string', enum: ['TD', 'TS', 'H1', 'H2', 'H3', 'H4', 'H5'] } as const;
const QUADRANTS = { anyOf: [{ type: 'null' }, { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 4, maxItems: 4 }] } as const;

export const STORM_FIX = {
  type: 'object',
  required: ['time', 'lat', 'lon', 'windKt', 'pressureHpa', 'type'],
  properties: {
    time: { type: 'number' },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 360 },
    windKt: NULLABLE_NUMBER,
    pressureHpa: NULLABLE_NUMBER,
    /** ATCF storm type (TD, TS, TY, ST, HU, EX, LO, DB, ...); '' where the source gives none. */
    type: { type: 'string', maxLength: 2 },
    /** Wind radii of 34, 50 and 64 kt, nautical miles per quadrant (NE, SE, SW, NW). */
    radii: {
      type: 'object',
      properties: { r34: QUADRANTS, r50: QUADRANTS, r64: QUADRANTS },
    },
  },
} as const;
export type StormFix = Infer<typeof STORM_FIX>;

export const STORM_FORECAST_POINT = {
  type: 'object',
  required: ['time', 'hour', 'lat', 'lon', 'windKt'],
  properties: {
    time: { type: 'number' },
    hour: { type: 'number', minimum: 0 },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 360 },
    windKt: NULLABLE_NUMBER,
    gustKt: NULLABLE_NUMBER,
  },
} as const;
export type StormForecastPoint = Infer<typeof STORM_FORECAST_POINT>;

export const STORM_SUMMARY = {
  type: 'object',
  required: ['id', 'basin', 'name', 'source', 'active', 'category', 'maxWindKt', 'superTyphoon', 'start', 'last'],
  properties: {
    id: { type: 'string', pattern: STORM_ID_PATTERN },
    basin: { type: 'string', enum: ['AL', 'EP', 'CP', 'WP', 'IO', 'SH'] },
    name: { type: 'string' },
    /** nhc, jtwc (ATCF decks) or ibtracs (past storms of the season). */
    source: { type: 'string', enum: ['nhc', 'jtwc', 'ibtracs'] },
    active: { type: 'boolean' },
    /** Class of the storm's highest wind over its track (Saffir-Simpson, common/tropical/category.ts). */
    category: CATEGORY,
    maxWindKt: NULLABLE_NUMBER,
    minPressureHpa: NULLABLE_NUMBER,
    superTyphoon: { type: 'boolean' },
    start: { type: 'number' },
    /** The latest fix. */
    last: STORM_FIX,
  },
} as const;
export type StormSummary = Infer<typeof STORM_SUMMARY>;

export const STORM_LIST = {
  type: 'object',
  required: ['updated', 'storms'],
  properties: {
    updated: { type: 'number' },
    storms: { type: 'array', items: STORM_SUMMARY },
  },
} as const;
export type StormList = Infer<typeof STORM_LIST>;

export const STORM_DETAIL = {
  type: 'object',
  required: ['storm', 'track', 'forecast', 'cone', 'attribution'],
  properties: {
    storm: STORM_SUMMARY,
    track: { type: 'array', items: STORM_FIX },
    forecast: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['issued', 'points'],
          properties: { issued: { type: 'number' }, points: { type: 'array', items: STORM_FORECAST_POINT } },
        },
      ],
    },
    /** NHC's cone (common/tropical/cone.ts): convex rings [lon, lat, ...] whose union is the cone. */
    cone: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['season', 'rings'],
          properties: { season: { type: 'integer' }, rings: { type: 'array', items: { type: 'array', items: { type: 'number' } } } },
        },
      ],
    },
    attribution: { type: 'string' },
  },
} as const;
export type StormDetail = Infer<typeof STORM_DETAIL>;

/**
 * SPEC §7 GET /tc/v2/storms/active/count and /tc/v2/storms: the storm count the menu's hurricane
 * tracker shows, and the list (the same document as STORM_LIST_PATH), read from the publication.
 */
export const TC_ACTIVE_COUNT_PATH = '/tc/v2/storms/active/count';
export const TC_STORMS_PATH = '/tc/v2/storms';

export const TC_ACTIVE_COUNT_ANSWER = {
  type: 'object',
  required: ['count', 'updated'],
  properties: {
    count: { type: 'integer', minimum: 0 },
    /** When the storm list was last published, ms; null when nothing has been. */
    updated: { type: ['number', 'null'] },
  },
} as const;
export type TcActiveCountAnswer = Infer<typeof TC_ACTIVE_COUNT_ANSWER>;
