/**
 * An ingest process for server/live/sharedRounds.test.ts: follows the fixture server's GFS
 * (ISOBAR_GFS_URL) through the job queue in ISOBAR_TEST_JOBS_SCHEMA, with the shared store in
 * ISOBAR_TEST_STORE and its own scratch directory ISOBAR_DATA_DIR; its ingest says "ingesting
 * <file>" on stdout at the run's first step file and then never ends, so that the test can
 * kill it mid-run (SIGKILL: no goodbye to the queue).
 */

import { startPgBossQueue } from '../jobs/pgBossQueue.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { startScheduler } from './scheduler.ts';
import { SILENT_LOGGER } from './source.ts';
import { fixtureGfsSource, FIXTURE_NOW } from './sharedRoundsTesting.ts';

const { ISOBAR_TEST_PG_URL: url, ISOBAR_TEST_JOBS_SCHEMA: schema, ISOBAR_TEST_STORE: store, ISOBAR_DATA_DIR: dataDir, ISOBAR_GFS_URL: gfsUrl } = process.env;
if (!url || !schema || !store || !dataDir || !gfsUrl) throw new Error('ISOBAR_TEST_PG_URL, ISOBAR_TEST_JOBS_SCHEMA, ISOBAR_TEST_STORE, ISOBAR_DATA_DIR and ISOBAR_GFS_URL must be set');
const jobs = await startPgBossQueue({ url, schema, heartbeatMs: 200, deadAfterMs: 1000, pollMs: 50 });
startScheduler({
  logger: SILENT_LOGGER, dataDir, storage: new LocalDirectoryStore(store), sources: [fixtureGfsSource(gfsUrl)], jobs, now: () => FIXTURE_NOW,
  ingest: async (files) => {
    for await (const file of files) {
      process.stdout.write(`ingesting ${file}\n`);
      break;
    }
    return new Promise<never>(() => {});
  },
});
