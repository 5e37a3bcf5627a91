/**
 * Server-side limits of accounts and their cloud data. None is in the SPEC (its client-side
 * timings live in common/account.ts); each is chosen here, with the reason.
 */

import { DAY_MS, MINUTE_MS } from '../../common/time.ts';

/** A session token is valid this long after login (then the user logs in again). */
export const TOKEN_LIFETIME_MS = 30 * DAY_MS;
/** Bytes of randomness in a session token (256 bits: not guessable, not enumerable). */
export const TOKEN_BYTES = 32;
/** Expired and revoked tokens are deleted this long after they stopped working (kept a while for audits). */
export const TOKEN_RETENTION_MS = 30 * DAY_MS;

/** Login: attempts per client address per window (counting every attempt: each costs one KDF run). */
export const LOGIN_ATTEMPTS_PER_IP = 30;
/** Login: failed attempts per account from one address per window; over it, that address waits (auth/loginThrottle.ts). */
export const LOGIN_FAILURES_PER_ACCOUNT_ADDRESS = 10;
/**
 * Login: failed attempts per account from all addresses per window (a distributed guess); over it,
 * addresses that never logged into the account wait, its known ones do not (auth/loginThrottle.ts).
 */
export const LOGIN_FAILURES_PER_ACCOUNT_NEW_ADDRESSES = 100;
/** An address that logged into an account stays known to it this long. */
export const LOGIN_KNOWN_ADDRESS_MS = 30 * DAY_MS;
/** Registrations per client address per window. */
export const REGISTRATIONS_PER_IP = 20;
/** The rate-limit window. */
export const AUTH_RATE_WINDOW_MS = 15 * MINUTE_MS;

/** Bodies: register, login and password change. */
export const AUTH_BODY_MAX_BYTES = 4 * 1024;
/** Bodies: POST /users/settings (the whole synced blob). */
export const SETTINGS_BODY_MAX_BYTES = 256 * 1024;
/** Keys in one settings upload (there are about 60 synced settings plus one per metric). */
export const SETTINGS_MAX_KEYS = 400;
/** One setting value as JSON. */
export const SETTING_VALUE_MAX_BYTES = 16 * 1024;
/** Bodies: one item of a collection (a route favourite may hold a long encoded route). */
export const ITEM_BODY_MAX_BYTES = 32 * 1024;
/** Items per user and collection. */
export const ITEMS_PER_COLLECTION_MAX = 1000;
/** Bodies: a device. */
export const DEVICE_BODY_MAX_BYTES = 4 * 1024;
/** Devices per user (old browsers stay registered until removed). */
export const DEVICES_PER_USER_MAX = 100;
/**
 * Devices one notification is pushed to: the user's most recently registered ones with a push
 * subscription (each is an outbound request; a person has a few browsers, not a hundred).
 */
export const PUSH_DEVICES_PER_USER_MAX = 10;
/** Test notifications (POST /notif/v1/notifications/send-test) per user per window: each pushes to every device. */
export const SEND_TESTS_PER_USER = 5;
/** The send-test window. */
export const SEND_TEST_WINDOW_MS = 15 * MINUTE_MS;
/** Notifications kept per user: the newest; older ones go as new ones come (all of them are listed). */
export const NOTIFICATIONS_PER_USER_MAX = 100;
/** Nesting of a stored JSON value (a favourite is flat; a colour gradient two deep). */
export const JSON_MAX_DEPTH = 16;
/**
 * Webcam images fetched from upstream (server/webcams/imageRelay.ts: cache misses only; the
 * relay's cache answers the rest) per user for their own webcams, whose addresses they choose: a
 * user watching 8 of them refreshed every minute fetches 120 per 15 min.
 */
export const WEBCAM_IMAGE_FETCHES_PER_USER = 120;
/** The same for the directory's webcams, per client address (their cache entries are shared by every user). */
export const WEBCAM_IMAGE_FETCHES_PER_IP = 300;
/** The webcam image window. */
export const WEBCAM_IMAGE_WINDOW_MS = 15 * MINUTE_MS;
/** A setting's ts may be at most this far ahead of the server clock (a client clock a little fast). */
export const MAX_CLOCK_AHEAD_MS = DAY_MS;

/**
 * ISOBAR_AUTH_RATE_LIMIT_SCALE multiplies the rate limits above (default 1): an end-to-end
 * test run that registers and logs in many users from one address sets it high. Behind a reverse
 * proxy, Fastify must trust the proxy for the client address, else every client shares its address.
 */
export function rateLimitScaleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const scale = Number(env.ISOBAR_AUTH_RATE_LIMIT_SCALE);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}
