/**
 * Entry of every WorkerPool thread (workerPool.ts): registers tsx's module hooks in this thread,
 * which does not inherit them from the main thread in Node 20, then imports the task module
 * (workerData.module, a file URL), which answers the pool's messages.
 */

import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
