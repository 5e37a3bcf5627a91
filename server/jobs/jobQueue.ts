/**
 * The job queue behind the server's background work (issue 17; DESIGN.md "When one machine is not
 * enough"): live-source rounds (a round finds, downloads and ingests a source's newest run), alert
 * evaluations after a run is published, and push sends. The code that makes and works jobs sees
 * this one interface; two adapters implement it:
 *
 *   in-process   (role all, the single-process default) every job runs in this process, one at a
 *                time in the order sent: exactly the serial queue the scheduler always had
 *   postgres     (roles web and ingest; server/jobs/pgBossQueue.ts) jobs in PostgreSQL through
 *                pg-boss, worked by any ingest process; a key keeps one job per key waiting and
 *                one running across every process, and a dead worker's job goes to another
 *
 * A handler's answer must be JSON (the postgres adapter stores it with the job).
 */

/** The queues and what their jobs carry. */
export const QUEUES = {
  /** One round of a live source (server/live/scheduler.ts); key: the source id. */
  liveRound: 'live-round',
  /** Alert evaluation of a product's new run (server/alerts/alertService.ts); key: product and reference time. */
  alerts: 'alert-evaluation',
  /** One notification pushed to a user's devices (server/alerts/alertService.ts). */
  push: 'push-send',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Works one job; `signal` aborts when this process stops or has been declared dead. */
export type JobHandler<T, R> = (data: T, signal: AbortSignal) => Promise<R>;

export interface SendOptions {
  /** At most one job with this key waiting and one running at a time, across every process. */
  key?: string;
  /**
   * With a key: the key is used once, not once at a time: a job whose key was sent before (waiting,
   * running or done, until the queue archives done jobs after 12 h) is not sent again.
   */
  once?: boolean;
  /**
   * With a key: not sent while a job with the key waits or runs anywhere (a live round: a second
   * round queued behind a running one would only find the run already ingested).
   */
  alone?: boolean;
}

/** How a job sent with `run` ended: its handler's answer, or another job with its key was already waiting (or, `alone`, running). */
export type JobRun<R> = { kind: 'done'; output: R } | { kind: 'duplicate' };

export interface JobQueue {
  readonly kind: 'in-process' | 'postgres';
  /** Registers this process as a worker of the queue (one job at a time). */
  work<T, R>(queue: QueueName, handler: JobHandler<T, R>): Promise<void>;
  /** Sends a job and returns at once; false when a job with its key was already waiting. */
  send<T>(queue: QueueName, data: T, options?: SendOptions): Promise<boolean>;
  /** Sends a job and waits until some worker has done it; its handler's error is thrown. */
  run<T, R>(queue: QueueName, data: T, options?: SendOptions): Promise<JobRun<R>>;
  /** Jobs waiting to run (not running). */
  waiting(queue: QueueName): Promise<number>;
  /** Stops working: running jobs are aborted, and with the postgres adapter handed back to the queue. */
  stop(): Promise<void>;
}

/**
 * Every job in this process, one at a time per queue, in the order sent (a round does not hold
 * up the alert evaluation of the run before it). Keys are not needed here: one process has one
 * loop per source, and alert evaluation is idempotent per run (the valid times already notified).
 */
export function inProcessJobQueue(): JobQueue {
  const handlers = new Map<QueueName, JobHandler<unknown, unknown>>();
  const stopper = new AbortController();
  const tails = new Map<QueueName, Promise<unknown>>();
  let waiting = new Map<QueueName, number>();

  const enqueue = <R>(queue: QueueName, data: unknown): Promise<R> => {
    const handler = handlers.get(queue);
    if (!handler) return Promise.reject(new Error(`No worker for the queue "${queue}" in this process`));
    waiting.set(queue, (waiting.get(queue) ?? 0) + 1);
    const job = () => {
      waiting.set(queue, (waiting.get(queue) ?? 1) - 1);
      if (stopper.signal.aborted) throw new Error('The job queue is stopped');
      return handler(data, stopper.signal) as Promise<R>;
    };
    const result = (tails.get(queue) ?? Promise.resolve()).then(job, job);
    tails.set(queue, result.catch(() => undefined));
    return result;
  };

  return {
    kind: 'in-process',
    async work(queue, handler) {
      handlers.set(queue, handler as JobHandler<unknown, unknown>);
    },
    async send(queue, data) {
      enqueue(queue, data).catch(() => undefined);
      return true;
    },
    async run<T, R>(queue: QueueName, data: T): Promise<JobRun<R>> {
      return { kind: 'done', output: await enqueue<R>(queue, data) };
    },
    async waiting(queue) {
      return waiting.get(queue) ?? 0;
    },
    async stop() {
      stopper.abort(new Error('The job queue is stopped'));
      await Promise.all(tails.values());
      waiting = new Map();
    },
  };
}
