import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { bearer, registerUser, T0, TEST_KDF } from '../routes/testing.ts';

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

it('app.runIngested (the scheduler onIngested hook and the samples loader call it) evaluates the stored alerts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-run-ingested-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const db: Database = await openDatabase({ kind: 'sqlite', path: join(dir, 'db.sqlite') });
  cleanup.push(() => db.close());
  const app = await buildApp({ now: () => T0, distDir: null, prewarm: false, dataDir: null, accounts: { database: db, kdf: TEST_KDF } });
  cleanup.push(() => app.close());
  const user = await registerUser(app, 'frank@example.test');
  const alert = { lat: 50, lon: 14, name: 'Always', product: 'demo', state: 'normal', conditions: [{ type: 'temperature', min: 150 }] };
  expect((await app.inject({ method: 'POST', url: '/users/v1/data/alerts', headers: bearer(user.token), payload: alert })).statusCode).toBe(201);

  app.runIngested('demo');
  await expect.poll(async () => (await app.inject({ url: '/notif/v1/notifications', headers: bearer(user.token) })).json().newCount, { timeout: 5000 }).toBe(1);
  const list = (await app.inject({ url: '/notif/v1/notifications', headers: bearer(user.token) })).json();
  const alertId = list.notifications[0].payload.alertId as string;
  const times = (await app.inject({ url: `/users/v4/alerts/${alertId}/timestamps`, headers: bearer(user.token) })).json();
  // Every step is above 150 K: every valid time of the run.
  expect(times.timestamps.length).toBeGreaterThan(24);
  expect(list.notifications[0].payload.timestamps).toEqual(times.timestamps);
});
