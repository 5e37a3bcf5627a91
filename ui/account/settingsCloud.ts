/**
 * Settings sync with the cloud (SPEC §3 "Settings": the blob version 4 with data and storeTs; §4
 * "Settings sync"; §7 GET/POST /users/settings; §9 upload debounce 2 s).
 *
 *   pull()    GET /users/settings?storeTs: 304 or 204 -> no change; else the blob's entries are
 *             merged into the store (settingsStore.merge: a newer cloud stamp wins, a null value
 *             removes the local one); local changes the cloud lacks are uploaded at once
 *   watch     a change of a sync key uploads, debounced 2 s
 *   upload    only when something changed here since it was last stored: a key whose local
 *             stamp is newer than the cloud's, or a key removed here that the cloud still has
 *             (sent as null with the time of removal); the blob sent holds every sync key set
 *             here, so a server that stores the blob whole and one that merges it key by key
 *             both end with the same settings
 *   flush()   uploads now what waits (logout: SPEC §4 "save settings")
 *
 * What the cloud holds of each key (its stamp, or that it was removed) is kept in the account store
 * with the cloud's storeTs, so a reload neither uploads everything again nor misses a removal.
 * Failures are logged with their status code (SPEC §8) and leave the change waiting.
 */

import { SETTINGS_ANSWER, SETTINGS_PATH, settingsPath } from '../../common/api/account.ts';
import { fits, type Infer } from '../../common/api/schema.ts';
import { effect } from '@preact/signals-core';
import {
  SETTINGS_BLOB_VERSION, SETTINGS_UPLOAD_DEBOUNCE_MS, type CloudSettingEntry, type CloudSettingsBlob,
} from '../../common/account.ts';
import type { SettingKey } from '../../common/settings.ts';
import type { SettingsStore } from '../state/settingsStore.ts';
import { ACCOUNT_KEYS, type AccountStore } from './accountStore.ts';
import type { AccountRequest } from './request.ts';

/** What the cloud holds of a key: its stamp, and whether that stamp removed it. */
interface CloudKey {
  ts: number;
  removed: boolean;
}

interface SyncBookkeeping {
  storeTs: number;
  cloud: Record<string, CloudKey>;
}

export interface SettingsCloud {
  /** Loads the bookkeeping, pulls, and watches the sync keys from then on. */
  start(): Promise<void>;
  pull(): Promise<string[]>;
  flush(): Promise<void>;
  stop(): void;
  /** Uploads waiting (for tests and the logout). */
  readonly pending: () => boolean;
}

export interface SettingsCloudDeps {
  settings: Pick<SettingsStore, 'syncable' | 'merge' | 'signal'>;
  request: AccountRequest;
  store: AccountStore;
  /** The sync keys to watch. */
  keys: readonly SettingKey[];
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  logError?: (message: string) => void;
  /** Keys changed by the cloud (SPEC §6: cloud data load triggers layer redraw). */
  onMerged?: (keys: string[]) => void;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The cloud blob of GET /users/settings (common/api/account.ts), of the version this page writes. */
const isBlob = (v: unknown): v is Infer<typeof SETTINGS_ANSWER> => fits(SETTINGS_ANSWER, v) && v.version === SETTINGS_BLOB_VERSION;

export function createSettingsCloud(deps: SettingsCloudDeps): SettingsCloud {
  const { settings, request, store } = deps;
  const now = deps.now ?? Date.now;
  const later = deps.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const cancel = deps.clearTimeout ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const logError = deps.logError ?? ((message: string) => console.error(message));
  let book: SyncBookkeeping = { storeTs: 0, cloud: {} };
  let timer: unknown = null;
  let stopWatch: (() => void) | null = null;
  let uploading: Promise<void> | null = null;

  const saveBook = () => store.put(ACCOUNT_KEYS.settingsSync, book).catch((error: unknown) => logError(`Settings sync state not saved: ${String(error)}`));

  /** The entries to upload, or null when the cloud already holds everything set here. */
  const changes = (): Record<string, CloudSettingEntry> | null => {
    const local = settings.syncable();
    const data: Record<string, CloudSettingEntry> = {};
    let changed = false;
    for (const [key, entry] of Object.entries(local)) {
      data[key] = { value: entry.value, ts: entry.ts };
      const cloud = book.cloud[key];
      if (!cloud || cloud.removed || entry.ts > cloud.ts) changed = true;
    }
    const stamp = now();
    for (const [key, cloud] of Object.entries(book.cloud)) {
      if (key in local) continue;
      // Removed here (back to the default): the cloud learns it as a null value.
      data[key] = { value: null, ts: cloud.removed ? cloud.ts : Math.max(stamp, cloud.ts + 1) };
      if (!cloud.removed) changed = true;
    }
    return changed ? data : null;
  };

  const upload = async (): Promise<void> => {
    const data = changes();
    if (!data) return;
    const blob: CloudSettingsBlob = { version: SETTINGS_BLOB_VERSION, data, storeTs: now() };
    try {
      await request('POST', SETTINGS_PATH, blob);
    } catch (error) {
      logError(`Settings sync failed: upload, status ${(error as { status?: number }).status ?? 'unknown'}`);
      return;
    }
    // The cloud holds these now. storeTs stays: a change another browser stored meanwhile comes on the next pull.
    for (const [key, entry] of Object.entries(data)) book.cloud[key] = { ts: entry.ts, removed: entry.value === null };
    await saveBook();
  };

  /** One upload at a time; a change during an upload uploads again after it. */
  const runUpload = (): Promise<void> => {
    if (uploading) return uploading.then(runUpload);
    uploading = upload().finally(() => {
      uploading = null;
    });
    return uploading;
  };

  const schedule = () => {
    if (timer !== null) cancel(timer);
    timer = later(() => {
      timer = null;
      void runUpload();
    }, SETTINGS_UPLOAD_DEBOUNCE_MS);
  };

  const pull = async (): Promise<string[]> => {
    let response;
    try {
      response = await request<unknown>('GET', settingsPath(book.storeTs));
    } catch (error) {
      logError(`Settings sync failed: download, status ${(error as { status?: number }).status ?? 'unknown'}`);
      return [];
    }
    let merged: string[] = [];
    if (response.status !== 304 && response.status !== 204 && response.data !== null) {
      if (!isBlob(response.data)) {
        logError('Settings sync failed: the cloud blob is not version 4');
        return [];
      }
      const blob = response.data;
      const local = settings.syncable();
      const entries: Record<string, CloudSettingEntry> = {};
      const toMerge: Record<string, CloudSettingEntry> = {};
      for (const [key, entry] of Object.entries(blob.data)) {
        if (!entry) continue;
        entries[key] = entry;
        // Removed here after the cloud last changed it: the removal is newer (it goes up as null).
        const known = book.cloud[key];
        if (known && !known.removed && !(key in local) && entries[key].ts <= known.ts) continue;
        toMerge[key] = entries[key];
      }
      merged = settings.merge(toMerge);
      book = {
        storeTs: blob.storeTs,
        cloud: Object.fromEntries(Object.entries(entries).map(([key, e]) => [key, { ts: e.ts, removed: e.value === null }])),
      };
      await saveBook();
      if (merged.length) deps.onMerged?.(merged);
    }
    // Local changes the cloud lacks (made while logged out, or offline) go up now.
    await runUpload();
    return merged;
  };

  return {
    async start() {
      const stored = await store.get<SyncBookkeeping>(ACCOUNT_KEYS.settingsSync).catch(() => undefined);
      if (stored && isFiniteNumber(stored.storeTs) && typeof stored.cloud === 'object' && stored.cloud !== null) book = stored;
      await pull();
      if (stopWatch) return;
      let first = true;
      stopWatch = effect(() => {
        for (const key of deps.keys) void settings.signal(key).value;
        if (first) {
          first = false;
          return;
        }
        schedule();
      });
    },
    pull,
    async flush() {
      if (timer !== null) {
        cancel(timer);
        timer = null;
      }
      await runUpload();
    },
    stop() {
      stopWatch?.();
      stopWatch = null;
      if (timer !== null) cancel(timer);
      timer = null;
    },
    pending: () => timer !== null || uploading !== null || changes() !== null,
  };
}
