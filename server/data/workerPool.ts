/**
 * CPU-heavy work off the event loop: a pool of worker threads running one TypeScript module, each
 * doing one task at a time, fed from a bounded first-in first-out queue.
 *
 *   event loop                                       worker threads (workerEntry.mjs registers tsx,
 *   run(input) -> idle worker? post it : queue it    then imports the task module, which calls
 *   queue full -> BusyError (503, Retry-After)       serveTasks(handle)): handle(input) -> output,
 *   <- output (its buffers transferred)   <------    its large buffers transferred, never copied
 *
 * A request that needs no task (a cached tile) never waits behind one that does: the event loop
 * only posts and receives messages, and the threads may run at a lower CPU priority (`nice`), so
 * that on a machine with few cores the event loop gets the CPU first. Threads start on the first task, hold the process open only
 * while they have work, and a thread that dies fails its task and is replaced on the next one.
 *
 * Worker threads do not inherit tsx's module hooks in Node 20 (neither under `tsx server/main.ts`
 * nor `node --import tsx`: the thread's own `--import tsx` leaves `.ts` unknown), so every thread
 * enters through workerEntry.mjs, which registers tsx itself; the same path works under vitest. In
 * the built server (server/build.ts) the thread imports the task module's bundle instead, without tsx.
 */

import { availableParallelism } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { HttpError } from '../http/httpError.ts';
import { isBuiltServer, runtimeModule } from '../ops/builtModules.ts';

/** Threads for a pool: one core is left to the event loop (at least one thread). */
export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** The queue of a pool is full: answer 503 with Retry-After (RFC 9110 §15.6.4, §10.2.3). */
export class BusyError extends HttpError {
  override name = 'BusyError';

  constructor(message: string, readonly retryAfterS: number) {
    super(503, message);
  }
}

export interface WorkerPoolOptions {
  /** The task module: a .ts file that calls serveTasks() when imported. */
  module: URL;
  /** Named in errors and thread names. */
  name: string;
  /** Threads (default defaultPoolSize()). */
  size?: number;
  /** Tasks that may wait for a thread; one more is refused with BusyError. */
  maxQueued: number;
  /**
   * The threads' nice value (Linux: per thread; 0..19, higher yields more): when they and the event
   * loop want the same core, the event loop gets most of it. Default 0 (unchanged).
   */
  nice?: number;
}

export interface WorkerPoolStats {
  size: number;
  threads: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  refused: number;
  /** Mean time a thread spent on a completed task, ms (0 before the first). */
  meanTaskMs: number;
}

/** A task's answer as the thread posts it. */
type Reply<Out> = { id: number; output: Out } | { id: number; error: string };

interface Task<In, Out> {
  id: number;
  input: In;
  transfer: readonly ArrayBuffer[];
  resolve(output: Out): void;
  reject(error: Error): void;
}

interface Thread<In, Out> {
  worker: Worker;
  task: Task<In, Out> | null;
  startedAt: number;
}

const ENTRY = new URL('./workerEntry.mjs', import.meta.url);

export class WorkerPool<In, Out> {
  readonly size: number;
  private readonly threads: Thread<In, Out>[] = [];
  private readonly queue: Task<In, Out>[] = [];
  private nextId = 0;
  private completed = 0;
  private failed = 0;
  private refused = 0;
  private taskMs = 0;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.size = options.size ?? defaultPoolSize();
    if (!(this.size >= 1) || !Number.isInteger(this.size)) throw new Error(`${options.name}: pool size must be a whole number >= 1, not ${this.size}`);
  }

  /**
   * Runs one task on a thread. `transfer` lists buffers of the input handed over to the thread
   * (unusable here afterwards). Rejects at once with BusyError when maxQueued tasks already wait.
   */
  run(input: In, transfer: readonly ArrayBuffer[] = []): Promise<Out> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name}: the pool is closed`));
    const idle = this.threads.find((t) => t.task === null) ?? (this.threads.length < this.size ? this.startThread() : null);
    if (!idle && this.queue.length >= this.options.maxQueued) {
      this.refused++;
      return Promise.reject(new BusyError(
        `${this.options.name}: ${this.queue.length} task${this.queue.length === 1 ? '' : 's'} waiting for ${this.size} thread${this.size > 1 ? 's' : ''}; try again shortly`,
        this.retryAfterS(),
      ));
    }
    return new Promise<Out>((resolve, reject) => {
      const task: Task<In, Out> = { id: this.nextId++, input, transfer, resolve, reject };
      if (idle) this.dispatch(idle, task);
      else this.queue.push(task);
    });
  }

  /** Seconds until the queue has likely drained, at least 1. */
  retryAfterS(): number {
    const meanMs = this.completed ? this.taskMs / this.completed : 100;
    return Math.max(1, Math.ceil(((this.queue.length + this.size) * meanMs) / this.size / 1000));
  }

  stats(): WorkerPoolStats {
    return {
      size: this.size, threads: this.threads.length, busy: this.threads.filter((t) => t.task).length, queued: this.queue.length,
      completed: this.completed, failed: this.failed, refused: this.refused, meanTaskMs: this.completed ? this.taskMs / this.completed : 0,
    };
  }

  /** Refuses new tasks, fails the waiting ones and stops the threads (a running task is failed too). */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error(`${this.options.name}: the pool closed before the task ran`));
    const threads = this.threads.splice(0);
    for (const thread of threads) thread.task?.reject(new Error(`${this.options.name}: the pool closed while the task ran`));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private startThread(): Thread<In, Out> {
    const worker = new Worker(ENTRY, {
      workerData: { module: runtimeModule(this.options.module).href, tsx: !isBuiltServer, nice: this.options.nice ?? 0 },
      name: this.options.name,
    });
    const thread: Thread<In, Out> = { worker, task: null, startedAt: 0 };
    worker.unref();
    worker.on('message', (reply: Reply<Out>) => {
      const task = thread.task;
      if (!task || task.id !== reply.id) return;
      this.taskMs += performance.now() - thread.startedAt;
      if ('error' in reply) {
        this.failed++;
        task.reject(new Error(`${this.options.name}: ${reply.error}`));
      } else {
        this.completed++;
        task.resolve(reply.output);
      }
      this.next(thread);
    });
    const lost = (error: Error) => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      if (thread.task) {
        this.failed++;
        thread.task.reject(error);
      }
      // The queue goes on in a new thread.
      const waiting = this.queue.shift();
      if (waiting && !this.closed) this.dispatch(this.startThread(), waiting);
    };
    worker.on('error', (error) => lost(new Error(`${this.options.name}: a worker thread failed: ${error.message}`)));
    worker.on('exit', (code) => lost(new Error(`${this.options.name}: a worker thread exited (code ${code})`)));
    this.threads.push(thread);
    return thread;
  }

  private dispatch(thread: Thread<In, Out>, task: Task<In, Out>): void {
    if (thread.task === null) thread.worker.ref();
    thread.task = task;
    thread.startedAt = performance.now();
    thread.worker.postMessage({ id: task.id, input: task.input }, [...task.transfer]);
  }

  private next(thread: Thread<In, Out>): void {
    thread.task = null;
    const task = this.queue.shift();
    if (task) this.dispatch(thread, task);
    else thread.worker.unref();
  }
}

/**
 * The thread side: answers the pool's tasks with `handle`, one at a time. `transfer` names the
 * buffers of an output to hand over instead of copying.
 */
export function serveTasks<In, Out>(handle: (input: In) => Out | Promise<Out>, transfer: (output: Out) => ArrayBuffer[] = () => []): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks() runs in a worker thread started by WorkerPool');
  port.on('message', async ({ id, input }: { id: number; input: In }) => {
    try {
      const output = await handle(input);
      port.postMessage({ id, output } satisfies Reply<Out>, transfer(output));
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Reply<Out>);
    }
  });
}
