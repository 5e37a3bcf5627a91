/**
 * Tide forecast (SPEC §1 "tide forecast" for Premium, §7 GET /tides/v1.0/tides/{lat}/{lon} or /{id},
 * §8 "We do not provide tide forecast for this location"), shared by the server (server/tides/) and
 * the UI (the detail window, the tide POI layer):
 *
 *   GET /tides/v1.0/tides/{lat}/{lon}?from&to  -> TideAnswer of the nearest station within
 *                                                 TIDE_MAX_DISTANCE_KM (common/tides.ts), else a
 *                                                 404 with the SPEC §8 text
 *   GET /tides/v1.0/tides/{id}?from&to         -> TideAnswer of the station ("noaa:9449880"), 404
 *                                                 when there is none of that id
 *   GET /tides/v1.0/stations                   -> TideStationsAnswer: every station served (the
 *                                                 POI layer's marks; names and places, no values)
 *
 * A tide answer is a forecast only Premium has (common/entitlements.ts grantTides): a caller without
 * Premium gets a 403 saying so. Heights are metres above the station's chart datum (`datum`, e.g.
 * MLLW); times ms since the epoch.
 */

import { TIDE_MAX_RANGE_MS, TIDE_STATION_ID_PATTERN } from '../tides.ts';
import type { Infer } from './schema.ts';

export const TIDE_POINT_ROUTE = '/tides/v1.0/tides/:lat/:lon';
export const TIDE_STATION_ROUTE = '/tides/v1.0/tides/:id';
export const TIDE_STATIONS_ROUTE = '/tides/v1.0/stations';

/** A database id ("noaa/9449880") as a path segment ("noaa:9449880"), and back. */
export const tideIdSegment = (id: string): string => id.replace('/', ':');
export const tideIdFromSegment = (segment: string): string => segment.replace(':', '/');

function query(range: { from?: number; to?: number }): string {
  const params = new URLSearchParams();
  if (range.from !== undefined) params.set('from', String(Math.round(range.from)));
  if (range.to !== undefined) params.set('to', String(Math.round(range.to)));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function tidePointPath(lat: number, lon: number, range: { from?: number; to?: number } = {}): string {
  return `/tides/v1.0/tides/${lat}/${lon}${query(range)}`;
}

export function tideStationPath(id: string, range: { from?: number; to?: number } = {}): string {
  return `/tides/v1.0/tides/${tideIdSegment(id)}${query(range)}`;
}

/** Times are ms since the epoch; a range longer than TIDE_MAX_RANGE_MS is a 400. */
export const TIDE_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** Start of the range, ms (default: the start of the current hour). */
    from: { type: 'integer', minimum: 0, maximum: 8.64e15 },
    /** End of the range, ms (default: from + 3 days); at most TIDE_MAX_RANGE_MS after from. */
    to: { type: 'integer', minimum: 0, maximum: 8.64e15 },
  },
} as const;
export type TideQuery = Infer<typeof TIDE_QUERY>;
export { TIDE_MAX_RANGE_MS };

export const TIDE_STATION_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: TIDE_STATION_ID_PATTERN } },
} as const;

export const TIDE_STATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'lat', 'lon', 'type', 'timezone', 'source', 'license', 'attribution', 'datum'],
  properties: {
    /** The path segment of the station ("noaa:9449880"). */
    id: { type: 'string' },
    name: { type: 'string' },
    lat: { type: 'number' },
    lon: { type: 'number' },
    /** reference: harmonics of its own; subordinate: a reference station's, with time and height offsets. */
    type: { type: 'string', enum: ['reference', 'subordinate'] },
    /** IANA time zone of the station. */
    timezone: { type: 'string' },
    /** Who measured it and where its record is. */
    source: {
      type: 'object', additionalProperties: false, required: ['name', 'url'],
      properties: { name: { type: 'string' }, url: { type: 'string' } },
    },
    /** The licence of the station's data ("public domain", "cc-by-4.0"). */
    license: {
      type: 'object', additionalProperties: false, required: ['type', 'url'],
      properties: { type: { type: 'string' }, url: { type: 'string' } },
    },
    /** The credit line its licence asks for, shown wherever its tides are. */
    attribution: { type: 'string' },
    /** The chart datum heights are above (MLLW, LAT...). */
    datum: { type: 'string' },
    /** Great-circle distance from the place asked, km (a point request only). */
    distanceKm: { type: 'number' },
  },
} as const;
export type TideStation = Infer<typeof TIDE_STATION_SCHEMA>;

export const TIDE_EXTREME_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['time', 'height', 'high'],
  properties: {
    time: { type: 'number' },
    /** Metres above the datum. */
    height: { type: 'number' },
    /** true: high water; false: low water. */
    high: { type: 'boolean' },
  },
} as const;
export type TideExtreme = Infer<typeof TIDE_EXTREME_SCHEMA>;

export const TIDE_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['station', 'from', 'to', 'units', 'extremes', 'curve'],
  properties: {
    station: TIDE_STATION_SCHEMA,
    from: { type: 'number' },
    to: { type: 'number' },
    units: { type: 'string', enum: ['m'] },
    /** High and low waters in the range, in time order. */
    extremes: { type: 'array', items: TIDE_EXTREME_SCHEMA },
    /** The height every `step` ms from `start`: heights[i] at start + i * step. */
    curve: {
      type: 'object', additionalProperties: false, required: ['start', 'step', 'heights'],
      properties: {
        start: { type: 'number' },
        step: { type: 'number' },
        heights: { type: 'array', items: { type: 'number' } },
      },
    },
  },
} as const;
export type TideAnswer = Infer<typeof TIDE_ANSWER>;

/**
 * Every station served, as parallel arrays (about 8 000 stations: one object each would double the
 * bytes): ids[i] at lat[i], lon[i], named names[i].
 */
export const TIDE_STATIONS_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['ids', 'names', 'lat', 'lon'],
  properties: {
    ids: { type: 'array', items: { type: 'string' } },
    names: { type: 'array', items: { type: 'string' } },
    lat: { type: 'array', items: { type: 'number' } },
    lon: { type: 'array', items: { type: 'number' } },
  },
} as const;
export type TideStationsAnswer = Infer<typeof TIDE_STATIONS_ANSWER>;
