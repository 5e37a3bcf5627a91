/**
 * The weather stations for the location search (server/routes/geo.ts, issue 16 §8): the stations
 * of the published list (history.ts's stations.json) as places of their own, found by name and by
 * id ("KJFK"), rebuilt when the list changes.
 */

import { PlaceIndex, type Place } from '../../geo/placeIndex.ts';
import type { ObjectStore } from '../../storage/objectStore.ts';
import { ObsStore } from '../core/store.ts';
import { STATIONS_DOCUMENT, type StationsDocument } from './history.ts';

/** Stations rank as if they were towns of this size (log10 of the population): below the large airports. */
const STATION_WEIGHT = 5;

export function stationPlaces(document: StationsDocument): Place[] {
  return document.stations.map((s) => ({
    kind: 'station', name: s.name, cc: '', lat: s.lat, lon: s.lon, population: 0, weight: STATION_WEIGHT, stationId: s.id, aliases: [s.id],
  }));
}

/** The stations' index of a data directory, or null when none are published. */
export function stationSearchIndex(dataDir: string | null, storage?: ObjectStore): () => Promise<PlaceIndex | null> {
  if (dataDir === null) return async () => null;
  const store = new ObsStore(dataDir, storage);
  let loaded: { mtimeMs: number; index: PlaceIndex } | null = null;
  return async () => {
    const mtimeMs = await store.modified('stations', STATIONS_DOCUMENT).catch(() => null);
    if (mtimeMs === null) return null;
    if (loaded?.mtimeMs !== mtimeMs) {
      const document = await store.readJson<StationsDocument>('stations', STATIONS_DOCUMENT).catch(() => null);
      if (document === null) return null;
      loaded = { mtimeMs, index: new PlaceIndex(stationPlaces(document)) };
    }
    return loaded.index;
  };
}
