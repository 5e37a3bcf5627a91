import { afterEach, describe, expect, it } from 'vitest';
import { ITEMS_PER_COLLECTION_MAX } from '../auth/limits.ts';
import { openDatabase } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';
import { accountsTestApp, bearer, registerUser, T0, type AccountsTestApp, type TestUser } from './testing.ts';
import { DAY_MS } from '../../common/time.ts';

type Entry = { value: unknown; ts: number };

describe.each(testDatabases())('cloud data on $name', (backend) => {
  const apps: AccountsTestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  const start = async () => {
    const t = await accountsTestApp(backend);
    apps.push(t);
    return { t, user: await registerUser(t.app) };
  };
  const getSettings = (t: AccountsTestApp, user: TestUser, storeTs?: number) =>
    t.app.inject({ url: `/users/settings${storeTs === undefined ? '' : `?storeTs=${storeTs}`}`, headers: bearer(user.token) });
  const postSettings = (t: AccountsTestApp, user: TestUser, data: Record<string, Entry>, extra: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url: '/users/settings', headers: bearer(user.token), payload: { version: 4, data, ...extra } });

  describe('settings sync (SPEC §3 blob version 4, §4 merge rules)', () => {
    it('answers an empty blob with storeTs 0 at first, then 304 for that storeTs', async () => {
      const { t, user } = await start();
      const first = await getSettings(t, user);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ version: 4, data: {}, storeTs: 0 });
      expect(first.headers['cache-control']).toBe('no-store');
      const again = await getSettings(t, user, 0);
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('stores values with their ts, moves storeTs forward, and answers 304 only for the current storeTs', async () => {
      const { t, user } = await start();
      const posted = await postSettings(t, user, { isolinesOn: { value: true, ts: T0 - 5000 }, particles: { value: { multiplier: 1, velocity: 2, width: 0, blending: 1, opacity: 0.5 }, ts: T0 - 4000 } });
      expect(posted.statusCode).toBe(200);
      const { storeTs } = posted.json();
      expect(storeTs).toBe(T0);
      const blob = (await getSettings(t, user)).json();
      expect(blob).toEqual({
        version: 4,
        storeTs,
        data: { isolinesOn: { value: true, ts: T0 - 5000 }, particles: { value: { multiplier: 1, velocity: 2, width: 0, blending: 1, opacity: 0.5 }, ts: T0 - 4000 } },
      });
      expect((await getSettings(t, user, storeTs)).statusCode).toBe(304);
      expect((await getSettings(t, user, storeTs - 1)).statusCode).toBe(200);
      // Two writes in one millisecond still give two storeTs.
      const next = (await postSettings(t, user, { isolinesOn: { value: false, ts: T0 - 100 } })).json().storeTs;
      expect(next).toBe(storeTs + 1);
      expect((await getSettings(t, user, storeTs)).statusCode).toBe(200);
    });

    it('per key, a newer ts wins and an older or equal one is ignored', async () => {
      const { t, user } = await start();
      await postSettings(t, user, { map: { value: 'sat', ts: 2000 }, hourFormat: { value: '12h', ts: 2000 } });
      const merged = (await postSettings(t, user, { map: { value: 'winter', ts: 1000 }, hourFormat: { value: '24h', ts: 3000 }, latlon: { value: true, ts: 1 } })).json();
      expect(merged.ignored).toEqual(['map']);
      const equal = (await postSettings(t, user, { map: { value: 'winter', ts: 2000 } })).json();
      expect(equal.ignored).toEqual(['map']);
      expect(equal.storeTs).toBe(merged.storeTs);
      const { data } = (await getSettings(t, user)).json();
      expect(data).toEqual({ map: { value: 'sat', ts: 2000 }, hourFormat: { value: '24h', ts: 3000 }, latlon: { value: true, ts: 1 } });
    });

    it('a null value removes the setting, and an older write cannot bring it back', async () => {
      const { t, user } = await start();
      await postSettings(t, user, { homeLocation: { value: { lat: 50, lon: 14 }, ts: 1000 } });
      await postSettings(t, user, { homeLocation: { value: null, ts: 2000 } });
      expect((await getSettings(t, user)).json().data.homeLocation).toEqual({ value: null, ts: 2000 });
      expect((await postSettings(t, user, { homeLocation: { value: { lat: 1, lon: 2 }, ts: 1500 } })).json().ignored).toEqual(['homeLocation']);
      await postSettings(t, user, { homeLocation: { value: { lat: 1, lon: 2 }, ts: 2500 } });
      expect((await getSettings(t, user)).json().data.homeLocation).toEqual({ value: { lat: 1, lon: 2 }, ts: 2500 });
    });

    it('two browsers of one user converge whatever order their uploads arrive in', async () => {
      const { t, user } = await start();
      const a = { map: { value: 'sat', ts: 1000 }, lang: { value: 'de', ts: 3000 }, graticule: { value: true, ts: 1000 } };
      const b = { map: { value: 'winter', ts: 2000 }, lang: { value: 'fr', ts: 2000 }, graticule: { value: null, ts: 1500 } };
      await Promise.all([postSettings(t, user, a), postSettings(t, user, b)]);
      const expected = { map: { value: 'winter', ts: 2000 }, lang: { value: 'de', ts: 3000 }, graticule: { value: null, ts: 1500 } };
      expect((await getSettings(t, user)).json().data).toEqual(expected);
      const other = await registerUser(t.app);
      await postSettings(t, other, b);
      await postSettings(t, other, a);
      expect((await getSettings(t, other)).json().data).toEqual(expected);
    });

    it.each([
      ['version 3', { version: 3, data: {} }, /version/],
      ['no data', { version: 4 }, /data/],
      ['an unknown key', { version: 4, data: { nosuch: { value: 1, ts: 1 } } }, /Unknown setting "nosuch"/],
      ['a local-only key', { version: 4, data: { overlay: { value: 'wind', ts: 1 } } }, /"overlay" is not synced/],
      ['a secret key', { version: 4, data: { userToken: { value: 'abc', ts: 1 } } }, /"userToken" is not synced/],
      ['an invalid value', { version: 4, data: { map: { value: 'mars', ts: 1 } } }, /Invalid value for setting "map"/],
      ['particles out of range', { version: 4, data: { particles: { value: { multiplier: 3, velocity: 1, width: 1, blending: 1, opacity: 1 }, ts: 1 } } }, /particles/],
      ['a time in the future', { version: 4, data: { map: { value: 'sat', ts: T0 + 2 * DAY_MS } } }, /future/],
      ['an entry without ts', { version: 4, data: { map: { value: 'sat' } } }, /ts/],
      ['an entry without value', { version: 4, data: { map: { ts: 1 } } }, /value/],
      ['a key with odd characters', { version: 4, data: { "map'; --": { value: 'sat', ts: 1 } } }, /property name|propertyName|pattern/],
      ['__proto__', '{"version":4,"data":{"__proto__":{"value":1,"ts":1}}}', /./],
      ['a list for data', { version: 4, data: [] }, /object/],
    ])('400 for %s, nothing stored', async (_name, body, message) => {
      const { t, user } = await start();
      await postSettings(t, user, { map: { value: 'sat', ts: 1 } });
      const response = await t.app.inject({
        method: 'POST', url: '/users/settings', headers: { ...bearer(user.token), 'content-type': 'application/json' },
        payload: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
      expect((await getSettings(t, user)).json().data).toEqual({ map: { value: 'sat', ts: 1 } });
    });

    it('refuses a whole upload when one key is bad', async () => {
      const { t, user } = await start();
      const response = await postSettings(t, user, { map: { value: 'sat', ts: 1 }, nosuch: { value: 1, ts: 1 } });
      expect(response.statusCode).toBe(400);
      expect((await getSettings(t, user)).json().data).toEqual({});
    });

    it('413 for an upload over 256 KB', async () => {
      const { t, user } = await start();
      const response = await postSettings(t, user, { userInterests: { value: Array.from({ length: 30_000 }, (_, i) => `interest${i}`), ts: 1 } });
      expect(response.statusCode).toBe(413);
    });

    it('stores metric_{ident} keys with their units', async () => {
      const { t, user } = await start();
      expect((await postSettings(t, user, { metric_wind: { value: 'kt', ts: 1 } })).statusCode).toBe(200);
      expect((await postSettings(t, user, { metric_wind: { value: 'furlongs', ts: 2 } })).statusCode).toBe(400);
    });
  });

  describe('collections (SPEC §7 /users/v1/data/{collection})', () => {
    const FAV = { type: 'fav', title: 'Home', lat: 50.08, lon: 14.42 };
    const item = (t: AccountsTestApp, user: TestUser, method: 'POST' | 'PUT' | 'DELETE' | 'GET', path: string, payload?: unknown) =>
      t.app.inject({ method, url: `/users/v1/data/${path}`, headers: bearer(user.token), ...(payload === undefined ? {} : { payload: payload as object }) });

    it('creates, lists, updates and deletes, moving storeTs at each change', async () => {
      const { t, user } = await start();
      const empty = await item(t, user, 'GET', 'favs');
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual([]);
      expect(empty.headers['x-store-ts']).toBe('0');
      expect((await item(t, user, 'GET', 'favs?storeTs=0')).statusCode).toBe(304);

      const created = await item(t, user, 'POST', 'favs', FAV);
      expect(created.statusCode).toBe(201);
      const { id, value, updated } = created.json();
      expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(value).toEqual(FAV);
      expect(updated).toBe(T0);
      expect(created.headers['x-store-ts']).toBe(String(updated));
      expect((await item(t, user, 'GET', `favs?storeTs=${updated}`)).statusCode).toBe(304);

      const second = (await item(t, user, 'POST', 'favs', { type: 'airport', title: 'Ruzyne', icao: 'LKPR', lat: 50.1, lon: 14.26 })).json();
      expect(second.updated).toBe(updated + 1);
      const list = await item(t, user, 'GET', `favs?storeTs=${updated}`);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((i: { id: string }) => i.id)).toEqual([id, second.id]);
      expect(list.headers['x-store-ts']).toBe(String(second.updated));

      t.clock.advance(1000);
      const put = await item(t, user, 'PUT', `favs/${id}`, { ...FAV, title: 'Home sweet home', pin2homepage: true });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toEqual({ id, updated: T0 + 1000 });
      const afterPut = (await item(t, user, 'GET', 'favs')).json();
      expect(afterPut[0]).toEqual({ id, value: { ...FAV, title: 'Home sweet home', pin2homepage: true }, updated: T0 + 1000 });

      const deleted = await item(t, user, 'DELETE', `favs/${id}`);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ id, storeTs: T0 + 1001 });
      const afterDelete = await item(t, user, 'GET', `favs?storeTs=${T0 + 1000}`);
      expect(afterDelete.json().map((i: { id: string }) => i.id)).toEqual([second.id]);
      expect(afterDelete.headers['x-store-ts']).toBe(String(T0 + 1001));
      expect((await item(t, user, 'DELETE', `favs/${id}`)).statusCode).toBe(404);
      expect((await item(t, user, 'PUT', `favs/${id}`, FAV)).statusCode).toBe(404);
    });

    it('keeps the collections apart', async () => {
      const { t, user } = await start();
      await item(t, user, 'POST', 'favs', FAV);
      await item(t, user, 'POST', 'alerts', { lat: 50, lon: 14, name: 'Prague', product: 'demo', state: 'normal', conditions: [{ type: 'wind', min: 10, directions: ['N', 'NE'] }, { type: 'time', weekdays: ['mon'], fromHour: 0, toHour: 24 }] });
      expect((await item(t, user, 'GET', 'alerts')).json()).toHaveLength(1);
      expect((await item(t, user, 'GET', 'notams')).json()).toEqual([]);
      expect((await item(t, user, 'GET', 'colors')).json()).toEqual([]);
      expect((await item(t, user, 'GET', 'other')).statusCode).toBe(400);
    });

    it.each([
      ['a fav', FAV],
      ['an airport', { type: 'airport', title: 'Ruzyne', icao: 'LKPR', lat: 50.1, lon: 14.26 }],
      ['a station', { type: 'station', title: 'Station', stationId: 'ad-11520' }],
      ['a webcam', { type: 'webcam', title: 'Snezka', webcamId: 1234567 }],
      ['a route', { type: 'route', title: 'Trip', route: '50.1,14.2;49.2,16.6' }],
      ['a pinned fav', { ...FAV, pinned: T0, pin2homepage: true, cc: 'cz' }],
    ])('accepts %s', async (_name, fav) => {
      const { t, user } = await start();
      const response = await item(t, user, 'POST', 'favs', fav);
      expect(response.statusCode).toBe(201);
      expect(response.json().value).toEqual(fav);
    });

    it.each([
      ['no type', { title: 'x', lat: 1, lon: 1 }],
      ['an unknown type', { type: 'city', title: 'x' }],
      ['an empty title', { type: 'fav', title: '' }],
      ['a blank title', { type: 'fav', title: '   ' }],
      ['no title', { type: 'fav' }],
      ['an airport without icao', { type: 'airport', title: 'x' }],
      ['an airport with a numeric icao', { type: 'airport', title: 'x', icao: 1234 }],
      ['a station without stationId', { type: 'station', title: 'x' }],
      ['a webcam with a text webcamId', { type: 'webcam', title: 'x', webcamId: '123' }],
      ['a route without route', { type: 'route', title: 'x' }],
      ['lat without lon', { type: 'fav', title: 'x', lat: 1 }],
      ['lat out of range', { type: 'fav', title: 'x', lat: 91, lon: 0 }],
      ['a text lat', { type: 'fav', title: 'x', lat: '50', lon: 14 }],
    ])('400 for a favourite with %s', async (_name, fav) => {
      const { t, user } = await start();
      const response = await item(t, user, 'POST', 'favs', fav);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/^Invalid favourite: /);
      expect((await item(t, user, 'GET', 'favs')).json()).toEqual([]);
    });

    it('keeps only the known fields of a favourite', async () => {
      const { t, user } = await start();
      const response = await item(t, user, 'POST', 'favs', { ...FAV, extra: 'dropped', nested: { a: 1 } });
      expect(response.json().value).toEqual(FAV);
    });

    it('checks a custom colour gradient (SPEC §5)', async () => {
      const { t, user } = await start();
      const good = { id: 'temp', gradient: [[-40, [0, 0, 255, 255]], [40, [255, 0, 0, 255]]] };
      expect((await item(t, user, 'POST', 'colors', good)).statusCode).toBe(201);
      for (const gradient of [undefined, [], [[0, [0, 0, 0]], [1, [0, 0, 0, 0]]], [[0, 'red'], [1, [0, 0, 0, 0]]], [['a', [0, 0, 0, 0]], [1, [0, 0, 0, 0]]]]) {
        const response = await item(t, user, 'POST', 'colors', { id: 'temp', gradient });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/gradient/);
      }
    });

    it.each([
      ['a list', [1, 2]],
      ['a text', 'just text'],
      ['a number', 42],
      ['null', null],
    ])('400 for an item that is %s', async (_name, body) => {
      const { t, user } = await start();
      const response = await t.app.inject({
        method: 'POST', url: '/users/v1/data/alerts', headers: { ...bearer(user.token), 'content-type': 'application/json' }, payload: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(400);
    });

    it(`refuses more than ${ITEMS_PER_COLLECTION_MAX} items in a collection`, async () => {
      const { t, user } = await start();
      const rows = Array.from({ length: ITEMS_PER_COLLECTION_MAX }, (_, i) => [user.id, 'notams', `n${i}`, '{}', i, i]);
      await t.db.transaction(async (tx) => {
        for (const row of rows) await tx.run('INSERT INTO user_items (user_id, collection, id, value, created, updated) VALUES (?, ?, ?, ?, ?, ?)', row as never);
      });
      const response = await item(t, user, 'POST', 'notams', { id: 'X' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/At most 1000/);
      expect((await item(t, user, 'POST', 'colors', { gradient: [[0, [0, 0, 0, 255]], [1, [255, 255, 255, 255]]] })).statusCode).toBe(201);
    });

    it('keeps a write after the server and the database are closed and opened again', async () => {
      const { t, user } = await start();
      const created = (await item(t, user, 'POST', 'favs', FAV)).json();
      await postSettings(t, user, { map: { value: 'winter', ts: 5 } });
      await t.app.close();
      await t.db.close();
      const db = await openDatabase(t.made.config);
      try {
        expect(await db.get('SELECT value FROM user_items WHERE id = ?', [created.id])).toEqual({ value: JSON.stringify(FAV) });
        expect(await db.get('SELECT value, ts FROM user_settings WHERE user_id = ? AND name = ?', [user.id, 'map'])).toEqual({ value: '"winter"', ts: 5 });
      } finally {
        await db.close();
        // accountsTestApp's close would close them again: clean up here and drop it from the list.
        apps.splice(apps.indexOf(t), 1);
        await t.made.cleanup();
      }
    });
  });
});
