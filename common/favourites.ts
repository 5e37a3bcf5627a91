/**
 * Favourites (SPEC §3 "Favourite", §5 "Favourite"): a place, an airport, a station, a webcam or a
 * route the user keeps, synced as the collection 'favs' (SPEC §7 /users/v1/data/favs).
 *
 *   type      fav | airport | station | webcam | route
 *   title     required, non-empty
 *   extras    airport: icao (string); station: stationId (string); webcam: webcamId (number);
 *             route: route (string)
 *   optional  id, updated, pinned (timestamp), cc, lat, lon, pin2homepage
 *
 * validateFavourite is the one check used by the browser and by the server: anything else is
 * rejected, the reason logged and null returned (SPEC §5).
 */

const FAVOURITE_TYPES = ['fav', 'airport', 'station', 'webcam', 'route'] as const;
export type FavouriteType = (typeof FAVOURITE_TYPES)[number];

/** The longest title kept. Not in the SPEC (a place name, or one the user typed). */
export const FAVOURITE_TITLE_MAX_LENGTH = 200;
/** The longest route text kept (an encoded list of points). Not in the SPEC. */
const FAVOURITE_ROUTE_MAX_LENGTH = 20_000;
/** The longest icao, stationId and cc. Not in the SPEC. */
const SHORT_TEXT_MAX_LENGTH = 64;
/** SPEC §9: same-location tolerance 0.01 degrees. */
const SAME_LOCATION_DEG = 0.01;

export interface Favourite {
  id?: string;
  type: FavouriteType;
  title: string;
  /** Last change, ms since the epoch. */
  updated?: number;
  /** When it was pinned, ms since the epoch (absent: not pinned). */
  pinned?: number;
  cc?: string;
  lat?: number;
  lon?: number;
  /** Shown on the home page (SPEC §4 "Pin-to-homepage"). */
  pin2homepage?: boolean;
  icao?: string;
  stationId?: string;
  webcamId?: number;
  route?: string;
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'id', 'type', 'title', 'updated', 'pinned', 'cc', 'lat', 'lon', 'pin2homepage', 'icao', 'stationId', 'webcamId', 'route',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= max;

/** Why a value is not a favourite, or null when it is one. */
export function favouriteProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  if (!(FAVOURITE_TYPES as readonly unknown[]).includes(v.type)) return `unknown type ${JSON.stringify(v.type)}`;
  if (typeof v.title !== 'string' || v.title.trim() === '') return 'title is empty';
  if (v.title.length > FAVOURITE_TITLE_MAX_LENGTH) return 'title is too long';
  switch (v.type as FavouriteType) {
    case 'airport':
      if (!isText(v.icao, SHORT_TEXT_MAX_LENGTH)) return 'airport without icao';
      break;
    case 'station':
      if (!isText(v.stationId, SHORT_TEXT_MAX_LENGTH)) return 'station without stationId';
      break;
    case 'webcam':
      if (!isFiniteNumber(v.webcamId)) return 'webcam without a numeric webcamId';
      break;
    case 'route':
      if (!isText(v.route, FAVOURITE_ROUTE_MAX_LENGTH)) return 'route without route';
      break;
    default:
      break;
  }
  if (v.id !== undefined && !isText(v.id, SHORT_TEXT_MAX_LENGTH)) return 'id is not a text';
  for (const key of ['updated', 'pinned'] as const) {
    if (v[key] !== undefined && !(isFiniteNumber(v[key]) && (v[key] as number) >= 0)) return `${key} is not a timestamp`;
  }
  if ((v.lat === undefined) !== (v.lon === undefined)) return 'lat without lon';
  if (v.lat !== undefined && !(isFiniteNumber(v.lat) && Math.abs(v.lat) <= 90)) return 'lat out of range';
  if (v.lon !== undefined && !(isFiniteNumber(v.lon) && Math.abs(v.lon) <= 180)) return 'lon out of range';
  if (v.cc !== undefined && !isText(v.cc, SHORT_TEXT_MAX_LENGTH)) return 'cc is not a text';
  if (v.pin2homepage !== undefined && typeof v.pin2homepage !== 'boolean') return 'pin2homepage is not a flag';
  return null;
}

/**
 * SPEC §5: the favourite, or null (and the reason logged) when it is not one. The result is a
 * copy holding the known fields only (others are dropped, not stored).
 */
export function validateFavourite(v: unknown, logError: (message: string) => void = (m) => console.error(m)): Favourite | null {
  const problem = favouriteProblem(v);
  if (problem) {
    logError(`Invalid favourite: ${problem}`);
    return null;
  }
  const source = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of KNOWN_FIELDS) if (source[key] !== undefined) out[key] = source[key];
  return out as unknown as Favourite;
}

/** The same place within SPEC §9's tolerance (longitudes compared around the date line). */
export function isSameLocation(a: { lat: number; lon: number }, b: { lat: number; lon: number }): boolean {
  const dLon = Math.abs((((a.lon - b.lon) % 360) + 540) % 360 - 180);
  return Math.abs(a.lat - b.lat) < SAME_LOCATION_DEG && dLon < SAME_LOCATION_DEG;
}
