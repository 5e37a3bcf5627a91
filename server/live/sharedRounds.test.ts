/**
 * Live rounds as jobs of the PostgreSQL queue (issue 17 point 3): two ingest processes, each with
 * its own queue instance and scratch data directory, one shared store, follow GFS on the fixture
 * server. A run is ingested once between them; a process killed mid-run has its round finished by
 * the other. Needs ISOBAR_TEST_PG_URL and the GRIB2 fixtures.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { dropSchema, testPostgresUrl } from '../db/testing.ts';
import { startPgBossQueue } from '../jobs/pgBossQueue.ts';
import { jobSchemaName, spawnWorker } from '../jobs/testing.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { FixtureServer } from './fixtureServer.ts';
import { gfsDataUrl } from './gfs.ts';
import { readSourceState, startScheduler, type IngestFn, type Scheduler } from './scheduler.ts';
import { fixtureGfsSource, FIXTURE_NOW, FIXTURE_RUN, FIXTURE_STEPS } from './sharedRoundsTesting.ts';
import { SILENT_LOGGER } from './source.ts';
import { describeWithFixtures, FIXTURE, readFixture, splitByRunAndStep } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const url = testPostgresUrl();
const WORKER = fileURLToPath(new URL('./testRoundWorker.ts', import.meta.url));
/** Long enough that no loop tries a second round while a case runs. */
const RETRY_DELAY_MS = HOUR_MS;

describeWithFixtures('live rounds as jobs in PostgreSQL, two ingest processes', () => {
  let cleanup: Array<() => Promise<unknown>> = [];
  let server: FixtureServer;
  let root: string;
  let schema: string;
  let store: LocalDirectoryStore;

  beforeEach(async () => {
    server = await FixtureServer.start();
    const series = splitByRunAndStep(await readFixture(FIXTURE.gfsWindSeries));
    for (const [run, steps] of series) for (const [step, bytes] of steps) server.putNoaa(gfsDataUrl('', run, step, '1p00'), bytes);
    root = await mkdtemp(join(tmpdir(), 'isobar-shared-rounds-'));
    store = new LocalDirectoryStore(join(root, 'store'));
    schema = jobSchemaName();
    cleanup = [() => rm(root, { recursive: true, force: true }), () => server.close(), () => dropSchema(url!, schema)];
  });
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  /** The ingest of one process: records the run and its step files' contents, and answers at once. */
  function ingestSpy(calls: { process: string; steps: number }[], name: string): IngestFn {
    return async (files, options) => {
      let steps = 0;
      for await (const file of files) steps += (await readFile(file)).length > 0 ? 1 : 0;
      calls.push({ process: name, steps });
      return { product: options.product ?? '', refTime: FIXTURE_RUN, steps: FIXTURE_STEPS, variables: ['wind'], tiles: 1, ms: 1 };
    };
  }

  /** An ingest process in this one: its own queue instance and scratch directory, the shared store. */
  async function ingestProcess(name: string, ingest: IngestFn): Promise<Scheduler> {
    const jobs = await startPgBossQueue({ url: url!, schema, heartbeatMs: 200, deadAfterMs: 1000, pollMs: 50 });
    const scheduler = startScheduler({
      logger: SILENT_LOGGER, dataDir: join(root, name), storage: store, sources: [fixtureGfsSource(server.url)], jobs,
      ingest, now: () => FIXTURE_NOW, random: () => 0, retryDelayMs: RETRY_DELAY_MS,
    });
    cleanup.push(async () => {
      await scheduler.stop();
      await jobs.stop();
    });
    return scheduler;
  }

  it.skipIf(!url)('a run is ingested once between two processes, and neither takes it again', async () => {
    const calls: { process: string; steps: number }[] = [];
    const a = await ingestProcess('a', ingestSpy(calls, 'a'));
    const b = await ingestProcess('b', ingestSpy(calls, 'b'));
    // Both loops' first rounds, sent at once: one ingests, the other finds it busy or done.
    await vi.waitFor(async () => expect((await readSourceState(store, 'gfs'))?.refTime).toBe(FIXTURE_RUN), { timeout: 10_000 });
    expect(calls).toHaveLength(1);
    expect(calls[0].steps).toBe(FIXTURE_STEPS.length);
    // A round asked once the first round's job has ended (it writes the state just before), on
    // either, finds the run ingested (the state is in the shared store).
    await vi.waitFor(async () => expect(await a.runRound('gfs')).toEqual({ kind: 'none', lastRefTime: FIXTURE_RUN }), { timeout: 5_000 });
    expect(await b.runRound('gfs')).toEqual({ kind: 'none', lastRefTime: FIXTURE_RUN });
    expect(calls).toHaveLength(1);
  });

  it.skipIf(!url)('the round of a process killed mid-run is finished by the other', async () => {
    const killed = spawnWorker(WORKER, {
      ISOBAR_TEST_PG_URL: url!, ISOBAR_TEST_JOBS_SCHEMA: schema, ISOBAR_TEST_STORE: store.localRoot,
      ISOBAR_DATA_DIR: join(root, 'killed'), ISOBAR_GFS_URL: server.url,
    });
    cleanup.push(async () => killed.kill());
    await killed.line('ingesting');
    killed.kill();
    const killedAt = performance.now();
    const calls: { process: string; steps: number }[] = [];
    await ingestProcess('survivor', ingestSpy(calls, 'survivor'));
    // The survivor's own first round finds the killed one's round still there and waits; the
    // killed process is declared dead (1 s unseen) and its round handed to the survivor.
    await vi.waitFor(async () => expect((await readSourceState(store, 'gfs'))?.refTime).toBe(FIXTURE_RUN), { timeout: 10_000 });
    expect(calls).toEqual([{ process: 'survivor', steps: FIXTURE_STEPS.length }]);
    expect(performance.now() - killedAt).toBeLessThan(8000);
  });
});
