/**
 * The HTTP contracts of common/api/ hold for the real server: every JSON answer the browser reads
 * is checked with the schema the UI checks it with (common/api/schema.ts checkAnswer), on a whole
 * app (demo data, SQLite accounts). A field the server renames, drops or retypes fails here, not in
 * a browser.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_ANSWER, CHECKOUT_PATH, collectionPath, devicePath, DEVICE_ANSWER, INFO_ANSWER, INFO_PATH, ITEM_DELETED_ANSWER,
  ITEM_UPDATED_ANSWER, itemPath, ITEMS_ANSWER, CLOUD_ITEM, LOGGED_OUT_ANSWER, LOGIN_PATH, LOGOUT_PATH, REGISTER_PATH, SETTINGS_ANSWER,
  SETTINGS_PATH, SETTINGS_SAVED_ANSWER, settingsPath,
} from '../../common/api/account.ts';
import { LEVEL_ANSWER, meteogramPath, POINT_ANSWER, pointPath } from '../../common/api/forecast.ts';
import { IP_LOCATION_ANSWER, IP_LOCATION_PATH } from '../../common/api/location.ts';
import { CITYTILE_ANSWER, cityTilePath, LABELS_ANSWER, labelsPath } from '../../common/api/labels.ts';
import {
  ALERT_TIMESTAMPS_ANSWER, alertTimestampsPath, INTERACTION_ANSWER, interactionPath, NOTIFICATION, NOTIFICATIONS_ANSWER, NOTIFICATIONS_PATH,
  REMOVED_ANSWER, SEND_TEST_PATH,
} from '../../common/api/notifications.ts';
import { BASEMAPS_ANSWER, BASEMAPS_PATH } from '../../common/api/basemaps.ts';
import { CAP_ALERTS_ANSWER, capAlertsPath } from '../../common/api/capAlerts.ts';
import { STATIONS_LIST_ANSWER, stationsListPath } from '../../common/api/stations.ts';
import { LIVE_PROGRESS_ANSWER, LIVE_PROGRESS_PATH } from '../../common/api/liveProgress.ts';
import { MINIFEST_ANSWER, minifestPath, PRODUCTS_ANSWER, PRODUCTS_PATH } from '../../common/api/products.ts';
import { schemaProblem, type JsonSchema } from '../../common/api/schema.ts';
import { REVERSE_ANSWER, reversePath, SEARCH_ANSWER, searchPath } from '../../common/api/search.ts';
import { SETTINGS_BLOB_VERSION } from '../../common/account.ts';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { bearer, PASSWORD, registerUser, TEST_KDF } from './testing.ts';
import { TIDE_ANSWER, TIDE_STATIONS_ANSWER, TIDE_STATIONS_ROUTE, tidePointPath, tideStationPath } from '../../common/api/tides.ts';
import { DAY_MS } from '../../common/time.ts';

const NOW = Date.UTC(2025, 10, 26, 7, 30);

describe('the server answers what common/api/ says', () => {
  let app: FastifyInstance;
  let made: TestDatabase;
  let db: Database;
  let token = '';

  /** The answer's body, after checking its status and its shape. */
  const answer = async (schema: JsonSchema, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, status = 200, payload?: object, auth = true) => {
    const response = await app.inject({ method, url, payload, headers: auth && token ? bearer(token) : {} });
    expect(response.statusCode, `${method} ${url}: ${response.body.slice(0, 300)}`).toBe(status);
    const body = response.json();
    expect(schemaProblem(schema, body, 'answer'), `${method} ${url}`).toBeNull();
    return body;
  };

  beforeAll(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, liveSources: null, accounts: { database: db, kdf: TEST_KDF, now: () => NOW } });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await made.cleanup();
  });

  it('products and minifests', async () => {
    const products = await answer(PRODUCTS_ANSWER, 'GET', PRODUCTS_PATH);
    expect(products.products.length).toBeGreaterThan(0);
    await answer(MINIFEST_ANSWER, 'GET', minifestPath('demo'));
    // No live source here: nothing arriving (server/live/live.test.ts checks a run on its way).
    expect(await answer(LIVE_PROGRESS_ANSWER, 'GET', LIVE_PROGRESS_PATH)).toEqual({ pending: false, runs: [] });
    // No ISOBAR_BASEMAP_* here: no tile base map (server/routes/basemaps.test.ts configures some).
    expect(await answer(BASEMAPS_ANSWER, 'GET', BASEMAPS_PATH)).toEqual({ sources: {} });
  });

  it('point forecasts and meteograms, free and with a step', async () => {
    const point = await answer(POINT_ANSWER, 'GET', pointPath('demo', 48.853, 2.349));
    expect(point.header.step).toBe(3);
    await answer(POINT_ANSWER, 'GET', pointPath('demo', 48.853, 2.349, { step: 3, interpolate: false }));
    await answer(LEVEL_ANSWER, 'GET', meteogramPath('demo', 48.853, 2.349));
  });

  it('search, reverse geocoding, the IP start-up location, label tiles and city tiles', async () => {
    const found = await answer(SEARCH_ANSWER, 'GET', searchPath('Paris', { lang: 'en', limit: 3 }));
    expect(found.results.length).toBeGreaterThan(0);
    await answer(REVERSE_ANSWER, 'GET', reversePath(48.853, 2.349, 10, 'en'));
    await answer(IP_LOCATION_ANSWER, 'GET', IP_LOCATION_PATH);
    // No data directory: no warnings published, an empty list (server/obs/capAlerts/capAlerts.test.ts has published ones).
    expect(await answer(CAP_ALERTS_ANSWER, 'GET', capAlertsPath(44.9, -64.5, { lang: 'fr', maxCount: 6 }))).toMatchObject({ alerts: [], updated: null });
    // Stations with their histories are checked where a source publishes some (server/obs/stations/stations.test.ts).
    expect(await answer(STATIONS_LIST_ANSWER, 'GET', stationsListPath({ lat: 25.76, lon: -80.19, limit: 5 }))).toEqual({ updated: null, stations: [] });
    await answer(LABELS_ANSWER, 'GET', labelsPath('en', 5, 16, 11));
    const ref = (await app.inject({ url: PRODUCTS_PATH })).json().products.find((p: { ident: string }) => p.ident === 'demo').ref as string;
    await answer(CITYTILE_ANSWER, 'GET', cityTilePath('demo', 5, 16, 11, { refTime: ref, hours: [0, 24] }));
  });

  it('the account: register, login, info, settings, collections, devices, notifications, logout', async () => {
    const email = 'contract@example.test';
    const registered = await answer(AUTH_ANSWER, 'POST', REGISTER_PATH, 201, { email, password: PASSWORD, passwordConfirm: PASSWORD });
    token = registered.token;
    await answer(AUTH_ANSWER, 'POST', LOGIN_PATH, 200, { email, password: PASSWORD }, false);
    await answer(INFO_ANSWER, 'GET', INFO_PATH);
    await answer(LOGGED_OUT_ANSWER, 'GET', INFO_PATH, 200, undefined, false);

    await answer(SETTINGS_SAVED_ANSWER, 'POST', SETTINGS_PATH, 200, { version: SETTINGS_BLOB_VERSION, data: { defaultUnits: { value: 'metric', ts: NOW - 1000 } } });
    await answer(SETTINGS_ANSWER, 'GET', settingsPath(0));

    const fav = { title: 'Paris', lat: 48.853, lon: 2.349, type: 'fav' };
    const created = await answer(CLOUD_ITEM, 'POST', collectionPath('favs'), 201, fav);
    await answer(ITEMS_ANSWER, 'GET', collectionPath('favs'));
    await answer(ITEM_UPDATED_ANSWER, 'PUT', itemPath('favs', created.id), 200, { ...fav, title: 'Paris, France' });
    await answer(ITEM_DELETED_ANSWER, 'DELETE', itemPath('favs', created.id));

    await answer(DEVICE_ANSWER, 'PUT', devicePath('contract-device'), 200, { platform: 'desktop', target: 'web', version: '1', cc: null, screen: { width: 1, height: 1, devicePixelRatio: 1 } });

    const alert = { lat: 50, lon: 14, name: 'Warm', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 150 }] };
    const stored = await answer(CLOUD_ITEM, 'POST', collectionPath('alerts'), 201, alert);
    const times = await answer(ALERT_TIMESTAMPS_ANSWER, 'GET', alertTimestampsPath(stored.id));
    expect(times.refTime).toBe(Date.UTC(2025, 10, 26, 0));
    await answer(NOTIFICATION, 'POST', SEND_TEST_PATH, 201, { notificationType: 'test' });
    await answer(NOTIFICATIONS_ANSWER, 'GET', NOTIFICATIONS_PATH);
    await answer(INTERACTION_ANSWER, 'POST', interactionPath('received'), 200, {});
    await answer(INTERACTION_ANSWER, 'POST', interactionPath('opened'), 200, {});
    await answer(REMOVED_ANSWER, 'DELETE', NOTIFICATIONS_PATH);

    // No Stripe key on this server: the checkout answers 503 with the error body.
    expect((await app.inject({ method: 'POST', url: CHECKOUT_PATH, headers: bearer(token), payload: {} })).statusCode).toBe(503);
    await answer(LOGGED_OUT_ANSWER, 'GET', LOGOUT_PATH);
  });
  it('tide stations, and a subscriber\'s tide forecast by place and by station', async () => {
    const stations = await answer(TIDE_STATIONS_ANSWER, 'GET', TIDE_STATIONS_ROUTE, 200, undefined, false);
    expect(stations.ids.length).toBeGreaterThan(5000);
    const user = await registerUser(app);
    await app.accounts.setSubscription(user.id, { status: 'active', tier: 'premium', expiresAt: NOW + 30 * DAY_MS });
    for (const url of [tidePointPath(48.5358, -123.0138), tideStationPath('noaa/9449880', { from: NOW, to: NOW + DAY_MS })]) {
      const response = await app.inject({ url, headers: bearer(user.token) });
      expect(response.statusCode, response.body).toBe(200);
      expect(schemaProblem(TIDE_ANSWER, response.json(), 'answer'), url).toBeNull();
    }
  });
});
