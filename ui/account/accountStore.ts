/**
 * Where the account keeps its data in the browser between page views: the synced collections
 * (SPEC §3 "Stored collections": userFavs, userAlerts, markedNotams, customColors), the settings
 * sync bookkeeping, the pending login action and the device id. They live in the app's IndexedDB
 * database beside the search recents (object store 'collections', ui/state/settingsStore.ts), and in
 * memory when IndexedDB is missing or fails, like the settings (SPEC §8).
 */

import type { IDBPDatabase } from 'idb';
import type { SyncCollection } from '../../common/account.ts';
import { openIsobarDb } from '../state/settingsStore.ts';

export interface AccountStore {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes every entry but the kept ones (logout: SPEC §4 "clear ... local stores"). */
  clear(keep: readonly string[]): Promise<void>;
}

const OBJECT_STORE = 'collections';

/** SPEC §3 "Stored collections": the local name of each synced collection. */
export const LOCAL_COLLECTION_KEYS: Readonly<Record<SyncCollection, string>> = {
  favs: 'userFavs',
  alerts: 'userAlerts',
  notams: 'markedNotams',
  colors: 'customColors',
  // Not a SPEC §3 store name: the webcams a user added (common/webcams.ts).
  webcams: 'userWebcams',
};

/** Keys of the account's own bookkeeping. */
export const ACCOUNT_KEYS = {
  deviceId: 'account:deviceID',
  pendingAction: 'account:pendingLoginAction',
  settingsSync: 'account:settingsSync',
} as const;

export function memoryAccountStore(initial: Record<string, unknown> = {}): AccountStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>(Object.entries(initial));
  return {
    data,
    async get<T>(key: string) {
      return structuredClone(data.get(key)) as T | undefined;
    },
    async put(key, value) {
      data.set(key, structuredClone(value));
    },
    async delete(key) {
      data.delete(key);
    },
    async clear(keep) {
      for (const key of [...data.keys()]) if (!keep.includes(key)) data.delete(key);
    },
  };
}

/** IndexedDB when the browser has it and it opens; memory otherwise (failures are logged). */
export function browserAccountStore(): AccountStore {
  const memory = memoryAccountStore();
  const db: Promise<IDBPDatabase | null> = typeof indexedDB === 'undefined'
    ? Promise.resolve(null)
    : openIsobarDb().catch((error: unknown) => {
      console.error('Local database cannot be opened; account data stays in memory', error);
      return null;
    });
  const withDb = async <T>(run: (handle: IDBPDatabase) => Promise<T>, fallback: () => Promise<T>): Promise<T> => {
    const handle = await db;
    if (!handle) return fallback();
    try {
      return await run(handle);
    } catch (error) {
      console.error('Local database failed; account data stays in memory', error);
      return fallback();
    }
  };
  return {
    get: <T>(key: string) => withDb(async (h) => (await h.get(OBJECT_STORE, key)) as T | undefined, () => memory.get<T>(key)),
    put: (key, value) => withDb(async (h) => void await h.put(OBJECT_STORE, value, key), () => memory.put(key, value)),
    delete: (key) => withDb((h) => h.delete(OBJECT_STORE, key), () => memory.delete(key)),
    clear: (keep) => withDb(async (h) => {
      const tx = h.transaction(OBJECT_STORE, 'readwrite');
      for (const key of await tx.store.getAllKeys()) if (!keep.includes(String(key))) await tx.store.delete(key);
      await tx.done;
    }, () => memory.clear(keep)),
  };
}
