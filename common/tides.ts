/**
 * Tide forecast constants (SPEC §1 "tide forecast", §7 GET /tides/v1.0/tides/{lat}/{lon} or /{id},
 * §8 "We do not provide tide forecast for this location"), shared by the server (server/tides/) and
 * the UI (the detail window's tide row, the SPEC §3 POI set "tide").
 */

import { DAY_MS, MINUTE_MS } from './time.ts';

/**
 * A place is given the tide of the nearest station within this distance (great circle, km). Tides
 * change over a few tens of kilometres along a coast and far more up an estuary, so a station
 * farther away than this is not the place's tide; the answer names the station and its distance.
 */
export const TIDE_MAX_DISTANCE_KM = 30;
/** Minutes between the values of the tide curve. */
export const TIDE_CURVE_STEP_MINUTES = 10;
export const TIDE_CURVE_STEP_MS = TIDE_CURVE_STEP_MINUTES * MINUTE_MS;
/** The range a request asks by default, from its start: three days. */
export const TIDE_DEFAULT_RANGE_MS = 3 * DAY_MS;
/** The longest range one request may ask (a month of predictions, 4 320 curve values). */
export const TIDE_MAX_RANGE_MS = 30 * DAY_MS;
/** SPEC §8: the text of a place without a tide station near it. */
export const TIDE_NOT_PROVIDED = 'We do not provide tide forecast for this location';
/** SPEC §3 setting pois: the POI set of tide stations. */
export const TIDE_POIS = 'tide';

/**
 * The station id of a path segment: the tide database's ids are "{source}/{station}"
 * ("noaa/9449880", a few without a source part); in a path the slash is written as a colon
 * ("noaa:9449880").
 */
export const TIDE_STATION_ID_PATTERN = '^[A-Za-z0-9._-]{1,100}(:[A-Za-z0-9._-]{1,100})?$';
