/**
 * A synced collection (SPEC §4 "Stored data sync", §7 /users/v1/data/{collection}): the items kept
 * in the browser (accountStore.ts) and in the cloud.
 *
 *   load()     the local copy (stored items are checked again; bad ones are dropped and logged)
 *   sync()     GET ?storeTs: 304 or 204 -> no change; a list -> the cloud is the truth: local items
 *              missing in the cloud are removed and the rest written
 *   add(v)     POST the item; the answer { value, id, updated } is kept
 *   update()   PUT /{id}; the answer { updated } is kept
 *   remove()   DELETE /{id}
 *   clear()    the local copy only (logout)
 *
 * Writes go to the cloud first and change the local copy only once it accepted them (adding needs
 * login: SPEC §5, §6); a failed write throws and leaves the local copy as it was. Operations run one
 * after another, so a list that was on its way while an item was added cannot take the item away.
 *
 * storeTs: the collection's stamp sent with the last full list (header x-store-ts; else the newest
 * `updated` in it). The server answers 304 while the collection's stamp is still that one. Our own
 * writes do not move it: a change another browser made before our write must still come on the
 * next sync (which therefore brings the whole list once after each write of ours).
 */

import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { CLOUD_ITEM, collectionPath, ITEM_UPDATED_ANSWER, itemPath, STORE_TS_HEADER } from '../../common/api/account.ts';
import { fits } from '../../common/api/schema.ts';
import type { CloudItem, SyncCollection } from '../../common/account.ts';
import { LOCAL_COLLECTION_KEYS, type AccountStore } from './accountStore.ts';
import { answerOf, type AccountRequest } from './request.ts';

interface StoredCollection {
  items: unknown[];
  storeTs: number;
}

export type SyncResult = 'unchanged' | 'changed';

export interface SyncedCollection<T> {
  readonly name: SyncCollection;
  readonly items: ReadonlySignal<readonly CloudItem<T>[]>;
  /** True once the local copy is loaded. */
  readonly loaded: ReadonlySignal<boolean>;
  load(): Promise<void>;
  sync(): Promise<SyncResult>;
  add(value: T): Promise<CloudItem<T>>;
  update(id: string, value: T): Promise<CloudItem<T>>;
  remove(id: string): Promise<void>;
  clear(): Promise<void>;
}

export interface SyncedCollectionDeps<T> {
  name: SyncCollection;
  request: AccountRequest;
  store: AccountStore;
  /** The value, or null when it is not one (then logged and dropped). */
  validate: (value: unknown) => T | null;
  logError?: (message: string) => void;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function createSyncedCollection<T>(deps: SyncedCollectionDeps<T>): SyncedCollection<T> {
  const { name, request, store, validate } = deps;
  const logError = deps.logError ?? ((message: string) => console.error(message));
  const key = LOCAL_COLLECTION_KEYS[name];
  const items = signal<readonly CloudItem<T>[]>([]);
  const loaded = signal(false);
  let storeTs = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs after every operation queued before it (a failure does not stop the queue). */
  const serial = <R>(run: () => Promise<R>): Promise<R> => {
    const next = queue.then(run, run);
    queue = next.catch(() => {});
    return next;
  };

  /** An item the contract's shape (CLOUD_ITEM) and the collection's own check accept, else null. */
  const checkItem = (raw: unknown): CloudItem<T> | null => {
    if (!fits(CLOUD_ITEM, raw) || raw.id === '') return null;
    const value = validate(raw.value);
    return value === null ? null : { id: raw.id, value, updated: raw.updated };
  };

  const checkList = (list: unknown[], from: string): CloudItem<T>[] => {
    const out: CloudItem<T>[] = [];
    for (const raw of list) {
      const item = checkItem(raw);
      if (item) out.push(item);
      else logError(`${from} ${name} item dropped: ${JSON.stringify(raw)?.slice(0, 200)}`);
    }
    return out;
  };

  const save = async () => {
    const stored: StoredCollection = { items: [...items.peek()], storeTs };
    await store.put(key, stored).catch((error: unknown) => logError(`Collection ${name} not saved: ${String(error)}`));
  };

  const collection: SyncedCollection<T> = {
    name,
    items,
    loaded,
    load: () => serial(async () => {
      const stored = await store.get<StoredCollection>(key).catch(() => undefined);
      if (stored && Array.isArray(stored.items)) {
        items.value = checkList(stored.items, 'Stored');
        storeTs = isFiniteNumber(stored.storeTs) ? stored.storeTs : 0;
      }
      loaded.value = true;
    }),
    sync: () => serial(async (): Promise<SyncResult> => {
      const response = await request<unknown>('GET', collectionPath(name, storeTs));
      if (response.status === 304 || response.status === 204 || response.data === null) return 'unchanged';
      if (!Array.isArray(response.data)) {
        logError(`Cloud ${name}: not a list`);
        return 'unchanged';
      }
      // SPEC §4: local items missing in the cloud are removed, the rest written.
      const list = checkList(response.data, 'Cloud');
      items.value = list;
      // The server's stamp of the collection (x-store-ts), else the newest item's.
      const stamp = Number(response.header(STORE_TS_HEADER));
      storeTs = Number.isFinite(stamp) && stamp > 0 ? stamp : list.reduce((max, item) => Math.max(max, item.updated), 0);
      await save();
      return 'changed';
    }),
    add: (value) => serial(async () => {
      const response = await request<unknown>('POST', collectionPath(name), value);
      const item = checkItem({ value, ...(typeof response.data === 'object' ? response.data : {}) });
      if (!item) throw new Error(`Cloud ${name}: the added item came back without id or updated`);
      items.value = [...items.peek().filter((i) => i.id !== item.id), item];
      await save();
      return item;
    }),
    update: (id, value) => serial(async () => {
      const path = itemPath(name, id);
      const { updated } = answerOf(ITEM_UPDATED_ANSWER, await request<unknown>('PUT', path, value), path);
      const item: CloudItem<T> = { id, value, updated };
      items.value = items.peek().map((i) => (i.id === id ? item : i));
      await save();
      return item;
    }),
    remove: (id) => serial(async () => {
      try {
        await request('DELETE', itemPath(name, id));
      } catch (error) {
        // Already gone in the cloud: gone here too.
        if (!(typeof error === 'object' && error !== null && (error as { status?: number }).status === 404)) throw error;
      }
      items.value = items.peek().filter((i) => i.id !== id);
      await save();
    }),
    clear: () => serial(async () => {
      items.value = [];
      storeTs = 0;
      await store.delete(key).catch(() => {});
    }),
  };
  return collection;
}

/** The items of a collection as plain values carrying their id and update time (the lists the panels show). */
export function itemsWithIds<T extends object>(collection: SyncedCollection<T>): ReadonlySignal<(T & { id: string; updated: number })[]> {
  return computed(() => collection.items.value.map((item) => ({ ...item.value, id: item.id, updated: item.updated })));
}

/** Runs a cloud write; false (and the error handed on) when it was refused or failed. */
export async function attemptWrite(run: () => Promise<unknown>, onError: (error: unknown) => void): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (error) {
    onError(error);
    return false;
  }
}
