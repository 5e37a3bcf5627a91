/**
 * Alerts (SPEC §3 "Alert", §4 "Alerts cached 30 min"): a place, a forecast product and a list of
 * conditions; the server evaluates every stored alert against each newly ingested run of its
 * product and notifies the user of the times when all the conditions hold. Synced as the
 * collection 'alerts' (SPEC §7 /users/v1/data/alerts).
 *
 *   lat, lon      the place (degrees); name its label (required, <= 200 characters)
 *   product       the product ident (common/catalogue/products.ts) whose runs are evaluated
 *   state         triggered | normal | suspended (suspended alerts are not evaluated)
 *   conditions    1 to 16, at most one per type:
 *     wind         speed min / max m/s, directions (where it blows FROM) among the 8 points
 *     temperature  min / max K
 *     rainfall     min (and max) mm over the `hours` before each time (1..72)
 *     cloudiness   classes among SKC FEW SCT BKN OVC (total cloud cover in oktas, see cloudClass)
 *     freshSnow    min cm over the `hours` before each time (rain falling at <= 1 °C, 1 mm -> 1 cm)
 *     swell        height min / max m, directions (optional) of the waves
 *     time         weekdays (mon..sun) and a local hour range [fromHour, toHour) (wraps past
 *                  midnight when fromHour > toHour); local = UTC + utcOffsetMin (default the
 *                  place's solar offset, lon / 15 hours rounded)
 *
 * validateAlert / alertProblem are the one check used by the browser and the server (as for
 * favourites); evaluateAlert is the pure evaluation over a point forecast.
 */

import { HOUR_MS } from './time.ts';

export const ALERT_STATES = ['triggered', 'normal', 'suspended'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const ALERT_CONDITION_TYPES = ['cloudiness', 'freshSnow', 'rainfall', 'swell', 'temperature', 'time', 'wind'] as const;
export type AlertConditionType = (typeof ALERT_CONDITION_TYPES)[number];

/** SPEC §3: 8 points N to NW. */
export const DIRECTIONS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const CLOUD_CLASSES = ['SKC', 'FEW', 'SCT', 'BKN', 'OVC'] as const;
export type CloudClass = (typeof CLOUD_CLASSES)[number];

/** SPEC §4: alerts cached 30 min in the client, then reloaded from the cloud. */
export const ALERTS_CACHE_MS = 30 * 60 * 1000;

/** Limits not in the SPEC: generous bounds that catch typing errors. */
export const ALERT_NAME_MAX_LENGTH = 200;
const ALERT_CONDITIONS_MAX = ALERT_CONDITION_TYPES.length;
export const ALERT_WINDOW_HOURS_MAX = 72;
const WIND_MAX_MS = 150;
const TEMP_MIN_K = 150;
const TEMP_MAX_K = 350;
const RAIN_MAX_MM = 2000;
const SNOW_MAX_CM = 1000;
const SWELL_MAX_M = 40;
/** Rain falling at or below this temperature counts as snow (K). */
const SNOW_TEMP_K = 274.15;

export type AlertCondition =
  | { type: 'wind'; min?: number; max?: number; directions?: Direction[] }
  | { type: 'temperature'; min?: number; max?: number }
  | { type: 'rainfall'; min?: number; max?: number; hours: number }
  | { type: 'cloudiness'; classes: CloudClass[] }
  | { type: 'freshSnow'; min: number; hours: number }
  | { type: 'swell'; min?: number; max?: number; directions?: Direction[] }
  | { type: 'time'; weekdays: Weekday[]; fromHour: number; toHour: number };

export interface Alert {
  id?: string;
  lat: number;
  lon: number;
  name: string;
  product: string;
  state: AlertState;
  conditions: AlertCondition[];
  /** Minutes east of UTC for the time condition; default the place's solar offset. */
  utcOffsetMin?: number;
  /** Last change, ms since the epoch. */
  updated?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const PRODUCT_IDENT = /^[A-Za-z0-9_-]{1,64}$/;

function rangeProblem(c: Record<string, unknown>, lo: number, hi: number, what: string): string | null {
  for (const key of ['min', 'max'] as const) {
    if (c[key] === undefined) continue;
    if (!isNum(c[key]) || (c[key]) < lo || (c[key]) > hi) return `${what} ${key} must be a number from ${lo} to ${hi}`;
  }
  if (isNum(c.min) && isNum(c.max) && c.min > c.max) return `${what} min is above max`;
  return null;
}

function listProblem(v: unknown, allowed: readonly string[], what: string, required: boolean): string | null {
  if (v === undefined && !required) return null;
  if (!Array.isArray(v) || v.length === 0) return `${what} must be a non-empty list`;
  for (const item of v) if (!allowed.includes(item as string)) return `unknown ${what} ${JSON.stringify(item)}`;
  if (new Set(v).size !== v.length) return `${what} repeat`;
  return null;
}

function hoursProblem(v: unknown, what: string): string | null {
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > ALERT_WINDOW_HOURS_MAX) return `${what} hours must be a whole number from 1 to ${ALERT_WINDOW_HOURS_MAX}`;
  return null;
}

const CONDITION_FIELDS: Readonly<Record<AlertConditionType, readonly string[]>> = {
  wind: ['min', 'max', 'directions'],
  temperature: ['min', 'max'],
  rainfall: ['min', 'max', 'hours'],
  cloudiness: ['classes'],
  freshSnow: ['min', 'hours'],
  swell: ['min', 'max', 'directions'],
  time: ['weekdays', 'fromHour', 'toHour'],
};

/** Why a value is not an alert condition, or null. */
export function conditionProblem(c: unknown): string | null {
  if (!isObject(c)) return 'a condition is not an object';
  const type = c.type as AlertConditionType;
  if (!(ALERT_CONDITION_TYPES as readonly unknown[]).includes(type)) return `unknown condition type ${JSON.stringify(c.type)}`;
  for (const key of Object.keys(c)) if (key !== 'type' && !CONDITION_FIELDS[type].includes(key)) return `${type} has no field ${key}`;
  switch (type) {
    case 'wind':
      if (c.min === undefined && c.max === undefined && c.directions === undefined) return 'wind needs a speed or directions';
      return rangeProblem(c, 0, WIND_MAX_MS, 'wind') ?? listProblem(c.directions, DIRECTIONS, 'direction', false);
    case 'temperature':
      if (c.min === undefined && c.max === undefined) return 'temperature needs min or max';
      return rangeProblem(c, TEMP_MIN_K, TEMP_MAX_K, 'temperature');
    case 'rainfall':
      if (c.min === undefined && c.max === undefined) return 'rainfall needs min or max';
      return rangeProblem(c, 0, RAIN_MAX_MM, 'rainfall') ?? hoursProblem(c.hours, 'rainfall');
    case 'cloudiness':
      return listProblem(c.classes, CLOUD_CLASSES, 'cloud class', true);
    case 'freshSnow':
      if (!isNum(c.min) || c.min < 0 || c.min > SNOW_MAX_CM) return `freshSnow min must be a number from 0 to ${SNOW_MAX_CM}`;
      return hoursProblem(c.hours, 'freshSnow');
    case 'swell':
      if (c.min === undefined && c.max === undefined && c.directions === undefined) return 'swell needs a height or directions';
      return rangeProblem(c, 0, SWELL_MAX_M, 'swell') ?? listProblem(c.directions, DIRECTIONS, 'direction', false);
    case 'time': {
      const days = listProblem(c.weekdays, WEEKDAYS, 'weekday', true);
      if (days) return days;
      if (!Number.isInteger(c.fromHour) || (c.fromHour as number) < 0 || (c.fromHour as number) > 23) return 'time fromHour must be a whole hour from 0 to 23';
      if (!Number.isInteger(c.toHour) || (c.toHour as number) < 1 || (c.toHour as number) > 24) return 'time toHour must be a whole hour from 1 to 24';
      if (c.fromHour === c.toHour) return 'time range is empty';
      return null;
    }
  }
}

const ALERT_FIELDS: ReadonlySet<string> = new Set(['id', 'lat', 'lon', 'name', 'product', 'state', 'conditions', 'utcOffsetMin', 'updated']);

/** Why a value is not an alert, or null when it is one. */
export function alertProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  for (const key of Object.keys(v)) if (!ALERT_FIELDS.has(key)) return `unknown field ${key}`;
  if (!isNum(v.lat) || v.lat < -90 || v.lat > 90) return 'lat must be a number from -90 to 90';
  if (!isNum(v.lon) || v.lon < -180 || v.lon > 180) return 'lon must be a number from -180 to 180';
  if (typeof v.name !== 'string' || v.name.trim() === '') return 'name is empty';
  if (v.name.length > ALERT_NAME_MAX_LENGTH) return 'name is too long';
  if (typeof v.product !== 'string' || !PRODUCT_IDENT.test(v.product)) return 'product is not a product ident';
  if (!(ALERT_STATES as readonly unknown[]).includes(v.state)) return `unknown state ${JSON.stringify(v.state)}`;
  if (!Array.isArray(v.conditions) || v.conditions.length === 0) return 'conditions must be a non-empty list';
  if (v.conditions.length > ALERT_CONDITIONS_MAX) return 'too many conditions';
  const seen = new Set<unknown>();
  for (const c of v.conditions) {
    const problem = conditionProblem(c);
    if (problem) return problem;
    const type = (c as { type: unknown }).type;
    if (seen.has(type)) return `two ${String(type)} conditions`;
    seen.add(type);
  }
  if (v.utcOffsetMin !== undefined && (!Number.isInteger(v.utcOffsetMin) || Math.abs(v.utcOffsetMin as number) > 14 * 60)) return 'utcOffsetMin must be whole minutes within ±14 h';
  if (v.id !== undefined && typeof v.id !== 'string') return 'id is not text';
  if (v.updated !== undefined && !isNum(v.updated)) return 'updated is not a number';
  return null;
}

/** The alert with only its known fields, or null (reason logged) when it is not one. */
export function validateAlert(v: unknown, logError: (message: string) => void = (m) => console.error(m)): Alert | null {
  const problem = alertProblem(v);
  if (problem) {
    logError(`Invalid alert: ${problem}`);
    return null;
  }
  return structuredClone(v) as Alert;
}

// ---- evaluation ---------------------------------------------------------------------------------

/** The point forecast as the server answers it (server/data/servedProducts.ts PointForecast), base units. */
export interface AlertForecast {
  ts: readonly number[];
  data: Readonly<Record<string, readonly (number | null)[]>>;
}

/** The 8-point sector of a direction in degrees (0 = N, clockwise). */
export function directionOf(degrees: number): Direction {
  const d = ((degrees % 360) + 360) % 360;
  return DIRECTIONS[Math.round(d / 45) % 8];
}

/** Where the wind blows from, degrees (0 = from the north), from its u (east) and v (north) parts. */
export function windFromDegrees(u: number, v: number): number {
  return ((Math.atan2(-u, -v) * 180) / Math.PI + 360) % 360;
}

/** Total cloud cover % as a METAR class by oktas: 0 SKC, 1-2 FEW, 3-4 SCT, 5-7 BKN, 8 OVC. */
export function cloudClass(percent: number): CloudClass {
  const oktas = Math.round((Math.min(100, Math.max(0, percent)) / 100) * 8);
  if (oktas === 0) return 'SKC';
  if (oktas <= 2) return 'FEW';
  if (oktas <= 4) return 'SCT';
  if (oktas <= 7) return 'BKN';
  return 'OVC';
}

const inRange = (x: number, c: { min?: number; max?: number }) => (c.min === undefined || x >= c.min) && (c.max === undefined || x <= c.max);

/** Rain (mm/h rates per step) summed over the `hours` before ts[i], each step weighing the hours since the one before. */
function windowSum(f: AlertForecast, i: number, hours: number, amount: (k: number) => number | null): number | null {
  const from = f.ts[i] - hours * HOUR_MS;
  let total = 0;
  let any = false;
  for (let k = i; k >= 0 && f.ts[k] > from; k--) {
    const a = amount(k);
    if (a === null) return null;
    const span = k > 0 ? Math.min(f.ts[k] - f.ts[k - 1], f.ts[k] - from) / HOUR_MS : 1;
    total += a * span;
    any = true;
  }
  return any ? total : null;
}

function value(f: AlertForecast, key: string, i: number): number | null {
  const v = f.data[key]?.[i];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function holds(c: AlertCondition, f: AlertForecast, i: number, utcOffsetMin: number): boolean {
  switch (c.type) {
    case 'wind': {
      const u = value(f, 'wind_u', i);
      const v = value(f, 'wind_v', i);
      if (u === null || v === null) return false;
      if (!inRange(Math.hypot(u, v), c)) return false;
      return !c.directions || c.directions.includes(directionOf(windFromDegrees(u, v)));
    }
    case 'temperature': {
      const t = value(f, 'temp', i);
      return t !== null && inRange(t, c);
    }
    case 'rainfall': {
      const total = windowSum(f, i, c.hours, (k) => value(f, 'rain', k));
      return total !== null && inRange(total, c);
    }
    case 'cloudiness': {
      const cover = value(f, 'clouds', i);
      return cover !== null && c.classes.includes(cloudClass(cover));
    }
    case 'freshSnow': {
      const total = windowSum(f, i, c.hours, (k) => {
        const rain = value(f, 'rain', k);
        const temp = value(f, 'temp', k);
        if (rain === null || temp === null) return null;
        return temp <= SNOW_TEMP_K ? rain : 0; // 1 mm of water -> about 1 cm of snow
      });
      return total !== null && total >= c.min;
    }
    case 'swell': {
      const h = value(f, 'waves', i);
      if (h === null || !inRange(h, c)) return false;
      if (!c.directions) return true;
      const dir = value(f, 'waves_dir', i);
      return dir !== null && c.directions.includes(directionOf(dir));
    }
    case 'time': {
      const local = new Date(f.ts[i] + utcOffsetMin * 60_000);
      const weekday = WEEKDAYS[(local.getUTCDay() + 6) % 7];
      if (!c.weekdays.includes(weekday)) return false;
      const hour = local.getUTCHours();
      return c.fromHour < c.toHour ? hour >= c.fromHour && hour < c.toHour : hour >= c.fromHour || hour < c.toHour;
    }
  }
}

/** The place's solar offset from UTC, whole hours in minutes. */
const solarOffsetMin = (lon: number): number => Math.round(lon / 15) * 60;

/** The valid times of the forecast when every condition of the alert holds (none when suspended). */
export function evaluateAlert(alert: Alert, forecast: AlertForecast): number[] {
  if (alert.state === 'suspended') return [];
  const offset = alert.utcOffsetMin ?? solarOffsetMin(alert.lon);
  const out: number[] = [];
  for (let i = 0; i < forecast.ts.length; i++) {
    if (alert.conditions.every((c) => holds(c, forecast, i, offset))) out.push(forecast.ts[i]);
  }
  return out;
}
