/**
 * Every registered route, walked (issue 12 §1.1): a route either answers forecast values — and then
 * a caller without Premium gets none of what Premium buys (1-hour steps, the premium days, the higher
 * data zooms) whatever it asks for — or is listed below with why it answers none. A route added
 * without a place in one of the two tables fails this test, so it cannot skip the entitlement check
 * (common/entitlements.ts grantForecast through server/auth/tier.ts entitle).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { tilePath } from '../../common/api/tiles.ts';
import { PRODUCTS } from '../../common/catalogue/index.ts';
import { FREE_STEP_HOURS, premiumFrom } from '../../common/entitlements.ts';
import { DAY_MS, HOUR_MS } from '../../common/time.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from '../routes/testing.ts';

const REF = Date.UTC(2025, 10, 26, 0);
const NOW = REF + 5 * HOUR_MS;
const FIRST_PREMIUM = premiumFrom(REF);
const DEMO = PRODUCTS.demo;

type Caller = 'anonymous' | 'free' | 'expired' | 'premium';
const NOT_PREMIUM: Caller[] = ['anonymous', 'free', 'expired'];

interface Ask {
  what: string;
  /** The path; alertId: the caller's always-true alert. */
  url: (alertId: string) => string;
  /** Callers that must be logged in to use the route at all (anonymous gets 401). */
  needsLogin?: boolean;
  /** Before the request (e.g. evaluate the alerts). */
  before?: (app: FastifyInstance) => Promise<unknown>;
  /** The valid times an answer holds, and the smallest gap between them in hours (undefined: one time). */
  times: (response: LightMyRequestResponse) => { times: number[]; step?: number };
}


const seriesTimes = (response: LightMyRequestResponse) => {
  const { ts, header } = response.json() as { ts: number[]; header: { step: number } };
  return { times: ts, step: minGap(ts) ?? header.step };
};
const cityTimes = (response: LightMyRequestResponse) => {
  const { reftime, hours } = response.json() as { reftime: number; hours: number[] };
  const times = hours.map((h) => reftime + h * HOUR_MS);
  return { times, step: minGap(times) };
};
const tideTimes = (response: LightMyRequestResponse) => {
  const { extremes, curve } = response.json() as { extremes: { time: number }[]; curve: { start: number; step: number; heights: number[] } };
  // A tide answer has no forecast steps of hours: its times are its high and low waters and its curve.
  return { times: [...extremes.map((e) => e.time), ...curve.heights.map((_, i) => curve.start + i * curve.step)] };
};
const minGap = (times: number[]) => (times.length < 2 ? undefined : Math.min(...times.slice(1).map((t, k) => (t - times[k]) / HOUR_MS)));

const tile = (validTime: number, z: number) => tilePath({ directory: 'demo', refTime: REF, validTime, z, x: 0, y: 0, file: 'wind', level: 'surface', suffix: 'tile' });

/** Routes that answer forecast values, each with the asks for what only Premium may have. */
const FORECAST_VALUE_ROUTES: Record<string, Ask[]> = {
  'GET /tiles/v1.0/:dir/:ref/:valid/:z/:x/:y/:file': [
    { what: 'a tile above the free data zoom', url: () => tile(REF + 6 * HOUR_MS, DEMO.maxTileZoom.premium), times: () => ({ times: [REF + 6 * HOUR_MS] }) },
    { what: 'a tile of the premium days', url: () => tile(FIRST_PREMIUM, 0), times: () => ({ times: [FIRST_PREMIUM] }) },
    {
      what: 'an accumulation whose range ends in the premium days',
      url: () => tilePath({ directory: 'demo', refTime: REF, validTime: FIRST_PREMIUM - 12 * HOUR_MS, z: 0, x: 0, y: 0, file: 'gustAccu', level: 'surface', suffix: 'tile', acRange: 12 }),
      times: () => ({ times: [FIRST_PREMIUM] }),
    },
  ],
  'GET /forecast/point/:product/v2.9/:lat/:lon': [
    { what: 'the whole run, no step given', url: () => '/forecast/point/demo/v2.9/50/14', times: seriesTimes },
    { what: '1-hour steps', url: () => '/forecast/point/demo/v2.9/50/14?step=1', times: seriesTimes },
  ],
  'GET /forecast/meteogram/:product/v1.2/:lat/:lon': [
    { what: 'the whole run, no step given', url: () => '/forecast/meteogram/demo/v1.2/50/14', times: seriesTimes },
    { what: '1-hour steps', url: () => '/forecast/meteogram/demo/v1.2/50/14?step=1', times: seriesTimes },
  ],
  'GET /citytile/v1.0/:product/:z/:x/:y': [
    { what: 'days 8-10 at 1-hour steps', url: () => '/citytile/v1.0/demo/5/17/10?hours=200-240&step=1', times: cityTimes },
    { what: 'days 8-10, no step given', url: () => '/citytile/v1.0/demo/5/17/10?hours=200-240', times: cityTimes },
    { what: 'a window reaching the premium days', url: () => '/citytile/v1.0/demo/5/17/10?hours=120-168', times: cityTimes },
  ],
  'GET /users/v4/alerts/:id/timestamps': [
    {
      what: 'the times an always-true alert holds', needsLogin: true, url: (alertId) => `/users/v4/alerts/${alertId}/timestamps`,
      times: (response) => ({ times: (response.json() as { timestamps: number[] }).timestamps }),
    },
  ],
  // SPEC §1: the tide forecast is Premium's, with no free part (common/entitlements.ts grantTides).
  'GET /tides/v1.0/tides/:lat/:lon': [
    { what: 'the tides of a place by a station (Friday Harbor)', url: () => `/tides/v1.0/tides/48.5358/-123.0138?from=${REF}`, times: tideTimes },
  ],
  'GET /tides/v1.0/tides/:id': [
    { what: 'the tides of a station by id', url: () => `/tides/v1.0/tides/noaa:9449880?from=${REF}&to=${REF + DAY_MS}`, times: tideTimes },
  ],
  'GET /notif/v1/notifications': [
    {
      what: 'the notification of an always-true alert', needsLogin: true, url: () => '/notif/v1/notifications',
      before: (app) => app.alerts.evaluateProduct('demo'),
      times: (response) => ({ times: (response.json() as { notifications: Array<{ payload?: { timestamps?: number[] } }> }).notifications.flatMap((n) => n.payload?.timestamps ?? []) }),
    },
  ],
};

/** Routes that answer no forecast values, and why. */
const NO_FORECAST_VALUES: Record<string, string> = {
  'GET /metadata/v1.0/products.json': 'the served products and their run calendars (times, not values)',
  'GET /metadata/v1.0/:dir/minifest.json': 'a run calendar (times, not values)',
  'GET /healthz': 'liveness probe (uptime only)',
  'GET /readyz': 'readiness probe: whether the database, storage and a product answer (names of served products, no values)',
  'GET /metrics': 'Prometheus metrics of the process (request counts and latencies, cache and ingest figures, no values)',
  'GET /metadata/v1.0/basemaps.json': 'which tile base maps are configured (map sources, not values)',
  'GET /basemap/v1/:file': 'a base map archive (map tiles, not values)',
  'GET /obs/v1.0/status.json': 'which observation sources are followed and how fresh they are (no values)',
  'GET /obs/v1.0/:kind/*': 'observations (radar, satellite, lightning, storms, warnings, fires, metars, radiosonde soundings: GET /obs/v1.0/soundings/stations.json and /{id}.json, common/api/soundings.ts), not forecast values; history limits are the families\' access checks (common/entitlements.ts)',
  'GET /tides/v1.0/stations': 'the tide stations\' names and places (the SPEC §3 POI set "tide"), no predictions',
  'GET /stations/v1.0/list': 'weather stations and their latest observations, not forecast values; free to everyone',
  'GET /stations/v1.0/station/:id': 'one weather station\'s observed history, not forecast values; free to everyone',
  'GET /capalerts/:lat/:lon': 'the official weather warnings over a place (CAP alerts), not forecast values; free to everyone',
  'GET /tc/v2/storms/active/count': 'how many tropical storms are active, not forecast values; free to everyone',
  'GET /tc/v2/storms': 'the tropical storm list (observed tracks and advisories), not forecast values; free to everyone',
  'GET /webcams/v1.0/list': 'webcams near a place (names, positions, image addresses), not forecast values',
  'GET /webcams/v1.0/detail/:id': 'one webcam (name, position, image address), not forecast values',
  'GET /webcams/v1.0/image/:id': 'a webcam\'s current image relayed under COEP, not forecast values',
  'GET /airports/v1.0/nearest/:lat/:lon': 'the airports nearest a place (names, positions, METAR flight category), no model values; free to everyone',
  'GET /airports/v1.0/:icao': 'an airport, its latest METAR and TAF as issued and its runways: observations and the aviation service\'s own forecast, no model values; free to everyone',
  'GET /metadata/v1.0/progress.json': 'how many steps of the runs being fetched are in (counts, not values)',
  'GET /search/v1': 'a 400: the query is empty',
  'GET /search/v1/*': 'place names and coordinates',
  'GET /reverse/v3/:lat/:lon/:zoom': 'place names',
  'GET /labels/:version/:lang/:z/:x/:file': 'city names and positions (their values come from /citytile)',
  'POST /sedlina/errors': 'client error reports in',
  'HEAD /sedlina/ga/:code': 'page-view beacons in',
  'GET /services/umisteni': 'the approximate location of the caller',
  'POST /users/v1/register': 'account',
  'POST /users/v1/login': 'account',
  'GET /api/info': 'account',
  'GET /api/logout': 'account',
  'POST /users/v1/password': 'account',
  'GET /users/settings': 'the user\'s own settings',
  'POST /users/settings': 'the user\'s own settings',
  'GET /users/v1/data/:collection': 'the user\'s own items (an alert\'s state, not its times)',
  'POST /users/v1/data/:collection': 'the user\'s own items',
  'PUT /users/v1/data/:collection/:id': 'the user\'s own items',
  'DELETE /users/v1/data/:collection/:id': 'the user\'s own items',
  'PUT /users/v3/devices/:deviceID': 'device registration',
  'POST /users/v3/devices/:deviceID': 'device registration',
  'DELETE /notif/v1/notifications': 'removes notifications',
  'POST /notif/v1/interactions/received': 'notification receipts in',
  'POST /notif/v1/interactions/opened': 'notification receipts in',
  'POST /notif/v1/notifications/send-test': 'a fixed test text',
  'GET /notif/v1/vapid-public-key': 'the Web Push public key',
  'POST /users/v1/subscription/checkout': 'a payment session',
  'POST /stripe/webhook': 'payment events in',
};

/** HEAD answers what GET does, without a body: its GET is checked. */
const routeKey = (method: string, url: string) => `${method === 'HEAD' && !NO_FORECAST_VALUES[`HEAD ${url}`] ? 'GET' : method} ${url}`;

describe('every route that answers forecast values goes through the entitlement check', () => {
  let app: FastifyInstance;
  let made: TestDatabase;
  let db: Database;
  const users = {} as Record<Exclude<Caller, 'anonymous'>, TestUser>;
  const alertIds = {} as Record<Exclude<Caller, 'anonymous'>, string>;

  beforeAll(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, liveSources: null, accounts: { database: db, kdf: TEST_KDF } });
    for (const who of ['free', 'expired', 'premium'] as const) users[who] = await registerUser(app);
    await app.accounts.setSubscription(users.premium.id, { status: 'active', tier: 'premium', expiresAt: NOW + 30 * DAY_MS });
    await app.accounts.setSubscription(users.expired.id, { status: 'active', tier: 'premium', expiresAt: NOW - HOUR_MS });
    for (const who of ['free', 'expired', 'premium'] as const) {
      const alert = { lat: 50, lon: 14, name: `Always (${who})`, product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 150 }] };
      const created = await app.inject({ method: 'POST', url: '/users/v1/data/alerts', headers: bearer(users[who].token), payload: alert });
      expect(created.statusCode, created.body).toBe(201);
      alertIds[who] = created.json().id;
    }
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await made.cleanup();
  });

  const request = (url: string, who: Caller): Promise<LightMyRequestResponse> =>
    app.inject({ url, headers: who === 'anonymous' ? {} : bearer(users[who].token) });

  it('every registered route is in one of the two tables', () => {
    const keys = [...new Set(app.registeredRoutes.map((r) => routeKey(r.method, r.url)))];
    expect(keys.length).toBeGreaterThan(20);
    const unclassified = keys.filter((key) => !(key in FORECAST_VALUE_ROUTES) && !(key in NO_FORECAST_VALUES));
    expect(unclassified, 'add each to FORECAST_VALUE_ROUTES (and gate it with entitle) or to NO_FORECAST_VALUES with the reason').toEqual([]);
    const both = keys.filter((key) => key in FORECAST_VALUE_ROUTES && key in NO_FORECAST_VALUES);
    expect(both).toEqual([]);
    // Nothing listed that is not registered (a renamed route must be listed under its new path).
    for (const key of [...Object.keys(FORECAST_VALUE_ROUTES), ...Object.keys(NO_FORECAST_VALUES)]) expect(keys, key).toContain(key);
  });

  describe.each(Object.entries(FORECAST_VALUE_ROUTES))('%s', (_route, asks) => {
    it.each(asks.flatMap((ask) => NOT_PREMIUM.map((who) => [ask.what, who, ask] as const)))('%s, asked by %s: refused or cut to the free tier', async (_what, who, ask) => {
      await ask.before?.(app);
      const url = ask.url(alertIds[who === 'anonymous' ? 'free' : who]);
      const response = await request(url, who);
      if (ask.needsLogin && who === 'anonymous') {
        expect(response.statusCode).toBe(401);
        return;
      }
      if (response.statusCode === 403) {
        expect(response.json().message).toMatch(/require[s]? Premium/);
        return;
      }
      expect(response.statusCode, response.body).toBe(200);
      expect(String(response.headers['cache-control'])).not.toMatch(/private/);
      const { times, step } = ask.times(response);
      expect(times.length, 'an answer with values').toBeGreaterThan(0);
      expect(Math.max(...times), 'no value of the premium days').toBeLessThan(FIRST_PREMIUM);
      if (step !== undefined) expect(step, 'no step finer than the free one').toBeGreaterThanOrEqual(FREE_STEP_HOURS);
    });

    it.each(asks.map((ask) => [ask.what, ask] as const))('%s, asked by an active subscriber: served, privately', async (_what, ask) => {
      await ask.before?.(app);
      const response = await request(ask.url(alertIds.premium), 'premium');
      expect(response.statusCode, response.body).toBe(200);
      const { times } = ask.times(response);
      expect(times.length).toBeGreaterThan(0);
      if (!ask.needsLogin) expect(String(response.headers['cache-control'])).toMatch(/private/);
    });
  });
});
