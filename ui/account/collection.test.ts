import { beforeEach, describe, expect, it, vi } from 'vitest';
import { validateFavourite, type Favourite } from '../../common/favourites.ts';
import { memoryAccountStore } from './accountStore.ts';
import { createSyncedCollection } from './collection.ts';
import { createFavourites } from './favourites.ts';
import { createAccountRequest } from './request.ts';
import { createFakeCloud, type FakeCloud } from './testing.ts';

let clock = 1_000;
const now = () => clock;

function browser(cloud: FakeCloud, token: string, store = memoryAccountStore()) {
  const logError = vi.fn();
  const request = createAccountRequest({ token: () => token, fetch: cloud.fetch, onNetworkFailure: () => {} });
  const collection = createSyncedCollection<Favourite>({ name: 'favs', request, store, validate: (v) => validateFavourite(v, () => {}), logError });
  const onError = vi.fn();
  const favourites = createFavourites({ collection, onError, now, logError });
  return { collection, favourites, store, onError, logError };
}

const home: Favourite = { type: 'fav', title: 'Home', lat: 50.08, lon: 14.42 };

describe('synced collections (SPEC §4 "Stored data sync", §7 /users/v1/data)', () => {
  let cloud: FakeCloud;
  let token: string;
  beforeEach(() => {
    clock = 1_000;
    cloud = createFakeCloud(() => ++clock);
    token = cloud.addUser('anna@example.com', 'Abcdefg1');
  });

  it('adds through POST and keeps the id and time the cloud gives', async () => {
    const { favourites, collection, store } = browser(cloud, token);
    const added = await favourites.add(home);
    expect(added).toMatchObject({ ...home, id: expect.any(String), updated: expect.any(Number) });
    expect(cloud.requests('POST', '/users/v1/data/favs')[0].body).toMatchObject(home);
    expect(collection.items.value).toHaveLength(1);
    expect((await store.get<{ items: unknown[] }>('userFavs'))!.items).toHaveLength(1);
  });

  it('304 means no change; a list replaces the local items (missing ones removed)', async () => {
    const a = browser(cloud, token);
    const b = browser(cloud, token);
    await a.favourites.add(home);
    await a.favourites.add({ type: 'fav', title: 'Work', lat: 50.1, lon: 14.5 });
    expect(await b.collection.sync()).toBe('changed');
    expect(b.favourites.list.value.map((f) => f.title)).toEqual(['Home', 'Work']);
    expect(await b.collection.sync()).toBe('unchanged');
    expect(cloud.requests('GET', '/users/v1/data/favs').at(-1)!.path).toMatch(/\?storeTs=[1-9]\d*$/);
    // Removed in the other browser: removed here on the next sync.
    await a.favourites.remove(a.favourites.list.value[0].id);
    expect(await b.collection.sync()).toBe('changed');
    expect(b.favourites.list.value.map((f) => f.title)).toEqual(['Work']);
  });

  it('a rename and a pin reach the other browser', async () => {
    const a = browser(cloud, token);
    const b = browser(cloud, token);
    const added = (await a.favourites.add(home))!;
    await b.collection.sync();
    expect(await a.favourites.rename(added.id, '  Home sweet home ')).toBe(true);
    expect(await a.favourites.setPinned(added.id, true)).toBe(true);
    await b.collection.sync();
    expect(b.favourites.list.value[0]).toMatchObject({ title: 'Home sweet home', pin2homepage: true, pinned: expect.any(Number) });
    await a.favourites.setPinned(added.id, false);
    await b.collection.sync();
    expect(b.favourites.list.value[0].pin2homepage).toBe(false);
    expect(b.favourites.list.value[0].pinned).toBeUndefined();
  });

  it('an invalid favourite is refused and not sent (SPEC §5)', async () => {
    const { favourites, logError } = browser(cloud, token);
    expect(await favourites.add({ type: 'fav', title: '  ' })).toBeNull();
    expect(await favourites.add({ type: 'airport', title: 'Prague' } as Favourite)).toBeNull();
    expect(cloud.requests('POST', '/users/v1/data/favs')).toHaveLength(0);
    expect(logError).toHaveBeenCalledWith('Invalid favourite: title is empty');
    const added = (await favourites.add(home))!;
    expect(await favourites.rename(added.id, '')).toBe(false);
    expect(cloud.requests('PUT', '/users/v1/data/favs')).toHaveLength(0);
  });

  it('the same place is not added twice (SPEC §9 tolerance)', async () => {
    const { favourites } = browser(cloud, token);
    const first = await favourites.add(home);
    const second = await favourites.add({ ...home, lat: home.lat! + 0.005, title: 'Again' });
    expect(second!.id).toBe(first!.id);
    expect(cloud.requests('POST', '/users/v1/data/favs')).toHaveLength(1);
    expect(favourites.at(50.0801, 14.4201)?.id).toBe(first!.id);
    expect(favourites.at(51, 14)).toBeUndefined();
  });

  it('a failed write leaves the list as it was and reports the error', async () => {
    const { favourites, onError } = browser(cloud, token);
    const added = (await favourites.add(home))!;
    cloud.offline = true;
    expect(await favourites.add({ type: 'fav', title: 'Work', lat: 1, lon: 2 })).toBeNull();
    expect(await favourites.remove(added.id)).toBe(false);
    expect(await favourites.rename(added.id, 'New')).toBe(false);
    expect(favourites.list.value).toEqual([expect.objectContaining({ title: 'Home' })]);
    expect(onError).toHaveBeenCalledTimes(3);
  });

  it('bad items from the cloud or the local store are dropped and logged', async () => {
    cloud.userOf(token).collections.set('favs', {
      changedAt: 5,
      items: [{ id: 'ok', value: home, updated: 5 }, { id: 'bad', value: { type: 'fav', title: '' }, updated: 5 }, { value: home, updated: 5 } as never],
    });
    const { collection, logError } = browser(cloud, token);
    await collection.sync();
    expect(collection.items.value.map((i) => i.id)).toEqual(['ok']);
    expect(logError).toHaveBeenCalledTimes(2);
    const stored = memoryAccountStore({ userFavs: { items: [{ id: 'x', value: { type: 'nope' }, updated: 1 }, { id: 'y', value: home, updated: 1 }], storeTs: 1 } });
    const again = browser(cloud, token, stored);
    await again.collection.load();
    expect(again.collection.items.value.map((i) => i.id)).toEqual(['y']);
  });

  it('a list on its way while an item is added does not take the item away', async () => {
    const { favourites, collection } = browser(cloud, token);
    const syncing = collection.sync();
    const adding = favourites.add(home);
    await Promise.all([syncing, adding]);
    expect(collection.items.value).toHaveLength(1);
  });

  it('clear() empties the local copy only', async () => {
    const { favourites, collection, store } = browser(cloud, token);
    await favourites.add(home);
    await collection.clear();
    expect(collection.items.value).toEqual([]);
    expect(await store.get('userFavs')).toBeUndefined();
    expect(cloud.userOf(token).collections.get('favs')!.items).toHaveLength(1);
  });
});
