/**
 * A product's first run, served step by step as it lands (issue 13 §1): against the fixture
 * server, with every step after the first held back, the server already serves the first step
 * (minifest, tiles, point forecast) and GET /metadata/v1.0/progress.json says how far the run is;
 * a restart resumes (the step on disk is not fetched again, the step built is not built again);
 * once whole, the run replaces its snapshots.
 *
 * Upstream: NOAA GFS 1° 10 m wind of the 2018-10 series, six consecutive 3-hourly times published
 * as the steps +0 ... +15 h of one run.
 */

import { lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { LIVE_PROGRESS_PATH } from '../../common/api/liveProgress.ts';
import { minifestPath } from '../../common/api/products.ts';
import { tilePath } from '../../common/api/tiles.ts';
import { hourStamp } from '../../common/minifest.ts';
import { HOUR_MS } from '../../common/time.ts';
import { buildApp } from '../app.ts';
import { tileRelPath } from '../ingest/layout.ts';
import { republishGrib } from './fixtureIndex.ts';
import { FixtureServer } from './fixtureServer.ts';
import { createGfsSource, gfsDataUrl, noaaField } from './gfs.ts';
import { SourceHttp } from './http.ts';
import { describeWithFixtures, FIXTURE, readFixture, splitByRunAndStep, untilAborted } from './testing.ts';

const RUN = Date.UTC(2018, 9, 8, 0);
const STEPS = [0, 3, 6, 9, 12, 15];
const SCHEDULE = { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 24 };

describeWithFixtures('the first run of a product, step by step', () => {
  let server: FixtureServer;
  let dataDir: string;
  let release: () => void = () => undefined;
  const now = () => RUN + 5 * HOUR_MS;
  // The next round never comes; the server's close ends the wait.
  const never = (_ms: number, signal?: AbortSignal): Promise<void> => untilAborted(signal);

  const start = async (): Promise<FastifyInstance> => {
    const app = await buildApp({
      now, distDir: null, prewarm: false, dataDir, logger: process.env.DEBUG_FIRST_RUN ? { level: 'debug' } : false,
      liveSources: {
        sources: [createGfsSource({ baseUrl: server.url, grid: '1p00', steps: STEPS, fields: [noaaField('UGRD', '10 m above ground'), noaaField('VGRD', '10 m above ground')], schedule: SCHEDULE })],
        now, sleep: never, random: () => 0,
        http: new SourceHttp({ now, sleep: async (_ms, signal) => signal?.throwIfAborted(), random: () => 0 }),
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app;
  };
  const minifest = async (app: FastifyInstance) => {
    const response = await app.inject({ url: minifestPath('gfs') });
    return response.statusCode === 200 ? (response.json() as { ref: string; dst: number[][] }) : null;
  };
  const progress = async (app: FastifyInstance) => (await app.inject({ url: LIVE_PROGRESS_PATH })).json() as { runs: object[] };
  const tileOf = (step: number) => tilePath({ directory: 'gfs', refTime: RUN, validTime: RUN + step * HOUR_MS, z: 0, x: 0, y: 0, file: 'wind', level: 'surface', suffix: 'tile' });

  beforeAll(async () => {
    server = await FixtureServer.start();
    // The series' fields in valid-time order, six from 2018-10-08 00Z, as one run's steps.
    const byValid = new Map<number, Uint8Array>();
    for (const [run, steps] of splitByRunAndStep(await readFixture(FIXTURE.gfsWindSeries))) {
      for (const [step, bytes] of steps) byValid.set(run + step * HOUR_MS, bytes);
    }
    for (const step of STEPS) server.putNoaa(gfsDataUrl('', RUN, step, '1p00'), republishGrib(byValid.get(RUN + step * HOUR_MS)!, RUN, step));
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.fault({ path: /f0(0[3-9]|1\d)$/, ranged: true, fault: { kind: 'hold', until: held }, times: Infinity });
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-first-run-'));
  });
  afterAll(async () => {
    release();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the first step while the rest is held upstream, resumes after a restart, then serves the whole run', async () => {
    const first = await start();
    await vi.waitFor(async () => expect(await minifest(first)).not.toBeNull(), { timeout: 20_000, interval: 50 });
    expect(await minifest(first)).toMatchObject({ ref: '2018-10-08T00:00:00.000Z', dst: [[1, 0, 0]] });
    expect((await first.inject({ url: tileOf(0), headers: { 'accept-encoding': 'gzip' } })).statusCode).toBe(200);
    expect((await first.inject({ url: tileOf(3), headers: { 'accept-encoding': 'gzip' } })).statusCode).toBe(404);
    expect((await first.inject({ url: '/forecast/point/gfs/v2.9/50/14' })).json()).toMatchObject({ header: { refTime: RUN }, ts: [RUN] });
    expect(await progress(first)).toEqual({ pending: false, runs: [{ ident: 'gfs', ref: hourStamp(RUN), done: 1, total: STEPS.length, served: 1 }] });

    // The step's tile as built: a restart must not build it again.
    const built = join(dataDir, 'gfs', 'staging', hourStamp(RUN), tileRelPath(RUN, 0, 0, 0, 'wind', 'surface'));
    const builtAt = (await stat(built)).mtimeMs;
    const stopped = first.liveSources!;
    await first.close();
    expect(stopped.progress.list()).toEqual([]);

    server.clearLog();
    release();
    const second = await start();
    await vi.waitFor(async () => expect((await minifest(second))?.dst).toEqual([[3, 0, 15]]), { timeout: 30_000, interval: 50 });
    await vi.waitFor(async () => expect(await progress(second)).toEqual({ pending: false, runs: [] }));
    // Resumed: the first step's bytes were not fetched again, its tiles not written again.
    expect(server.requests(gfsDataUrl('', RUN, 0, '1p00'), true)).toEqual([]);
    expect(server.requests(gfsDataUrl('', RUN, 15, '1p00'), true).length).toBeGreaterThan(0);
    const runs = await readdir(join(dataDir, 'gfs', 'runs'));
    expect(runs).toHaveLength(1);
    expect((await lstat(join(dataDir, 'gfs', 'runs', runs[0], 'tiles'))).isSymbolicLink()).toBe(false);
    expect((await stat(join(dataDir, 'gfs', 'runs', runs[0], tileRelPath(RUN, 0, 0, 0, 'wind', 'surface')))).mtimeMs).toBe(builtAt);
    expect((await second.inject({ url: tileOf(15), headers: { 'accept-encoding': 'gzip' } })).statusCode).toBe(200);
    await second.close();
  }, 120_000);
});
