/**
 * Observed soundings as the server publishes them (SPEC §2 /radiosonde/{id}): static JSON files of
 * the observation publication (server/obs/soundings), read by the radiosonde window:
 *
 *   GET /obs/v1.0/soundings/stations.json   -> SoundingStations (the stations followed, each with its latest time)
 *   GET /obs/v1.0/soundings/{id}.json       -> Sounding (common/sounding/types.ts), the latest at that station
 *
 * Station ids are WMO station numbers (72357). Units are those of common/sounding/types.ts.
 */

import type { Sounding } from '../sounding/types.ts';
import type { Infer, Same } from './schema.ts';

/** The sounding kind of the observation publication: files under /obs/v1.0/soundings/. */
export const SOUNDINGS_KIND = 'soundings';
export const SOUNDINGS_BASE_PATH = `/obs/v1.0/${SOUNDINGS_KIND}`;
export const SOUNDING_STATIONS_PATH = `${SOUNDINGS_BASE_PATH}/stations.json`;
export const soundingPath = (id: string): string => `${SOUNDINGS_BASE_PATH}/${encodeURIComponent(id)}.json`;

/** WMO station numbers: five digits (block and station), as the radiosonde networks name them. */
export const SOUNDING_STATION_ID_PATTERN = '^[0-9]{5}$';

const NULLABLE_NUMBER = { type: ['number', 'null'] } as const;

export const SOUNDING_LEVEL = {
  type: 'object',
  required: ['pressure', 'height', 'temp', 'dewpoint', 'windDir', 'windSpeed'],
  properties: {
    pressure: { type: 'number', exclusiveMinimum: 0 },
    height: NULLABLE_NUMBER,
    temp: NULLABLE_NUMBER,
    dewpoint: NULLABLE_NUMBER,
    windDir: NULLABLE_NUMBER,
    windSpeed: NULLABLE_NUMBER,
  },
} as const;

export const SOUNDING = {
  type: 'object',
  required: ['source', 'id', 'lat', 'lon', 'elevation', 'time', 'levels'],
  properties: {
    source: { type: 'string', enum: ['radiosonde', 'model'] },
    id: { type: 'string' },
    name: { type: 'string' },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 360 },
    elevation: NULLABLE_NUMBER,
    time: { type: 'number' },
    refTime: { type: 'number' },
    levels: { type: 'array', items: SOUNDING_LEVEL },
  },
} as const;

export const SOUNDING_STATION = {
  type: 'object',
  required: ['id', 'name', 'lat', 'lon', 'time'],
  properties: {
    id: { type: 'string' },
    /** The station's name as the upstream gives it ('' when it gives none). */
    name: { type: 'string' },
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 360 },
    /** Time of the latest sounding published for the station, ms. */
    time: { type: 'number' },
  },
} as const;
export type SoundingStation = Infer<typeof SOUNDING_STATION>;

export const SOUNDING_STATIONS = {
  type: 'object',
  required: ['source', 'attribution', 'updated', 'stations'],
  properties: {
    /** The observation source id that publishes them (ISOBAR_OBS), e.g. `uwyo`. */
    source: { type: 'string' },
    attribution: { type: 'string' },
    /** When this list was written, ms. */
    updated: { type: 'number' },
    stations: { type: 'array', items: SOUNDING_STATION },
  },
} as const;
export type SoundingStations = Infer<typeof SOUNDING_STATIONS>;

// The schema and the shared type describe the same sounding.
const soundingMatches: Same<Omit<Infer<typeof SOUNDING>, 'levels'>, Omit<Sounding, 'levels'>> = true;
void soundingMatches;
