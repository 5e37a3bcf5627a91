/**
 * The user's alerts in the browser (SPEC §3 "Alert", §4 "Alerts cached 30 min, then reloaded from
 * cloud. Notification polling starts after the first alert change if the user has alerts"): the
 * synced collection 'alerts' seen as alerts, the notification badge (newCount of
 * GET /notif/v1/notifications) and the alert times (GET /users/v4/alerts/{id}/timestamps).
 * Every value is checked by common/alerts.ts before it is sent or kept.
 * Created by startAccount (account.ts) over the synced collection 'alerts'.
 */

import { effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { ALERTS_CACHE_MS, validateAlert, type Alert, type AlertState } from '../../common/alerts.ts';
import {
  ALERT_TIMESTAMPS_ANSWER, alertTimestampsPath, INTERACTION_ANSWER, interactionPath, NOTIFICATIONS_ANSWER, NOTIFICATIONS_PATH,
  type NotificationsAnswer,
} from '../../common/api/notifications.ts';
import { attemptWrite, itemsWithIds, type SyncedCollection } from './collection.ts';
import { answerOf, type AccountRequest } from './request.ts';

/** How often the badge is refreshed once polling started. Not in the SPEC ("not shown"): 5 min. */
export const NOTIFICATION_POLL_MS = 5 * 60 * 1000;

export type StoredAlert = Alert & { id: string; updated: number };

export type { NotificationsAnswer };

export interface Alerts {
  readonly list: ReadonlySignal<readonly StoredAlert[]>;
  /** The notification badge number. */
  readonly newCount: ReadonlySignal<number>;
  /** True while the badge is polled (SPEC §4: after the first alert change, while the user has alerts). */
  readonly polling: ReadonlySignal<boolean>;
  /** Reloads from the cloud when the local copy is older than 30 min (or `force`). */
  refresh(force?: boolean): Promise<boolean>;
  add(alert: Alert): Promise<StoredAlert | null>;
  update(id: string, edit: (alert: Alert) => Alert): Promise<boolean>;
  setState(id: string, state: AlertState): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  timestamps(id: string): Promise<number[]>;
  notifications(): Promise<NotificationsAnswer>;
  /** Removes every notification: the badge goes to 0. */
  clearNotifications(): Promise<void>;
  markOpened(ids?: string[]): Promise<void>;
  /** Stops polling and following the list, for good. */
  stop(): void;
}

export interface AlertsDeps {
  collection: SyncedCollection<Alert>;
  request: AccountRequest;
  onError: (error: unknown) => void;
  now?: () => number;
  setInterval?: (run: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  logError?: (message: string) => void;
  /** Whether someone is logged in (default: always): no polling, and a badge of 0, while not. */
  loggedIn?: ReadonlySignal<boolean>;
}

export function createAlerts(deps: AlertsDeps): Alerts {
  const { collection, request } = deps;
  const now = deps.now ?? Date.now;
  const every = deps.setInterval ?? ((run, ms) => setInterval(run, ms));
  const stopEvery = deps.clearInterval ?? ((handle) => clearInterval(handle as ReturnType<typeof setInterval>));
  const logError = deps.logError ?? ((message: string) => console.error(message));
  const list = itemsWithIds(collection);
  const newCount = signal(0);
  const polling = signal(false);
  let syncedAt = -Infinity;
  let timer: unknown = null;

  const attempt = (run: () => Promise<unknown>) => attemptWrite(run, deps.onError);

  const notifications = async (): Promise<NotificationsAnswer> => {
    const data = answerOf(NOTIFICATIONS_ANSWER, await request<unknown>('GET', NOTIFICATIONS_PATH), NOTIFICATIONS_PATH);
    newCount.value = data.newCount;
    return data;
  };
  const poll = () => void notifications().catch(() => undefined);
  const startPolling = () => {
    if (timer !== null) return;
    polling.value = true;
    poll();
    timer = every(poll, NOTIFICATION_POLL_MS);
  };
  const stopPolling = () => {
    if (timer !== null) stopEvery(timer);
    timer = null;
    polling.value = false;
  };

  /**
   * SPEC §4 "Notification polling starts after the first alert change if the user has alerts". A
   * change is any new list: the local copy read at start, a sync with the cloud, the user's own
   * edits; the list the alerts start with is not one. Polling stops while no alert is left or
   * nobody is logged in (then the badge is 0), and starts again at the next change with alerts.
   */
  const loggedIn = deps.loggedIn ?? signal(true);
  let previous = list.peek();
  let changedOnce = false;
  const stopWatching = effect(() => {
    const items = list.value;
    const on = loggedIn.value;
    if (items !== previous) {
      previous = items;
      changedOnce = true;
    }
    if (!on) newCount.value = 0;
    if (on && changedOnce && items.length > 0) startPolling();
    else stopPolling();
  });

  return {
    list,
    newCount,
    polling,
    async refresh(force = false) {
      if (!force && now() - syncedAt < ALERTS_CACHE_MS) return true;
      return attempt(async () => {
        await collection.sync();
        syncedAt = now();
      });
    },
    async add(alert) {
      const { id: _id, ...rest } = alert;
      const value = validateAlert({ ...rest, name: rest.name?.trim(), updated: now() }, logError);
      if (!value) return null;
      let added: StoredAlert | null = null;
      await attempt(async () => {
        const item = await collection.add(value);
        added = { ...item.value, id: item.id, updated: item.updated };
      });
      return added;
    },
    async update(id, edit) {
      const item = collection.items.peek().find((i) => i.id === id);
      if (!item) return false;
      const next = validateAlert({ ...edit(structuredClone(item.value)), updated: now() }, logError);
      if (!next) return false;
      return attempt(() => collection.update(id, next));
    },
    setState(id, state) {
      return this.update(id, (a) => ({ ...a, state }));
    },
    async remove(id) {
      return attempt(() => collection.remove(id));
    },
    async timestamps(id) {
      const path = alertTimestampsPath(id);
      return answerOf(ALERT_TIMESTAMPS_ANSWER, await request<unknown>('GET', path), path).timestamps;
    },
    notifications,
    async clearNotifications() {
      await request('DELETE', NOTIFICATIONS_PATH);
      newCount.value = 0;
    },
    async markOpened(ids) {
      const path = interactionPath('opened');
      newCount.value = answerOf(INTERACTION_ANSWER, await request<unknown>('POST', path, ids ? { ids } : {}), path).newCount;
    },
    stop() {
      stopWatching();
      stopPolling();
    },
  };
}
