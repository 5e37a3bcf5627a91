/**
 * Airports (SPEC §2 /airport/{ICAO}, §3 pois "metars"), shared by the server (server/obs/metar/)
 * and the UI (the airport window, the metars layer):
 *
 *   GET /airports/v1.0/{icao}                  -> AirportAnswer: the airport (OurAirports), its
 *                                                 latest METAR and TAF as received (decoded by the
 *                                                 UI with common/aviation/metar.ts) and its runways;
 *                                                 404 when neither OurAirports nor the METAR feed
 *                                                 knows the code
 *   GET /obs/v1.0/metars/stations.json         MetarStationsDocument: every station with a current
 *                                                 METAR and its flight category, for the map layer
 *   GET /obs/v1.0/metars/latest.json           MetarsLatestDocument (what the route above reads)
 */

import { FLIGHT_CATEGORIES } from '../aviation/flightCategory.ts';
import type { Infer, Same } from './schema.ts';

export const AIRPORT_ROUTE = '/airports/v1.0/:icao';
export const METARS_LATEST = 'latest.json';
export const METARS_STATIONS = 'stations.json';
/** OurAirports' runways.csv as downloaded (server/obs/metar/runwaysSource.ts). */
export const RUNWAYS_FILE = 'runways.csv';
/** The source of the metars family that brings runways, not reports: the others are the METAR feeds. */
export const RUNWAYS_SOURCE_ID = 'ourairports';
export const METARS_STATIONS_PATH = `/obs/v1.0/metars/${METARS_STATIONS}`;
/** ICAO location indicators: four letters or digits (OurAirports also lists local codes like "K13K"). */
export const AIRPORT_CODE_PATTERN = '^[A-Za-z0-9]{4}$';

export function airportPath(icao: string): string {
  return `/airports/v1.0/${encodeURIComponent(icao.toUpperCase())}`;
}

export interface AirportRunway {
  lengthFt: number | null;
  widthFt: number | null;
  /** As OurAirports writes it ("ASP", "CON", "TURF-G"). */
  surface: string;
  lighted: boolean;
  closed: boolean;
  /** Both ends: designator ("09L") and true heading when known. */
  ends: { ident: string; headingDegT: number | null }[];
}

const RUNWAY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['lengthFt', 'widthFt', 'surface', 'lighted', 'closed', 'ends'],
  properties: {
    lengthFt: { type: ['number', 'null'] },
    widthFt: { type: ['number', 'null'] },
    surface: { type: 'string' },
    lighted: { type: 'boolean' },
    closed: { type: 'boolean' },
    ends: {
      type: 'array',
      items: {
        type: 'object', additionalProperties: false, required: ['ident', 'headingDegT'],
        properties: { ident: { type: 'string' }, headingDegT: { type: ['number', 'null'] } },
      },
    },
  },
} as const;
const runwayMatches: Same<Infer<typeof RUNWAY_SCHEMA>, AirportRunway> = true;
void runwayMatches;

export const AIRPORT_ANSWER = {
  type: 'object',
  additionalProperties: false,
  required: ['icao', 'name', 'iata', 'lat', 'lon', 'elevationFt', 'country', 'municipality', 'metar', 'taf', 'metarsUpdated', 'runways', 'attribution'],
  properties: {
    icao: { type: 'string' },
    /** null: a METAR station OurAirports does not list. */
    name: { type: ['string', 'null'] },
    iata: { type: ['string', 'null'] },
    lat: { type: 'number' },
    lon: { type: 'number' },
    elevationFt: { type: ['number', 'null'] },
    country: { type: ['string', 'null'] },
    municipality: { type: ['string', 'null'] },
    /** The latest METAR as received (time: observation, ms); null: none current. */
    metar: {
      anyOf: [{ type: 'null' }, {
        type: 'object', additionalProperties: false, required: ['raw', 'time'], properties: { raw: { type: 'string' }, time: { type: 'number' } },
      }],
    },
    /** The latest TAF as received (issued, ms); null: none current. */
    taf: {
      anyOf: [{ type: 'null' }, {
        type: 'object', additionalProperties: false, required: ['raw', 'issued'], properties: { raw: { type: 'string' }, issued: { type: 'number' } },
      }],
    },
    /**
     * When the METAR feed last published (ms); null: it never has on this server, so a missing METAR
     * says nothing about the station (the window asks the observation status why).
     */
    metarsUpdated: { type: ['number', 'null'] },
    /** null: no runway data on this server (OurAirports runways.csv not downloaded); []: none listed. */
    runways: { anyOf: [{ type: 'null' }, { type: 'array', items: RUNWAY_SCHEMA }] },
    /** Credit lines of the data shown (OurAirports, the METAR provider). */
    attribution: { type: 'array', items: { type: 'string' } },
  },
} as const;
export type AirportAnswer = Infer<typeof AIRPORT_ANSWER>;

/** The METAR source's publication: the latest report and TAF per station, as received and checked. */
export interface MetarsLatestDocument {
  updated: number;
  source: string;
  label: string;
  attribution: string;
  metars: Record<string, { raw: string; time: number; lat: number; lon: number }>;
  tafs: Record<string, { raw: string; issued: number }>;
}

/** The map layer's document: parallel arrays, one entry a station; category indexes FLIGHT_CATEGORIES, -1 none. */
export const METAR_STATIONS_DOCUMENT = {
  type: 'object',
  required: ['updated', 'attribution', 'icao', 'lon', 'lat', 'category'],
  properties: {
    updated: { type: 'number' },
    attribution: { type: 'string' },
    icao: { type: 'array', items: { type: 'string' } },
    lon: { type: 'array', items: { type: 'number' } },
    lat: { type: 'array', items: { type: 'number' } },
    category: { type: 'array', items: { type: 'integer', minimum: -1, maximum: FLIGHT_CATEGORIES.length - 1 } },
  },
} as const;
export type MetarStationsDocument = Infer<typeof METAR_STATIONS_DOCUMENT>;

/**
 * The airports nearest a place (SPEC §2 context menu "nearest airports"): OurAirports' medium and
 * large airports with an ICAO code within NEAREST_AIRPORTS_MAX_KM, nearest first, with the flight
 * category of their latest METAR where the METAR source has one.
 *
 *   GET /airports/v1.0/nearest/{lat}/{lon}?limit   -> NearestAirportsAnswer
 */
export const NEAREST_AIRPORTS_ROUTE = '/airports/v1.0/nearest/:lat/:lon';
export const NEAREST_AIRPORTS_MAX_KM = 300;
export const NEAREST_AIRPORTS_MAX_COUNT = 20;

export function nearestAirportsPath(lat: number, lon: number, limit?: number): string {
  return `/airports/v1.0/nearest/${lat}/${lon}${limit ? `?limit=${limit}` : ''}`;
}

export const NEAREST_AIRPORTS_ANSWER = {
  type: 'object',
  required: ['airports', 'attribution'],
  properties: {
    airports: {
      type: 'array',
      items: {
        type: 'object',
        required: ['icao', 'iata', 'name', 'lat', 'lon', 'distanceKm', 'category'],
        properties: {
          icao: { type: 'string' },
          iata: { type: ['string', 'null'] },
          name: { type: 'string' },
          lat: { type: 'number' },
          lon: { type: 'number' },
          distanceKm: { type: 'number' },
          /** Flight category of the latest METAR (FLIGHT_CATEGORIES), null without one. */
          category: { type: ['string', 'null'] },
        },
      },
    },
    attribution: { type: 'array', items: { type: 'string' } },
  },
} as const;
export type NearestAirportsAnswer = Infer<typeof NEAREST_AIRPORTS_ANSWER>;
