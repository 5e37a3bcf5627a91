import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LIVE_PROGRESS_PATH } from '../../common/api/liveProgress.ts';
import { LiveProgress } from '../live/progress.ts';
import { writeProgress } from '../live/sharedProgress.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { roleFromEnv } from './role.ts';
import { buildApp } from '../app.ts';
import { inProcessJobQueue } from './jobQueue.ts';
import type { LiveSource } from '../live/source.ts';

/** A source the web role must never start (it would throw on its first look upstream). */
const FAKE_SOURCE = { id: 'fake', product: 'gfs' } as unknown as LiveSource;

const PG = 'postgres://isobar:secret@db.example:5432/isobar';

describe('roleFromEnv', () => {
  it.each([
    [{}, { role: 'all', serves: true, works: true, queueUrl: null }],
    [{ ISOBAR_ROLE: ' all ' }, { role: 'all', serves: true, works: true, queueUrl: null }],
    [{ ISOBAR_ROLE: 'all', DATABASE_URL: PG }, { role: 'all', serves: true, works: true, queueUrl: null }],
    [{ ISOBAR_ROLE: 'web', DATABASE_URL: PG }, { role: 'web', serves: true, works: false, queueUrl: PG }],
    [{ ISOBAR_ROLE: 'ingest', DATABASE_URL: PG }, { role: 'ingest', serves: false, works: true, queueUrl: PG }],
  ])('%j', (env, expected) => {
    expect(roleFromEnv(env)).toEqual(expected);
  });

  it.each([
    [{ ISOBAR_ROLE: 'worker' }, /ISOBAR_ROLE must be one of all, web, ingest \(got "worker"\)/],
    [{ ISOBAR_ROLE: 'web' }, /ISOBAR_ROLE=web .* set DATABASE_URL=postgres/],
    [{ ISOBAR_ROLE: 'ingest', ISOBAR_DB_PATH: '/tmp/x.sqlite' }, /ISOBAR_ROLE=ingest .* set DATABASE_URL=postgres/],
    [{ ISOBAR_ROLE: 'web', DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
  ])('refuses %j', (env, message) => {
    expect(() => roleFromEnv(env)).toThrow(message);
  });
});

describe('the role switch of buildApp', () => {
  const build = (role: 'web' | 'ingest') => buildApp({
    role: { role, serves: role === 'web', works: role === 'ingest', queueUrl: null }, jobs: inProcessJobQueue(),
    distDir: null, prewarm: false, dataDir: null, obs: { sources: [] },
    // Sources without a data directory make buildApp throw: the web role must not even look at them.
    liveSources: role === 'web' ? { sources: [FAKE_SOURCE] } : null,
  });

  it('an ingest process registers no app, data or user route: only the operations routes', async () => {
    const app = await build('ingest');
    expect(app.registeredRoutes.map((r) => `${r.method} ${r.url}`).filter((r) => !r.startsWith('HEAD'))).toEqual(['GET /healthz', 'GET /readyz', 'GET /metrics']);
    await app.close();
  });

  it('a web process serves the routes and follows no live source', async () => {
    const app = await build('web');
    expect(app.registeredRoutes.length).toBeGreaterThan(20);
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(app.liveSources).toBeNull();
    await app.close();
  });
});

it('a web process says what arrives from the progress the ingest processes write to the store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-web-progress-'));
  const storage = new LocalDirectoryStore(join(dir, 'store'));
  const app = await buildApp({
    role: { role: 'web', serves: true, works: false, queueUrl: null }, jobs: inProcessJobQueue(),
    distDir: null, prewarm: false, dataDir: join(dir, 'scratch'), storage, obs: { sources: [] },
  });
  try {
    const progress = new LiveProgress();
    progress.start({ source: 'gfs', product: 'gfs', refTime: Date.UTC(2024, 0, 2, 6), total: 4 });
    progress.update('gfs', { downloaded: 3, built: 2, served: 1 });
    // As an ingest process with the PostgreSQL queue writes it (live/sharedProgress.ts).
    const stop = writeProgress(progress, storage, { log: (message) => expect.fail(message), everyMs: 10 });
    await vi.waitFor(async () => expect(await storage.list('live/progress/')).toEqual(['gfs.json']));
    const answer = await app.inject({ method: 'GET', url: LIVE_PROGRESS_PATH });
    await stop();
    expect(answer.json()).toEqual({ pending: false, runs: [{ ident: 'gfs', ref: '2024010206', done: 2, total: 4, served: 1 }] });
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
