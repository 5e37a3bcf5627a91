/**
 * Online or offline (SPEC §4 "Connection", §8 texts, §9 timings):
 *
 *   online   --offline event | network failure | too many tile failures-->  checking (HEAD site icon)
 *   checking --answer 200..399-->  online (nothing shown: it never went offline)
 *   checking --no answer, or another status-->  offline: class `offline` on <html>, the offline
 *            message ("WOW it appears that you are offline :-(") until back, a probe every 2 s
 *   offline  --online event-->  probe at once
 *   offline  --answer 200..399-->  online: class and message go; 500 ms later "Online again, click
 *            here to reload app :-)" shows for 10 s, and a click reloads the page
 *
 * The texts are core strings (assets/lang/core): offline, lazily loaded bundles cannot load.
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import {
  OFFLINE_REPROBE_MS, ONLINE_MESSAGE_DELAY_MS, ONLINE_MESSAGE_MS, PROBE_OK_MAX_STATUS, PROBE_OK_MIN_STATUS, PROBE_TIMEOUT_MS,
  TILE_FAILURES_BEFORE_PROBE_DESKTOP, TILE_FAILURES_BEFORE_PROBE_MOBILE,
} from '../../common/limits.ts';
import type { MessagesModel } from './messages.ts';
import { isNetworkFailure } from './requestFailures.ts';

export type ConnectionState = 'online' | 'checking' | 'offline';

/** SPEC §4: the offline probe asks for the site icon. */
const PROBE_URL = '/favicon.svg';

export const OFFLINE_MESSAGE_KEY = 'connection.offline';
export const ONLINE_MESSAGE_KEY = 'connection.online';

export interface ConnectionModel {
  readonly state: ReadonlySignal<ConnectionState>;
  /** False only once a probe has failed (checking still counts as online). */
  readonly online: ReadonlySignal<boolean>;
  /** A request failed: a network failure (no HTTP answer) starts a probe. */
  reportRequestFailure(error: unknown): void;
  /** A data tile failed to load; more than 3 (mobile) or 6 (desktop) in a row start a probe (SPEC §8). */
  reportTileFailure(): void;
  /** Probes now (the offline event does this); resolves true when the site answered. */
  probe(): Promise<boolean>;
  dispose(): void;
}

export interface ConnectionDeps {
  messages: MessagesModel;
  fetch?: (url: string, init: RequestInit) => Promise<{ status: number }>;
  /** Where the offline and online events come from. */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Gets the `offline` class. */
  root?: { classList: Pick<DOMTokenList, 'toggle'> } | null;
  reload?: () => void;
  mobile?: () => boolean;
  /** Told of each change (the settings key 'connection', SPEC §3). */
  onChange?: (online: boolean) => void;
  probeUrl?: string;
}

export function createConnectionModel(deps: ConnectionDeps): ConnectionModel {
  const doFetch = deps.fetch ?? ((url: string, init: RequestInit) => fetch(url, init));
  const target = deps.target ?? (typeof window !== 'undefined' ? window : null);
  const root = deps.root === undefined ? (typeof document !== 'undefined' ? document.documentElement : null) : deps.root;
  const reload = deps.reload ?? (() => location.reload());
  const { messages } = deps;
  const state = signal<ConnectionState>('online');
  let probing: Promise<boolean> | null = null;
  let reprobeTimer: ReturnType<typeof setTimeout> | null = null;
  let onlineMessageTimer: ReturnType<typeof setTimeout> | null = null;
  let offlineMessage: number | null = null;
  let onlineMessage: number | null = null;
  let tileFailures = 0;
  let disposed = false;

  const clearTimer = (timer: ReturnType<typeof setTimeout> | null) => {
    if (timer) clearTimeout(timer);
    return null;
  };

  const ask = async (): Promise<boolean> => {
    const controller = typeof AbortController !== 'undefined' ? new AbortController() : null;
    const timeout = setTimeout(() => controller?.abort(), PROBE_TIMEOUT_MS);
    try {
      // A fresh answer from the server, never the HTTP cache's.
      const response = await doFetch(`${deps.probeUrl ?? PROBE_URL}?probe=${Date.now()}`, { method: 'HEAD', cache: 'no-store', signal: controller?.signal });
      return response.status >= PROBE_OK_MIN_STATUS && response.status <= PROBE_OK_MAX_STATUS;
    } catch {
      return false;
    } finally {
      clearTimeout(timeout);
    }
  };

  const goOffline = () => {
    if (state.peek() === 'offline') return;
    state.value = 'offline';
    root?.classList.toggle('offline', true);
    onlineMessageTimer = clearTimer(onlineMessageTimer);
    if (onlineMessage !== null) messages.hide(onlineMessage);
    onlineMessage = null;
    offlineMessage = messages.show({ key: OFFLINE_MESSAGE_KEY, kind: 'error', name: 'offline' });
    deps.onChange?.(false);
  };

  const goOnline = () => {
    const was = state.peek();
    state.value = 'online';
    tileFailures = 0;
    if (was !== 'offline') return;
    root?.classList.toggle('offline', false);
    if (offlineMessage !== null) messages.hide(offlineMessage);
    offlineMessage = null;
    deps.onChange?.(true);
    onlineMessageTimer = setTimeout(() => {
      onlineMessageTimer = null;
      onlineMessage = messages.show({ key: ONLINE_MESSAGE_KEY, kind: 'success', name: 'online', durationMs: ONLINE_MESSAGE_MS, onClick: reload });
    }, ONLINE_MESSAGE_DELAY_MS);
  };

  const scheduleReprobe = () => {
    reprobeTimer = clearTimer(reprobeTimer);
    if (disposed) return;
    reprobeTimer = setTimeout(() => {
      reprobeTimer = null;
      void probe();
    }, OFFLINE_REPROBE_MS);
  };

  const probe = (): Promise<boolean> => {
    if (probing) return probing;
    if (state.peek() === 'online') state.value = 'checking';
    reprobeTimer = clearTimer(reprobeTimer);
    probing = ask().then((ok) => {
      probing = null;
      if (disposed) return ok;
      if (ok) {
        goOnline();
      } else {
        goOffline();
        scheduleReprobe();
      }
      return ok;
    });
    return probing;
  };

  const onOffline = () => void probe();
  const onOnline = () => {
    if (state.peek() === 'offline') void probe();
  };
  target?.addEventListener('offline', onOffline);
  target?.addEventListener('online', onOnline);

  return {
    state,
    online: computed(() => state.value !== 'offline'),
    reportRequestFailure(error) {
      // Offline, the probe runs every 2 s already; an HTTP answer (even an error) proves the network.
      if (state.peek() === 'offline' || !isNetworkFailure(error)) return;
      void probe();
    },
    reportTileFailure() {
      if (state.peek() === 'offline') return;
      tileFailures++;
      const limit = deps.mobile?.() ? TILE_FAILURES_BEFORE_PROBE_MOBILE : TILE_FAILURES_BEFORE_PROBE_DESKTOP;
      if (tileFailures > limit) {
        tileFailures = 0;
        void probe();
      }
    },
    probe,
    dispose() {
      disposed = true;
      reprobeTimer = clearTimer(reprobeTimer);
      onlineMessageTimer = clearTimer(onlineMessageTimer);
      target?.removeEventListener('offline', onOffline);
      target?.removeEventListener('online', onOnline);
    },
  };
}
