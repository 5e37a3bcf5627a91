/**
 * The shared URL search part, SPEC §2 "Shared URL search part" and SPEC §5 "URL":
 *
 *   ?[level,][overlay,][product,][YYYY-MM-DD-HH,]lat,lon,zoom[,m:code][,i:type][,p:set][,d:picker][,launchedBy:src]
 *
 * A comma list; the wind overlay (the default) is omitted. Parts separated by '&' that carry a
 * key=value pair are kept as they are, except utm_ parameters, which are stripped; other parts of
 * 8 or fewer characters are ignored. A key=value item inside the comma list (`...,5,utm_source=x`)
 * is such a pair too. Parsing never throws: each item it cannot read is left out on its own, the
 * rest of the list still counts.
 */

import { DEFAULT_LEVEL, LEVEL_IDENTS } from './catalogue/levels.ts';
import { DEFAULT_OVERLAY, OVERLAY_IDENTS } from './catalogue/overlays.ts';
import { PRODUCTS } from './catalogue/products.ts';

export interface UrlState {
  level?: string;
  overlay?: string;
  product?: string;
  /** Forecast time, ms, whole hours UTC. */
  date?: number;
  lat?: number;
  lon?: number;
  zoom?: number;
  /** m: picker location code (5+ alphanumerics). */
  pickerCode?: string;
  /** i: isolines type (2+ lowercase alphanumerics). */
  isolines?: string;
  /** p: poi set (3+ characters). */
  pois?: string;
  /** d:picker — the picker is open. */
  pickerOpen?: boolean;
  launchedBy?: string;
}

export interface ParsedSearch {
  state: UrlState;
  /** key=value pairs kept (utm_ ones stripped), in order. */
  params: [string, string][];
}

export interface UrlVocabulary {
  overlays: readonly string[];
  products: readonly string[];
  levels: readonly string[];
}

const DEFAULT_VOCABULARY: UrlVocabulary = {
  overlays: OVERLAY_IDENTS,
  products: Object.keys(PRODUCTS),
  levels: LEVEL_IDENTS,
};

// SPEC §9: coordinates shown with 3 decimals; bounds lat ±90, lon ±720.
export const COORD_DECIMALS = 3;
export const MAX_LAT = 90;
export const MAX_LON = 720;
/** SPEC §2: parts of this many characters or fewer without key=value are ignored. */
const MIN_LIST_LENGTH = 9;

const COORD = /^-?\d+\.\d+$/;
const ZOOM = /^\d{1,2}$/;
const DATE = /^(\d{4})-?(\d{2})-?(\d{2})-?(\d{2})$/;
const PICKER_CODE = /^[A-Za-z0-9]{5,}$/;
const ISOLINES_CODE = /^[a-z0-9]{2,}$/;
const POI_CODE = /^[A-Za-z0-9]{3,}$/;
const LAUNCHED_BY = /^[A-Za-z0-9_-]{1,40}$/;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function parseDate(token: string): number | undefined {
  const m = DATE.exec(token);
  if (!m) return undefined;
  const [y, mo, d, h] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || back.getUTCHours() !== h) return undefined;
  return ms;
}

// SPEC §9: "location code grid 0.01 degrees in base 60" (the m: picker location code).
const LOCATION_CODE_GRID_DEG = 0.01;
/** 60 alphanumerics, 0-9 a-z A-Z without l and O (read as 1 and 0). */
const LOCATION_CODE_DIGITS = '0123456789abcdefghijkmnopqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ';
const LOCATION_CODE_BASE = LOCATION_CODE_DIGITS.length;
/** Grid nodes: latitudes -90..90 and longitudes -180..<180. */
const CODE_LATS = Math.round(180 / LOCATION_CODE_GRID_DEG) + 1;
const CODE_LONS = Math.round(360 / LOCATION_CODE_GRID_DEG);
/** Five base-60 digits hold every node (60^5 = 777 600 000 > 18 001 x 36 000), SPEC §5's minimum length. */
const LOCATION_CODE_LENGTH = 5;

/** The location code of a place: its node of the 0.01° grid as five base-60 digits, latitude first. */
export function encodeLocationCode(lat: number, lon: number): string {
  const i = Math.round((Math.min(MAX_LAT, Math.max(-MAX_LAT, lat)) + 90) / LOCATION_CODE_GRID_DEG);
  const j = Math.round((((((lon + 180) % 360) + 360) % 360)) / LOCATION_CODE_GRID_DEG) % CODE_LONS;
  let n = i * CODE_LONS + j;
  let code = '';
  for (let k = 0; k < LOCATION_CODE_LENGTH; k++) {
    code = LOCATION_CODE_DIGITS[n % LOCATION_CODE_BASE] + code;
    n = Math.floor(n / LOCATION_CODE_BASE);
  }
  return code;
}

/** The place of a location code (its grid node); null when the text is not one. */
export function decodeLocationCode(code: string): { lat: number; lon: number } | null {
  if (typeof code !== 'string' || code.length !== LOCATION_CODE_LENGTH) return null;
  let n = 0;
  for (const ch of code) {
    const digit = LOCATION_CODE_DIGITS.indexOf(ch);
    if (digit < 0) return null;
    n = n * LOCATION_CODE_BASE + digit;
  }
  const i = Math.floor(n / CODE_LONS);
  if (i >= CODE_LATS) return null;
  const round = (x: number) => Math.round(x * 100) / 100;
  return { lat: round(i * LOCATION_CODE_GRID_DEG - 90), lon: round((n % CODE_LONS) * LOCATION_CODE_GRID_DEG - 180) };
}

export function formatDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCHours())}`;
}

/** A key=value pair (decoded), kept unless it is a utm_ parameter. */
function addParam(text: string, params: [string, string][], decode: (s: string) => string): void {
  const eq = text.indexOf('=');
  const key = decode(text.slice(0, eq));
  if (!key.toLowerCase().startsWith('utm_')) params.push([key, decode(text.slice(eq + 1))]);
}

function parseList(list: string, vocab: UrlVocabulary, state: UrlState, params: [string, string][]): void {
  const coords: number[] = [];
  for (const raw of list.split(',')) {
    const token = raw.trim();
    if (!token) continue;
    if (token.indexOf('=') > 0) {
      addParam(token, params, (t) => t);
      continue;
    }
    const colon = token.indexOf(':');
    if (colon > 0) {
      const key = token.slice(0, colon);
      const value = token.slice(colon + 1);
      if (key === 'm' && PICKER_CODE.test(value)) state.pickerCode = value;
      else if (key === 'i' && ISOLINES_CODE.test(value)) state.isolines = value;
      else if (key === 'p' && POI_CODE.test(value)) state.pois = value;
      else if (key === 'd' && value === 'picker') state.pickerOpen = true;
      else if (key === 'launchedBy' && LAUNCHED_BY.test(value)) state.launchedBy = value;
      continue;
    }
    if (COORD.test(token)) {
      coords.push(Number(token));
    } else if (ZOOM.test(token) && coords.length === 2 && state.zoom === undefined) {
      state.zoom = Number(token);
    } else if (DATE.test(token)) {
      const date = parseDate(token);
      if (date !== undefined) state.date = date;
    } else if (vocab.levels.includes(token)) {
      state.level = token;
    } else if (vocab.overlays.includes(token)) {
      state.overlay = token;
    } else if (vocab.products.includes(token)) {
      state.product = token;
    }
  }
  if (coords.length >= 2) {
    const [lat, lon] = coords;
    if (Math.abs(lat) <= MAX_LAT && Math.abs(lon) <= MAX_LON) {
      state.lat = lat;
      state.lon = lon;
    } else {
      delete state.zoom;
    }
  } else {
    delete state.zoom;
  }
}

/** Reads a location.search string (with or without '?'). Never throws. */
export function parseSearch(search: string, vocab: UrlVocabulary = DEFAULT_VOCABULARY): ParsedSearch {
  const state: UrlState = {};
  const params: [string, string][] = [];
  const text = typeof search === 'string' ? search.replace(/^\?/, '') : '';
  for (const part of text.split('&')) {
    if (!part) continue;
    // A pair: key=value (its value may hold commas); else the list, whatever its items hold.
    const eq = part.indexOf('=');
    const comma = part.indexOf(',');
    if (eq > 0 && (comma < 0 || eq < comma)) {
      addParam(part, params, safeDecode);
      continue;
    }
    const decoded = safeDecode(part);
    if (decoded.length < MIN_LIST_LENGTH) continue;
    parseList(decoded, vocab, state, params);
  }
  return { state, params };
}

/** encodeURIComponent that cannot throw: lone surrogates become U+FFFD. */
function safeEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

export interface FormatDefaults {
  overlay?: string;
  product?: string;
  level?: string;
}

/** Writes the search part, '?' included, or '' when there is nothing to write. */
export function formatSearch(state: UrlState, params: [string, string][] = [], defaults: FormatDefaults = {}): string {
  const items: string[] = [];
  if (state.level && state.level !== (defaults.level ?? DEFAULT_LEVEL)) items.push(state.level);
  if (state.overlay && state.overlay !== (defaults.overlay ?? DEFAULT_OVERLAY)) items.push(state.overlay);
  if (state.product && state.product !== defaults.product) items.push(state.product);
  if (state.date !== undefined && Number.isFinite(state.date)) items.push(formatDate(state.date));
  if (state.lat !== undefined && state.lon !== undefined && Number.isFinite(state.lat) && Number.isFinite(state.lon)) {
    items.push(state.lat.toFixed(COORD_DECIMALS), state.lon.toFixed(COORD_DECIMALS));
    if (state.zoom !== undefined && Number.isFinite(state.zoom)) items.push(String(Math.round(state.zoom)));
  }
  if (state.pickerCode) items.push(`m:${state.pickerCode}`);
  if (state.isolines) items.push(`i:${state.isolines}`);
  if (state.pois) items.push(`p:${state.pois}`);
  if (state.pickerOpen) items.push('d:picker');
  if (state.launchedBy) items.push(`launchedBy:${state.launchedBy}`);
  const parts: string[] = [];
  if (items.length) parts.push(items.join(','));
  for (const [k, v] of params) {
    if (!k.toLowerCase().startsWith('utm_')) parts.push(`${safeEncode(k)}=${safeEncode(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
