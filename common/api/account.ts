/**
 * The account contract (SPEC §3, §4 "Login", "Stored data sync", "Settings sync", §7) shared by the
 * server (server/routes/account.ts, users.ts, devices.ts, stripe.ts) and the browser's account code
 * (ui/account/). server/routes/users.ts describes each route's rules and errors; this module holds
 * the paths and the shapes of what goes over the wire.
 *
 *   POST /users/v1/register     RegisterBody  -> 201 AuthAnswer
 *   POST /users/v1/login        LoginBody     -> AuthAnswer
 *   GET  /api/info                            -> AuthAnswer, or { auth: false } without a valid token
 *   GET  /api/logout                          -> { auth: false }
 *   POST /users/v1/password     PasswordBody  -> AuthAnswer (a new token)
 *   POST /users/v1/subscription/checkout      -> { id, url } (Stripe Checkout)
 *   GET  /users/settings?storeTs              -> SettingsAnswer, or 304
 *   POST /users/settings        CloudSettingsBlob -> { storeTs, ignored }
 *   GET    /users/v1/data/{collection}?storeTs -> CloudItem[] (x-store-ts header), or 304
 *   POST   /users/v1/data/{collection}         -> 201 CloudItem
 *   PUT    /users/v1/data/{collection}/{id}    -> { id, updated }
 *   DELETE /users/v1/data/{collection}/{id}    -> { id, storeTs }
 *   PUT or POST /users/v3/devices/{deviceID}   -> the stored device
 */

import type { SyncCollection } from '../account.ts';
import type { Infer } from './schema.ts';

export const REGISTER_PATH = '/users/v1/register';
export const LOGIN_PATH = '/users/v1/login';
export const INFO_PATH = '/api/info';
export const LOGOUT_PATH = '/api/logout';
export const PASSWORD_PATH = '/users/v1/password';
export const CHECKOUT_PATH = '/users/v1/subscription/checkout';
export const SETTINGS_PATH = '/users/settings';
export const COLLECTION_ROUTE = '/users/v1/data/:collection';
export const ITEM_ROUTE = '/users/v1/data/:collection/:id';
export const DEVICE_ROUTE = '/users/v3/devices/:deviceID';

/** The header that carries a collection's storeTs. */
export const STORE_TS_HEADER = 'x-store-ts';

const withStoreTs = (path: string, storeTs: number | undefined) => (storeTs === undefined ? path : `${path}?storeTs=${storeTs}`);
export const settingsPath = (storeTs?: number): string => withStoreTs(SETTINGS_PATH, storeTs);
export const collectionPath = (collection: SyncCollection, storeTs?: number): string => withStoreTs(`/users/v1/data/${collection}`, storeTs);
export const itemPath = (collection: SyncCollection, id: string): string => `/users/v1/data/${collection}/${encodeURIComponent(id)}`;
export const devicePath = (deviceID: string): string => `/users/v3/devices/${encodeURIComponent(deviceID)}`;

export interface RegisterBody { email: string; password: string; passwordConfirm?: string; username?: string }
export interface LoginBody { email: string; password: string }
export interface PasswordBody { password: string; newPassword: string; newPasswordConfirm?: string }

/** The answer of register, login, password change and /api/info with a valid token. */
export const AUTH_ANSWER = {
  type: 'object',
  required: ['auth', 'token', 'expiresAt', 'userInfo', 'subscriptionInfo', 'authHash'],
  properties: {
    auth: { type: 'boolean', enum: [true] },
    token: { type: 'string' },
    /** When the token stops working, ms since the epoch. */
    expiresAt: { type: 'number' },
    /** SPEC §3 "User info: id, username, email, avatar". */
    userInfo: {
      type: 'object',
      required: ['id', 'username', 'email', 'avatar'],
      properties: { id: { type: 'string' }, username: { type: 'string' }, email: { type: 'string' }, avatar: { type: ['string', 'null'] } },
    },
    /** SPEC §3 subscription info (common/entitlements.ts SubscriptionInfo), null without one. */
    subscriptionInfo: { type: ['object', 'null'], additionalProperties: true },
    authHash: { type: 'string' },
  },
} as const;
export type AuthAnswer = Infer<typeof AUTH_ANSWER>;

export const LOGGED_OUT_ANSWER = { type: 'object', required: ['auth'], properties: { auth: { type: 'boolean', enum: [false] } } } as const;

/** GET /api/info: how the client learns whether its token still works (SPEC §7). */
export const INFO_ANSWER = { anyOf: [AUTH_ANSWER, LOGGED_OUT_ANSWER] } as const;
export type InfoAnswer = Infer<typeof INFO_ANSWER>;

export const CHECKOUT_ANSWER = { type: 'object', required: ['url'], properties: { id: { type: 'string' }, url: { type: 'string' } } } as const;

/** SPEC §3 "The cloud blob is versioned (version 4) with data and storeTs"; value null: removed. */
export const SETTINGS_ANSWER = {
  type: 'object',
  required: ['version', 'data', 'storeTs'],
  properties: {
    version: { type: 'integer' },
    data: { type: 'object', additionalProperties: { type: 'object', required: ['value', 'ts'], properties: { value: {}, ts: { type: 'number' } } } },
    storeTs: { type: 'number' },
  },
} as const;
export const SETTINGS_SAVED_ANSWER = {
  type: 'object',
  required: ['storeTs', 'ignored'],
  properties: { storeTs: { type: 'number' }, ignored: { type: 'array', items: { type: 'string' } } },
} as const;

/** One item of a synced collection (SPEC §3 "Stored collections"). */
export const CLOUD_ITEM = {
  type: 'object',
  required: ['id', 'value', 'updated'],
  properties: { id: { type: 'string' }, value: {}, updated: { type: 'number' } },
} as const;
export const ITEMS_ANSWER = { type: 'array', items: CLOUD_ITEM } as const;
export const ITEM_UPDATED_ANSWER = { type: 'object', required: ['id', 'updated'], properties: { id: { type: 'string' }, updated: { type: 'number' } } } as const;
export const ITEM_DELETED_ANSWER = { type: 'object', required: ['id', 'storeTs'], properties: { id: { type: 'string' }, storeTs: { type: 'number' } } } as const;

/** SPEC §3 "Device", as stored (server/db/deviceStore.ts). */
export const DEVICE_ANSWER = {
  type: 'object',
  required: ['deviceID', 'deactivated', 'updated'],
  properties: { deviceID: { type: 'string' }, deactivated: { type: 'boolean' }, updated: { type: 'number' } },
  additionalProperties: true,
} as const;
