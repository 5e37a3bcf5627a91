/**
 * Isobar as several processes (issue 17 point 6), for real: PostgreSQL (ISOBAR_TEST_PG_URL, which
 * .ci/run starts), an S3-compatible server (s3rver), two `web` processes and an `ingest` process,
 * and HAProxy from Debian in front of the web processes (tests/cluster.ts). The ingest follows GFS
 * on the fixture server (a whole run built from a real GFS file, server/live/fixtureRun.ts).
 *
 *   1. the run the ingest publishes to object storage is read through both web processes alike;
 *   2. the ingest is killed mid-run (SIGKILL); a second ingest process takes the run's job over and
 *      finishes it;
 *   3. a web process is killed (SIGKILL) under load: no request through the balancer fails beyond
 *      those in flight at the kill (HAProxy retries those, so in practice none fails).
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';
import pg from 'pg';
import { test } from './fixtures.ts';
import { parseMinifest } from '../common/minifest.ts';
import type { ProductsAnswer } from '../common/api/products.ts';
import { FixtureServer } from '../server/live/fixtureServer.ts';
import { GFS_STEPS, newestGfsRun, putGfsRun } from '../server/live/fixtureRun.ts';
import {
  haproxyPresent, killProcess, startHaproxy, startServerProcess, until, type Balancer, type ServerProcess,
} from './cluster.ts';
import { startTestS3, type TestS3 } from '../server/storage/testing.ts';
import { dropSchema } from '../server/db/testing.ts';

const ANALYSIS = fileURLToPath(new URL('../../shared/data/samples/gfs-2p5-full/gfs2p5_20170322T00_f000_full.grib2', import.meta.url));
const PG_URL = process.env.ISOBAR_TEST_PG_URL?.trim();
const missing = [
  existsSync(ANALYSIS) ? null : `GFS fixture ${ANALYSIS}`,
  PG_URL ? null : 'PostgreSQL (ISOBAR_TEST_PG_URL)',
  haproxyPresent() ? null : 'haproxy (Debian package haproxy)',
].filter((m) => m !== null);
if (missing.length > 0 && process.env.ISOBAR_REQUIRE_FIXTURES === '1') throw new Error(`The cluster test needs ${missing.join(', ')} (ISOBAR_REQUIRE_FIXTURES=1)`);

const PORT = Number(process.env.ISOBAR_E2E_PORT ?? 8093) + 20;
const DIR = resolve(process.env.ISOBAR_E2E_DATA_DIR ?? 'var/e2e', 'cluster');
/** The run's length the ingest takes (ISOBAR_SOURCES_HOURS): 3 steps (0, 3, 6), so that the test sees a whole run arrive; each step of the full GFS file takes 7-30 s to build on two loaded cores. */
const FORECAST_HOURS = 6;
const STEPS = GFS_STEPS.filter((s) => s <= FORECAST_HOURS);
/** Steps after this one are held upstream until the first ingest process has been killed. */
const HELD_AFTER = 3;
/** Concurrent clients of the load while a web process is killed. */
const CLIENTS = 16;

test.describe('several processes behind a load balancer', () => {
  test.skip(missing.length > 0, `needs ${missing.join(', ')}`);
  test.describe.configure({ mode: 'serial' });

  const schema = `cluster_${randomBytes(6).toString('hex')}`;
  let s3: TestS3;
  let fixture: FixtureServer;
  let balancer: Balancer;
  const web: ServerProcess[] = [];
  const ingest: ServerProcess[] = [];
  let release: () => void = () => undefined;
  let env: Record<string, string>;

  const log = (name: string) => join(DIR, `${name}.log`);
  const startIngest = (name: string, port: number) =>
    startServerProcess(name, port, log(name), { ...env, ISOBAR_ROLE: 'ingest', ISOBAR_DATA_DIR: join(DIR, name), ISOBAR_SOURCES: 'gfs', ISOBAR_GFS_URL: fixture.url });

  /** The GFS steps the balancer's answer says are served; 0 while GFS is not served. */
  async function servedSteps(base: string): Promise<number> {
    const answer = await fetch(`${base}/metadata/v1.0/products.json`).catch(() => null);
    if (!answer?.ok) return 0;
    const { products } = await answer.json() as ProductsAnswer;
    const gfs = products.find((p) => p.ident === 'gfs');
    return gfs ? parseMinifest(gfs.minifest).timestamps.length : 0;
  }

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await rm(DIR, { recursive: true, force: true });
    await mkdir(DIR, { recursive: true });
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    s3 = await startTestS3();
    fixture = await FixtureServer.start();
    putGfsRun(fixture, new Uint8Array(await readFile(ANALYSIS)), newestGfsRun(Date.now()), STEPS);
    const held = new Promise<void>((done) => {
      release = done;
    });
    const late = STEPS.filter((s) => s > HELD_AFTER).map((s) => String(s).padStart(3, '0'));
    fixture.fault({ path: new RegExp(`\\.f(${late.join('|')})$`), ranged: true, fault: { kind: 'hold', until: held }, times: Infinity });
    env = {
      DATABASE_URL: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      ...s3.env(schema) as Record<string, string>,
      ISOBAR_SHUTDOWN_DELAY_MS: '1000',
      // No observation sources: they would ask the internet, which the tests never do.
      ISOBAR_OBS: 'none',
      ISOBAR_SOURCES_HOURS: String(FORECAST_HOURS),
      // A dead worker's jobs go to another after 4 s (production: 60 s); the queue in a schema of this run's own. At 2 s, an
      // ingest whose step build held its event loop a second on this loaded machine was taken for dead while alive: its
      // round was stopped and handed on, and the third time the round's job ran out of retries (server/ops/slices.ts).
      ISOBAR_JOBS_HEARTBEAT_MS: '500', ISOBAR_JOBS_DEAD_AFTER_MS: '4000', ISOBAR_JOBS_SCHEMA: `${schema}_jobs`,
    };
    // Each process is listed as soon as it runs, so that afterAll ends it whatever fails after.
    await Promise.all([0, 1].map(async (i) => {
      const name = `web${i + 1}`;
      web[i] = await startServerProcess(name, PORT + i, log(name), { ...env, ISOBAR_ROLE: 'web', ISOBAR_DATA_DIR: join(DIR, name) });
    }));
    ingest.push(await startIngest('ingest1', PORT + 2));
    balancer = await startHaproxy(PORT + 3, web, DIR, log('haproxy'));
  });

  test.afterAll(async () => {
    release();
    await Promise.all([...web, ...ingest].filter(Boolean).map((p) => killProcess(p.child, 'SIGTERM')));
    if (balancer) await killProcess(balancer.child, 'SIGTERM');
    await fixture?.close();
    await s3?.close();
    if (PG_URL) await dropSchema(PG_URL, schema, `${schema}_jobs`);
  });

  test('the ingest publishes to object storage; both web processes serve it', async () => {
    test.setTimeout(180_000);
    await until('the first GFS steps are served through the balancer', async () => (await servedSteps(balancer.base)) > 0, 150_000);
    // Each web process reads the store on its own (the list is cached a few seconds): both come to serve the run.
    await until('both web processes serve GFS', async () => (await Promise.all(web.map((w) => servedSteps(w.base)))).every((n) => n > 0), 20_000);
    const answers = await Promise.all(web.map((w) => fetch(`${w.base}/metadata/v1.0/products.json`).then((r) => r.json() as Promise<ProductsAnswer>)));
    const [a, b] = answers.map(({ products }) => products.map((p) => `${p.ident} ${p.ref}`));
    expect(a).toEqual(b);
    expect(a).toContain(`gfs ${answers[0].products.find((p) => p.ident === 'gfs')?.ref}`);
  });

  test('a killed ingest\'s run is finished by another ingest process', async () => {
    test.setTimeout(240_000);
    // A second ingest process beside the first, which holds the run's job (the rest of the run is held upstream).
    ingest.push(await startIngest('ingest2', PORT + 4));
    await killProcess(ingest[0].child);
    release();
    await until('every GFS step is served', async () => (await servedSteps(balancer.base)) === STEPS.length, 220_000, 500);
    // Each web process reads the pointer again within seconds (it caches it briefly).
    for (const w of web) await until(`${w.name} serves every step`, async () => (await servedSteps(w.base)) === STEPS.length, 15_000);
    // The second process took the run over: it fetched the held steps.
    const taken = (await readFile(log('ingest2'), 'utf8')).split('\n').filter((l) => l.includes('"run downloaded"') || l.includes('"run ingested"'));
    expect(taken.length).toBeGreaterThan(0);
  });

  test('a web process killed under load loses no request beyond those in flight', async () => {
    test.setTimeout(60_000);
    const paths = ['/metadata/v1.0/products.json', '/healthz'];
    let stop = false;
    let answered = 0;
    const failures: string[] = [];
    const client = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const path = paths[(i + n) % paths.length];
        try {
          const response = await fetch(`${balancer.base}${path}`);
          await response.arrayBuffer();
          if (response.ok) answered++;
          else failures.push(`${path}: ${response.status}`);
        } catch (error) {
          failures.push(`${path}: ${(error as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    await until('the load is running', async () => answered > 200, 20_000, 50);
    await killProcess(web[0].child);
    const afterKill = answered;
    await until('requests go on after the kill', async () => answered > afterKill + 500, 30_000, 50);
    stop = true;
    await load;
    // In the test's output: what the balancer made of the kill.
    console.log(`load through the balancer while web1 was killed: ${answered} answered, ${failures.length} failed${failures.length ? ` (${failures.slice(0, 3).join('; ')})` : ''}`);
    expect(failures.length, failures.slice(0, 5).join('; ')).toBeLessThanOrEqual(CLIENTS);
  });
});
