/**
 * Location search and reverse geocoding (SPEC §2 "location search", §7), from the places of
 * server/geo/gazetteer.ts, loaded on the first request:
 *
 *   GET /search/v1/{query}?lang&lat&lon&limit   cities (by name and their names in other
 *                                               languages), airports (ICAO, IATA, name), weather
 *                                               stations (id, name) and typed coordinates, best
 *                                               first (common/api/search.ts)
 *   GET /reverse/v3/{lat}/{lon}/{zoom}?lang     locality, suburb, city, country, country_code
 *                                               of a point; cached 24 h (SPEC §9)
 *
 * Bad input is a 400 with a message that says what is wrong: an empty or over-long query, a
 * latitude or longitude out of range, a zoom outside the map's.
 */

import type { FastifyInstance } from 'fastify';
import { clampZoom } from '../../common/map.ts';
import {
  REVERSE_ANSWER, REVERSE_CACHE_S, REVERSE_ROUTE, SEARCH_ANSWER, SEARCH_CACHE_S, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_MAX_QUERY_LENGTH, SEARCH_ROUTE,
} from '../../common/api/search.ts';
import { wrapLon } from '../../common/tiling.ts';
import { lazyGazetteer, type Gazetteer } from '../geo/gazetteer.ts';
import type { PlaceIndex } from '../geo/placeIndex.ts';
import { COORDINATE_SCHEMA, parseCoordinate } from '../http/coordinates.ts';
import { badRequest, ERROR_RESPONSE_SCHEMA } from '../http/httpError.ts';

/** Language tags as the app sends them (common/languages.ts: "en", "zh-TW"). */
const LANG = { type: 'string', pattern: '^[a-z]{2,3}(-[A-Za-z]{2,4})?$' } as const;

const searchSchema = {
  // The query is the rest of the path (a wildcard: the router answers 414 to a longer
  // parameter, while an over-long query deserves the same clear 400 as other bad input).
  params: { type: 'object', properties: { '*': { type: 'string' } } },
  querystring: {
    type: 'object',
    properties: {
      lang: LANG,
      // SPEC §9 map bounds (parseCoordinate)
      lat: COORDINATE_SCHEMA,
      lon: COORDINATE_SCHEMA,
      limit: { type: 'integer', minimum: 1, maximum: SEARCH_MAX_LIMIT },
    },
  },
  response: {
    200: SEARCH_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

const reverseSchema = {
  params: {
    type: 'object',
    required: ['lat', 'lon', 'zoom'],
    properties: {
      lat: COORDINATE_SCHEMA,
      lon: COORDINATE_SCHEMA,
      zoom: { type: 'integer', minimum: 0, maximum: 22 },
    },
  },
  querystring: { type: 'object', properties: { lang: LANG } },
  response: {
    200: REVERSE_ANSWER,
    '4xx': ERROR_RESPONSE_SCHEMA,
  },
} as const;

export interface GeoRouteOptions {
  /** The places (tests pass a small one); default: the npm data, loaded on the first request. */
  gazetteer?: () => Gazetteer;
  /** The weather stations this server follows, searched with the places (server/obs/stations/searchIndex.ts). */
  stations?: () => Promise<PlaceIndex | null>;
}

interface SearchQuery {
  lang?: string;
  lat?: string;
  lon?: string;
  limit?: number;
}

export async function geoRoutes(app: FastifyInstance, options: GeoRouteOptions): Promise<void> {
  const gazetteer = options.gazetteer ?? lazyGazetteer();

  // Without a query segment the path would fall through to the app's not-found handler.
  app.get('/search/v1', async () => {
    throw badRequest('The search query is empty');
  });

  app.get<{ Params: { '*': string }; Querystring: SearchQuery }>(SEARCH_ROUTE, { schema: searchSchema }, async (request, reply) => {
    const query = request.params['*'];
    if (query.trim() === '') throw badRequest('The search query is empty');
    if (query.length > SEARCH_MAX_QUERY_LENGTH) throw badRequest(`The search query is longer than ${SEARCH_MAX_QUERY_LENGTH} characters`);
    const { lang, lat, lon, limit = SEARCH_DEFAULT_LIMIT } = request.query;
    if ((lat === undefined) !== (lon === undefined)) throw badRequest('lat and lon go together: give both or neither');
    const near = lat !== undefined && lon !== undefined ? { lat: parseCoordinate(lat, 'lat'), lon: wrapLon(parseCoordinate(lon, 'lon')) } : undefined;
    const results = gazetteer().search(query, { lang, near, limit }, await options.stations?.());
    reply.header('cache-control', `public, max-age=${SEARCH_CACHE_S}`);
    return { results };
  });

  app.get<{ Params: { lat: string; lon: string; zoom: number }; Querystring: { lang?: string } }>(
    REVERSE_ROUTE,
    { schema: reverseSchema },
    async (request, reply) => {
      const { zoom } = request.params;
      const lat = parseCoordinate(request.params.lat, 'lat');
      const lon = parseCoordinate(request.params.lon, 'lon');
      const result = gazetteer().reverse(lat, wrapLon(lon), clampZoom(zoom), request.query.lang);
      reply.header('cache-control', `public, max-age=${REVERSE_CACHE_S}`);
      return result;
    },
  );
}
