// The scene is an ABI file written the PUG's way (testing.ts): there is no ABI fixture.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SATELLITE_INFO_ANSWER, SATELLITE_INFO_PATH } from '../../../common/api/satellite.ts';
import { schemaProblem } from '../../../common/api/schema.ts';
import { HOUR_MS, MINUTE_MS } from '../../../common/time.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../../db/testing.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from '../../routes/testing.ts';
import { ObsStore } from '../core/store.ts';
import { readAbiCmi } from './abi.ts';
import { publishSatellite } from './publish.ts';
import { writeAbiFile } from './testing.ts';

const SCAN = Date.UTC(2025, 5, 1, 12, 0);
let dataDir: string;
let app: FastifyInstance;
let clock = SCAN + 10 * MINUTE_MS;
let tileUrl: string;
let made: TestDatabase;
let db: Database;
let premium: TestUser;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-sat-access-'));
  const bytes = await writeAbiFile({ platform: 'G19', lon0: -75, start: new Date(SCAN), cells: 100, bands: [{ band: 13, wavelengthUm: 10.33, field: () => 250 }] });
  const ir = await readAbiCmi(bytes, 13);
  const info = await publishSatellite(new ObsStore(dataDir), { source: { id: 'goesEast', label: 'GOES-East', attribution: 'NOAA', lon0: -75 }, scene: { time: SCAN, ir, visible: null }, now: clock, maxZoom: 0 });
  tileUrl = `/obs/v1.0/satellite/frames/${info.frames[0].id}/${info.frames[0].tiles[0]}.tile`;
  made = await makeSqliteTestDatabase();
  db = await openDatabase(made.config);
  app = await buildApp({ distDir: null, prewarm: false, dataDir, liveSources: null, now: () => clock, obs: { sources: [], pollOnStart: false }, accounts: { database: db, kdf: TEST_KDF } });
  premium = await registerUser(app);
  await app.accounts.setSubscription(premium.id, { status: 'active', tier: 'premium', isSubscription: true, expiresAt: SCAN + 30 * 24 * HOUR_MS });
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await made?.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

it('serves a recent frame to everyone, public; past the free history only to Premium, private, and lists it to Premium alone', async () => {
  const fresh = await app.inject({ method: 'GET', url: tileUrl });
  expect(fresh.statusCode).toBe(200);
  expect(fresh.headers['cache-control']).toMatch(/^public/);
  const freshInfo = await app.inject({ method: 'GET', url: SATELLITE_INFO_PATH });
  expect(freshInfo.json().frames).toHaveLength(1);
  expect(freshInfo.headers['cache-control']).toMatch(/^public/);
  clock = SCAN + 3 * HOUR_MS;
  const old = await app.inject({ method: 'GET', url: tileUrl });
  expect(old.statusCode).toBe(403);
  const forPremium = await app.inject({ method: 'GET', url: tileUrl, headers: bearer(premium.token) });
  expect(forPremium.statusCode).toBe(200);
  expect(forPremium.headers['cache-control']).toMatch(/^private/);
  // At 3 hours the frame is in archive/info.json only once a poll moves it; the published
  // info.json still lists it: a free caller's copy leaves it out, Premium's keeps it.
  const freeInfo = await app.inject({ method: 'GET', url: SATELLITE_INFO_PATH });
  expect(freeInfo.json().frames).toEqual([]);
  expect(schemaProblem(SATELLITE_INFO_ANSWER, freeInfo.json())).toBeNull();
  expect(freeInfo.headers['cache-control']).toMatch(/^private/);
  const premiumInfo = await app.inject({ method: 'GET', url: SATELLITE_INFO_PATH, headers: bearer(premium.token) });
  expect(premiumInfo.json().frames).toHaveLength(1);
});
