/**
 * Entry of every WorkerPool thread (workerPool.ts): registers tsx's module hooks in this thread,
 * which does not inherit them from the main thread in Node 20 (workerData.tsx; not in the built
 * server, whose task modules are bundles), imports the task module (workerData.module, a file URL),
 * which answers the pool's messages, then lowers this thread's CPU priority to workerData.nice.
 * Only then: threads this one starts inherit its nice value, and the libuv thread pool, shared with
 * the event loop, must not be started at a lower priority.
 */

import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';

if (workerData.tsx) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.module);
if (workerData.nice) {
  try {
    // pid 0: this thread (Linux keeps the nice value per thread).
    setPriority(0, workerData.nice);
  } catch {
    // Not permitted or not supported here: the thread runs at the normal priority.
  }
}
