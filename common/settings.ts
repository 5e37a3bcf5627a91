/**
 * The settings schema (SPEC §3 "Settings", validation of SPEC §5): every key with its default, its
 * allowed set or check, and where it lives:
 *
 *   local   saved in the browser (IndexedDB), this device only
 *   sync    saved in the browser and synced to the account: stored as { value, ts } (SPEC §3:
 *           "Each syncable setting has a value and an update timestamp")
 *   memory  this page view only (derived or runtime state)
 *
 * `metric_{ident}` keys exist for every metric of the catalogue (SPEC §3 "Metric"). An unknown key
 * is a programming error: settingDef throws.
 */

import { OFFLINE_BASEMAP_STYLES, type OfflineBasemapStyle } from './basemapStyles.ts';
import { AC_RANGE_MIN_HOURS, isValidAcRange } from './catalogue/accumulations.ts';
import { LEVEL_IDENTS } from './catalogue/levels.ts';
import { METRICS } from './catalogue/metrics.ts';
import { OVERLAY_IDENTS } from './catalogue/overlays.ts';
import { PRODUCTS } from './catalogue/products.ts';
import { isLanguage } from './languages.ts';
import { MIN_ZOOM } from './map.ts';

export type SettingStorage = 'local' | 'sync' | 'memory';

export interface SettingDef<T = unknown> {
  readonly default: T;
  /** True when the value is allowed. */
  readonly check: (value: unknown) => boolean;
  readonly storage: SettingStorage;
}

/** SPEC §9: start-up zoom 3 to 11. */
export const START_UP_ZOOM_MAX = 11;
/** SPEC §5: favourite layers maximum on desktop. */
export const MAX_FAV_OVERLAYS_DESKTOP = 7;
/** SPEC §3: rplannerMotionSpeed defaults, m/s. */
const RPLANNER_MOTION_SPEED = { elevation: 22.2222, car: 22.2222, boat: 6.17333, vfr: 56.5889, ifr: 144.044, airgram: 22.2222 } as const;

export interface LatLon { lat: number; lon: number }
export interface StartUpPosition { lat: number; lon: number; zoom: number; source: 'maps' | 'globe' }
export interface ParticleSettings { multiplier: number; velocity: number; width: number; blending: number; opacity: number }

const PARTICLE_KEYS = ['multiplier', 'velocity', 'width', 'blending', 'opacity'] as const;

// ---- checks ----------------------------------------------------------------------------------

const oneOf = (...allowed: readonly unknown[]) => (v: unknown) => allowed.includes(v);
const isBoolean = (v: unknown) => typeof v === 'boolean';
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown) => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const orNull = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const stringList = (v: unknown) => Array.isArray(v) && v.every(isString);

/** SPEC §5: "A lat/lon object is valid if both numeric" (and on the globe). */
function isLatLon(v: unknown): v is LatLon {
  return isObject(v) && isFiniteNumber(v.lat) && isFiniteNumber(v.lon) && Math.abs(v.lat) <= 90 && Math.abs(v.lon) <= 720;
}

/** SPEC §5: "email: non-space text, an at sign, non-space text". */
function isEmail(v: unknown): boolean {
  return typeof v === 'string' && /^\S+@\S+$/.test(v);
}

/** SPEC §5: "particles: five numbers each 0 to 2". */
function isParticleSettings(v: unknown): v is ParticleSettings {
  return isObject(v) && Object.keys(v).length === PARTICLE_KEYS.length
    && PARTICLE_KEYS.every((k) => isFiniteNumber(v[k]) && (v[k] as number) >= 0 && (v[k] as number) <= 2);
}

/** SPEC §5: "startUpLastPosition: valid lat/lon, integer zoom, source maps or globe". */
function isStartUpPosition(v: unknown): v is StartUpPosition {
  return isLatLon(v) && isObject(v) && Number.isInteger((v as Record<string, unknown>).zoom) && oneOf('maps', 'globe')((v as Record<string, unknown>).source);
}

/** SPEC §5: "country: two characters, a letter then a letter or digit". */
function isCountry(v: unknown): boolean {
  return typeof v === 'string' && /^[a-z][a-z0-9]$/i.test(v);
}

const isStartUpZoom = (v: unknown) => v === null || (Number.isInteger(v) && (v as number) >= MIN_ZOOM && (v as number) <= START_UP_ZOOM_MAX);
const isOverlayList = (max: number) => (v: unknown) => Array.isArray(v) && v.length <= max && v.every((o) => OVERLAY_IDENTS.includes(o as string)) && new Set(v).size === v.length;

function def<T>(defaultValue: T, check: (v: unknown) => boolean, storage: SettingStorage = 'local'): SettingDef<T> {
  return { default: defaultValue, check, storage };
}

// ---- the schema ------------------------------------------------------------------------------

export const SETTINGS = {
  // What the map shows.
  overlay: def('wind', (v) => OVERLAY_IDENTS.includes(v as string)),
  level: def('surface', (v) => LEVEL_IDENTS.includes(v as string)),
  product: def('ecmwf', (v) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(PRODUCTS, v)),
  // SPEC §3 acRange (default 12), hours; SPEC §9 minimum 12 h (common/catalogue/accumulations.ts).
  acRange: def(AC_RANGE_MIN_HOURS, (v) => typeof v === 'number' && isValidAcRange(v)),
  timestamp: def<number | null>(null, orNull(isFiniteNumber), 'memory'),
  isolinesType: def('pressure', oneOf('pressure', 'gh', 'temp', 'deg0'), 'sync'),
  isolinesOn: def(false, isBoolean, 'sync'),
  particlesAnim: def('on', oneOf('on', 'off', 'intensive'), 'sync'),
  particles: def<ParticleSettings>({ multiplier: 1, velocity: 1, width: 1, blending: 1, opacity: 1 }, isParticleSettings, 'sync'),
  // Language and units.
  lang: def('auto', (v) => v === 'auto' || isLanguage(v), 'sync'),
  usedLang: def('en', isLanguage),
  hourFormat: def<'12h' | '24h' | null>(null, orNull(oneOf('12h', '24h')), 'sync'),
  defaultUnits: def('unset', oneOf('unset', 'imperial', 'metric'), 'sync'),
  // Map.
  map: def('sznmap', oneOf('sznmap', 'sat', 'winter'), 'sync'),
  mapLibrary: def('leaflet', oneOf('leaflet', 'maplibre', 'globe')),
  graticule: def(false, isBoolean, 'sync'),
  // SPEC §2 base maps gray, simple, landmask: the offline map's colours (common/basemapStyles.ts).
  basemapStyle: def<OfflineBasemapStyle>('gray', oneOf(...OFFLINE_BASEMAP_STYLES), 'sync'),
  latlon: def(false, isBoolean, 'sync'),
  // Start-up.
  startUp: def('ip', oneOf('ip', 'gps', 'location', 'last'), 'sync'),
  startUpLastPosition: def<StartUpPosition | null>(null, orNull(isStartUpPosition)),
  startUpZoom: def<number | null>(null, isStartUpZoom, 'sync'),
  startUpLastStep: def<number | null>(null, oneOf(null, 1, 3)),
  startUpOverlay: def<string | null>(null, orNull((v) => OVERLAY_IDENTS.includes(v as string))),
  startUpLastProduct: def<string | null>(null, orNull((v) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(PRODUCTS, v))),
  homeLocation: def<LatLon | null>(null, orNull(isLatLon), 'sync'),
  ipLocation: def<(LatLon & { ts?: number }) | null>(null, orNull(isLatLon)),
  gpsLocation: def<(LatLon & { ts?: number }) | null>(null, orNull(isLatLon)),
  email: def<string | null>(null, orNull(isEmail)),
  // Points of interest.
  pois: def('', oneOf('favs', 'cities', 'wind', 'temp', 'precip', 'metars', 'cams', 'pgspots', 'kitespots', 'surfspots', 'tide', 'radiation', 'firespots', 'airq', 'radiosonde', '')),
  favPois: def('cams', oneOf('cams', 'cities', 'wind', 'temp', 'metars', ''), 'sync'),
  // Lists.
  favOverlaysMobile: def<string[]>(['wind', 'rain', 'temp', 'clouds', 'waves'], isOverlayList(OVERLAY_IDENTS.length), 'sync'),
  favOverlaysDesktop: def<string[]>(['wind', 'gust', 'rain', 'temp', 'clouds', 'pressure', 'waves'], isOverlayList(MAX_FAV_OVERLAYS_DESKTOP), 'sync'),
  favPoisMobile: def<string[]>([], stringList, 'sync'),
  favsFilter: def<string[]>([], stringList),
  donations: def<string[]>([], stringList),
  userInterests: def<string[]>([], stringList, 'sync'),
  stationCompareHiddenProducts: def<string[]>([], stringList, 'sync'),
  // Panels and tools.
  pickerMobileTimeout: def<number | 'always'>(6, oneOf(3, 6, 9, 12, 'always'), 'sync'),
  capDisplay: def('all', oneOf('all', 'today', 'tomm', 'later'), 'sync'),
  stationsSort: def('profi', oneOf('profi', 'distance'), 'sync'),
  mobileMenuFilter: def('all', oneOf('all', 'wind', 'rain', 'sea', 'airQ', 'drought', 'temp', 'warnings', 'clouds', 'search')),
  pinMenuActiveTab: def('layers', oneOf('models', 'layers')),
  radarPlusSegmentRange: def('short', oneOf('short', 'medium', 'long', 'archive')),
  rplannerDir: def('horizontal', oneOf('horizontal', 'vertical', 'north')),
  rplannerMotionSpeed: def<Record<string, number>>({ ...RPLANNER_MOTION_SPEED }, (v) => isObject(v) && Object.keys(RPLANNER_MOTION_SPEED).every((k) => isFiniteNumber(v[k]) && (v[k] as number) > 0), 'sync'),
  archiveOn: def(false, isBoolean, 'memory'),
  archiveTimestamp: def<number | null>(null, orNull(isFiniteNumber), 'memory'),
  archiveRange: def(24, (v) => Number.isInteger(v) && (v as number) > 0, 'memory'),
  detail1h: def(false, isBoolean),
  preferredProduct: def('ecmwf', (v) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(PRODUCTS, v), 'sync'),
  // Account and subscription (filled by the account issue).
  subscription: def<string | null>(null, orNull(oneOf('premium'))),
  subscriptionInfo: def<Record<string, unknown> | null>(null, orNull(isObject)),
  pendingSubscription: def<Record<string, unknown> | null>(null, orNull(isObject)),
  failedSubscriptionPayment: def(false, isBoolean),
  user: def<Record<string, unknown> | null>(null, orNull(isObject)),
  userToken: def<string | null>(null, orNull(isString)),
  authHash: def<string | null>(null, orNull(isString)),
  notifications: def<Record<string, unknown> | null>(null, orNull(isObject)),
  consent: def<{ version: string; timestamp: number; analytics: boolean; explicit: boolean } | null>(null, orNull((v) =>
    isObject(v) && isString(v.version) && isFiniteNumber(v.timestamp) && isBoolean(v.analytics) && isBoolean(v.explicit))),
  youtubeConsent: def(false, isBoolean),
  twitterConsent: def(false, isBoolean),
  marketingConsent: def(false, isBoolean),
  // Flags.
  displayHeliports: def(false, isBoolean, 'sync'),
  displayAirspaces: def(false, isBoolean, 'sync'),
  displayAdStations: def(true, isBoolean, 'sync'),
  displayWMOStations: def(true, isBoolean, 'sync'),
  displayMadisPWStations: def(true, isBoolean, 'sync'),
  displayShipStations: def(true, isBoolean, 'sync'),
  blitzOn: def(false, isBoolean, 'sync'),
  blitzSoundOn: def(false, isBoolean, 'sync'),
  vibrate: def(true, isBoolean, 'sync'),
  zuluMode: def(false, isBoolean, 'sync'),
  numDirection: def(false, isBoolean, 'sync'),
  englishLabels: def(false, isBoolean, 'sync'),
  showPickerElevation: def(false, isBoolean, 'sync'),
  onboardingFinished: def(false, isBoolean),
  sessionCounter: def(0, (v) => Number.isInteger(v) && (v as number) >= 0),
  firstUserSession: def(true, isBoolean),
  persistentWidgets: def(true, isBoolean),
  showWeather: def(true, isBoolean),
  country: def<string | null>(null, orNull(isCountry)),
  // Runtime state (SPEC §3 "Other store keys seen").
  connection: def(true, isBoolean, 'memory'),
  visibility: def(true, isBoolean, 'memory'),
  badgeNumber: def(0, (v) => Number.isInteger(v) && (v as number) >= 0, 'memory'),
  calendar: def<unknown>(null, () => true, 'memory'),
  availLevels: def<string[]>([], stringList, 'memory'),
  availProducts: def<string[]>([], stringList, 'memory'),
  poisTemporary: def(false, isBoolean, 'memory'),
  animation: def(false, isBoolean, 'memory'),
} as const satisfies Record<string, SettingDef>;

export type StaticSettingKey = keyof typeof SETTINGS;
export type SettingKey = StaticSettingKey | `metric_${string}`;
export type SettingValue<K extends SettingKey> = K extends StaticSettingKey ? (typeof SETTINGS)[K]['default'] : string | null;

export class UnknownSettingError extends Error {
  override name = 'UnknownSettingError';
}

/** The definition of a key; `metric_{ident}` for every catalogue metric (default null: the country's unit). */
export function settingDef(key: string): SettingDef {
  if (Object.prototype.hasOwnProperty.call(SETTINGS, key)) return SETTINGS[key as StaticSettingKey];
  if (key.startsWith('metric_')) {
    const metric = METRICS[key.slice('metric_'.length)];
    if (metric) return { default: null, check: (v) => v === null || metric.units.includes(v as string), storage: 'sync' };
  }
  throw new UnknownSettingError(`Unknown setting "${key}"`);
}

/** Every key, the metric keys included. */
export function settingKeys(): SettingKey[] {
  return [...Object.keys(SETTINGS) as StaticSettingKey[], ...Object.keys(METRICS).map((m) => `metric_${m}` as const)];
}
