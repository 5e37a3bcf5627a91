/**
 * The job queue in PostgreSQL (server/jobs/jobQueue.ts, roles web and ingest): pg-boss 10 keeps the
 * jobs, and every process that works a queue fetches from it one job at a time.
 *
 * Exactly once: the keyed queues (live rounds, alert evaluations) use pg-boss's `stately` policy,
 * a unique index that lets one job per key wait and one run, whichever process sent it; what a
 * job has already done is kept by its own work (a source's last ingested run in the database,
 * server/live/sourceState.ts; the valid times already notified of each alert).
 *
 * A killed worker: pg-boss 10 has no heartbeat, only a job expiry, and a run's ingest may rightly
 * take an hour, so an expiry short enough to retry promptly would also fail healthy ingests. So
 * each queue instance keeps a row in `isobar_workers` (in pg-boss's schema), touched every
 * `heartbeatMs` with the database's clock, and a row in `isobar_claims` per job it is running. At
 * each heartbeat every instance also reaps: the workers not seen for `deadAfterMs` are deleted
 * (one statement, so one reaper wins each), and their claimed jobs are failed through pg-boss,
 * which puts them back for retry at once; another worker fetches them within `pollMs`. A worker
 * that finds its own row gone (it stalled past `deadAfterMs`) aborts its jobs: someone else has
 * them now. The queues' pg-boss expiry stays as a last net for a reaper dying halfway.
 *
 *   isobar_workers (id, seen)                  one row per live queue instance
 *   isobar_claims  (job_id, queue, worker_id)  the jobs each one is running
 */

import { hostname } from 'node:os';
import { createHash, randomBytes } from 'node:crypto';
import type PgBoss from 'pg-boss';
import { realSleep } from '../live/http.ts';
import { MINUTE_MS, SECOND_MS } from '../../common/time.ts';
import { QUEUES, type JobHandler, type JobQueue, type JobRun, type QueueName, type SendOptions } from './jobQueue.ts';

export interface PgBossQueueOptions {
  /** postgres:// URL (DATABASE_URL). */
  url: string;
  /** pg-boss's schema (default pgboss); tests give each case its own. */
  schema?: string;
  /** How often this instance says it is alive and looks for dead ones (default 10 s). */
  heartbeatMs?: number;
  /** A worker not seen for this long is dead and its jobs go to others (default 60 s). */
  deadAfterMs?: number;
  /** Wait between two looks at an empty queue, and between two looks at a job `run` waits on (default 1 s). */
  pollMs?: number;
  /** Where failures of the queue's own work go (a handler's failure is the job's, not logged here). */
  log?: (message: string, error?: unknown) => void;
}

const DEFAULT_HEARTBEAT_MS = 10 * SECOND_MS;
const DEFAULT_DEAD_AFTER_MS = MINUTE_MS;
/** PostgreSQL's unique_violation: a stately queue's second job of a key cannot start while the first runs. */
const UNIQUE_VIOLATION = '23505';
const DEFAULT_POLL_MS = SECOND_MS;
const DEFAULT_SCHEMA = 'pgboss';
/** Connections per instance: one fetch loop per queue, the heartbeat, and sends from requests. */
const POOL_SIZE = 5;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Per queue: pg-boss policy, retries, and the expiry that is the last net (seconds). */
const QUEUE_SETTINGS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  // A round downloads and ingests a whole run: hours at worst.
  [QUEUES.liveRound]: { policy: 'stately', retryLimit: 3, retryDelay: 0, expireInSeconds: 6 * 3600 },
  [QUEUES.alerts]: { policy: 'stately', retryLimit: 3, retryDelay: 0, expireInSeconds: 30 * 60 },
  // Unkeyed: any number of pushes wait. A push service down for a moment is tried again later.
  [QUEUES.push]: { policy: 'standard', retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 5 * 60 },
};

/** Job states after which a job will not run again (pg-boss 10). */
const FINAL_STATES = new Set(['completed', 'cancelled', 'failed']);

/** pg-boss send options for a job's key: a singleton key, and for a key used once a job id made from it. */
function keyOptions(queue: QueueName, options: SendOptions): PgBoss.SendOptions {
  if (options.key === undefined) return {};
  if (!options.once) return { singletonKey: options.key };
  const hex = createHash('sha256').update(`${queue}\n${options.key}`).digest('hex');
  // A UUID-shaped id (version nibble 5, variant 10xx), the same in every process for the same key.
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { singletonKey: options.key, id };
}

/**
 * The queue's settings from the environment: how fast a killed worker's jobs go to another
 * (ISOBAR_JOBS_HEARTBEAT_MS and ISOBAR_JOBS_DEAD_AFTER_MS, defaults 10 s and 60 s) and the schema
 * the queue lives in (ISOBAR_JOBS_SCHEMA, default pgboss: another keeps two installations, or a
 * test's cluster, apart in one database).
 */
export function jobTimingsFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<PgBossQueueOptions, 'heartbeatMs' | 'deadAfterMs' | 'schema'> {
  const schema = env.ISOBAR_JOBS_SCHEMA?.trim() || DEFAULT_SCHEMA;
  if (!IDENTIFIER.test(schema)) throw new Error(`ISOBAR_JOBS_SCHEMA must be a plain SQL name (letters, digits, _), not ${JSON.stringify(schema)}`);
  const heartbeatMs = positiveMs(env, 'ISOBAR_JOBS_HEARTBEAT_MS', DEFAULT_HEARTBEAT_MS);
  const deadAfterMs = positiveMs(env, 'ISOBAR_JOBS_DEAD_AFTER_MS', DEFAULT_DEAD_AFTER_MS);
  // A live worker must be seen at least twice within the time after which it is declared dead.
  if (deadAfterMs < 2 * heartbeatMs) {
    throw new Error(`ISOBAR_JOBS_DEAD_AFTER_MS (${deadAfterMs}) must be at least twice ISOBAR_JOBS_HEARTBEAT_MS (${heartbeatMs})`);
  }
  return { heartbeatMs, deadAfterMs, schema };
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number of milliseconds > 0, not ${JSON.stringify(text)}`);
  return value;
}

interface Running {
  queue: QueueName;
  abort: AbortController;
}

/** PostgreSQL errors of two sessions creating the same objects at once: deadlock, unique violation, duplicate table/object. */
const CREATION_RACE_CODES: ReadonlySet<string> = new Set(['40P01', '23505', '42P07', '42710']);
const CREATION_TRIES = 6;
const CREATION_RETRY_MS = 50;

async function retryCreationRace(create: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await create();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= CREATION_TRIES || typeof code !== 'string' || !CREATION_RACE_CODES.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, CREATION_RETRY_MS * attempt * (1 + Math.random())));
    }
  }
}

export async function startPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (!IDENTIFIER.test(schema)) throw new Error(`Bad job queue schema name ${JSON.stringify(schema)}`);
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const deadAfterMs = options.deadAfterMs ?? DEFAULT_DEAD_AFTER_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const log = options.log ?? (() => {});
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  // Imported here, not with the module: only servers of a PostgreSQL deployment run this queue
  // (pg-boss and pg took ~110 ms of every server start).
  const { default: Boss } = await import('pg-boss');
  // No cron schedules: the live loops send their rounds themselves.
  const boss = new Boss({ connectionString: options.url, schema, max: POOL_SIZE, schedule: false });
  boss.on('error', (error) => log('job queue maintenance failed', error));
  await boss.start();
  const db = boss.getDb();
  // Processes that start together race to make the same tables and queues: the loser of such a
  // race (a deadlock, or a name made meanwhile) tries again and then finds them made.
  await retryCreationRace(async () => {
    await db.executeSql(`
      CREATE TABLE IF NOT EXISTS ${schema}.isobar_workers (id TEXT PRIMARY KEY, seen TIMESTAMPTZ NOT NULL);
      CREATE TABLE IF NOT EXISTS ${schema}.isobar_claims (
        job_id UUID PRIMARY KEY,
        queue TEXT NOT NULL,
        worker_id TEXT NOT NULL REFERENCES ${schema}.isobar_workers (id) ON DELETE CASCADE
      )`, []);
    for (const [name, settings] of Object.entries(QUEUE_SETTINGS)) await boss.createQueue(name, { name, ...settings });
  });

  const stopper = new AbortController();
  const running = new Map<string, Running>();
  const loops: Promise<void>[] = [];

  const touch = () => db.executeSql(
    `INSERT INTO ${schema}.isobar_workers (id, seen) VALUES ($1, now()) ON CONFLICT (id) DO UPDATE SET seen = now() RETURNING (xmax = 0) AS inserted`,
    [workerId],
  );
  await touch();

  /** Fails the jobs of workers not seen for deadAfterMs, so that pg-boss retries them elsewhere. */
  async function reap(): Promise<void> {
    const { rows } = await db.executeSql(
      `WITH dead AS (DELETE FROM ${schema}.isobar_workers WHERE seen < now() - make_interval(secs => $1) RETURNING id)
       SELECT c.job_id, c.queue, c.worker_id FROM ${schema}.isobar_claims c WHERE c.worker_id IN (SELECT id FROM dead)`,
      [deadAfterMs / SECOND_MS],
    );
    for (const row of rows as Array<{ job_id: string; queue: string; worker_id: string }>) {
      await boss.fail(row.queue, row.job_id, { message: `worker ${row.worker_id} stopped answering; handed to another` });
      log(`job ${row.job_id} of dead worker ${row.worker_id} handed back to ${row.queue}`);
    }
  }

  async function heartbeat(): Promise<void> {
    const { rows } = await touch();
    if ((rows[0] as { inserted: boolean }).inserted && running.size > 0) {
      // Declared dead while stalled: the running jobs were handed to others.
      log(`this worker (${workerId}) was declared dead; its ${running.size} running job(s) are stopped`);
      for (const job of running.values()) job.abort.abort(new Error('This worker was declared dead; its job went to another'));
    }
    await reap();
  }

  loops.push((async () => {
    while (!stopper.signal.aborted) {
      await heartbeat().catch((error: unknown) => log('job queue heartbeat failed', error));
      await realSleep(heartbeatMs, stopper.signal).catch(() => undefined);
    }
  })());

  async function workOne<T, R>(queue: QueueName, handler: JobHandler<T, R>, job: PgBoss.Job<T>): Promise<void> {
    const abort = new AbortController();
    running.set(job.id, { queue, abort });
    await db.executeSql(`INSERT INTO ${schema}.isobar_claims (job_id, queue, worker_id) VALUES ($1, $2, $3) ON CONFLICT (job_id) DO UPDATE SET worker_id = excluded.worker_id`, [job.id, queue, workerId]);
    try {
      const output = await handler(job.data, AbortSignal.any([stopper.signal, abort.signal]));
      if (!abort.signal.aborted) await boss.complete(queue, job.id, { value: output ?? null });
    } catch (error) {
      // Stopping hands the job back (retried elsewhere); declared dead, it is someone else's already.
      if (!abort.signal.aborted) await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) });
    } finally {
      running.delete(job.id);
      await db.executeSql(`DELETE FROM ${schema}.isobar_claims WHERE job_id = $1 AND worker_id = $2`, [job.id, workerId]).catch(() => undefined);
    }
  }

  /** Sends a job; null when its key is taken (or, `alone`, busy). */
  async function sendJob(queue: QueueName, data: unknown, sendOptions: SendOptions): Promise<string | null> {
    if (sendOptions.alone && sendOptions.key !== undefined) {
      // A look, then the send: two senders racing past it still make at most one waiting job (stately).
      const { rows } = await db.executeSql(
        `SELECT 1 FROM ${schema}.job WHERE name = $1 AND singleton_key = $2 AND state <= 'active' LIMIT 1`, [queue, sendOptions.key],
      );
      if (rows.length > 0) return null;
    }
    return boss.send(queue, data as object, keyOptions(queue, sendOptions));
  }

  return {
    kind: 'postgres',
    async work<T, R>(queue: QueueName, handler: JobHandler<T, R>) {
      loops.push((async () => {
        while (!stopper.signal.aborted) {
          const [job] = await boss.fetch<T>(queue, { batchSize: 1 }).catch((error: unknown) => {
            // The oldest waiting job's key is running elsewhere: it starts once that one ends.
            if ((error as { code?: string }).code !== UNIQUE_VIOLATION) log(`fetching from ${queue} failed`, error);
            return [];
          });
          if (job) await workOne(queue, handler, job).catch((error: unknown) => log(`job ${job.id} of ${queue} could not be settled`, error));
          else await realSleep(pollMs, stopper.signal).catch(() => undefined);
        }
      })());
    },
    async send(queue, data, sendOptions: SendOptions = {}) {
      return (await sendJob(queue, data, sendOptions)) !== null;
    },
    async run<T, R>(queue: QueueName, data: T, sendOptions: SendOptions = {}): Promise<JobRun<R>> {
      const id = await sendJob(queue, data, sendOptions);
      if (id === null) return { kind: 'duplicate' };
      for (;;) {
        const job = await boss.getJobById<T>(queue, id, { includeArchive: true });
        if (job && FINAL_STATES.has(job.state)) {
          const output = job.output as { value?: R; message?: string } | null;
          if (job.state === 'completed') return { kind: 'done', output: output?.value as R };
          throw new Error(`Job ${queue} ${id} ${job.state}: ${output?.message ?? 'no reason given'}`);
        }
        await realSleep(pollMs, stopper.signal);
      }
    },
    async waiting(queue) {
      return boss.getQueueSize(queue);
    },
    async stop() {
      stopper.abort(new Error('The job queue is stopped'));
      await Promise.all(loops);
      await db.executeSql(`DELETE FROM ${schema}.isobar_workers WHERE id = $1`, [workerId]).catch(() => undefined);
      await boss.stop({ graceful: false, wait: true });
    },
  };
}
