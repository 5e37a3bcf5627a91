/**
 * The weather stations' routes (contract common/api/stations.ts), reading what the station history
 * published (history.ts):
 *
 *   GET /stations/v1.0/list?lat&lon&limit   every station with its latest observation; with lat and
 *                                           lon the nearest `limit`, nearest first, with distances
 *   GET /stations/v1.0/station/{id}         one station's history; 404 "Unknown station {id}"
 *
 * stations.json is re-read when its modification time changes; a history file is read per request
 * (a few hundred observations, tens of kB).
 */

import type { FastifyInstance } from 'fastify';
import {
  STATION_HISTORY_ANSWER, STATION_ID_PATTERN, STATION_ROUTE, STATIONS_LIST_ANSWER, STATIONS_LIST_QUERY, STATIONS_LIST_ROUTE,
  type StationHistory, type StationsList,
} from '../../../common/api/stations.ts';
import { parseCoordinate } from '../../http/coordinates.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA, notFound } from '../../http/httpError.ts';
import { distanceKm } from '../../geo/placeIndex.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from '../core/store.ts';
import { historyFile, STATIONS_DOCUMENT, type StationsDocument } from './history.ts';

/** Answers may be cached this long: stations are polled every 10 minutes (sources.ts). */
const CACHE_S = 60;

export async function stationRoutes(app: FastifyInstance, options: { dataDir: string | null; storage?: ObjectStore }): Promise<void> {
  const store = options.dataDir === null ? null : new ObsStore(options.dataDir, options.storage);
  let loaded: { mtimeMs: number; document: StationsDocument } | null = null;

  async function stations(): Promise<StationsDocument | null> {
    if (store === null) return null;
    const mtimeMs = await store.modified('stations', STATIONS_DOCUMENT).catch(() => null);
    if (mtimeMs === null) return null;
    if (loaded?.mtimeMs !== mtimeMs) {
      const document = await store.readJson<StationsDocument>('stations', STATIONS_DOCUMENT);
      if (document === null) return null;
      loaded = { mtimeMs, document };
    }
    return loaded.document;
  }

  app.get<{ Querystring: { lat?: string; lon?: string; limit?: number } }>(STATIONS_LIST_ROUTE, {
    schema: { querystring: STATIONS_LIST_QUERY, response: { 200: STATIONS_LIST_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA } },
  }, async (request, reply): Promise<StationsList> => {
    const { lat: latText, lon: lonText, limit = 10 } = request.query;
    if ((latText === undefined) !== (lonText === undefined)) throw badRequest('lat and lon go together: give both or neither');
    const near = latText !== undefined && lonText !== undefined ? { lat: parseCoordinate(latText, 'lat'), lon: parseCoordinate(lonText, 'lon') } : null;
    const document = await stations();
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    if (document === null) return { updated: null, stations: [] };
    if (!near) return { updated: document.updated, stations: document.stations };
    const nearest = document.stations
      .map((s) => ({ ...s, distanceKm: Math.round(distanceKm(near.lat, near.lon, s.lat, s.lon) * 10) / 10 }))
      .sort((a, b) => a.distanceKm - b.distanceKm)
      .slice(0, limit);
    return { updated: document.updated, stations: nearest };
  });

  app.get<{ Params: { id: string } }>(STATION_ROUTE, {
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 40 } } },
      response: { 200: STATION_HISTORY_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
    },
  }, async (request, reply): Promise<StationHistory> => {
    const id = request.params.id.toUpperCase();
    const shown = JSON.stringify(request.params.id.slice(0, 40));
    if (!new RegExp(STATION_ID_PATTERN).test(id)) throw notFound(`Unknown station ${shown}`);
    const document = await stations();
    const history = document?.stations.some((s) => s.id === id) && store ? await store.readJson<StationHistory>('stations', historyFile(id)).catch(() => null) : null;
    if (!history) throw notFound(`Unknown station ${shown}`);
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    return history;
  });
}
