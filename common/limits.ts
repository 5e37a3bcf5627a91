/**
 * Timings and limits of the application around the map: connection, messages, error reports,
 * consent and the start-up position. Each one once, with the SPEC section it comes from.
 */

import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from './time.ts';

// ---- connection (SPEC §4 "Connection", §9 timings) ---------------------------------------------

/** SPEC §9: offline re-probe every 2 s. */
export const OFFLINE_REPROBE_MS = 2 * SECOND_MS;
/** SPEC §4: returning online shows the success message after 500 ms ... */
export const ONLINE_MESSAGE_DELAY_MS = 500;
/** ... for 10 s. */
export const ONLINE_MESSAGE_MS = 10 * SECOND_MS;
/** SPEC §4: a probe answer of 200 to 399 means online. */
export const PROBE_OK_MIN_STATUS = 200;
export const PROBE_OK_MAX_STATUS = 399;
/** A probe that has no answer by then has failed (not in the SPEC: a hung request must not hang the state). */
export const PROBE_TIMEOUT_MS = 5 * SECOND_MS;
/** SPEC §8 "Tile": more than 3 (mobile) or 6 (desktop) consecutive tile failures call a helper: here, the probe. */
export const TILE_FAILURES_BEFORE_PROBE_MOBILE = 3;
export const TILE_FAILURES_BEFORE_PROBE_DESKTOP = 6;

// ---- messages (SPEC §2 "Start page", §9) --------------------------------------------------------

/** SPEC §9: top message replacement 200 ms (the old message leaves before the new one shows). */
export const TOP_MESSAGE_REPLACE_MS = 200;
/** SPEC §5: the browser support error is visible 10 s. */
export const BROWSER_SUPPORT_MESSAGE_MS = 10 * SECOND_MS;

// ---- error reports (SPEC §7 error endpoint, §8 rules, §9 limits) -------------------------------

/** SPEC §9: error reports max 1000 per session. */
export const ERROR_REPORTS_MAX = 1000;
/** SPEC §8: only every 10th repeat ... */
export const ERROR_REPEAT_EVERY = 10;
/** ... up to 50 goes out. */
export const ERROR_REPEAT_MAX = 50;
/** SPEC §9: the broadcast log keeps the last 5 events (latestBcast of a report). */
export const LATEST_BROADCASTS = 5;
/** Server side: the largest report body accepted (larger: 413). Not in the SPEC. */
export const ERROR_REPORT_MAX_BYTES = 16 * 1024;
/** Server side: reports accepted per client address per minute (more: 429). Not in the SPEC. */
export const ERROR_REPORTS_PER_IP_PER_MINUTE = 60;

// ---- consent (SPEC §3 "Consent", §4 "Consent", §9) ----------------------------------------------

/** SPEC §9: consent version 2023/11. A stored consent of another version is asked again. */
export const CONSENT_VERSION = '2023/11';
/** SPEC §4: explicit consent without analytics is cleared at 90 days or more ... */
export const CONSENT_NO_ANALYTICS_MAX_AGE_MS = 90 * DAY_MS;
/** ... and with analytics at 365 days or more. */
export const CONSENT_ANALYTICS_MAX_AGE_MS = 365 * DAY_MS;

// ---- start-up position (SPEC §4 "Startup position", §9) ----------------------------------------

/** SPEC §9: geolocation time-out 12 s. */
export const GEOLOCATION_TIMEOUT_MS = 12 * SECOND_MS;
/** SPEC §9: a GPS fix under 15 min old is reused. */
export const GPS_FIX_REUSE_MS = 15 * MINUTE_MS;
/** SPEC §9: an IP location is stale after 12 h. */
export const IP_LOCATION_STALE_MS = 12 * HOUR_MS;
/** SPEC §4: back-to-home zoom 5 (also the zoom of a home or IP start without startUpZoom). */
export const BACK_TO_HOME_ZOOM = 5;
/** SPEC §4: the my-location zoom 8 (a GPS start without startUpZoom). */
export const MY_LOCATION_ZOOM = 8;
/** The last position is saved this long after the map stops moving. Not in the SPEC. */
export const LAST_POSITION_SAVE_DEBOUNCE_MS = 2 * SECOND_MS;
