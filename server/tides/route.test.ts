import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../db/testing.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from '../routes/testing.ts';
import { checkAnswer } from '../../common/api/schema.ts';
import { TIDE_ANSWER, TIDE_STATIONS_ANSWER, tidePointPath, tideStationPath } from '../../common/api/tides.ts';
import { DAY_MS, HOUR_MS } from '../../common/time.ts';
import { TIDE_CURVE_STEP_MS, TIDE_DEFAULT_RANGE_MS, TIDE_NOT_PROVIDED } from '../../common/tides.ts';

const NOW = Date.UTC(2026, 6, 15, 0, 20);

describe('GET /tides/v1.0/tides/{lat}/{lon} and /{id} (SPEC §7), /tides/v1.0/stations', () => {
  let app: FastifyInstance;
  let made: TestDatabase;
  let db: Database;
  let premium: TestUser;
  let free: TestUser;

  beforeAll(async () => {
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: null, liveSources: null, accounts: { database: db, kdf: TEST_KDF } });
    premium = await registerUser(app);
    free = await registerUser(app);
    await app.accounts.setSubscription(premium.id, { status: 'active', tier: 'premium', expiresAt: NOW + 30 * DAY_MS });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await made.cleanup();
  });

  const get = (url: string, user?: TestUser) => app.inject({ url, headers: user ? bearer(user.token) : {} });

  it('answers Premium the nearest station with its high and low waters and a 10-minute curve from the start of the hour', async () => {
    const response = await get(tidePointPath(48.5358, -123.0138), premium);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toMatch(/private/);
    const answer = checkAnswer(TIDE_ANSWER, response.json(), 'tides');
    expect(answer.station).toMatchObject({ id: 'noaa:9449880', name: 'Friday Harbor', datum: 'MLLW', type: 'reference', timezone: 'America/Los_Angeles' });
    expect(answer.station.distanceKm).toBeLessThan(1.5);
    expect(answer.station.attribution).toMatch(/Neaps tide database/);
    expect(answer.station.license.type).toBe('public domain');
    expect(answer.from).toBe(Date.UTC(2026, 6, 15, 0));
    expect(answer.to).toBe(answer.from + TIDE_DEFAULT_RANGE_MS);
    expect(answer.curve.step).toBe(TIDE_CURVE_STEP_MS);
    expect(answer.curve.heights.length).toBe(TIDE_DEFAULT_RANGE_MS / TIDE_CURVE_STEP_MS + 1);
    // Mixed semidiurnal tide: about four high and low waters a day, alternating.
    expect(answer.extremes.length).toBeGreaterThanOrEqual(10);
    answer.extremes.slice(1).forEach((e, i) => expect(e.high).not.toBe(answer.extremes[i].high));
    // NOAA's first high water of the range: 02:52Z, 2.568 m MLLW (the accuracy test has the tolerances).
    expect(Math.abs(answer.extremes.find((e) => e.high)!.time - Date.UTC(2026, 6, 15, 2, 52))).toBeLessThan(10 * 60_000);
  });

  it('by id answers the same station, and asks a range', async () => {
    const from = Date.UTC(2026, 6, 16);
    const response = await get(tideStationPath('noaa/9449880', { from, to: from + DAY_MS }), premium);
    expect(response.statusCode, response.body).toBe(200);
    const answer = checkAnswer(TIDE_ANSWER, response.json(), 'tides');
    expect(answer.station.id).toBe('noaa:9449880');
    expect(answer.station.distanceKm).toBeUndefined();
    expect(answer.from).toBe(from);
    expect(answer.extremes.every((e) => e.time >= from && e.time <= from + DAY_MS)).toBe(true);
  });

  it('refuses a free or anonymous caller where a station is, with the reason (SPEC §1)', async () => {
    for (const user of [free, undefined]) {
      const response = await get(tidePointPath(48.5358, -123.0138), user);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Tide forecasts require Premium');
    }
  });

  it('answers the SPEC §8 text where no station is near, to everyone', async () => {
    for (const user of [premium, free]) {
      const response = await get(tidePointPath(50.08, 14.42), user);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(TIDE_NOT_PROVIDED);
    }
  });

  it('refuses bad input with a clear error', async () => {
    const cases: [string, number, RegExp][] = [
      ['/tides/v1.0/tides/95/10', 400, /latitude/],
      ['/tides/v1.0/tides/abc/10', 400, /latitude/],
      [`${tidePointPath(48.5358, -123.0138)}?from=${NOW}&to=${NOW - HOUR_MS}`, 400, /after/],
      [tidePointPath(48.5358, -123.0138, { from: NOW, to: NOW + 40 * DAY_MS }), 400, /at most 720 hours/],
      ['/tides/v1.0/tides/48.5/-123?from=yesterday', 400, /from/],
      ['/tides/v1.0/tides/noaa:0000000', 404, /No tide station "noaa:0000000"/],
      ['/tides/v1.0/tides/no%20such', 400, /id/],
    ];
    for (const [url, status, message] of cases) {
      const response = await get(url, premium);
      expect(response.statusCode, url).toBe(status);
      expect(response.json().message, url).toMatch(message);
    }
  });

  it('lists every station served for the POI layer, free and cacheable', async () => {
    const response = await get('/tides/v1.0/stations');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/public/);
    const list = checkAnswer(TIDE_STATIONS_ANSWER, response.json(), 'stations');
    expect(list.ids.length).toBeGreaterThan(5000);
    expect([list.names.length, list.lat.length, list.lon.length]).toEqual([list.ids.length, list.ids.length, list.ids.length]);
    const i = list.ids.indexOf('noaa:9449880');
    expect(list.names[i]).toBe('Friday Harbor');
    expect(list.lat[i]).toBeCloseTo(48.5453, 3);
  });
});
