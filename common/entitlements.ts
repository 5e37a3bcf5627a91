/**
 * What Premium entitles to (SPEC §1 "Premium gives", §4 "Subscription", §6 Premium, §9): the pure
 * rules, shared by the server (which enforces them) and the client (which hides what it would be
 * refused). Times are ms since the epoch; days are UTC calendar days.
 */

import { DAY_MS, HOUR_MS } from './time.ts';

/** SPEC §4: only this subscription status sets the tier. */
export const ACTIVE_STATUS = 'active';
/** SPEC §6: calendar days from this index (the run's first day is 0) are premium days. */
const PREMIUM_DAY_INDEX = 6;
/** SPEC §9: default step 3 h, 1 h for Premium. */
export const FREE_STEP_HOURS = 3;
const PREMIUM_STEP_HOURS = 1;
/** SPEC §6: drought and fire danger are exempt from the premium day limit (overlay idents and tile file names). */
const PREMIUM_DAY_EXEMPT: readonly string[] = ['drought', 'fireDanger'];

/** The part of SPEC §3 "Subscription info" the tier depends on. */
export interface SubscriptionLike {
  status?: string;
  expiresAt?: number | string | null;
}

/** SPEC §3 "Subscription info: state, platform, status, tier, isSubscription, isTrial, expiresAt" (server and client). */
export interface SubscriptionInfo extends SubscriptionLike {
  state?: string;
  platform?: string;
  tier?: string;
  isSubscription?: boolean;
  isTrial?: boolean;
}

function expiryMs(expiresAt: SubscriptionLike['expiresAt']): number | null {
  if (expiresAt === undefined || expiresAt === null || expiresAt === '') return null;
  const ms = typeof expiresAt === 'number' ? expiresAt : Date.parse(expiresAt);
  return Number.isFinite(ms) ? ms : null;
}

/** Premium: status active (SPEC §4) and not past its expiry, when it has one. */
export function isPremium(info: SubscriptionLike | null | undefined, now: number): boolean {
  if (!info || info.status !== ACTIVE_STATUS) return false;
  const expires = expiryMs(info.expiresAt);
  return expires === null || expires > now;
}

/** Start of the UTC calendar day of a time. */
function dayStart(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

/** Calendar days from the run's first day (its reference time's UTC day) to a valid time. */
export function dayIndex(refTime: number, validTime: number): number {
  return Math.floor((dayStart(validTime) - dayStart(refTime)) / DAY_MS);
}

/** The first time of the premium days of a run: 00:00 UTC of day index 6. */
export function premiumFrom(refTime: number): number {
  return dayStart(refTime) + PREMIUM_DAY_INDEX * DAY_MS;
}

/**
 * The first premium time of a run of a product, or null when it has none: samples are fixed
 * historical data (issue 3), not a forecast, and show whole to everyone.
 */
export function premiumDaysFrom(product: { sample?: boolean }, refTime: number): number | null {
  return product.sample ? null : premiumFrom(refTime);
}

/** Whether a layer (overlay ident or tile file name) is exempt from the premium day limit. */
export function isPremiumDayExempt(layer: string | undefined): boolean {
  return layer !== undefined && PREMIUM_DAY_EXEMPT.includes(layer);
}

/** Whether a valid time of a run needs Premium for this layer (SPEC §6). */
export function isPremiumStep(refTime: number, validTime: number, layer?: string): boolean {
  return !isPremiumDayExempt(layer) && dayIndex(refTime, validTime) >= PREMIUM_DAY_INDEX;
}

/** Highest data zoom of a product for a tier (SPEC §9 max tile zoom free/premium). */
export function maxTileZoomFor(maxTileZoom: { free: number; premium: number }, premium: boolean): number {
  return premium ? maxTileZoom.premium : maxTileZoom.free;
}

/** The default step of a tier, hours (SPEC §9). */
export function defaultStepHours(premium: boolean): number {
  return premium ? PREMIUM_STEP_HOURS : FREE_STEP_HOURS;
}

// ---- forecast values: the one decision (SPEC §1 "Premium gives", §6, §9) -----------------------

/**
 * What a request for forecast values asks for. Every server route that answers forecast values (data
 * tiles, point forecasts, meteograms, city tiles, alert times, anything added later) describes its
 * request this way and takes grantForecast's answer; server/auth/tier.ts entitle() is the route side.
 */
interface ForecastAskBase {
  product: { sample?: boolean; maxTileZoom: { free: number; premium: number } };
  /** The run's reference time, ms. */
  refTime: number;
  /** Overlay ident or tile file name (SPEC §6: drought and fire danger are exempt from the premium days). */
  layer?: string;
}

/** One field at one valid time: a data tile at a data zoom. Refused when any of it needs Premium. */
export interface TileAsk extends ForecastAskBase {
  kind: 'tile';
  validTime: number;
  z: number;
}

/**
 * Values over a window of valid times (ms inclusive; open ends: the run's first / last step) at a
 * step in hours (undefined: the tier's default, SPEC §9). A free answer is cut before the premium
 * days; refused only when nothing of the window is free or the step needs Premium.
 */
export interface SeriesAsk extends ForecastAskBase {
  kind: 'series';
  step?: number;
  from?: number;
  to?: number;
}

export type ForecastAsk = TileAsk | SeriesAsk;

/** What a tile answer may hold. */
export interface TileGrant {
  /** The answer holds something only Premium may have: it is private to the caller (no shared caches). */
  premiumOnly: boolean;
}

/** What a series answer may hold. */
export interface SeriesGrant extends TileGrant {
  /** Hours between values: the one asked, else the tier's default. */
  step: number;
  /** The last valid time the answer may hold, ms; undefined: up to the end of the window asked. */
  to: number | undefined;
}

/** A refusal: why the request needs Premium (the server's 403 message). */
export interface ForecastRefusal {
  need: string;
}

const PREMIUM_DAYS_NEED = `Forecast days from day ${PREMIUM_DAY_INDEX + 1} of the run require Premium`;

/** The first premium valid time of a request's run and layer, or null when nothing of it is premium. */
function premiumTimeFrom(ask: ForecastAsk): number | null {
  if (isPremiumDayExempt(ask.layer)) return null;
  return premiumDaysFrom(ask.product, ask.refTime);
}

/** What a tier may have of a request for forecast values. */
export function grantForecast(ask: TileAsk, premium: boolean): TileGrant | ForecastRefusal;
export function grantForecast(ask: SeriesAsk, premium: boolean): SeriesGrant | ForecastRefusal;
export function grantForecast(ask: ForecastAsk, premium: boolean): TileGrant | SeriesGrant | ForecastRefusal;
export function grantForecast(ask: ForecastAsk, premium: boolean): TileGrant | SeriesGrant | ForecastRefusal {
  const premiumFromTime = premiumTimeFrom(ask);
  if (ask.kind === 'tile') {
    let need: string | null = null;
    if (ask.z > ask.product.maxTileZoom.free) need = `Data zoom ${ask.z} requires Premium: the free tier has tiles up to data zoom ${ask.product.maxTileZoom.free}`;
    else if (premiumFromTime !== null && ask.validTime >= premiumFromTime) need = PREMIUM_DAYS_NEED;
    if (need !== null && !premium) return { need };
    return { premiumOnly: need !== null };
  }
  const step = ask.step ?? defaultStepHours(premium);
  const stepIsPremium = step < FREE_STEP_HOURS;
  if (stepIsPremium && !premium) return { need: `${step}-hour steps require Premium: the free tier has ${FREE_STEP_HOURS}-hour steps` };
  const reachesPremiumDays = premiumFromTime !== null && (ask.to === undefined || ask.to >= premiumFromTime);
  if (premium) return { step, to: ask.to, premiumOnly: stepIsPremium || reachesPremiumDays };
  if (!reachesPremiumDays) return { step, to: ask.to, premiumOnly: false };
  const to = premiumFromTime - 1;
  if (ask.from !== undefined && ask.from > to) return { need: PREMIUM_DAYS_NEED };
  return { step, to, premiumOnly: false };
}

/** Whether grantForecast refused. */
export function isRefusal<G extends TileGrant>(answer: G | ForecastRefusal): answer is ForecastRefusal {
  return 'need' in answer;
}

// ---- subscription banners (SPEC §4 "Subscription", §8 "Subscription banners") -------------------

/** SPEC §8: subscription banners time out after 12 minutes. */
export const SUBSCRIPTION_BANNER_MS = 12 * 60 * 1000;
/**
 * The pending-subscription window (SPEC §4 "A pending subscription opens the pending-subscription
 * window"; the timings are not in SPEC): it asks /api/info this often while a payment is on its
 * way, for up to this long, then says it is still being processed (it stays pending).
 */
export const PENDING_SUBSCRIPTION_POLL_MS = 3000;
export const PENDING_SUBSCRIPTION_WAIT_MS = 5 * 60 * 1000;
/** SPEC §4: a canceled subscription warns of expiry at 336 h or less remaining; §8 the text steps. */
export const CANCELED_WARNING_HOURS = 336;
export const CANCELED_HOURS_TEXT_UNDER = 2;
export const CANCELED_HOURS_TEXT_UP_TO = 48;
export const CANCELED_DAYS_TEXT_UP_TO = 168;
/** SPEC §4 issue states: those with a banner. */
export const SUBSCRIPTION_ISSUE_STATUSES = ['graced', 'onhold', 'paused', 'canceled'] as const;
export type SubscriptionIssue = (typeof SUBSCRIPTION_ISSUE_STATUSES)[number];

/** Milliseconds until a subscription's expiry, or null when it has none. */
export function msUntilExpiry(info: SubscriptionLike | null | undefined, now: number): number | null {
  const expires = expiryMs(info?.expiresAt);
  return expires === null ? null : expires - now;
}

/**
 * Radar history a user may see (SPEC §1: full-year radar history for Premium). Free users get the
 * last RADAR_FREE_HISTORY_MS, the live minifest's window; Premium the whole retention.
 */
export const RADAR_FREE_HISTORY_MS = 2 * HOUR_MS;
export const RADAR_PREMIUM_HISTORY_MS = 365 * DAY_MS;

/** Whether a radar frame of `frameTime` may be served to this user at `now`. */
export function radarFrameAllowed(frameTime: number, now: number, premium: boolean): boolean {
  return frameTime >= now - (premium ? RADAR_PREMIUM_HISTORY_MS : RADAR_FREE_HISTORY_MS);
}

/**
 * Satellite imagery (SPEC §9 max tile zoom satellite: 7 free, 11 Premium; SPEC §1: full-year
 * satellite history for Premium). The published data zooms (common/satellite.ts) stop below both,
 * so every published tile is within either tier's zoom; history follows the radar's rule.
 */
export const SATELLITE_MAX_TILE_ZOOM = { free: 7, premium: 11 } as const;
export const SATELLITE_FREE_HISTORY_MS = 2 * HOUR_MS;
export const SATELLITE_PREMIUM_HISTORY_MS = 365 * DAY_MS;

/** Whether a satellite tile of zoom z and frame time may be served to this user at `now`. */
export function satelliteTileAllowed(z: number, frameTime: number, now: number, premium: boolean): boolean {
  return z <= maxTileZoomFor(SATELLITE_MAX_TILE_ZOOM, premium)
    && frameTime >= now - (premium ? SATELLITE_PREMIUM_HISTORY_MS : SATELLITE_FREE_HISTORY_MS);
}

/**
 * Tide forecast (SPEC §1 "Premium gives: ... tide forecast"). SPEC §1 lists the tide forecast among
 * what Premium gives with no free part (unlike the forecast days, where §6 names the free ones), so a
 * free caller gets no tide values at all: not today's, not a curve. What is not a forecast stays free:
 * the stations' names and places (the SPEC §3 POI set "tide") and whether a place has a station.
 */
export const TIDE_PREMIUM_NEED = 'Tide forecasts require Premium';

/** What a tier may have of a tide forecast: everything asked, or the refusal. */
export function grantTides(premium: boolean): TileGrant | ForecastRefusal {
  return premium ? { premiumOnly: true } : { need: TIDE_PREMIUM_NEED };
}
