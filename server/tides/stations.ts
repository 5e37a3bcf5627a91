/**
 * The tide stations Isobar serves: those of @neaps/tide-database (harmonic constituents and datums of
 * NOAA CO-OPS, TICON-4, the Canadian Hydrographic Service, Kartverket...) whose licence permits this
 * use. Isobar is self-hosted by anyone and sells Premium (SPEC §1), which is commercial use, so a
 * station is served only when its licence says `commercial_use: true` (public domain, CC BY 4.0,
 * MIT); the CC BY-NC stations (TICON-4 records relayed from GESLA providers that forbid commercial use)
 * are left out. Tidal-current stations (kind "current") are not tides and are left out too. Every
 * station carries the credit line its licence asks for (`attribution`), shown wherever its tides are.
 */

import type * as TideDatabaseModule from '@neaps/tide-database';
import type { Station } from '@neaps/tide-database';
import { TIDE_MAX_DISTANCE_KM } from '../../common/tides.ts';

type TideDatabase = typeof TideDatabaseModule;

/**
 * The database, read on first use: its stations take ~0.8 s of CPU to load, which every server
 * start paid when it was imported with the routes.
 */
let database: Promise<TideDatabase> | null = null;
const tideDatabase = () => (database ??= import('@neaps/tide-database'));

/** Whether Isobar may serve a station of the database (see above). */
export function isServable(station: Pick<Station, 'kind' | 'license'>): boolean {
  return station.kind === 'tide' && station.license?.commercial_use === true;
}

interface Catalogue {
  db: TideDatabase;
  list: Station[];
  ids: Set<string>;
}

let served: Promise<Catalogue> | null = null;

function catalogue(): Promise<Catalogue> {
  served ??= tideDatabase().then((db) => {
    const list = db.stations.filter(isServable);
    return { db, list, ids: new Set(list.map((s) => s.id)) };
  });
  return served;
}

/**
 * Every station served: accepted by the database's quality evaluation (its `stations`, which leaves
 * out duplicate gauges and implausible datums), a tide station, its licence permitting this use.
 */
export async function servedStations(): Promise<readonly Station[]> {
  return (await catalogue()).list;
}

/** A served station by its database id ("noaa/9449880"), or null. */
export async function stationById(id: string): Promise<Station | null> {
  const { db, ids } = await catalogue();
  return ids.has(id) ? db.stationsById.get(id) ?? null : null;
}

/** The nearest served station within maxKm of a place (great circle), with its distance in km; null when none. */
export async function nearestStation(lat: number, lon: number, maxKm: number = TIDE_MAX_DISTANCE_KM): Promise<{ station: Station; distanceKm: number } | null> {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  const found = (await catalogue()).db.nearest({ lat, lon: wrapped, maxDistance: maxKm, filter: isServable });
  return found ? { station: found[0], distanceKm: found[1] } : null;
}
