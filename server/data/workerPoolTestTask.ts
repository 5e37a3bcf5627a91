/**
 * A task module for tests of WorkerPool and of what runs on it (workerPool.test.ts,
 * server/routes/tiles.test.ts), run only in a pool's threads (tests import its types alone). Each
 * task first waits on its gate, a shared Int32Array whose first element the test sets to 1 (and
 * notifies) to let it go on, so a test decides when a thread is busy without any timing; then it
 * answers its value, thread and nice value, throws, or ends its thread.
 */

import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { serveTasks } from './workerPool.ts';

export interface TestTask {
  /** Waits while gate[0] is 0. */
  gate?: Int32Array;
  value?: number;
  /** Throws this message. */
  fail?: string;
  /** Ends the thread with this exit code. */
  exit?: number;
}

export interface TestAnswer {
  value: number | undefined;
  threadId: number;
  /** The thread's nice value. */
  nice: number;
}

serveTasks<TestTask, TestAnswer>((task) => {
  if (task.gate) while (Atomics.load(task.gate, 0) === 0) Atomics.wait(task.gate, 0, 0);
  if (task.fail) throw new Error(task.fail);
  if (task.exit !== undefined) process.exit(task.exit);
  return { value: task.value, threadId, nice: getPriority(0) };
});
