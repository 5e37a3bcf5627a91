/**
 * Accounts and their cloud data (SPEC §3, §4 "Login", "Stored data sync", "Settings sync", §5, §6,
 * §7). Every answer is JSON with `cache-control: no-store` (but a relayed webcam image); every error is
 * `{statusCode, error, message}` (form errors add `errors: {field: {code, message}}`, message being
 * the SPEC §5 text of the first). Times are ms since the epoch.
 *
 * Authentication: `Authorization: Bearer <token>` on every path below but register, login and
 * /api/info. Missing, unknown, expired or revoked -> 401 `{message}` with `www-authenticate: Bearer`
 * (one text for all). A user only ever reads and changes their own rows: another user's item id is
 * 404, as a missing one.
 *
 * Account (server/routes/account.ts)
 *   POST /users/v1/register   {email, password, passwordConfirm?, username?}
 *                             -> 201 AuthAnswer; 400 form errors (SPEC §5 texts: email empty or not
 *                             an email, password empty / too short (< 8) / missing digit, uppercase
 *                             or lowercase letter, confirmation mismatch); 409 email taken;
 *                             429 + retry-after (20 per 15 min per address)
 *   POST /users/v1/login      {email, password} -> 200 AuthAnswer; 400 form errors (empty fields);
 *                             401 "Wrong email or password" (never says which); 429 + retry-after
 *                             (30 attempts per 15 min per address; 10 failures per 15 min per account)
 *   GET  /api/info            with a valid token -> AuthAnswer (the same token); without -> {auth: false}
 *   GET  /api/logout          revokes the token, deactivates the devices registered with it -> {auth: false}
 *   POST /users/v1/password   {password, newPassword, newPasswordConfirm?} -> AuthAnswer with a new
 *                             token; every other session of the user is revoked; 403 wrong password
 *   AuthAnswer = {auth: true, token, expiresAt, userInfo: {id, username, email, avatar},
 *                 subscriptionInfo: SPEC §3 subscription info or null, authHash}
 *   The token is valid 30 days from login. ISOBAR_AUTH_RATE_LIMIT_SCALE multiplies the rate limits
 *   (end-to-end test runs); behind a reverse proxy Fastify must trust it for the client address.
 *
 * Settings sync (this file; SPEC §3 "The cloud blob is versioned (version 4) with data and storeTs")
 *   GET  /users/settings?storeTs=N
 *                             -> 304, no body, when N is the current storeTs (0: never stored)
 *                             -> 200 {version: 4, data: {key: {value, ts}}, storeTs}; value null: removed
 *   POST /users/settings      {version: 4, data: {key: {value, ts}}, storeTs?}
 *                             -> 200 {storeTs, ignored: [keys]}: per key, a ts newer than the stored
 *                             one wins, an older or equal one is ignored (listed); value null removes.
 *                             Keys: the 'sync' settings of common/settings.ts, values passing their
 *                             check (else 400 naming the key); ts <= server time + 1 day; 256 KB (413)
 *
 * Collections favs, alerts, notams, colors (this file; SPEC §7 /users/v1/data/{collection})
 *   GET    /users/v1/data/{collection}?storeTs=N
 *                             -> 304 when N is the collection's storeTs; else 200 [{id, value, updated}]
 *                             in creation order, with the storeTs in header x-store-ts
 *   POST   /users/v1/data/{collection}        body: the item -> 201 {id, value, updated}
 *   PUT    /users/v1/data/{collection}/{id}   body: the item -> 200 {id, updated}; 404 unknown id
 *   DELETE /users/v1/data/{collection}/{id}   -> 200 {id, storeTs}; 404 unknown id
 *   After a write the collection's storeTs is its answered `updated` (POST, PUT) or `storeTs`
 *   (DELETE), also in x-store-ts. Items: favs per SPEC §5 (common/favourites.ts; 400 "Invalid
 *   favourite: <reason>"; only the known fields are kept), colors an object with a `gradient` of
 *   [number, [r, g, b, a]] stops (SPEC §5), alerts per SPEC §3 (common/alerts.ts; 400 "Invalid
 * alert: <reason>"), notams any object; 32 KB each (413), at most
 *   1000 per collection (400), nesting at most 16 deep. webcams per common/webcams.ts (400 "Invalid
 *   webcam: <reason>"): image and page addresses https on public addresses (the push endpoints'
 *   rules, server/alerts/pushEndpoint.ts; ISOBAR_WEBCAMS_ALLOW_ORIGINS lets a test's local host
 *   through); the server gives each a
 *   numeric webcamId when it is created and keeps it on every change.
 *
 * Webcams (server/webcams/routes.ts; SPEC §7 /webcams/v1.0/list, /webcams/v1.0/detail/{id}, and
 *   /webcams/v1.0/image/{id}, the image relayed under COEP): the configured directory's
 *   (ISOBAR_WEBCAMS_KEY) and, with a token, the caller's own.
 *
 * Devices (server/routes/devices.ts; SPEC §3 "Device")
 *   PUT or POST /users/v3/devices/{deviceID}   {platform?, target?, version?, cc?, subscription?, pushSubscription?,
 *                             screen?: {width, height, devicePixelRatio}, deactivated?}
 *                             -> 200 {deviceID, ...device, deactivated, updated}; creates or replaces
 *
 * Notifications and alert times (server/routes/notifications.ts; SPEC §7 /notif/v1/...,
 * /users/v4/alerts/{id}/timestamps); alerts evaluated after each ingested run (server/alerts).
 *
 * Storage: server/db (SQLite file var/isobar.sqlite or ISOBAR_DB_PATH; PostgreSQL when DATABASE_URL
 * is set), opened on the first account request or when the server starts listening.
 */

import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { SETTINGS_BLOB_VERSION, SYNC_COLLECTIONS, type CloudSettingsBlob, type SyncCollection } from '../../common/account.ts';
import {
  CLOUD_ITEM, COLLECTION_ROUTE, ITEM_DELETED_ANSWER, ITEM_ROUTE, ITEM_UPDATED_ANSWER, ITEMS_ANSWER, SETTINGS_ANSWER, SETTINGS_PATH,
  SETTINGS_SAVED_ANSWER, STORE_TS_HEADER,
} from '../../common/api/account.ts';
import { validateStops } from '../../common/catalogue/colors.ts';
import { alertProblem } from '../../common/alerts.ts';
import { favouriteProblem, validateFavourite } from '../../common/favourites.ts';
import { normalUserWebcam, USER_WEBCAM_ID_MAX, USER_WEBCAM_ID_MIN, userWebcamProblem, type UserWebcam } from '../../common/webcams.ts';
import { allowedOriginsFromEnv, checkPushEndpoint, PushEndpointError, type HostResolver } from '../alerts/pushEndpoint.ts';
import { createImageRelay, WEBCAMS_ALLOW_ORIGINS_ENV, type WebcamImageRelay } from '../webcams/imageRelay.ts';
import { webcamRoutes } from '../webcams/routes.ts';
import { windyDirectoryFromEnv, type WebcamDirectory } from '../webcams/windyDirectory.ts';
import { randomInt } from 'node:crypto';
import { settingDef } from '../../common/settings.ts';
import { AccountStore, type Principal } from '../auth/accounts.ts';
import { principal, requireUser } from '../auth/bearer.ts';
import { databaseSharedState, memorySharedState, type SharedState } from '../auth/sharedState.ts';
import { createLoginThrottle } from '../auth/loginThrottle.ts';
import {
  AUTH_RATE_WINDOW_MS, ITEM_BODY_MAX_BYTES, ITEMS_PER_COLLECTION_MAX, JSON_MAX_DEPTH, LOGIN_ATTEMPTS_PER_IP, LOGIN_FAILURES_PER_ACCOUNT_ADDRESS, LOGIN_FAILURES_PER_ACCOUNT_NEW_ADDRESSES, LOGIN_KNOWN_ADDRESS_MS,
  MAX_CLOCK_AHEAD_MS, rateLimitScaleFromEnv, REGISTRATIONS_PER_IP, SETTING_VALUE_MAX_BYTES, SETTINGS_BODY_MAX_BYTES, SETTINGS_MAX_KEYS,
  WEBCAM_IMAGE_FETCHES_PER_IP, WEBCAM_IMAGE_FETCHES_PER_USER, WEBCAM_IMAGE_WINDOW_MS,
} from '../auth/limits.ts';
import type { KdfParams } from '../auth/passwords.ts';
import { AlertService } from '../alerts/alertService.ts';
import type { PushSender } from '../alerts/push.ts';
import type { ServedProducts } from '../data/servedProducts.ts';
import { databaseConfigFromEnv, lazyDatabase, openDatabase, type Database, type DatabaseConfig } from '../db/database.ts';
import { badRequest, HttpError, notFound } from '../http/httpError.ts';
import { accountRoutes } from './account.ts';
import { notificationRoutes } from './notifications.ts';
import { deviceRoutes } from './devices.ts';
import { DeviceStore } from '../db/deviceStore.ts';
import { TooManyItemsError, UserDataStore, type SettingWrite } from '../db/userDataStore.ts';

export interface AccountsOptions {
  /** Register the routes (default true); false builds the services only (app.accounts, app.alerts) for an ingest process. */
  routes?: boolean;
  /** An open database, a config to open on first use, or default: databaseConfigFromEnv(). */
  database?: Database | DatabaseConfig;
  now?: () => number;
  /** Password KDF parameters (default scrypt N=2^15, r=8, p=1; tests use cheaper ones). */
  kdf?: KdfParams;
  tokenLifetimeMs?: number;
  /** Rate limits (defaults in server/auth/limits.ts). */
  limits?: Partial<{
    loginAttemptsPerIp: number; loginFailuresPerAccountAddress: number; loginFailuresPerAccountNewAddresses: number; registrationsPerIp: number; windowMs: number;
    webcamImageFetchesPerUser: number; webcamImageFetchesPerIp: number;
  }>;
  /** The forecasts alerts are evaluated against (server/alerts/alertService.ts); null: none. */
  served?: ServedProducts | null;
  /** Web Push sender (server/alerts/push.ts); null or absent: notifications are stored, not pushed. */
  push?: PushSender | null;
  /** The webcam directory (server/webcams/windyDirectory.ts); default: ISOBAR_WEBCAMS_KEY's, else none. */
  webcams?: WebcamDirectory | null;
  /** Resolves the hosts of webcam addresses for the public-address check (default: the system's resolver). */
  webcamResolve?: HostResolver;
  /** Origins of webcam addresses accepted without that check (default: ISOBAR_WEBCAMS_ALLOW_ORIGINS, for tests; none). */
  webcamAllowedOrigins?: readonly string[];
  /** The webcam image relay (server/webcams/imageRelay.ts); default: one with webcamResolve and webcamAllowedOrigins. */
  webcamImages?: WebcamImageRelay;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The account store (for the Premium code, the admin command and tests). */
    readonly accounts: AccountStore;
    /** Alert evaluation and notifications (server/alerts/alertService.ts, routes/notifications.ts). */
    readonly alerts: AlertService;
    /** The accounts database (opened on first use), for the readiness check of /readyz. */
    readonly database: Database;
    /** Where request limits count (server/auth/sharedState.ts): in memory, or the PostgreSQL database shared by every process. */
    readonly sharedState: SharedState;
  }
}

function isDatabase(value: Database | DatabaseConfig): value is Database {
  return typeof (value as Database).transaction === 'function';
}

/** Nesting depth of a parsed JSON value (1 for a flat object). */
function depthOf(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit - 1));
  return 1 + deepest;
}

function checkDepth(value: unknown, what: string): void {
  if (depthOf(value, JSON_MAX_DEPTH) > JSON_MAX_DEPTH) throw badRequest(`${what} is nested more than ${JSON_MAX_DEPTH} deep`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks an item of a collection; answers what to store. */
function checkedItem(collection: SyncCollection, value: unknown): unknown {
  checkDepth(value, 'The item');
  switch (collection) {
    case 'favs': {
      const problem = favouriteProblem(value);
      if (problem) throw badRequest(`Invalid favourite: ${problem}`);
      return validateFavourite(value, () => undefined);
    }
    case 'alerts': {
      const problem = alertProblem(value);
      if (problem) throw badRequest(`Invalid alert: ${problem}`);
      return value;
    }
    case 'webcams': {
      const problem = userWebcamProblem(value);
      if (problem) throw badRequest(`Invalid webcam: ${problem}`);
      return normalUserWebcam(value as UserWebcam);
    }
    case 'colors': {
      if (!isObject(value)) throw badRequest('A custom colour is an object');
      try {
        validateStops(value.gradient);
      } catch (error) {
        throw badRequest(`Invalid custom colour gradient: ${(error as Error).message}`);
      }
      return value;
    }
    default:
      if (!isObject(value)) throw badRequest('An item is an object');
      return value;
  }
}

/** The keys and values of a settings upload, checked against the settings schema (SPEC §5). */
function checkedSettings(data: Record<string, { value: unknown; ts: number }>, now: number): SettingWrite[] {
  const writes: SettingWrite[] = [];
  for (const [name, entry] of Object.entries(data)) {
    let def;
    try {
      def = settingDef(name);
    } catch {
      throw badRequest(`Unknown setting "${name}"`);
    }
    if (def.storage !== 'sync') throw badRequest(`Setting "${name}" is not synced`);
    if (entry.value !== null && !def.check(entry.value)) throw badRequest(`Invalid value for setting "${name}"`);
    if (!Number.isFinite(entry.ts) || entry.ts > now + MAX_CLOCK_AHEAD_MS) throw badRequest(`Setting "${name}" has a time in the future`);
    const json = entry.value === null ? null : JSON.stringify(entry.value);
    if (json !== null && Buffer.byteLength(json) > SETTING_VALUE_MAX_BYTES) throw badRequest(`Setting "${name}" is too large`);
    writes.push({ name, json, ts: Math.floor(entry.ts) });
  }
  return writes;
}

const STORE_TS_QUERY = { type: 'object', properties: { storeTs: { type: 'number', minimum: 0 } } } as const;
const COLLECTION_PARAM = { type: 'string', enum: [...SYNC_COLLECTIONS] } as const;
const ITEM_ID_PARAM = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

const SETTINGS_BODY_SCHEMA = {
  type: 'object',
  required: ['version', 'data'],
  properties: {
    version: { type: 'integer', enum: [SETTINGS_BLOB_VERSION] },
    storeTs: { type: 'number', minimum: 0 },
    data: {
      type: 'object',
      maxProperties: SETTINGS_MAX_KEYS,
      propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' },
      additionalProperties: {
        type: 'object',
        required: ['value', 'ts'],
        properties: { value: {}, ts: { type: 'number', minimum: 0 } },
      },
    },
  },
} as const;

const setStoreTs = (reply: FastifyReply, storeTs: number) => reply.header(STORE_TS_HEADER, String(storeTs));

interface WebcamAddressOptions {
  resolve?: HostResolver;
  allowedOrigins: readonly string[];
}

/**
 * A webcam's addresses must stand for public hosts (the push endpoints' rules): the server fetches
 * the image (server/webcams/imageRelay.ts, which checks it again each time) and the browser of
 * whoever opens the webcam follows the page's link.
 */
async function checkWebcamAddresses(webcam: UserWebcam, options: WebcamAddressOptions): Promise<void> {
  for (const [url, what] of [[webcam.imageUrl, 'webcam image address'], [webcam.pageUrl, 'webcam page address']] as const) {
    if (!url) continue;
    try {
      await checkPushEndpoint(url, { ...options, what });
    } catch (error) {
      if (error instanceof PushEndpointError) throw badRequest(`Invalid webcam: ${error.message}`);
      throw error;
    }
  }
}

/** A new user webcam's id (common/webcams.ts: the range no directory webcam has; randomInt draws from at most 2^48 values). */
const newUserWebcamId = () => USER_WEBCAM_ID_MIN + randomInt(Math.min(2 ** 48 - 1, USER_WEBCAM_ID_MAX - USER_WEBCAM_ID_MIN));

/** The user-data routes: settings and collections. */
async function userDataRoutes(app: FastifyInstance, options: { accounts: AccountStore; data: UserDataStore; now: () => number; webcamAddresses: WebcamAddressOptions }): Promise<void> {
  const { data, now } = options;
  const onRequest = requireUser(options.accounts);

  app.get<{ Querystring: { storeTs?: number } }>(SETTINGS_PATH, { onRequest, schema: { querystring: STORE_TS_QUERY, response: { 200: SETTINGS_ANSWER } } }, async (request, reply) => {
    const p = principal(request);
    const current = await data.settingsStoreTs(p.user.id);
    if (request.query.storeTs === current) return reply.code(304).send();
    const { storeTs, data: settings } = await data.settings(p.user.id);
    return { version: SETTINGS_BLOB_VERSION, data: settings, storeTs };
  });

  app.post<{ Body: CloudSettingsBlob }>(SETTINGS_PATH, {
    onRequest,
    bodyLimit: SETTINGS_BODY_MAX_BYTES,
    schema: { body: SETTINGS_BODY_SCHEMA, response: { 200: SETTINGS_SAVED_ANSWER } },
  }, async (request) => {
    const p = principal(request);
    const writes = checkedSettings(request.body.data, now());
    return data.mergeSettings(p.user.id, writes);
  });

  type CollectionParams = { collection: SyncCollection };
  type ItemParams = CollectionParams & { id: string };

  app.get<{ Params: CollectionParams; Querystring: { storeTs?: number } }>(COLLECTION_ROUTE, {
    onRequest,
    schema: { params: { type: 'object', properties: { collection: COLLECTION_PARAM } }, querystring: STORE_TS_QUERY, response: { 200: ITEMS_ANSWER } },
  }, async (request, reply) => {
    const p = principal(request);
    const { collection } = request.params;
    const current = await data.storeTs(p.user.id, collection);
    setStoreTs(reply, current);
    if (request.query.storeTs === current) return reply.code(304).send();
    const { storeTs, items } = await data.items(p.user.id, collection);
    setStoreTs(reply, storeTs);
    return items;
  });

  app.post<{ Params: CollectionParams; Body: unknown }>(COLLECTION_ROUTE, {
    onRequest,
    bodyLimit: ITEM_BODY_MAX_BYTES,
    schema: { params: { type: 'object', properties: { collection: COLLECTION_PARAM } }, body: { type: 'object' }, response: { 201: CLOUD_ITEM } },
  }, async (request, reply) => {
    const p = principal(request);
    const { collection } = request.params;
    const value = checkedItem(collection, request.body);
    if (collection === 'webcams') {
      await checkWebcamAddresses(value as UserWebcam, options.webcamAddresses);
      (value as UserWebcam).webcamId = newUserWebcamId();
    }
    try {
      const { id, updated } = await data.createItem(p.user.id, collection, JSON.stringify(value), ITEMS_PER_COLLECTION_MAX);
      setStoreTs(reply, updated);
      return reply.code(201).send({ id, value, updated });
    } catch (error) {
      if (error instanceof TooManyItemsError) throw badRequest(error.message);
      throw error;
    }
  });

  app.put<{ Params: ItemParams; Body: unknown }>(ITEM_ROUTE, {
    onRequest,
    bodyLimit: ITEM_BODY_MAX_BYTES,
    schema: { params: { type: 'object', properties: { collection: COLLECTION_PARAM, id: ITEM_ID_PARAM } }, body: { type: 'object' }, response: { 200: ITEM_UPDATED_ANSWER } },
  }, async (request, reply) => {
    const p = principal(request);
    const { collection, id } = request.params;
    const value = checkedItem(collection, request.body);
    if (collection === 'webcams') {
      await checkWebcamAddresses(value as UserWebcam, options.webcamAddresses);
      // The id stays the one given at creation, whatever the body says.
      const stored = await data.itemJson(p.user.id, collection, id);
      if (stored === null) throw notFound(`No item ${id} in ${collection}`);
      (value as UserWebcam).webcamId = (JSON.parse(stored) as UserWebcam).webcamId;
    }
    const updated = await data.updateItem(p.user.id, collection, id, JSON.stringify(value));
    if (updated === null) throw notFound(`No item ${id} in ${collection}`);
    setStoreTs(reply, updated);
    return { id, updated };
  });

  app.delete<{ Params: ItemParams }>(ITEM_ROUTE, {
    onRequest,
    schema: { params: { type: 'object', properties: { collection: COLLECTION_PARAM, id: ITEM_ID_PARAM } }, response: { 200: ITEM_DELETED_ANSWER } },
  }, async (request, reply) => {
    const p = principal(request);
    const { collection, id } = request.params;
    const storeTs = await data.deleteItem(p.user.id, collection, id);
    if (storeTs === null) throw notFound(`No item ${id} in ${collection}`);
    setStoreTs(reply, storeTs);
    return { id, storeTs };
  });
}

/**
 * Registers every account route above on `app` itself (call it, do not app.register it: it
 * decorates the root with `accounts`). The database opens on first use (most tests never make
 * an account request) and at the latest when the server listens, so a bad DATABASE_URL shows in
 * the log at start; it closes with the server.
 */
export async function registerAccounts(app: FastifyInstance, options: AccountsOptions = {}): Promise<void> {
  const now = options.now ?? Date.now;
  const given = options.database;
  const db = given && isDatabase(given) ? given : lazyDatabase(() => openDatabase(given ?? databaseConfigFromEnv()));
  if (!(given && isDatabase(given))) {
    app.addHook('onListen', async () => {
      await (db as ReturnType<typeof lazyDatabase>).ready().catch((error: unknown) => app.log.error({ err: error }, 'the accounts database cannot be opened'));
    });
    app.addHook('onClose', async () => db.close());
  }

  const accounts = new AccountStore(db, { now, kdf: options.kdf, tokenLifetimeMs: options.tokenLifetimeMs });
  // Several processes share a PostgreSQL database: their limits count together there.
  const dialect = given && isDatabase(given) ? given.dialect : (given ?? databaseConfigFromEnv()).kind;
  const state = dialect === 'postgres' ? databaseSharedState(db, now) : memorySharedState(now);
  const devices = new DeviceStore(db, now);
  const data = new UserDataStore(db, now);
  const limits = options.limits ?? {};
  const scale = rateLimitScaleFromEnv();
  const windowMs = limits.windowMs ?? AUTH_RATE_WINDOW_MS;
  const limiters = {
    loginPerIp: state.limiter('login-ip', limits.loginAttemptsPerIp ?? LOGIN_ATTEMPTS_PER_IP * scale, windowMs),
    registerPerIp: state.limiter('register-ip', limits.registrationsPerIp ?? REGISTRATIONS_PER_IP * scale, windowMs),
  };
  const loginThrottle = createLoginThrottle({
    perAccountAddress: limits.loginFailuresPerAccountAddress ?? LOGIN_FAILURES_PER_ACCOUNT_ADDRESS * scale,
    perAccountFromNewAddresses: limits.loginFailuresPerAccountNewAddresses ?? LOGIN_FAILURES_PER_ACCOUNT_NEW_ADDRESSES * scale,
    windowMs, knownAddressMs: LOGIN_KNOWN_ADDRESS_MS, now,
  }, state);
  app.decorate('accounts', accounts);
  app.decorate('database', db);
  app.decorate('sharedState', state);
  const alerts = new AlertService(db, options.served ?? null, options.push ?? null, now, (message, error) => app.log.warn({ err: error }, message), state);
  app.decorate('alerts', alerts);
  if (options.routes === false) return;

  await app.register(async (scope) => {
    scope.decorateRequest('principal', null);
    // no-store unless the route says otherwise (a relayed webcam image, server/webcams/routes.ts).
    scope.addHook('onSend', async (_request, reply, payload) => {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
    // A database failure answers a plain 500: its message (SQL, paths) stays in the log. An
    // HttpError of 5xx is an upstream's failure said on purpose (a webcam's host, the directory).
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500 && !(error instanceof HttpError)) {
        request.log.error({ err: error }, 'account request failed');
        return reply.code(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'The request failed on the server; try again later' });
      }
      if (status < 500 && status >= 400) request.log.info({ err: { message: error.message, code: error.code } }, 'account request refused');
      return reply.code(status).send({ statusCode: status, code: error.code, error: STATUS_CODES[status] ?? 'Error', message: error.message });
    });
    await scope.register(accountRoutes, { accounts, limiters, loginThrottle, onLogout: (p: Principal) => devices.deactivateSession(p) });
    const webcamAddresses = { resolve: options.webcamResolve, allowedOrigins: options.webcamAllowedOrigins ?? allowedOriginsFromEnv(process.env, WEBCAMS_ALLOW_ORIGINS_ENV) };
    await scope.register(userDataRoutes, { accounts, data, now, webcamAddresses });
    await scope.register(webcamRoutes, {
      accounts, data,
      directory: options.webcams === undefined ? windyDirectoryFromEnv(process.env, (message, raw) => app.log.warn({ raw }, message)) : options.webcams,
      images: options.webcamImages ?? createImageRelay(webcamAddresses),
      imageFetches: {
        perUser: state.limiter('webcam-image-user', limits.webcamImageFetchesPerUser ?? WEBCAM_IMAGE_FETCHES_PER_USER * scale, WEBCAM_IMAGE_WINDOW_MS),
        perIp: state.limiter('webcam-image-ip', limits.webcamImageFetchesPerIp ?? WEBCAM_IMAGE_FETCHES_PER_IP * scale, WEBCAM_IMAGE_WINDOW_MS),
      },
    });
    await scope.register(deviceRoutes, { accounts, devices });
    await scope.register(notificationRoutes, { accounts, alerts, push: options.push ?? null });
  });
}

