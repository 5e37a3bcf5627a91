/**
 * The settings store (SPEC §3 "Settings", §5 validation): one signal per key of the schema in
 * common/settings.ts.
 *
 *   set(key, value)      refused (false, nothing changes) unless the key's check passes;
 *                        an unknown key throws (UnknownSettingError)
 *   load()               stored values are checked again: an invalid one falls back to the
 *                        default and the error is logged
 *   sync keys            kept as { value, ts }: ts is the update time, ready for the cloud sync
 *                        (SPEC §4 "Settings sync": newer stamps win, a null value removes)
 *
 * Values persist through a backend: IndexedDB (idb) in the browser, memory when IndexedDB is
 * missing or fails to open (SPEC §8: "if storage is unavailable, settings stay in memory").
 */

import { signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { openDB, type IDBPDatabase } from 'idb';
import { settingDef, type SettingKey, type SettingValue } from '../../common/settings.ts';
import { logSettingsError } from '../services/settingsErrors.ts';

export interface StoredEntry {
  value: unknown;
  /** Update time, ms since the epoch (0: never changed here). */
  ts: number;
}

/** Where values live between page views. */
export interface SettingsBackend {
  readonly persistent: boolean;
  load(): Promise<Record<string, StoredEntry>>;
  save(key: string, entry: StoredEntry): Promise<void>;
  remove(key: string): Promise<void>;
}

export function memoryBackend(initial: Record<string, StoredEntry> = {}): SettingsBackend & { data: Record<string, StoredEntry> } {
  const data = { ...initial };
  return {
    persistent: false,
    data,
    async load() {
      return { ...data };
    },
    async save(key, entry) {
      data[key] = entry;
    },
    async remove(key) {
      delete data[key];
    },
  };
}

const DB_NAME = 'isobar';
const DB_VERSION = 1;
const SETTINGS_STORE = 'settings';

/** Other collections of SPEC §3 "Stored collections" get their own object stores as they arrive. */
export async function openIsobarDb(): Promise<IDBPDatabase> {
  return openDB(DB_NAME, DB_VERSION, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(SETTINGS_STORE)) db.createObjectStore(SETTINGS_STORE);
      if (!db.objectStoreNames.contains('collections')) db.createObjectStore('collections');
    },
    blocked() {
      // SPEC §8: a blocked upgrade asks the user to close other tabs (shown by the UI on this log).
      logSettingsError('Local database upgrade blocked: close other tabs and reload');
    },
  });
}

/** IndexedDB through idb; null when the browser has none or it cannot be opened. */
export async function indexedDbBackend(): Promise<SettingsBackend | null> {
  if (typeof indexedDB === 'undefined') return null;
  let db: IDBPDatabase;
  try {
    db = await openIsobarDb();
  } catch (error) {
    logSettingsError('Local database cannot be opened; settings stay in memory', error);
    return null;
  }
  return {
    persistent: true,
    async load() {
      const tx = db.transaction(SETTINGS_STORE);
      const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
      return Object.fromEntries(keys.map((k, i) => [String(k), values[i] as StoredEntry]));
    },
    async save(key, entry) {
      await db.put(SETTINGS_STORE, entry, key);
    },
    async remove(key) {
      await db.delete(SETTINGS_STORE, key);
    },
  };
}

export interface SettingsStore {
  /** True once stored values are loaded (or there are none to load). */
  readonly ready: ReadonlySignal<boolean>;
  /** False while the settings live in memory only. */
  readonly persistent: ReadonlySignal<boolean>;
  get<K extends SettingKey>(key: K): SettingValue<K>;
  signal<K extends SettingKey>(key: K): ReadonlySignal<SettingValue<K>>;
  /** Validates and sets; false (and nothing changes) when the value is not allowed. */
  set<K extends SettingKey>(key: K, value: SettingValue<K>, options?: { ts?: number }): boolean;
  /** Back to the default (and removed from storage). */
  reset(key: SettingKey): void;
  /** The update time of a key (0 when never set here). */
  ts(key: SettingKey): number;
  /** Every sync key set here, with value and update time (the cloud blob's data). */
  syncable(): Record<string, StoredEntry>;
  /** Applies cloud entries: a newer stamp wins, a null value removes (SPEC §4 "Settings sync"). */
  merge(entries: Record<string, StoredEntry>): string[];
  /** Loads stored values through the backend (and from then on saves there). */
  load(backend: SettingsBackend): Promise<void>;
}

export interface SettingsStoreOptions {
  now?: () => number;
  logError?: (message: string) => void;
}

export function createSettingsStore(options: SettingsStoreOptions = {}): SettingsStore {
  const now = options.now ?? Date.now;
  // Logged, and posted by the error reporter once it loads (services/settingsErrors.ts).
  const logError = options.logError ?? ((message: string) => logSettingsError(message));
  const signals = new Map<string, Signal<unknown>>();
  const stamps = new Map<string, number>();
  const ready = signal(false);
  const persistent = signal(false);
  let backend: SettingsBackend | null = null;

  const slot = (key: string): Signal<unknown> => {
    let s = signals.get(key);
    if (!s) {
      s = signal(settingDef(key).default);
      signals.set(key, s);
    }
    return s;
  };

  const persist = (key: string) => {
    const def = settingDef(key);
    if (!backend || def.storage === 'memory') return;
    const entry = { value: slot(key).peek(), ts: stamps.get(key) ?? 0 };
    backend.save(key, entry).catch((error: unknown) => logError(`Setting ${key} not saved: ${String(error)}`));
  };

  const store: SettingsStore = {
    ready,
    persistent,
    get: <K extends SettingKey>(key: K) => slot(key).value as SettingValue<K>,
    signal: <K extends SettingKey>(key: K) => slot(key) as ReadonlySignal<SettingValue<K>>,
    set(key, value, { ts } = {}) {
      const def = settingDef(key);
      if (!def.check(value)) {
        logError(`Setting ${key}: value ${JSON.stringify(value)} refused`);
        return false;
      }
      const s = slot(key);
      if (JSON.stringify(s.peek()) === JSON.stringify(value) && ts === undefined) return true;
      s.value = value;
      stamps.set(key, ts ?? now());
      persist(key);
      return true;
    },
    reset(key) {
      const def = settingDef(key);
      slot(key).value = def.default;
      stamps.delete(key);
      backend?.remove(key).catch((error: unknown) => logError(`Setting ${key} not removed: ${String(error)}`));
    },
    ts: (key) => {
      settingDef(key);
      return stamps.get(key) ?? 0;
    },
    syncable() {
      const out: Record<string, StoredEntry> = {};
      for (const [key, ts] of stamps) {
        if (settingDef(key).storage === 'sync') out[key] = { value: slot(key).peek(), ts };
      }
      return out;
    },
    merge(entries) {
      const changed: string[] = [];
      for (const [key, entry] of Object.entries(entries)) {
        let def;
        try {
          def = settingDef(key);
        } catch {
          logError(`Cloud setting ${key} is unknown: ignored`);
          continue;
        }
        if (def.storage !== 'sync' || !entry || typeof entry.ts !== 'number') continue;
        if (entry.ts <= (stamps.get(key) ?? 0)) continue;
        if (entry.value === null) {
          store.reset(key as SettingKey);
          changed.push(key);
        } else if (store.set(key as SettingKey, entry.value as never, { ts: entry.ts })) {
          changed.push(key);
        }
      }
      return changed;
    },
    async load(next) {
      let stored: Record<string, StoredEntry>;
      try {
        stored = await next.load();
      } catch (error) {
        logError(`Settings could not be read; they stay in memory: ${String(error)}`);
        ready.value = true;
        return;
      }
      for (const [key, entry] of Object.entries(stored)) {
        let def;
        try {
          def = settingDef(key);
        } catch {
          logError(`Stored setting ${key} is unknown: ignored`);
          continue;
        }
        const value = entry && typeof entry === 'object' && 'value' in entry ? entry.value : undefined;
        // A value set during loading is newer than the stored one.
        if (stamps.has(key)) continue;
        if (!def.check(value)) {
          logError(`Stored setting ${key}: invalid value ${JSON.stringify(value)}, default used`);
          continue;
        }
        slot(key).value = value;
        stamps.set(key, typeof entry.ts === 'number' ? entry.ts : 0);
      }
      const setBefore = [...stamps.keys()].filter((key) => !(key in stored) || stored[key]?.ts !== stamps.get(key));
      backend = next;
      persistent.value = next.persistent;
      // Values set before the backend was there are saved now.
      for (const key of setBefore) persist(key);
      ready.value = true;
    },
  };
  return store;
}
