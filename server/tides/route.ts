/**
 * The tide forecast (SPEC §7 GET /tides/v1.0/tides/{lat}/{lon} or /{id}; contract common/api/tides.ts):
 * the nearest served station within TIDE_MAX_DISTANCE_KM of a place (else a 404 with the SPEC §8 text),
 * or a station by id, with its high and low waters and its curve over the range asked. A tide forecast
 * is Premium's (SPEC §1; common/entitlements.ts grantTides): a caller without Premium gets a 403 once
 * the place is known to have a station, so the detail window can show the Premium prompt where tides
 * exist and nothing where they do not. GET /tides/v1.0/stations lists the stations for the POI layer
 * (names and places, no values: free).
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Station } from '@neaps/tide-database';
import {
  TIDE_ANSWER, TIDE_POINT_ROUTE, TIDE_QUERY, TIDE_STATION_PARAMS, TIDE_STATION_ROUTE, TIDE_STATIONS_ANSWER, TIDE_STATIONS_ROUTE,
  tideIdFromSegment, tideIdSegment, type TideAnswer, type TideQuery, type TideStation, type TideStationsAnswer,
} from '../../common/api/tides.ts';
import { grantTides, isRefusal } from '../../common/entitlements.ts';
import { HOUR_MS } from '../../common/time.ts';
import { TIDE_DEFAULT_RANGE_MS, TIDE_MAX_RANGE_MS, TIDE_NOT_PROVIDED } from '../../common/tides.ts';
import { isPremiumRequest } from '../auth/tier.ts';
import { COORDINATE_SCHEMA, parseCoordinate } from '../http/coordinates.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA, HttpError, notFound } from '../http/httpError.ts';
import { predictStation } from './predict.ts';
import { nearestStation, servedStations, stationById } from './stations.ts';

/** The station list changes only with the package: a day in shared caches. */
const STATIONS_CACHE_S = 86_400;

const pointSchema = {
  params: { type: 'object', required: ['lat', 'lon'], properties: { lat: COORDINATE_SCHEMA, lon: COORDINATE_SCHEMA } },
  querystring: TIDE_QUERY,
  response: { 200: TIDE_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;
const stationSchema = {
  params: TIDE_STATION_PARAMS,
  querystring: TIDE_QUERY,
  response: { 200: TIDE_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

/** The range asked: [from, to] ms, defaults filled in, checked. */
export function tideRange(query: TideQuery, now: number): { from: number; to: number } {
  const from = query.from ?? Math.floor(now / HOUR_MS) * HOUR_MS;
  const to = query.to ?? from + TIDE_DEFAULT_RANGE_MS;
  if (to <= from) throw badRequest(`to (${to}) must be after from (${from})`);
  if (to - from > TIDE_MAX_RANGE_MS) throw badRequest(`the range asked is ${Math.ceil((to - from) / HOUR_MS)} hours: at most ${TIDE_MAX_RANGE_MS / HOUR_MS} hours`);
  return { from, to };
}

function stationOf(station: Station, datum: string, distanceKm?: number): TideStation {
  return {
    id: tideIdSegment(station.id),
    name: station.name,
    lat: station.latitude,
    lon: station.longitude,
    type: station.type,
    timezone: station.timezone,
    source: { name: station.source.name, url: station.source.url },
    license: { type: station.license.type, url: station.license.url },
    attribution: station.attribution,
    datum,
    ...(distanceKm === undefined ? {} : { distanceKm: Math.round(distanceKm * 100) / 100 }),
  };
}

export async function tideRoutes(app: FastifyInstance, options: { now?: () => number } = {}): Promise<void> {
  const now = options.now ?? Date.now;

  async function answer(request: FastifyRequest, reply: { header(k: string, v: string): unknown }, station: Station, query: TideQuery, distanceKm?: number): Promise<TideAnswer> {
    const { from, to } = tideRange(query, now());
    const grant = grantTides(await isPremiumRequest(request, now));
    if (isRefusal(grant)) throw new HttpError(403, grant.need);
    const prediction = predictStation(station, from, to);
    // Premium's answer: never kept in a shared cache for the next (maybe free) caller.
    reply.header('cache-control', 'private, max-age=300');
    return {
      station: stationOf(station, prediction.datum ?? 'MSL', distanceKm),
      from, to, units: 'm', extremes: prediction.extremes, curve: prediction.curve,
    };
  }

  app.get<{ Params: { lat: string; lon: string }; Querystring: TideQuery }>(TIDE_POINT_ROUTE, { schema: pointSchema }, async (request, reply) => {
    const lat = parseCoordinate(request.params.lat, 'lat');
    const lon = parseCoordinate(request.params.lon, 'lon');
    const found = await nearestStation(lat, lon);
    if (found === null) throw notFound(TIDE_NOT_PROVIDED);
    return answer(request, reply, found.station, request.query, found.distanceKm);
  });

  app.get<{ Params: { id: string }; Querystring: TideQuery }>(TIDE_STATION_ROUTE, { schema: stationSchema }, async (request, reply) => {
    const station = await stationById(tideIdFromSegment(request.params.id));
    if (station === null) throw notFound(`No tide station "${request.params.id}"`);
    return answer(request, reply, station, request.query);
  });

  let stations: TideStationsAnswer | null = null;
  app.get(TIDE_STATIONS_ROUTE, { schema: { response: { 200: TIDE_STATIONS_ANSWER } } }, async (_request, reply): Promise<TideStationsAnswer> => {
    if (stations === null) {
      const list = await servedStations();
      // Positions to 1e-4° (about 10 m): the marks need no more, and the list stays small.
      const round = (v: number) => Math.round(v * 1e4) / 1e4;
      stations = { ids: list.map((s) => tideIdSegment(s.id)), names: list.map((s) => s.name), lat: list.map((s) => round(s.latitude)), lon: list.map((s) => round(s.longitude)) };
    }
    reply.header('cache-control', `public, max-age=${STATIONS_CACHE_S}`);
    return stations;
  });
}
