import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropSchema, testPostgresUrl } from '../db/testing.ts';
import { inProcessJobQueue, QUEUES, type JobQueue } from './jobQueue.ts';
import { jobTimingsFromEnv, startPgBossQueue, type PgBossQueueOptions } from './pgBossQueue.ts';
import { jobSchemaName, spawnWorker } from './testing.ts';

const url = testPostgresUrl();
const WORKER = fileURLToPath(new URL('./testWorker.ts', import.meta.url));

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

it('the in-process queue runs jobs one at a time per queue, in order, and answers their results', async () => {
  const queue = inProcessJobQueue();
  const order: string[] = [];
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await queue.work<{ n: number }, number>(QUEUES.liveRound, async ({ n }) => {
    order.push(`start ${n}`);
    if (n === 1) await gate;
    order.push(`end ${n}`);
    return n * 10;
  });
  await queue.work<{ n: number }, void>(QUEUES.alerts, async ({ n }) => {
    order.push(`alert ${n}`);
  });
  const first = queue.run(QUEUES.liveRound, { n: 1 });
  const second = queue.run(QUEUES.liveRound, { n: 2 });
  await vi.waitFor(() => expect(order).toEqual(['start 1']));
  expect(await queue.waiting(QUEUES.liveRound)).toBe(1);
  await queue.run(QUEUES.alerts, { n: 3 });
  release();
  expect(await first).toEqual({ kind: 'done', output: 10 });
  expect(await second).toEqual({ kind: 'done', output: 20 });
  // The alert ran while the first round was held; the rounds never overlapped.
  expect(order).toEqual(['start 1', 'alert 3', 'end 1', 'start 2', 'end 2']);
  await expect(queue.run(QUEUES.push, {})).rejects.toThrow(/No worker for the queue "push-send"/);
  await queue.stop();
});

describe.skipIf(!url)('the job queue in PostgreSQL (pg-boss), two instances as two processes', () => {
  const schema = jobSchemaName;

  async function instance(jobSchema: string, options: Partial<PgBossQueueOptions> = {}): Promise<JobQueue> {
    const queue = await startPgBossQueue({ url: url!, schema: jobSchema, heartbeatMs: 200, deadAfterMs: 1000, pollMs: 50, ...options });
    cleanup.push(() => queue.stop());
    return queue;
  }

  async function twoInstances(): Promise<[JobQueue, JobQueue]> {
    const jobSchema = schema();
    cleanup.push(() => dropSchema(url!, jobSchema));
    const a = await instance(jobSchema);
    return [a, await instance(jobSchema)];
  }

  it('instances that start at the same moment on a new schema all start (processes started together race to make the queues)', async () => {
    const jobSchema = schema();
    cleanup.push(() => dropSchema(url!, jobSchema));
    const queues = await Promise.all([0, 1, 2].map(() => instance(jobSchema)));
    expect(await Promise.all(queues.map((q) => q.waiting(QUEUES.liveRound)))).toEqual([0, 0, 0]);
  });

  it('a job sent by both runs exactly once, on one of them; distinct jobs each run once', async () => {
    const [a, b] = await twoInstances();
    const runs: string[] = [];
    const handler = (who: string) => async ({ n }: { n: number }) => {
      runs.push(`${n} on ${who}`);
    };
    // Sent before anyone works the queue: a job already started would let the other wait (stately).
    const sent = await Promise.all([a.send(QUEUES.liveRound, { n: 0 }, { key: 'gfs' }), b.send(QUEUES.liveRound, { n: 0 }, { key: 'gfs' })]);
    expect(sent.filter(Boolean)).toHaveLength(1);
    await a.work(QUEUES.liveRound, handler('a'));
    await b.work(QUEUES.liveRound, handler('b'));
    for (let n = 1; n <= 6; n++) await (n % 2 ? a : b).send(QUEUES.liveRound, { n }, { key: `source-${n}` });
    await vi.waitFor(() => expect(runs).toHaveLength(7), { timeout: 10_000 });
    expect(runs.map((r) => Number(r.split(' ')[0])).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await a.waiting(QUEUES.liveRound)).toBe(0);
  });

  it('run answers the output of a job worked by the other instance, and throws its failure', async () => {
    const [a, b] = await twoInstances();
    await b.work<{ n: number }, { twice: number }>(QUEUES.alerts, async ({ n }) => {
      if (n < 0) throw new Error('no negative runs');
      return { twice: 2 * n };
    });
    expect(await a.run(QUEUES.alerts, { n: 21 }, { key: 'demo:1' })).toEqual({ kind: 'done', output: { twice: 42 } });
    await expect(a.run(QUEUES.alerts, { n: -1 }, { key: 'demo:2' })).rejects.toThrow(/no negative runs/);
  });

  it('a key sent once is not sent again after its job is done', async () => {
    const [a, b] = await twoInstances();
    let runs = 0;
    await b.work(QUEUES.alerts, async () => {
      runs++;
    });
    expect(await a.run(QUEUES.alerts, {}, { key: 'gfs:2024-05-01T00', once: true })).toEqual({ kind: 'done', output: null });
    expect(await b.send(QUEUES.alerts, {}, { key: 'gfs:2024-05-01T00', once: true })).toBe(false);
    expect(await a.run(QUEUES.alerts, {}, { key: 'gfs:2024-05-01T06', once: true })).toEqual({ kind: 'done', output: null });
    expect(runs).toBe(2);
  });

  it('a job sent alone is refused while one of its key runs, and sent once it is done', async () => {
    const [a, b] = await twoInstances();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: number[] = [];
    await b.work<{ n: number }, number>(QUEUES.liveRound, async ({ n }) => {
      started.push(n);
      if (n === 1) await held;
      return n;
    });
    const first = a.run(QUEUES.liveRound, { n: 1 }, { key: 'gfs', alone: true });
    await vi.waitFor(() => expect(started).toEqual([1]), { timeout: 5000 });
    expect(await a.run(QUEUES.liveRound, { n: 2 }, { key: 'gfs', alone: true })).toEqual({ kind: 'duplicate' });
    release();
    expect(await first).toEqual({ kind: 'done', output: 1 });
    expect(await a.run(QUEUES.liveRound, { n: 3 }, { key: 'gfs', alone: true })).toEqual({ kind: 'done', output: 3 });
  });

  it('the job of a worker killed mid-job (no heartbeat) is retried by another at once', async () => {
    const jobSchema = schema();
    cleanup.push(() => dropSchema(url!, jobSchema));
    // The pg-boss schema is made before the worker process starts on it.
    const survivor = await instance(jobSchema);
    const worker = spawnWorker(WORKER, { ISOBAR_TEST_JOBS_SCHEMA: jobSchema });
    cleanup.push(async () => worker.kill());
    await worker.line('ready');
    const done = survivor.run<{ n: number }, string>(QUEUES.liveRound, { n: 7 }, { key: 'gfs' });
    await worker.line('started 7');
    worker.child.kill('SIGKILL');
    const killedAt = performance.now();
    await survivor.work<{ n: number }, string>(QUEUES.liveRound, async ({ n }) => `run ${n} finished by the survivor`);
    expect(await done).toEqual({ kind: 'done', output: 'run 7 finished by the survivor' });
    // deadAfterMs (1 s) and a heartbeat (0.2 s), plus a poll: well under the pg-boss expiry (hours).
    expect(performance.now() - killedAt).toBeLessThan(5000);
  });
});

it('reads the heartbeat and dead-after times and the schema from the environment, refusing bad ones with the variable', () => {
  expect(jobTimingsFromEnv({})).toEqual({ heartbeatMs: 10_000, deadAfterMs: 60_000, schema: 'pgboss' });
  expect(jobTimingsFromEnv({ ISOBAR_JOBS_HEARTBEAT_MS: '1000', ISOBAR_JOBS_DEAD_AFTER_MS: '5000', ISOBAR_JOBS_SCHEMA: 'jobs_b' })).toEqual({ heartbeatMs: 1000, deadAfterMs: 5000, schema: 'jobs_b' });
  expect(() => jobTimingsFromEnv({ ISOBAR_JOBS_SCHEMA: 'jobs; DROP TABLE x' })).toThrow(/ISOBAR_JOBS_SCHEMA must be a plain SQL name/);
  expect(() => jobTimingsFromEnv({ ISOBAR_JOBS_HEARTBEAT_MS: 'soon' })).toThrow(/ISOBAR_JOBS_HEARTBEAT_MS must be a number of milliseconds > 0/);
  expect(() => jobTimingsFromEnv({ ISOBAR_JOBS_HEARTBEAT_MS: '5000', ISOBAR_JOBS_DEAD_AFTER_MS: '5000' })).toThrow(/ISOBAR_JOBS_DEAD_AFTER_MS \(5000\) must be at least twice/);
});
