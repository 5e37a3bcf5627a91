/**
 * A worker process for server/jobs/pgBossQueue.test.ts: works the live-round queue of the job
 * queue in ISOBAR_TEST_JOBS_SCHEMA with a job that never ends, and says "started <id>" on stdout
 * when it has one, so that the test can kill it mid-job (SIGKILL: no goodbye to the queue).
 */

import { startPgBossQueue } from './pgBossQueue.ts';
import { QUEUES } from './jobQueue.ts';

const url = process.env.ISOBAR_TEST_PG_URL;
const schema = process.env.ISOBAR_TEST_JOBS_SCHEMA;
if (!url || !schema) throw new Error('ISOBAR_TEST_PG_URL and ISOBAR_TEST_JOBS_SCHEMA must be set');
const queue = await startPgBossQueue({ url, schema, heartbeatMs: 200, pollMs: 50 });
await queue.work<{ n: number }, never>(QUEUES.liveRound, (data) => {
  process.stdout.write(`started ${data.n}\n`);
  return new Promise<never>(() => {});
});
process.stdout.write('ready\n');
