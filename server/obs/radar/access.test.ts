import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { obsFilePath } from '../../../common/api/obs.ts';
import { RADAR_FREE_HISTORY_MS } from '../../../common/entitlements.ts';
import type { RadarMinifest } from '../../../common/radar.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../common/time.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { makeSqliteTestDatabase, type TestDatabase } from '../../db/testing.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { bearer, registerUser, TEST_KDF, type TestUser } from '../../routes/testing.ts';
import { ObsStore } from '../core/store.ts';
import { frameId, frameTimeOf, publishRadar, ARCHIVE_MINIFEST, MINIFEST } from './publish.ts';
import { readRadolan } from './radolan.ts';
import { RADAR_FIXTURE } from './testing.ts';

/** The fixture's own valid time (RADOLAN RX 2014-08-10 20:50 UTC). */
const FRAME_TIME = Date.UTC(2014, 7, 10, 20, 50);

it('frame ids name their valid time to the minute', () => {
  expect(frameTimeOf(frameId(['radolan'], FRAME_TIME))).toBe(FRAME_TIME);
  expect(frameTimeOf(frameId(['mrms', 'radolan'], FRAME_TIME + 39 * 1000))).toBe(FRAME_TIME);
  expect(frameTimeOf('20141310T2050Z-radolan')).toBeNull();
  expect(frameTimeOf('latest')).toBeNull();
});

describeWithFixtures('radar history for free and Premium users (SPEC §1)', () => {
  let dataDir: string;
  let made: TestDatabase;
  let db: Database;
  let app: FastifyInstance;
  let clock = FRAME_TIME + 2 * MINUTE_MS;
  let id = '';
  const users = {} as Record<'free' | 'premium', TestUser>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-radar-access-'));
    const store = new ObsStore(dataDir);
    const source = { id: 'radolan', label: 'DWD RADOLAN', attribution: 'Source: Deutscher Wetterdienst (DWD)', latest: null };
    const manifest = await publishRadar(store, { source, observed: [readRadolan(await readFixture(RADAR_FIXTURE.radolanRx))], now: clock });
    id = manifest.frames[0].id;
    made = await makeSqliteTestDatabase();
    db = await openDatabase(made.config);
    app = await buildApp({ now: () => clock, distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [] }, accounts: { database: db, kdf: TEST_KDF } });
    for (const who of ['free', 'premium'] as const) users[who] = await registerUser(app);
    await app.accounts.setSubscription(users.premium.id, { status: 'active', tier: 'premium', expiresAt: FRAME_TIME + 30 * DAY_MS });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    await made?.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (path: string, who?: keyof typeof users) =>
    app.inject({ method: 'GET', url: obsFilePath('radar', path), headers: who ? bearer(users[who].token) : {} });
  const tile = () => `frames/${id}/0/1/0.tile`;

  it('serves a frame of the free window to everyone', async () => {
    clock = FRAME_TIME + RADAR_FREE_HISTORY_MS - MINUTE_MS;
    expect((await get(tile())).statusCode).toBe(200);
    const manifest = await get(MINIFEST);
    expect(manifest.headers['cache-control']).toMatch(/^public/);
    expect((manifest.json() as RadarMinifest).frames.map((f) => f.id)).toEqual([id]);
  });

  it('refuses an older frame to free callers and lists it only to Premium', async () => {
    clock = FRAME_TIME + RADAR_FREE_HISTORY_MS + MINUTE_MS;
    for (const who of [undefined, 'free'] as const) {
      const refused = await get(tile(), who);
      expect(refused.statusCode, who).toBe(403);
      expect(refused.json().message).toMatch(/Premium/);
      const manifest = await get(MINIFEST, who);
      expect(manifest.headers['cache-control']).toMatch(/^private/);
      expect((manifest.json() as RadarMinifest).frames).toEqual([]);
      expect((manifest.json() as RadarMinifest).sources.map((s) => s.id)).toEqual(['radolan']);
    }
    // Premium's frame and whole list are its own too: private, never kept by a shared cache for others.
    const premiumTile = await get(tile(), 'premium');
    expect(premiumTile.statusCode).toBe(200);
    expect(premiumTile.headers['cache-control']).toMatch(/^private/);
    const premiumList = await get(MINIFEST, 'premium');
    expect(premiumList.json().frames.map((f: { id: string }) => f.id)).toEqual([id]);
    expect(premiumList.headers['cache-control']).toMatch(/^private/);
  });

  it('lists the archive to Premium only', async () => {
    clock = FRAME_TIME + 5 * HOUR_MS;
    // A poll that brings nothing new moves the frame into the archive.
    const store = new ObsStore(dataDir);
    await publishRadar(store, { source: { id: 'radolan', label: 'DWD RADOLAN', attribution: 'DWD', latest: FRAME_TIME }, observed: [], now: clock });
    expect((await get(ARCHIVE_MINIFEST, 'free')).json().frames).toEqual([]);
    expect((await get(ARCHIVE_MINIFEST, 'premium')).json().frames.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await get(tile(), 'free')).statusCode).toBe(403);
    expect((await get(tile(), 'premium')).statusCode).toBe(200);
    // Files that are not frames are everyone's; a name no publication made is not found.
    expect((await get('coverage.json', 'free')).statusCode).toBe(200);
    expect((await get('frames/latest/0/0/0.tile')).statusCode).toBe(404);
  });
});

describeWithFixtures('radar documents keep their contract (common/api/radar.ts)', () => {
  it('minifest and coverage as published fit the schemas', async () => {
    const { schemaProblem } = await import('../../../common/api/schema.ts');
    const { RADAR_COVERAGE_ANSWER, RADAR_MINIFEST_ANSWER } = await import('../../../common/api/radar.ts');
    const dir = await mkdtemp(join(tmpdir(), 'isobar-radar-contract-'));
    try {
      const store = new ObsStore(dir);
      const source = { id: 'radolan', label: 'DWD RADOLAN', attribution: 'DWD', latest: null };
      await publishRadar(store, { source, observed: [readRadolan(await readFixture(RADAR_FIXTURE.radolanRx))], now: FRAME_TIME });
      expect(schemaProblem(RADAR_MINIFEST_ANSWER, await store.readJson('radar', MINIFEST))).toBeNull();
      expect(schemaProblem(RADAR_MINIFEST_ANSWER, await store.readJson('radar', ARCHIVE_MINIFEST))).toBeNull();
      expect(schemaProblem(RADAR_COVERAGE_ANSWER, await store.readJson('radar', 'coverage.json'))).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
