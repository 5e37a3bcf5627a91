/**
 * Path handling and routes (SPEC §2 "Path handling", "Routes"): a path becomes a language prefix,
 * an optional overlay from an SEO segment, and the window it opens with its parameters.
 *
 *   /fr/-Rafales-de-vent-gust/48.853/2.349/ecmwf/meteogram
 *     lang fr, seoOverlay gust, route { window: 'detail', params: { lat, lon, model, display } }
 *
 * Unknown paths give { window: null, unknown: true }: the caller logs the 404 usage event and
 * opens nothing. The home path gives { window: null, home: true }.
 */

import { OVERLAY_IDENTS } from './catalogue/overlays.ts';
import { PRODUCTS } from './catalogue/products.ts';
import { isLanguage, type Language } from './languages.ts';

export const POINT_DISPLAYS = ['table', 'meteogram', 'airgram', 'waves', 'wind', 'airq'] as const;
export type PointDisplay = (typeof POINT_DISPLAYS)[number];
const STATION_VIEWS = ['basic', 'wind', 'compare'] as const;
const ROUTE_PLANNER_VIEWS = ['vfr', 'ifr', 'car', 'boat', 'airgram', 'elevation'] as const;

export interface Route {
  /** The window (plugin) the path opens; null for home and unknown paths. */
  window: string | null;
  params: Record<string, string | number>;
  home?: true;
  unknown?: true;
}

export interface ParsedPath {
  lang: Language | null;
  /** Overlay carried by an SEO segment (`-Name-words-overlay`). */
  seoOverlay: string | null;
  /** The path without language prefix and SEO segment. */
  path: string;
  route: Route;
}

/** SPEC §2: "Lat/lon are signed decimals with a fractional part". */
const DECIMAL = /^-?\d{1,3}\.\d+$/;
const ICAO = /^[A-Za-z]{4}$/;
const NUMERIC = /^\d+$/;

const NAMED_WINDOWS: Readonly<Record<string, string>> = {
  articles: 'articles', settings: 'settings', favs: 'favs', alerts: 'alerts', colors: 'colors', hurricanes: 'hurricanes',
  debug: 'debug', info: 'info', 'delete-info': 'delete-info', subscription: 'subscription', 'pending-subscription': 'pending-subscription',
  stories: 'stories', radarPlus: 'radar-plus', plugins: 'plugins', login: 'login', register: 'register',
  menu: 'menu', overlays: 'menu', tools: 'menu', pois: 'menu',
};

/** Paths whose next segment is an id (server ids are base64url: they may begin with '-'). */
const ID_WINDOWS: ReadonlySet<string> = new Set(['alerts-edit', 'station', 'radiosonde', 'articles', 'hurricanes', 'stories', 'upload', 'uploader', 'plugin']);

const ok = (window: string, params: Route['params'] = {}): Route => ({ window, params });
const unknown = (): Route => ({ window: null, params: {}, unknown: true });
const isCoord = (lat: string | undefined, lon: string | undefined) =>
  lat !== undefined && lon !== undefined && DECIMAL.test(lat) && DECIMAL.test(lon) && Math.abs(Number(lat)) <= 90 && Math.abs(Number(lon)) <= 720;

function pointRoute(parts: string[]): Route {
  const [lat, lon, a, b] = parts;
  if (!isCoord(lat, lon) || parts.length > 4) return unknown();
  const params: Route['params'] = { lat: Number(lat), lon: Number(lon) };
  const isDisplay = (s: string | undefined) => s !== undefined && (POINT_DISPLAYS as readonly string[]).includes(s);
  const isModel = (s: string | undefined) => s !== undefined && Object.prototype.hasOwnProperty.call(PRODUCTS, s);
  if (a !== undefined) {
    if (isModel(a)) params.model = a;
    else if (isDisplay(a) && b === undefined) params.display = a;
    else return unknown();
  }
  if (b !== undefined) {
    if (!isDisplay(b)) return unknown();
    params.display = b;
  }
  return ok('detail', params);
}

function routeOf(parts: string[], mobile: boolean): Route {
  if (parts.length === 0) return { window: null, params: {}, home: true };
  const [head, ...rest] = parts;
  if (DECIMAL.test(head)) return pointRoute(parts);
  switch (head) {
    case 'station':
      if (!rest[0] || rest.length > 2 || (rest[1] && !(STATION_VIEWS as readonly string[]).includes(rest[1]))) return unknown();
      return ok('station', rest[1] ? { id: rest[0], view: rest[1] } : { id: rest[0] });
    case 'sounding': case 'multimodel': case 'cap-alert':
      return rest.length === 2 && isCoord(rest[0], rest[1]) ? ok(head, { lat: Number(rest[0]), lon: Number(rest[1]) }) : unknown();
    case 'radiosonde':
      return rest.length === 1 ? ok('radiosonde', { id: rest[0] }) : unknown();
    case 'alerts':
      return ok('alerts', rest.length ? { sub: rest.join('/') } : {});
    case 'alerts-edit':
      return rest.length === 1 ? ok('alerts-edit', { id: rest[0] }) : unknown();
    case 'articles': case 'hurricanes': case 'stories': case 'heatmaps':
      if (rest.length > 1) return unknown();
      return ok(head === 'heatmaps' ? 'heatmaps' : head, rest[0] ? { id: rest[0] } : {});
    case 'airport':
      return rest.length === 1 ? ok('airport', { id: rest[0].toUpperCase() }) : unknown();
    case 'route-planner': case 'distance': {
      if (head === 'distance' && !mobile && rest.length === 0) return ok('route-planner', {});
      const params: Route['params'] = {};
      let i = 0;
      if (rest[i] && (ROUTE_PLANNER_VIEWS as readonly string[]).includes(rest[i])) params.view = rest[i++];
      if (rest[i] && !rest[i].startsWith('id:')) params.coords = rest[i++];
      if (rest[i]?.startsWith('id:')) params.id = rest[i++].slice(3);
      return i === rest.length ? ok(head === 'distance' && mobile ? 'distance' : 'route-planner', params) : unknown();
    }
    case 'upload':
      return rest.length === 1 ? ok('upload', { id: rest[0] }) : unknown();
    case 'uploader':
      if (mobile) return rest.length === 1 ? ok('upload', { id: rest[0] }) : unknown();
      return rest.length <= 1 ? ok('upload', rest[0] ? { id: rest[0] } : {}) : unknown();
    case 'webcams': {
      if (rest.length === 0) return ok('webcams');
      if (rest.length === 1 && NUMERIC.test(rest[0])) return ok('webcams', { id: Number(rest[0]) });
      if (rest.length === 1 && rest[0] === 'add') return ok('webcams-add');
      if (rest.length === 2 && (rest[0] === 'edit' || rest[0] === 'remove') && NUMERIC.test(rest[1])) return ok(`webcams-${rest[0]}`, { id: Number(rest[1]) });
      return unknown();
    }
    case 'developer-mode': case 'dev':
      return ok('developer-mode', rest.length ? { url: decodeURIComponent(rest.join('/')) } : {});
    case 'plugin':
      return rest.length ? ok('external-plugin', { name: rest.join('/') }) : unknown();
    default:
      break;
  }
  if (NAMED_WINDOWS[head] && rest.length === 0) return ok(NAMED_WINDOWS[head]);
  if (parts.length === 1 && ICAO.test(head)) return ok('airport', { id: head.toUpperCase() });
  return unknown();
}

/** Parses a location pathname (already without search and hash). */
export function parsePath(pathname: string, options: { mobile?: boolean } = {}): ParsedPath {
  let parts: string[];
  try {
    parts = pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  } catch {
    return { lang: null, seoOverlay: null, path: pathname, route: unknown() };
  }
  let lang: Language | null = null;
  if (parts.length && isLanguage(parts[0]) && (parts[0].length === 2 || parts[0] === 'zh-TW')) {
    lang = parts[0];
    parts = parts.slice(1);
  }
  let seoOverlay: string | null = null;
  // A segment that is the id of the window before it (an alert id may begin with a dash) is no SEO segment.
  const seo = parts.findIndex((p, i) => /^-\D/.test(p) && !(i > 0 && ID_WINDOWS.has(parts[i - 1])));
  if (seo >= 0) {
    const words = parts[seo].slice(1).split('-');
    const last = words[words.length - 1];
    if (OVERLAY_IDENTS.includes(last)) seoOverlay = last;
    parts = [...parts.slice(0, seo), ...parts.slice(seo + 1)];
  }
  return { lang, seoOverlay, path: `/${parts.join('/')}`, route: routeOf(parts, options.mobile ?? false) };
}

/** The path of a point forecast (SPEC §2): coordinates with 3 decimals (SPEC §9). */
export function pointPath(lat: number, lon: number, model?: string, display?: PointDisplay): string {
  const parts = [lat.toFixed(3), lon.toFixed(3)];
  if (model) parts.push(model);
  if (display) parts.push(display);
  return `/${parts.join('/')}`;
}

/** The path with a language prefix (none for English). */
export function withLanguage(path: string, lang: Language | null): string {
  return lang && lang !== 'en' ? `/${lang}${path === '/' ? '' : path}` : path;
}
