/**
 * Premium entitlements enforced by the server (SPEC §6, common/entitlements.ts): the same requests
 * with no token, a free user's token, an active subscriber's token, and canceled / expired ones.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { tilePath } from '../../common/api/tiles.ts';
import { PRODUCTS } from '../../common/catalogue/index.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const REF = Date.UTC(2025, 10, 26, 0);
const NOW = REF + 5 * HOUR_MS;
const tileUrl = (overrides: Partial<Parameters<typeof tilePath>[0]> = {}) => tilePath({
  directory: 'demo', refTime: REF, validTime: REF + 6 * HOUR_MS, z: 1, x: 2, y: 0, file: 'wind', level: 'surface', suffix: 'tile', ...overrides,
});
const FREE_Z = PRODUCTS.demo.maxTileZoom.free;
const PREMIUM_Z = PRODUCTS.demo.maxTileZoom.premium;

describe('Premium entitlements on the data routes', () => {
  let app: FastifyInstance;
  let made: TestDatabase;
  let db: Database;
  let free: TestUser;
  let premium: TestUser;
  let canceled: TestUser;
  let expired: TestUser;

  beforeAll(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, accounts: { database: db, kdf: TEST_KDF } });
    [free, premium, canceled, expired] = [await registerUser(app), await registerUser(app), await registerUser(app), await registerUser(app)];
    await app.accounts.setSubscription(premium.id, { status: 'active', tier: 'premium', isSubscription: true, expiresAt: NOW + 30 * 24 * HOUR_MS });
    await app.accounts.setSubscription(canceled.id, { status: 'canceled', tier: 'premium', expiresAt: NOW + 24 * HOUR_MS });
    await app.accounts.setSubscription(expired.id, { status: 'active', tier: 'premium', expiresAt: NOW - HOUR_MS });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await made.cleanup();
  });

  const get = (url: string, user?: TestUser) => app.inject({ url, headers: user ? bearer(user.token) : {} });

  it('expiry is read on the app clock, not the machine\'s', async () => {
    // NOW is the app's time; the machine's own clock is far past these expiries.
    const user = await registerUser(app);
    await app.accounts.setSubscription(user.id, { status: 'active', tier: 'premium', expiresAt: NOW + HOUR_MS });
    expect(NOW + HOUR_MS).toBeLessThan(Date.now());
    expect((await get(tileUrl({ z: PREMIUM_Z }), user)).statusCode).toBe(200);
  });

  it('serves tiles up to the free zoom to everyone, public', async () => {
    const response = await get(tileUrl({ z: FREE_Z }));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^public/);
  });

  it.each([
    ['no token', undefined],
    ['a free user', 'free'],
    ['a canceled subscription', 'canceled'],
    ['an expired subscription', 'expired'],
  ] as const)('refuses a tile above the free zoom with %s (403)', async (_what, who) => {
    const user = who === undefined ? undefined : { free, canceled, expired }[who];
    const response = await get(tileUrl({ z: PREMIUM_Z, x: 0, y: 0 }), user);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/requires Premium/);
  });

  it('serves the premium zoom to an active subscriber, privately', async () => {
    const response = await get(tileUrl({ z: PREMIUM_Z, x: 0, y: 0 }), premium);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.headers.vary).toMatch(/Authorization/);
  });

  it('refuses tiles from day index 6 to free users, serves them to Premium', async () => {
    const lastFree = tileUrl({ validTime: REF + 143 * HOUR_MS });
    const firstPremium = tileUrl({ validTime: REF + 144 * HOUR_MS });
    expect((await get(lastFree, free)).statusCode).toBe(200);
    const refused = await get(firstPremium, free);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/day 7 .*require Premium/);
    expect((await get(firstPremium, premium)).statusCode).toBe(200);
  });

  it('refuses 1-hour point forecasts and meteograms to free users', async () => {
    for (const path of ['/forecast/point/demo/v2.9/50/14?step=1', '/forecast/meteogram/demo/v1.2/50/14?step=1']) {
      const refused = await get(path, free);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('1-hour steps require Premium: the free tier has 3-hour steps');
      expect((await get(path)).statusCode).toBe(403);
      expect((await get(path, premium)).statusCode).toBe(200);
    }
    expect((await get('/forecast/point/demo/v2.9/50/14?step=3', free)).statusCode).toBe(200);
  });

  it('ends free point forecasts before day index 6; Premium gets the whole run', async () => {
    const freeBody = (await get('/forecast/point/demo/v2.9/50/14?step=3', free)).json();
    expect(freeBody.ts.at(-1)).toBe(REF + 141 * HOUR_MS);
    expect(freeBody.data.temp).toHaveLength(freeBody.ts.length);
    const premiumResponse = await get('/forecast/point/demo/v2.9/50/14?step=3', premium);
    expect(premiumResponse.headers['cache-control']).toMatch(/^private/);
    expect(premiumResponse.json().ts.at(-1)).toBe(REF + 240 * HOUR_MS);
    const meteogram = (await get('/forecast/meteogram/demo/v1.2/50/14', canceled)).json();
    expect(meteogram.ts.at(-1)).toBe(REF + 141 * HOUR_MS);
  });

  it.each([
    ['no token', undefined, 3],
    ['a free user', 'free', 3],
    ['a canceled subscription', 'canceled', 3],
    ['an active subscriber', 'premium', 1],
  ] as const)('answers the default step of the tier (SPEC §9: 3 h, 1 h for Premium) to %s who gives no step', async (_what, who, step) => {
    const user = who === undefined ? undefined : { free, canceled, premium }[who];
    for (const path of ['/forecast/point/demo/v2.9/50/14', '/forecast/meteogram/demo/v1.2/50/14', '/citytile/v1.0/demo/5/17/10']) {
      const body = (await get(path, user)).json();
      const ts: number[] = body.ts ?? body.hours.map((h: number) => REF + h * HOUR_MS);
      expect(body.header?.step ?? body.step, path).toBe(step);
      // The model's own step stays in the header, so a free client knows the model is hourly.
      if (body.header) expect(body.header.modelStep, path).toBe(1);
      expect(ts.slice(1).map((t, k) => (t - ts[k]) / HOUR_MS), path).toEqual(ts.slice(1).map(() => step));
    }
  });

  it.each([
    ['no token', undefined],
    ['a free user', 'free'],
    ['an expired subscription', 'expired'],
  ] as const)('refuses city tiles with 1-hour steps or wholly in the premium days to %s; cuts a window that reaches them', async (_what, who) => {
    const user = who === undefined ? undefined : { free, expired }[who];
    const late = await get('/citytile/v1.0/demo/5/17/10?hours=200-240&step=1', user);
    expect(late.statusCode).toBe(403);
    expect(late.json().message).toBe('1-hour steps require Premium: the free tier has 3-hour steps');
    const lateThree = await get('/citytile/v1.0/demo/5/17/10?hours=200-240&step=3', user);
    expect(lateThree.statusCode).toBe(403);
    expect(lateThree.json().message).toMatch(/day 7 .*require Premium/);
    const reaching = await get('/citytile/v1.0/demo/5/17/10?hours=120-168&step=3', user);
    expect(reaching.statusCode).toBe(200);
    expect(reaching.json().hours.at(-1)).toBe(141);
    expect(reaching.headers['cache-control']).toMatch(/^public/);
  });

  it('serves city tiles of the premium days and 1-hour steps to an active subscriber, privately', async () => {
    const response = await get('/citytile/v1.0/demo/5/17/10?hours=200-240&step=1', premium);
    expect(response.statusCode).toBe(200);
    expect(response.json().hours).toHaveLength(41);
    expect(response.headers['cache-control']).toMatch(/^private/);
    expect(response.headers.vary).toMatch(/Authorization/);
  });

  it('honours minifest ?premium=true only for a Premium token', async () => {
    const url = '/metadata/v1.0/demo/minifest.json?premium=true';
    expect((await get(url, free)).headers['cache-control']).toMatch(/^public/);
    expect((await get(url)).headers['cache-control']).toMatch(/^public/);
    const honoured = await get(url, premium);
    expect(honoured.statusCode).toBe(200);
    expect(honoured.headers['cache-control']).toMatch(/^private/);
  });

  it('treats an invalid token as free, not as an error', async () => {
    const response = await app.inject({ url: '/forecast/point/demo/v2.9/50/14?step=1', headers: { authorization: 'Bearer nonsense-token-nonsense' } });
    expect(response.statusCode).toBe(403);
  });
});
