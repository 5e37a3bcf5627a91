/**
 * The session (SPEC §4 "Login", §6, §7 /users/v1/login, /users/v1/register, /api/info,
 * /api/logout, /users/v3/devices/{deviceID}): who is logged in, and the login and logout flows.
 *
 *   start()      with a stored token: GET /api/info. auth -> logged in (below); no auth (or 401,
 *                403) -> user removed, logged out; no answer -> the stored user stays, and
 *                "Failed to retrieve account info." shows 5 s when online (SPEC §8)
 *   login()      POST /users/v1/login, then as start() with the new token; register() the same
 *   logged in    token stored; user info set; settings merged from the cloud; the collections
 *                synced; the stored pending action run when under 5 min old, otherwise consent
 *                checked; device registered; 'user-logged' usage event; on a login the success
 *                message (3 s)
 *   logout()     settings saved; device deactivated; GET /api/logout; user, token, consent, the
 *                local stores and the favourites cleared; 'user-logout' logged; reload after 500 ms
 *   requireLogin(action, params)
 *                logged in -> true; else the action is stored as pending, login opens -> false
 *                (SPEC §4 "Adding a favourite when logged out stores a pending action and opens login")
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import {
  AUTH_ANSWER, devicePath, INFO_ANSWER, INFO_PATH, LOGIN_PATH, LOGOUT_PATH, REGISTER_PATH, type LoginBody, type RegisterBody,
} from '../../common/api/account.ts';
import {
  ACCOUNT_INFO_ERROR_MESSAGE_MS, isPendingActionFresh, isPendingLoginAction, LOGIN_SUCCESS_MESSAGE_MS, LOGOUT_RELOAD_DELAY_MS,
  type PendingLoginAction, type PendingLoginActionName,
} from '../../common/account.ts';
import type { SettingKey } from '../../common/settings.ts';
import type { MessageInput } from '../state/messages.ts';
import { ACCOUNT_KEYS, type AccountStore } from './accountStore.ts';
import type { PushSubscriptionJson } from './push.ts';
import { HttpError } from '../http/httpError.ts';
import { answerOf, type AccountRequest } from './request.ts';
import type { SettingsCloud } from './settingsCloud.ts';

/** SPEC §3 "User info: id, username, email, avatar, subscription info". */
export interface UserInfo {
  id: string;
  username?: string;
  email?: string;
  avatar?: string | null;
  [field: string]: unknown;
}

/** GET /api/info (SPEC §7). */
export interface AccountInfo {
  auth: boolean;
  token?: string;
  userInfo?: UserInfo;
  subscriptionInfo?: unknown;
  authHash?: string;
}

/** SPEC §3 "Device": what /users/v3/devices/{deviceID} stores. */
export interface DeviceInfo {
  deviceID: string;
  platform: 'android' | 'ios' | 'desktop';
  target: string;
  version: string;
  cc: string | null;
  subscription: string | null;
  screen: { width: number; height: number; devicePixelRatio: number };
  deactivated: boolean;
  /** The browser's Web Push subscription on this device (ui/account/push.ts); null: none. */
  pushSubscription?: PushSubscriptionJson | null;
}

export type RegisterInput = RegisterBody;

/** What the session reads and writes of the settings. */
export interface SessionSettings {
  get(key: SettingKey): unknown;
  signal(key: SettingKey): ReadonlySignal<unknown>;
  set(key: SettingKey, value: never): boolean;
  reset(key: SettingKey): void;
}

export interface SessionDeps {
  settings: SessionSettings;
  request: AccountRequest;
  store: AccountStore;
  settingsCloud: SettingsCloud;
  /** Synced collections: synced after login, cleared at logout. */
  collections: readonly { sync(): Promise<unknown>; clear(): Promise<void>; readonly name: string }[];
  /** Runs a pending action (SPEC §4: addFav, alerts-edit, favs, uploader, colors, open external plugin). */
  runPendingAction(action: PendingLoginAction): Promise<void> | void;
  checkConsent(): void;
  openLogin(): void;
  usage: { log(name: string, detail?: string): void };
  showMessage(message: MessageInput): void;
  /** The device as /users/v3/devices stores it, without its id. */
  device(): Omit<DeviceInfo, 'deviceID' | 'deactivated'>;
  online?: () => boolean;
  reload(): void;
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  randomId?: () => string;
  logError?: (message: string) => void;
  /** A collection failed to sync (favourites: "Favorites sync error"). */
  onCollectionError?: (name: string, error: unknown) => void;
  /** /api/info answered a subscription info (null: none); SPEC §4 "Subscription" (ui/account/subscription.ts). */
  onSubscriptionInfo?: (info: unknown) => void;
}

export interface Session {
  readonly user: ReadonlySignal<UserInfo | null>;
  readonly loggedIn: ReadonlySignal<boolean>;
  /** 'checking' while /api/info or a login is on its way. */
  readonly status: ReadonlySignal<'idle' | 'checking'>;
  start(): Promise<void>;
  login(email: string, password: string): Promise<void>;
  register(input: RegisterInput): Promise<void>;
  logout(): Promise<void>;
  requireLogin(action: PendingLoginActionName, params?: Record<string, unknown>): Promise<boolean>;
  /** Pulls settings and syncs collections again (page visible again, a panel opened). */
  refresh(): Promise<void>;
  /** Registers this device again (its push subscription changed); nothing when logged out. */
  registerDevice(): Promise<void>;
  /** Asks /api/info again for the subscription info (a payment on its way); false when logged out or unanswered. */
  refreshSubscription(): Promise<boolean>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isUserInfo = (v: unknown): v is UserInfo => isObject(v) && (typeof v.id === 'string' || typeof v.id === 'number');

/** 32 random hex digits (crypto.getRandomValues works on plain-HTTP hosts too, randomUUID does not). */
function randomDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createSession(deps: SessionDeps): Session {
  const { settings, request, store } = deps;
  const now = deps.now ?? Date.now;
  const later = deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const logError = deps.logError ?? ((message: string) => console.error(message));
  // The stored user is the truth (the top bar reads it too): set at login, removed at logout.
  const user = computed(() => {
    const stored = settings.signal('user').value;
    return isUserInfo(stored) ? stored : null;
  });
  const loggedIn = computed(() => user.value !== null);
  const status = signal<'idle' | 'checking'>('idle');

  const setUser = (info: UserInfo) => {
    settings.set('user', { ...info, id: String(info.id) } as never);
  };

  /** SPEC §4 "Without auth: user removed, logged out". */
  const removeUser = () => {
    settings.reset('user');
    settings.reset('userToken');
    settings.reset('authHash');
    // SPEC §4: only an active subscription of a logged-in user sets the tier.
    settings.reset('subscription');
    settings.reset('subscriptionInfo');
    deps.settingsCloud.stop();
  };

  const deviceId = async (): Promise<string> => {
    const stored = await store.get<string>(ACCOUNT_KEYS.deviceId).catch(() => undefined);
    if (typeof stored === 'string' && /^[0-9a-f-]{16,64}$/i.test(stored)) return stored;
    const id = (deps.randomId ?? randomDeviceId)();
    await store.put(ACCOUNT_KEYS.deviceId, id).catch(() => {});
    return id;
  };

  const putDevice = async (deactivated: boolean) => {
    const deviceID = await deviceId();
    // The id is the path's (SPEC §3 Device deviceID); the body is the rest.
    const device: Omit<DeviceInfo, 'deviceID'> = { ...deps.device(), deactivated };
    await request('PUT', devicePath(deviceID), device);
  };

  const takePending = async (): Promise<PendingLoginAction | null> => {
    const stored = await store.get<unknown>(ACCOUNT_KEYS.pendingAction).catch(() => undefined);
    if (stored === undefined) return null;
    await store.delete(ACCOUNT_KEYS.pendingAction).catch(() => {});
    return isPendingLoginAction(stored) ? stored : null;
  };

  const syncCollections = () => Promise.all(deps.collections.map((c) => c.sync().catch((error: unknown) => {
    logError(`Collection ${c.name} sync failed: ${String(error)}`);
    deps.onCollectionError?.(c.name, error);
  })));

  /** SPEC §4 "With auth", in its order. */
  const withAuth = async (info: AccountInfo, origin: 'start' | 'login') => {
    if (info.token && info.token !== settings.get('userToken')) settings.set('userToken', info.token as never);
    if (info.userInfo) setUser(info.userInfo);
    if (typeof info.authHash === 'string') settings.set('authHash', info.authHash as never);
    if ('subscriptionInfo' in info) deps.onSubscriptionInfo?.(info.subscriptionInfo ?? null);
    await deps.settingsCloud.start();
    await syncCollections();
    const pending = await takePending();
    if (isPendingActionFresh(pending, now())) {
      try {
        await deps.runPendingAction(pending);
      } catch (error) {
        logError(`Pending login action ${pending.action} failed: ${String(error)}`);
      }
    } else {
      deps.checkConsent();
    }
    await putDevice(false).catch((error: unknown) => logError(`Device not registered: ${String(error)}`));
    deps.usage.log('user-logged', origin);
    if (origin === 'login') deps.showMessage({ key: 'register:loginSuccess', kind: 'success', durationMs: LOGIN_SUCCESS_MESSAGE_MS, name: 'loginSuccess' });
  };

  /** Asks /api/info about a token; null when the server could not answer. */
  const info = async (): Promise<AccountInfo | null> => {
    try {
      return answerOf(INFO_ANSWER, await request<unknown>('GET', INFO_PATH), INFO_PATH);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return { auth: false };
      logError(`Account info failed: status ${error instanceof HttpError ? error.status : 'unknown'}`);
      return null;
    }
  };

  const afterToken = async (token: string, origin: 'start' | 'login', userInfo?: UserInfo) => {
    settings.set('userToken', token as never);
    const answer = await info();
    if (answer === null) {
      // The server did not answer: a login that just succeeded goes on with what it returned.
      if (origin === 'login' && userInfo) {
        await withAuth({ auth: true, userInfo }, origin);
        return;
      }
      if (deps.online?.() ?? true) {
        deps.showMessage({ key: 'register:accountInfoError', kind: 'error', durationMs: ACCOUNT_INFO_ERROR_MESSAGE_MS, name: 'accountInfoError' });
      }
      return;
    }
    if (!answer.auth) {
      removeUser();
      if (origin === 'login') throw new HttpError(401, 'Login was not accepted', '');
      return;
    }
    await withAuth({ ...answer, userInfo: answer.userInfo ?? userInfo }, origin);
  };

  const loginWith = async (path: string, body: LoginBody | RegisterBody) => {
    status.value = 'checking';
    try {
      const response = await request<unknown>('POST', path, body);
      const { token, userInfo } = answerOf(AUTH_ANSWER, response, path);
      if (token === '') throw new HttpError(response.status, `No token from ${path}`, '');
      await afterToken(token, 'login', userInfo);
    } finally {
      status.value = 'idle';
    }
  };

  const session: Session = {
    user,
    loggedIn,
    status,
    async start() {
      const token = settings.get('userToken');
      if (typeof token !== 'string' || token === '') {
        if (user.peek()) removeUser();
        return;
      }
      status.value = 'checking';
      try {
        await afterToken(token, 'start');
      } finally {
        status.value = 'idle';
      }
    },
    login: (email, password) => loginWith(LOGIN_PATH, { email: email.trim(), password }),
    register: (input) => loginWith(REGISTER_PATH, { ...input, email: input.email.trim() }),
    async logout() {
      // SPEC §4 "Logout", in its order; a step that fails does not stop the others.
      await deps.settingsCloud.flush().catch((error: unknown) => logError(`Settings not saved at logout: ${String(error)}`));
      await putDevice(true).catch((error: unknown) => logError(`Device not deactivated: ${String(error)}`));
      await request('GET', LOGOUT_PATH).catch((error: unknown) => logError(`Logout call failed: ${String(error)}`));
      removeUser();
      settings.reset('consent');
      await Promise.all(deps.collections.map((c) => c.clear()));
      await store.clear([ACCOUNT_KEYS.deviceId]).catch((error: unknown) => logError(`Local stores not cleared: ${String(error)}`));
      deps.usage.log('user-logout');
      later(() => deps.reload(), LOGOUT_RELOAD_DELAY_MS);
    },
    async requireLogin(action, params = {}) {
      if (loggedIn.peek()) return true;
      const pending: PendingLoginAction = { action, params, ts: now() };
      await store.put(ACCOUNT_KEYS.pendingAction, pending).catch((error: unknown) => logError(`Pending action not stored: ${String(error)}`));
      deps.openLogin();
      return false;
    },
    async refresh() {
      if (!loggedIn.peek()) return;
      await deps.settingsCloud.pull();
      await syncCollections();
    },
    async registerDevice() {
      if (loggedIn.peek()) await putDevice(false);
    },
    async refreshSubscription() {
      if (!loggedIn.peek()) return false;
      const answer = await info();
      if (!answer?.auth) return false;
      deps.onSubscriptionInfo?.(answer.subscriptionInfo ?? null);
      return true;
    },
  };
  return session;
}
