/**
 * The location search and reverse geocoding contract shared by the server (server/routes/geo.ts)
 * and the search panel (ui/panels/search/):
 *
 *   GET /search/v1/{query}?lang&lat&lon&limit      -> { results: SearchResult[] }: places (by their
 *                                                     names and their names in other languages),
 *                                                     airports, weather stations, coordinates
 *   GET /reverse/v3/{lat}/{lon}/{zoom}?lang        -> ReverseResult (SPEC §7)
 *
 * Results come best first: by match quality (an exact name or airport code, then a name that
 * starts with the query, then a later word or another name that does), then by size (population;
 * airports by their kind), nearer places first when the client sends where its map is.
 */

import type { Infer, Same } from './schema.ts';

export const SEARCH_ROUTE = '/search/v1/*';
export const REVERSE_ROUTE = '/reverse/v3/:lat/:lon/:zoom';

export type SearchResultType = 'city' | 'airport' | 'station' | 'coords';

export interface SearchResult {
  type: SearchResultType;
  /** Shown name: the place's, the airport's, or the formatted coordinates. */
  name: string;
  /** First-level region where the data names it readably (US states, ...). */
  region?: string;
  /** Country name in the request's language; empty for coordinates. */
  country: string;
  /** ISO 3166-1 alpha-2, upper case; empty for coordinates. */
  cc: string;
  lat: number;
  lon: number;
  icao?: string;
  iata?: string;
  population?: number;
  /** A weather station's id (type station): it opens /station/{id}. */
  stationId?: string;
}

export interface SearchResponse {
  results: SearchResult[];
}

/** SPEC §7 reverse answer: the fields the data can fill are present, the others left out. */
export interface ReverseResult {
  locality?: string;
  suburb?: string;
  city?: string;
  county?: string;
  district?: string;
  state?: string;
  country?: string;
  island?: string;
  country_code?: string;
}

/** Longest query the server reads; longer ones are refused with a 400. */
export const SEARCH_MAX_QUERY_LENGTH = 100;
export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
/** SPEC §7: GET answers are cached 5 minutes by default. */
export const SEARCH_CACHE_S = 300;
/** SPEC §9: "reverse geocode 24 h". */
export const REVERSE_CACHE_S = 24 * 3600;
/** SPEC §3 "Stored collections": the search recents, newest first, this many at most. */
export const SEARCH_RECENTS_KEY = 'searchRecents2';
export const SEARCH_RECENTS_MAX = 8;

export function searchPath(query: string, options: { lang?: string; lat?: number; lon?: number; limit?: number } = {}): string {
  const params = new URLSearchParams();
  if (options.lang) params.set('lang', options.lang);
  if (options.lat !== undefined && options.lon !== undefined) {
    params.set('lat', options.lat.toFixed(2));
    params.set('lon', options.lon.toFixed(2));
  }
  if (options.limit !== undefined) params.set('limit', String(options.limit));
  const search = params.toString();
  return `/search/v1/${encodeURIComponent(query)}${search ? `?${search}` : ''}`;
}

export function reversePath(lat: number, lon: number, zoom: number, lang?: string): string {
  return `/reverse/v3/${lat.toFixed(3)}/${lon.toFixed(3)}/${Math.round(zoom)}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
}

const SEARCH_RESULT = {
  type: 'object',
  required: ['type', 'name', 'country', 'cc', 'lat', 'lon'],
  properties: {
    type: { type: 'string', enum: ['city', 'airport', 'station', 'coords'] },
    name: { type: 'string' },
    region: { type: 'string' },
    country: { type: 'string' },
    cc: { type: 'string' },
    lat: { type: 'number' },
    lon: { type: 'number' },
    icao: { type: 'string' },
    iata: { type: 'string' },
    population: { type: 'integer' },
    stationId: { type: 'string' },
  },
} as const;

export const SEARCH_ANSWER = { type: 'object', required: ['results'], properties: { results: { type: 'array', items: SEARCH_RESULT } } } as const;

const REVERSE_FIELDS = ['locality', 'suburb', 'city', 'county', 'district', 'state', 'country', 'island', 'country_code'] as const;
export const REVERSE_ANSWER = {
  type: 'object',
  properties: Object.fromEntries(REVERSE_FIELDS.map((k) => [k, { type: 'string' }])) as Record<(typeof REVERSE_FIELDS)[number], { type: 'string' }>,
} as const;

// The documented interfaces above and the schemas describe the same answers.
const searchSchemaMatches: Same<Infer<typeof SEARCH_ANSWER>, SearchResponse> = true;
const reverseSchemaMatches: Same<Infer<typeof REVERSE_ANSWER>, ReverseResult> = true;
void searchSchemaMatches;
void reverseSchemaMatches;
