/**
 * The whole live-source path, end to end: buildApp with sources pointed at the fixture server (the
 * upstream URL layouts, indexes generated from real GRIB2 fixtures) -> the scheduler starts on
 * listen -> download -> ingest into the data directory the routes read -> minifest, tiles and
 * point forecasts served without a restart. Then a download broken mid-file (and a 503) leaves the
 * previous run serving, and the next round resumes without fetching again what it had completed.
 *
 * Upstream here: NOAA GFS 1° 10 m wind (the 2018-10 series, runs 12Z and 18Z of 16 October, steps
 * +0 and +3) and ECMWF IFS 2 m temperature (the tiny ECMWF fixture republished as the same runs).
 */

import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeDataTile } from '../../common/tile.ts';
import { minifestPath } from '../../common/api/products.ts';
import { tilePath } from '../../common/api/tiles.ts';
import { tileBounds, TILE_NODES } from '../../common/tiling.ts';
import { buildApp } from '../app.ts';
import { loadEngine } from '../ingest/engine.ts';
import { engineGribReader } from '../ingest/fields.ts';
import { createEcmwfSource, ecmwfDataUrl, ecmwfField, ecmwfIndexUrl } from './ecmwf.ts';
import { createGfsSource, gfsDataUrl, noaaField } from './gfs.ts';
import { SourceHttp, type Sleep } from './http.ts';
import { readSourceState } from './scheduler.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { runFolderPath } from './runFolder.ts';
import { FixtureServer, type RequestRecord } from './fixtureServer.ts';
import { describeWithFixtures, FIXTURE, readFixture, splitByRunAndStep, untilAborted } from './testing.ts';
import { republishGrib } from './fixtureIndex.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';

const R12 = Date.UTC(2018, 9, 16, 12);
const R18 = Date.UTC(2018, 9, 16, 18);
const STEPS = [0, 3];
const SCHEDULE = { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 24 };
const RETRY_DELAY = 10 * MINUTE_MS;

/** The scheduler's waits between rounds, released by the test; each call is recorded with its delay. */
function manualSleep() {
  const pending: { ms: number; resolve: () => void }[] = [];
  const sleep: Sleep = (ms, signal) => new Promise<void>((resolve, reject) => {
    pending.push({ ms, resolve });
    untilAborted(signal).catch(reject);
  });
  /** The next `count` waits, once that many rounds have ended. */
  const next = async (count: number) => {
    for (let i = 0; pending.length < count; i++) {
      if (i > 15_000) throw new Error(`${pending.length} of ${count} rounds ended`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return pending.splice(0, count);
  };
  return { sleep, next };
}

interface LogLine { level: number; msg: string; source?: string; [key: string]: unknown }

describeWithFixtures('live sources in the server, against the fixture server', () => {
  let server: FixtureServer;
  let dataDir: string;
  let app: FastifyInstance;
  let gfsSteps: Map<number, Map<number, Uint8Array>>;
  let ecmwfStep: (refTime: number, step: number) => Uint8Array;
  const logs: LogLine[] = [];
  const sleeper = manualSleep();
  // The waits of the rounds that ended last, released to start the next ones.
  let held: { ms: number; resolve: () => void }[] = [];
  const nextRounds = async () => {
    for (const wait of held) wait.resolve();
    held = await sleeper.next(2);
    return held.map((wait) => wait.ms);
  };
  // The scheduler's clock; the routes' clock stays put, so only the scheduler's refresh shows a new run.
  let time = R12 + 5 * HOUR_MS;

  const get = (url: string) => app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
  const minifest = async (directory: string) => {
    const response = await get(minifestPath(directory));
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { ref: string; dst: number[][]; layers: Record<string, string[]> };
  };
  const decoded = async (bytes: Uint8Array) => {
    const reader = engineGribReader(await loadEngine());
    return Promise.all(reader.inventory(bytes).map(async (info) => ({ info, ...(await reader.decode(bytes, info)) })));
  };
  /** The value of a decoded field at a grid node. */
  const at = (field: Awaited<ReturnType<typeof decoded>>[number], lat: number, lon: number) => {
    const { grid, values } = field;
    return values[Math.round((grid.lat0 - lat) / grid.dLat) * grid.ni + Math.round((lon - grid.lon0) / grid.dLon)];
  };
  const ranged = (records: RequestRecord[], path: string) => records.filter((r) => r.path === path && r.range !== null);

  beforeAll(async () => {
    server = await FixtureServer.start();
    gfsSteps = splitByRunAndStep(await readFixture(FIXTURE.gfsWindSeries));
    for (const run of [R12, R18]) for (const step of STEPS) server.putNoaa(gfsDataUrl('', run, step, '1p00'), gfsSteps.get(run)!.get(step)!);
    const ecmwf2t = await readFixture(FIXTURE.ecmwf2t);
    ecmwfStep = (run, step) => republishGrib(ecmwf2t, run, step);
    for (const run of [R12, R18]) for (const step of STEPS) server.putEcmwf(ecmwfDataUrl('', 'ifs', run, step), ecmwfStep(run, step));

    dataDir = await mkdtemp(join(tmpdir(), 'isobar-live-'));
    const now = () => time;
    app = await buildApp({
      now: () => R12 + 5 * HOUR_MS, distDir: null, prewarm: false, dataDir,
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } },
      liveSources: {
        sources: [
          createGfsSource({ baseUrl: server.url, grid: '1p00', steps: STEPS, fields: [noaaField('UGRD', '10 m above ground'), noaaField('VGRD', '10 m above ground')], schedule: SCHEDULE }),
          createEcmwfSource({ baseUrl: server.url, steps: STEPS, fields: [ecmwfField('2t')], schedule: SCHEDULE }),
        ],
        now, sleep: sleeper.sleep, random: () => 0, retryDelayMs: RETRY_DELAY,
        // Back-off between HTTP retries takes no time here.
        http: new SourceHttp({ now, sleep: async (_ms, signal) => signal?.throwIfAborted(), random: () => 0 }),
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('starts nothing before the server listens', async () => {
    expect(app.liveSources).toBeNull();
    expect((await get(minifestPath('gfs'))).statusCode).toBe(404);
    expect(server.log).toEqual([]);
  });

  it('on listen, one round per source downloads and ingests the newest complete run, served at once', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(app.liveSources).not.toBeNull();
    // Both rounds done: the next is due when the 00Z runs should be out (00Z + 60 min, from 17Z).
    expect(await nextRounds()).toEqual([8 * HOUR_MS, 8 * HOUR_MS]);

    const gfs = await minifest('gfs');
    expect(gfs).toMatchObject({ ref: '2018-10-16T12:00:00.000Z', dst: [[3, 0, 3]], layers: { wind: ['surface'] } });
    const ecmwf = await minifest('ecmwf-hres');
    expect(ecmwf).toMatchObject({ ref: '2018-10-16T12:00:00.000Z', dst: [[3, 0, 3]], layers: { temp: ['surface'] } });

    // A tile of the +3 h step decodes, and agrees with the point forecast where it has a node.
    const tile = await get(tilePath({ directory: 'gfs', refTime: R12, validTime: R12 + 3 * HOUR_MS, z: 0, x: 0, y: 0, file: 'wind', level: 'surface', suffix: 'tile' }));
    expect(tile.statusCode).toBe(200);
    const data = decodeDataTile(gunzipSync(tile.rawPayload));
    expect(data.header.channels).toBe(2);
    const { west, east, north, south } = tileBounds({ z: 0, x: 0, y: 0 });
    const [j, i] = [70, 180];
    const lat = north - (j * (north - south)) / (TILE_NODES - 1);
    const lon = west + (i * (east - west)) / (TILE_NODES - 1);
    const near = (await get(`/forecast/point/gfs/v2.9/${lat.toFixed(6)}/${lon.toFixed(6)}`)).json() as { data: Record<string, number[]> };
    expect(data.channels[0][j * TILE_NODES + i]).toBeCloseTo(near.data.wind_u[1], 0);
    expect(data.channels[1][j * TILE_NODES + i]).toBeCloseTo(near.data.wind_v[1], 0);

    // The point forecast at a grid node gives the upstream values of each step.
    const point = await get('/forecast/point/gfs/v2.9/50/14');
    expect(point.statusCode).toBe(200);
    const body = point.json() as { header: { refTime: number; units: Record<string, string> }; ts: number[]; data: Record<string, number[]> };
    expect(body.header).toMatchObject({ refTime: R12, units: { wind: 'm/s' } });
    expect(body.ts).toEqual([R12, R12 + 3 * HOUR_MS]);
    for (const [k, step] of STEPS.entries()) {
      const [u, v] = await decoded(gfsSteps.get(R12)!.get(step)!);
      expect(body.data.wind_u[k]).toBeCloseTo(at(u, 50, 14), 1);
      expect(body.data.wind_v[k]).toBeCloseTo(at(v, 50, 14), 1);
    }
    const temp = (await get('/forecast/point/ecmwf/v2.9/40/10')).json() as { ts: number[]; data: Record<string, number[]> };
    expect(temp.ts).toEqual([R12, R12 + 3 * HOUR_MS]);
    const [t2m] = await decoded(ecmwfStep(R12, 0));
    expect(temp.data.temp[0]).toBeCloseTo(at(t2m, 40, 10), 1);

    // Progress went to the server's log; the downloads are gone once ingested.
    const messages = logs.map((l) => l.msg);
    for (const msg of ['live sources started', 'downloading run', 'download progress', 'ingest progress', 'run ingested']) expect(messages).toContain(msg);
    expect(logs.filter((l) => l.msg === 'run ingested').map((l) => l.source).sort()).toEqual(['ecmwf', 'gfs']);
    expect((await readSourceState(new LocalDirectoryStore(dataDir), 'gfs'))?.refTime).toBe(R12);
    expect(existsSync(runFolderPath(join(dataDir, 'downloads/gfs'), R12))).toBe(false);
  });

  it('a download cut mid-file (GFS) or refused with 503 (ECMWF) leaves the previous run serving', async () => {
    time = R18 + 5 * HOUR_MS;
    const gfs003 = gfsDataUrl('', R18, 3, '1p00');
    server.fault({ path: gfs003, ranged: true, fault: { kind: 'truncate', afterBytes: 40_000 }, times: Infinity });
    server.fault({ path: ecmwfDataUrl('', 'ifs', R18, 3), ranged: true, fault: { kind: 'status', status: 503 }, times: Infinity });
    server.clearLog();
    const logged = logs.length;
    expect(await nextRounds()).toEqual([RETRY_DELAY, RETRY_DELAY]);

    const failures = logs.slice(logged).filter((l) => l.msg === 'live source round failed; retrying next round');
    expect(failures.map((l) => l.source).sort()).toEqual(['ecmwf', 'gfs']);
    // Every try of the cut file got bytes, none the whole file.
    const cut = ranged(server.log, gfs003);
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.every((r) => !r.completed && r.bytes === 40_000)).toBe(true);

    // Still the 12Z runs, whole.
    expect((await minifest('gfs')).ref).toBe('2018-10-16T12:00:00.000Z');
    expect((await minifest('ecmwf-hres')).ref).toBe('2018-10-16T12:00:00.000Z');
    const tile = await get(tilePath({ directory: 'gfs', refTime: R12, validTime: R12, z: 0, x: 0, y: 0, file: 'wind', level: 'surface', suffix: 'tile' }));
    expect(tile.statusCode).toBe(200);
    expect((await get('/forecast/point/gfs/v2.9/50/14')).json()).toMatchObject({ header: { refTime: R12 } });
    // The +0 h steps of the 18Z runs are complete on disk.
    for (const source of ['gfs', 'ecmwf']) {
      expect(existsSync(join(runFolderPath(join(dataDir, 'downloads', source), R18), 'f000.done.json'))).toBe(true);
      expect(existsSync(join(runFolderPath(join(dataDir, 'downloads', source), R18), 'f003.done.json'))).toBe(false);
    }
  });

  it('the next round resumes: only the missing step is fetched, then the new run is served at once', async () => {
    server.clearFaults();
    const before = server.log.length;
    time += RETRY_DELAY;
    // Next due: the 06Z runs (06Z + 60 min, from 23:10Z).
    expect(await nextRounds()).toEqual([8 * HOUR_MS - 10 * MINUTE_MS, 8 * HOUR_MS - 10 * MINUTE_MS]);

    // This round asked upstream for nothing but the byte ranges of +3 h: no index, no +0 h.
    const resumed = server.log.slice(before);
    expect(resumed.map((r) => [r.method, r.path, r.status])).toEqual(expect.arrayContaining([
      ['GET', gfsDataUrl('', R18, 3, '1p00'), 206], ['GET', ecmwfDataUrl('', 'ifs', R18, 3), 206],
    ]));
    expect(resumed).toHaveLength(2);
    // Over both rounds, each index and each completed byte range was fetched once.
    for (const path of [gfsDataUrl('', R18, 0, '1p00'), ecmwfDataUrl('', 'ifs', R18, 0)]) {
      expect(ranged(server.log, path).map((r) => r.completed)).toEqual([true]);
    }
    for (const path of [`${gfsDataUrl('', R18, 0, '1p00')}.idx`, `${gfsDataUrl('', R18, 3, '1p00')}.idx`,
      ecmwfIndexUrl(ecmwfDataUrl('', 'ifs', R18, 0)), ecmwfIndexUrl(ecmwfDataUrl('', 'ifs', R18, 3))]) {
      expect(server.log.filter((r) => r.path === path && r.method === 'GET')).toHaveLength(1);
    }

    // The routes' clock has not moved: the new runs show because the scheduler told the server.
    expect(await minifest('gfs')).toMatchObject({ ref: '2018-10-16T18:00:00.000Z', dst: [[3, 0, 3]] });
    expect(await minifest('ecmwf-hres')).toMatchObject({ ref: '2018-10-16T18:00:00.000Z', dst: [[3, 0, 3]] });
    const point = (await get('/forecast/point/gfs/v2.9/50/14')).json() as { header: { refTime: number }; data: Record<string, number[]> };
    expect(point.header.refTime).toBe(R18);
    const [u] = await decoded(gfsSteps.get(R18)!.get(3)!);
    expect(point.data.wind_u[1]).toBeCloseTo(at(u, 50, 14), 1);
    for (const ref of [R18, R12]) {
      // The new run, and the one before for clients still on its minifest.
      const tile = await get(tilePath({ directory: 'gfs', refTime: ref, validTime: ref + 3 * HOUR_MS, z: 0, x: 0, y: 0, file: 'wind', level: 'surface', suffix: 'tile' }));
      expect(tile.statusCode).toBe(200);
      expect(decodeDataTile(gunzipSync(tile.rawPayload)).header.channels).toBe(2);
    }
    expect((await readSourceState(new LocalDirectoryStore(dataDir), 'gfs'))?.refTime).toBe(R18);
    expect(JSON.parse(await readFile(join(dataDir, 'downloads/ecmwf/state.json'), 'utf8'))).toMatchObject({ refTime: R18 });
  });

  it('stops with the server', async () => {
    const scheduler = app.liveSources;
    await app.close();
    await scheduler?.done;
    expect(existsSync(join(dataDir, 'downloads/.lock'))).toBe(false);
  });
});

describe('buildApp and ISOBAR_SOURCES', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('starts the sources ISOBAR_SOURCES names when the server listens, with the server\'s log and data directory', async () => {
    vi.stubEnv('ISOBAR_SOURCES', 'icon');
    const logs: LogLine[] = [];
    const dataDir = await mkdtemp(join(tmpdir(), 'isobar-live-env-'));
    const app = await buildApp({
      distDir: null, prewarm: false, dataDir, logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } },
    });
    try {
      expect(app.liveSources).toBeNull();
      await app.listen({ port: 0, host: '127.0.0.1' });
      // ICON global is refused (icosahedral grid), so nothing is downloaded here.
      expect(app.liveSources).not.toBeNull();
      expect(logs.find((l) => l.msg === 'live source not started')).toMatchObject({ source: 'icon', reason: expect.stringMatching(/icosahedral/) });
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts nothing with ISOBAR_SOURCES=none, without a data directory for the default set, or when told not to', async () => {
    for (const [env, liveSources] of [['none', undefined], ['none', null], ['', undefined]] as const) {
      vi.stubEnv('ISOBAR_SOURCES', env);
      const app = await buildApp({ distDir: null, prewarm: false, dataDir: null, liveSources });
      await app.listen({ port: 0, host: '127.0.0.1' });
      expect(app.liveSources).toBeNull();
      await app.close();
    }
  });

  it('with the default set, follows the upstreams that answer the probe after listen, else logs one line and serves the demo', async () => {
    const upstream = await FixtureServer.start();
    // An upstream that is down: every connection is reset. (A closed server's freed port could be
    // taken by another test's server meanwhile, which would then answer the probe.)
    const down = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    const dataDir = await mkdtemp(join(tmpdir(), 'isobar-live-probe-'));
    const logs: LogLine[] = [];
    const logger = { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } };
    // The next round never comes; the server's close ends the wait.
    const never = (_ms: number, signal?: AbortSignal): Promise<void> => untilAborted(signal);
    const apps: FastifyInstance[] = [];
    try {
      const offline = await buildApp({
        distDir: null, prewarm: false, dataDir, logger,
        liveSources: { probe: true, sources: [createGfsSource({ baseUrl: downUrl }), createEcmwfSource({ baseUrl: downUrl })], sleep: never },
      });
      apps.push(offline);
      await offline.listen({ port: 0, host: '127.0.0.1' });
      await vi.waitFor(() => expect(logs.filter((l) => /no upstream answered/.test(l.msg))).toHaveLength(1), { timeout: 20_000 });
      expect(offline.liveSources).toBeNull();
      expect((await offline.inject({ url: minifestPath('demo') })).statusCode).toBe(200);
      await offline.close();

      const online = await buildApp({
        distDir: null, prewarm: false, dataDir, logger,
        liveSources: { probe: true, sources: [createGfsSource({ baseUrl: upstream.url }), createEcmwfSource({ baseUrl: downUrl })], sleep: never },
      });
      apps.push(online);
      await online.listen({ port: 0, host: '127.0.0.1' });
      await vi.waitFor(() => expect(online.liveSources).not.toBeNull(), { timeout: 20_000 });
      // Only GFS answered: its index was asked for (404 here: an empty mirror still answers).
      expect(upstream.requests(/\.idx$/).length).toBeGreaterThan(0);
      expect(logs.find((l) => l.msg === 'live sources started')).toMatchObject({ sources: ['gfs'] });
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await upstream.close();
      await new Promise<void>((resolve) => down.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses live sources without a data directory, and a bad configuration', async () => {
    vi.stubEnv('ISOBAR_SOURCES', 'gfs');
    await expect(buildApp({ distDir: null, prewarm: false, dataDir: null })).rejects.toThrow(/need a data directory/);
    vi.stubEnv('ISOBAR_SOURCES', 'nam');
    await expect(buildApp({ distDir: null, prewarm: false, dataDir: null })).rejects.toThrow(/unknown source "nam"/);
  });
});
