/**
 * Long work on the event loop, in slices: the loop that renders a step's thousands of tiles (or any
 * other long synchronous stretch cut into pieces) asks `slice()` between pieces, which lets timers
 * and I/O run once the slice has lasted EVENT_LOOP_SLICE_MS. Without it an ingest held the event
 * loop for up to 0.8 s at a time (a GFS 2.5° step, idle machine; several seconds on a loaded one):
 * requests waited that long in a single-process server, and an ingest process missed the job
 * queue's heartbeats until the other processes took it for dead (server/jobs/pgBossQueue.ts).
 */

import { setImmediate as nextTurn } from 'node:timers/promises';

/** The longest the event loop is held between two turns. */
export const EVENT_LOOP_SLICE_MS = 50;

/** A function to await between pieces of work: a turn of the event loop once the slice is over, else nothing. */
export function eventLoopSlices(sliceMs = EVENT_LOOP_SLICE_MS, now: () => number = () => performance.now()): () => Promise<void> | null {
  let started = now();
  return () => {
    if (now() - started < sliceMs) return null;
    return nextTurn().then(() => {
      started = now();
    });
  };
}
