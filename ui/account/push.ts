/**
 * Web Push on this device (SPEC §6 "push notifications"; §3 "Device": the server pushes a triggered
 * alert to every active device of the user that carries a push subscription). The service worker is
 * ui/push/sw.ts (/sw.js); the server's side is server/alerts/push.ts (VAPID, web-push).
 *
 *   unsupported  no service worker, PushManager or Notification in this browser (or not a secure
 *                context): the alerts window says so; notifications still reach the badge
 *   denied       the user blocked notifications for the site: only the browser can undo that
 *   off          supported, not subscribed
 *   busy         asking, subscribing or unsubscribing
 *   on           subscribed; the device registration (/users/v3/devices/{id}) carries the
 *                subscription
 *   failed       the last try failed (push service unreachable, server without VAPID keys ...):
 *                `error` says why, `enable` may be tried again
 *
 * Subscribing asks for permission, so `enable` must run from a click. `start` never asks: it
 * registers the worker and reads a subscription made earlier.
 */

import { signal, type ReadonlySignal } from '@preact/signals-core';
// Only the type: the worker's module stays out of the app's chunks (the worker is one classic script).
import type { PushPageMessage } from '../push/pushMessage.ts';

export type PushState = 'unsupported' | 'denied' | 'off' | 'busy' | 'on' | 'failed';

/** PushSubscription.toJSON() as the devices endpoint stores it. */
export interface PushSubscriptionJson { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } }

/** The browser parts push uses (tests give fakes). */
export interface PushBrowser {
  /** navigator.serviceWorker; undefined where there is none. */
  serviceWorker?: Pick<ServiceWorkerContainer, 'register' | 'addEventListener' | 'removeEventListener'>;
  /** Whether the page can use PushManager and Notification at all. */
  supported: boolean;
  permission(): NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
}

export interface PushDeps {
  browser: PushBrowser;
  /** GET /notif/v1/vapid-public-key: the server's application server key (base64url). */
  publicKey(): Promise<string>;
  /** Registers the device again with this subscription (null: none). */
  saveDevice(subscription: PushSubscriptionJson | null): Promise<void>;
  /** A message from the service worker (a push arrived, a notification was clicked). */
  onMessage(message: PushPageMessage): void;
  logError?: (message: string) => void;
  workerUrl?: string;
}

export interface Push {
  readonly state: ReadonlySignal<PushState>;
  readonly subscription: ReadonlySignal<PushSubscriptionJson | null>;
  /** Why the last try failed (English, for the log and the window's detail line). */
  readonly error: ReadonlySignal<string | null>;
  /** Registers the worker and reads an earlier subscription; never asks the user. */
  start(): Promise<void>;
  /** Asks permission (from a click), subscribes and registers the device with it. */
  enable(): Promise<boolean>;
  /** Unsubscribes and registers the device without a subscription. */
  disable(): Promise<void>;
  stop(): void;
}

const SERVICE_WORKER_URL = '/sw.js';

/** Whether a message event's data is one the worker posts (ui/push/sw.ts). */
export function isPushPageMessage(v: unknown): v is PushPageMessage {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return (m.kind === 'isobar-push' || (m.kind === 'isobar-notification-click' && typeof m.url === 'string'))
    && (m.id === null || typeof m.id === 'string');
}


/** The base64url text of a VAPID key as the bytes PushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(base64url)) throw new Error('The server\'s push key is not base64url');
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // An uncompressed P-256 point: 65 bytes starting with 4.
  if (bytes.length !== 65 || bytes[0] !== 4) throw new Error('The server\'s push key is not a P-256 public key');
  return bytes;
}

const asJson = (subscription: PushSubscription): PushSubscriptionJson | null => {
  const json = subscription.toJSON() as Partial<PushSubscriptionJson>;
  return typeof json.endpoint === 'string' && typeof json.keys?.p256dh === 'string' && typeof json.keys.auth === 'string'
    ? { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } }
    : null;
};

export function createPush(deps: PushDeps): Push {
  const { browser } = deps;
  const logError = deps.logError ?? ((message: string) => console.error(message));
  const state = signal<PushState>('off');
  const subscription = signal<PushSubscriptionJson | null>(null);
  const error = signal<string | null>(null);
  let registration: Promise<ServiceWorkerRegistration> | null = null;

  const usable = () => browser.supported && browser.serviceWorker !== undefined;
  const settled = (): PushState => (!usable() ? 'unsupported' : browser.permission() === 'denied' ? 'denied' : subscription.peek() ? 'on' : 'off');

  const register = () => {
    registration ??= browser.serviceWorker!.register(deps.workerUrl ?? SERVICE_WORKER_URL, { scope: '/' }).catch((e: unknown) => {
      registration = null;
      throw e;
    });
    return registration;
  };

  const onMessage = (event: Event) => {
    const data = (event as MessageEvent).data;
    if (isPushPageMessage(data)) deps.onMessage(data);
  };

  const fail = (message: string) => {
    error.value = message;
    logError(`Push: ${message}`);
    state.value = 'failed';
  };

  return {
    state,
    subscription,
    error,
    async start() {
      if (!usable()) {
        state.value = 'unsupported';
        return;
      }
      browser.serviceWorker!.addEventListener('message', onMessage);
      try {
        const reg = await register();
        const existing = await reg.pushManager.getSubscription();
        subscription.value = existing ? asJson(existing) : null;
        state.value = settled();
      } catch (e) {
        fail(`service worker not registered: ${String(e)}`);
      }
    },
    async enable() {
      if (!usable()) {
        state.value = 'unsupported';
        return false;
      }
      state.value = 'busy';
      error.value = null;
      try {
        const permission = browser.permission() === 'granted' ? 'granted' : await browser.requestPermission();
        if (permission !== 'granted') {
          state.value = permission === 'denied' ? 'denied' : 'off';
          return false;
        }
        const [reg, key] = await Promise.all([register(), deps.publicKey()]);
        const made = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(key) });
        const json = asJson(made);
        if (!json) throw new Error('the browser gave a subscription without keys');
        // Kept before the device is saved (the registration reads it); a later registration
        // (next login) carries it if this save fails.
        subscription.value = json;
        await deps.saveDevice(json);
        state.value = 'on';
        return true;
      } catch (e) {
        fail(String(e instanceof Error ? e.message : e));
        return false;
      }
    },
    async disable() {
      if (!usable()) return;
      state.value = 'busy';
      try {
        const reg = await register();
        const existing = await reg.pushManager.getSubscription();
        await existing?.unsubscribe();
        subscription.value = null;
        await deps.saveDevice(null);
        state.value = settled();
      } catch (e) {
        fail(String(e instanceof Error ? e.message : e));
      }
    },
    stop() {
      browser.serviceWorker?.removeEventListener('message', onMessage);
    },
  };
}

/** The browser's push parts, or the missing ones left out. */
export function browserPush(): PushBrowser {
  const supported = typeof window !== 'undefined' && window.isSecureContext && 'PushManager' in window && 'Notification' in window && 'serviceWorker' in navigator;
  return {
    serviceWorker: supported ? navigator.serviceWorker : undefined,
    supported,
    permission: () => (supported ? Notification.permission : 'denied'),
    requestPermission: () => Notification.requestPermission(),
  };
}
