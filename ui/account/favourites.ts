/**
 * The user's favourites (SPEC §3 "Favourite", §5, §6: adding requires login): the synced collection
 * 'favs' seen as favourites, with the changes the favourites window and the forecast window make.
 * Every value is checked by common/favourites.ts before it is sent or kept. A change the cloud
 * refuses, or one that cannot reach it, leaves the list as it was and reports the error (the app
 * shows "Favorites sync error", SPEC §8).
 */

import type { ReadonlySignal } from '@preact/signals-core';
import { isSameLocation, validateFavourite, type Favourite } from '../../common/favourites.ts';
import { attemptWrite, itemsWithIds, type SyncedCollection } from './collection.ts';

/** A favourite as the cloud keeps it: its id is the collection item's. */
export type StoredFavourite = Favourite & { id: string; updated: number };

export interface Favourites {
  readonly list: ReadonlySignal<readonly StoredFavourite[]>;
  /** The place favourite at this location (SPEC §9 same-location tolerance), if any. */
  at(lat: number, lon: number): StoredFavourite | undefined;
  /** Adds (or returns the one already at that place); null when refused or not sent. */
  add(fav: Favourite): Promise<StoredFavourite | null>;
  rename(id: string, title: string): Promise<boolean>;
  setPinned(id: string, pinned: boolean): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  sync(): Promise<boolean>;
}

export interface FavouritesDeps {
  collection: SyncedCollection<Favourite>;
  onError: (error: unknown) => void;
  now?: () => number;
  logError?: (message: string) => void;
}

export function createFavourites(deps: FavouritesDeps): Favourites {
  const { collection } = deps;
  const now = deps.now ?? Date.now;
  const logError = deps.logError ?? ((message: string) => console.error(message));
  const list = itemsWithIds(collection);

  const find = (id: string) => collection.items.peek().find((item) => item.id === id);

  const attempt = (run: () => Promise<unknown>) => attemptWrite(run, deps.onError);

  /** Writes a changed copy of one favourite; false when it is gone, invalid or refused. */
  const change = async (id: string, edit: (value: Favourite) => Favourite): Promise<boolean> => {
    const item = find(id);
    if (!item) return false;
    const next = validateFavourite({ ...edit({ ...item.value }), updated: now() }, logError);
    if (!next) return false;
    return attempt(() => collection.update(id, next));
  };

  const at = (lat: number, lon: number) => list.peek().find((f) => f.type === 'fav' && f.lat !== undefined && f.lon !== undefined
    && isSameLocation({ lat: f.lat, lon: f.lon }, { lat, lon }));

  return {
    list,
    at,
    async add(fav) {
      if (fav.type === 'fav' && fav.lat !== undefined && fav.lon !== undefined) {
        const existing = at(fav.lat, fav.lon);
        if (existing) return existing;
      }
      const { id: _id, ...rest } = fav;
      const value = validateFavourite({ ...rest, title: rest.title?.trim(), updated: now() }, logError);
      if (!value) return null;
      let added: StoredFavourite | null = null;
      await attempt(async () => {
        const item = await collection.add(value);
        added = { ...item.value, id: item.id, updated: item.updated };
      });
      return added;
    },
    rename: (id, title) => change(id, (value) => ({ ...value, title: title.trim() })),
    setPinned: (id, pinned) => change(id, (value) => {
      const { pinned: _was, ...rest } = value;
      return pinned ? { ...rest, pin2homepage: true, pinned: now() } : { ...rest, pin2homepage: false };
    }),
    remove: (id) => attempt(() => collection.remove(id)),
    sync: () => attempt(() => collection.sync()),
  };
}
