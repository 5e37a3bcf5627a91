/**
 * Weather stations (SPEC §2 /station/{id}[/basic|wind|compare], "nearest stations" of the detail
 * window), shared by the server (server/obs/stations/) and the UI (ui/panels/station/):
 *
 *   GET /stations/v1.0/list?lat&lon&limit   -> StationList: the stations this server follows, each
 *                                             with its latest observation; with lat and lon the
 *                                             nearest `limit` first, each with its distance
 *   GET /stations/v1.0/station/{id}         -> StationHistory: one station and its observations,
 *                                             oldest first (the last STATION_HISTORY_MS); an
 *                                             unknown id is a 404 "Unknown station {id}"
 *
 * Observations are in the catalogue's base units (common/catalogue/metrics.ts: K, m/s, Pa, %), so
 * the window formats them in the user's units as the map's picker does. A value the station did not
 * report (or failed its quality control) is null, never guessed.
 */

import { DAY_MS } from '../time.ts';
import type { Infer, Same } from './schema.ts';

export const STATIONS_LIST_ROUTE = '/stations/v1.0/list';
export const STATION_ROUTE = '/stations/v1.0/station/:id';

/** How long a station's observations are kept and served (issue 16 §4: the last 24 h to several days). */
export const STATION_HISTORY_MS = 3 * DAY_MS;
/** Station ids: ICAO codes (KFLL), WMO block numbers (11518), national network ids (AT297). */
export const STATION_ID_PATTERN = '^[A-Z0-9_-]{3,16}$';
/** Nearest stations answered at most. */
export const STATIONS_NEAR_MAX = 50;

export const stationPath = (id: string): string => `/stations/v1.0/station/${encodeURIComponent(id)}`;

export function stationsListPath(near?: { lat: number; lon: number; limit?: number }): string {
  if (!near) return STATIONS_LIST_ROUTE;
  const params = new URLSearchParams({ lat: String(near.lat), lon: String(near.lon) });
  if (near.limit !== undefined) params.set('limit', String(near.limit));
  return `${STATIONS_LIST_ROUTE}?${params}`;
}

export const STATIONS_LIST_QUERY = {
  type: 'object',
  properties: {
    /** Decimal degrees as text, read strictly by the server (SPEC §9 bounds); both or neither. */
    lat: { type: 'string', minLength: 1, maxLength: 32 },
    lon: { type: 'string', minLength: 1, maxLength: 32 },
    limit: { type: 'integer', minimum: 1, maximum: STATIONS_NEAR_MAX, default: 10 },
  },
} as const;

const NUMBER_OR_NULL = { type: ['number', 'null'] } as const;

export const STATION_OBSERVATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['time', 'temp', 'dewpoint', 'wind', 'gust', 'windDir', 'pressure', 'rh', 'weather'],
  properties: {
    /** When it was observed, ms since the epoch. */
    time: { type: 'number' },
    /** Air temperature, K. */
    temp: NUMBER_OR_NULL,
    /** Dew point, K. */
    dewpoint: NUMBER_OR_NULL,
    /** Mean wind speed, m/s. */
    wind: NUMBER_OR_NULL,
    /** Gust, m/s (null: none reported). */
    gust: NUMBER_OR_NULL,
    /** Where the wind blows from, degrees from true north; null when calm or variable. */
    windDir: NUMBER_OR_NULL,
    /** Pressure reduced to mean sea level, Pa (the station's own when it reports no reduction). */
    pressure: NUMBER_OR_NULL,
    /** Relative humidity, %. */
    rh: NUMBER_OR_NULL,
    /** The weather as the provider words it ("Mostly Cloudy", "Light Rain"); null when none. */
    weather: { type: ['string', 'null'] },
    /** The report as sent (a METAR), when the provider gives it. */
    raw: { type: 'string' },
  },
} as const;

export interface StationObservation {
  time: number;
  temp: number | null;
  dewpoint: number | null;
  wind: number | null;
  gust: number | null;
  windDir: number | null;
  pressure: number | null;
  rh: number | null;
  weather: string | null;
  raw?: string;
}

export const STATION_INFO_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'lat', 'lon', 'elevation', 'source'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    lat: { type: 'number' },
    lon: { type: 'number' },
    /** Height of the station above mean sea level, m; null when unknown. */
    elevation: NUMBER_OR_NULL,
    /** The observation source it comes from (its ISOBAR_OBS id: nwsStations, metar). */
    source: { type: 'string' },
    /** The credit line of the source's licence. */
    attribution: { type: 'string' },
  },
} as const;

export interface StationInfo {
  id: string;
  name: string;
  lat: number;
  lon: number;
  elevation: number | null;
  source: string;
  attribution?: string;
}

export const STATION_SUMMARY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [...STATION_INFO_SCHEMA.required, 'latest'],
  properties: {
    ...STATION_INFO_SCHEMA.properties,
    latest: { anyOf: [STATION_OBSERVATION_SCHEMA, { type: 'null' }] },
    /** Great-circle distance from the asked place, km (only in an answer to lat and lon). */
    distanceKm: { type: 'number' },
  },
} as const;

export type StationSummary = StationInfo & { latest: StationObservation | null; distanceKm?: number };

export const STATIONS_LIST_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['updated', 'stations'],
  properties: {
    /** When the stations were last published, ms; null when never. */
    updated: NUMBER_OR_NULL,
    stations: { type: 'array', items: STATION_SUMMARY_SCHEMA },
  },
} as const;

export interface StationsList {
  updated: number | null;
  stations: StationSummary[];
}

export const STATION_HISTORY_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['station', 'observations'],
  properties: {
    station: STATION_INFO_SCHEMA,
    observations: { type: 'array', items: STATION_OBSERVATION_SCHEMA },
  },
} as const;

export interface StationHistory {
  station: StationInfo;
  observations: StationObservation[];
}

// The schemas describe the interfaces above (a change to one without the other fails type-checking).
const observationMatches: Same<Infer<typeof STATION_OBSERVATION_SCHEMA>, StationObservation> = true;
const infoMatches: Same<Infer<typeof STATION_INFO_SCHEMA>, StationInfo> = true;
void observationMatches;
void infoMatches;
