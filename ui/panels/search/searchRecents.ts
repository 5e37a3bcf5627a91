/**
 * The search recents (SPEC §3 "Stored collections": searchRecents2): the places picked last,
 * newest first, shown while the search field is empty. Kept in the app's IndexedDB database
 * (object store 'collections', key 'searchRecents2'); in memory when IndexedDB is missing or
 * fails, like the settings (SPEC §8).
 */

import { SEARCH_RECENTS_KEY, SEARCH_RECENTS_MAX, type SearchResult } from '../../../common/api/search.ts';
import { openIsobarDb } from '../../state/settingsStore.ts';

/** SPEC §9: "same-location tolerance 0.01 degrees". */
const SAME_PLACE_DEG = 0.01;
const COLLECTIONS = 'collections';

const samePlace = (a: SearchResult, b: SearchResult) =>
  a.type === b.type && a.name === b.name && Math.abs(a.lat - b.lat) < SAME_PLACE_DEG && Math.abs(a.lon - b.lon) < SAME_PLACE_DEG;

/** The list with `picked` first, without an older copy of it, at most SEARCH_RECENTS_MAX long. */
export function withRecent(list: readonly SearchResult[], picked: SearchResult): SearchResult[] {
  return [picked, ...list.filter((r) => !samePlace(r, picked))].slice(0, SEARCH_RECENTS_MAX);
}

const isString = (x: unknown): x is string => typeof x === 'string';
const isOptionalString = (x: unknown) => x === undefined || isString(x);

/** A stored entry that is a search result (stored data is checked again when read: STYLE habit 9). */
export function isSearchResult(x: unknown): x is SearchResult {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Record<string, unknown>;
  return (r.type === 'city' || r.type === 'airport' || r.type === 'station' || r.type === 'coords')
    && isString(r.name) && r.name.length > 0 && isString(r.country) && isString(r.cc)
    && typeof r.lat === 'number' && Math.abs(r.lat) <= 90 && typeof r.lon === 'number' && Math.abs(r.lon) <= 180
    && isOptionalString(r.region) && isOptionalString(r.icao) && isOptionalString(r.iata) && isOptionalString(r.stationId)
    && (r.population === undefined || typeof r.population === 'number');
}

/** The valid entries of a stored value, newest first, the bad ones dropped. */
export function readRecents(stored: unknown): SearchResult[] {
  return Array.isArray(stored) ? stored.filter(isSearchResult).slice(0, SEARCH_RECENTS_MAX) : [];
}

export interface RecentsStore {
  list(): Promise<SearchResult[]>;
  add(picked: SearchResult): Promise<SearchResult[]>;
}

/** One per page: the memory copy is what a reopened panel shows first. */
let shared: RecentsStore | null = null;

export function recentsStore(): RecentsStore {
  if (shared) return shared;
  let memory: SearchResult[] | null = null;
  const db = typeof indexedDB === 'undefined'
    ? Promise.resolve(null)
    : openIsobarDb().catch((error: unknown) => {
      console.error('Local database cannot be opened; search recents stay in memory', error);
      return null;
    });
  const list = async () => {
    if (memory) return memory;
    const handle = await db;
    let stored: unknown = undefined;
    try {
      stored = handle ? await handle.get(COLLECTIONS, SEARCH_RECENTS_KEY) : undefined;
    } catch (error) {
      console.error('Search recents not read', error);
    }
    memory ??= readRecents(stored);
    return memory;
  };
  shared = {
    list,
    async add(picked) {
      memory = withRecent(await list(), picked);
      const handle = await db;
      if (handle) {
        await handle.put(COLLECTIONS, memory, SEARCH_RECENTS_KEY).catch((error: unknown) => console.error('Search recents not saved', error));
      }
      return memory;
    },
  };
  return shared;
}
