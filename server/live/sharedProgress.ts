/**
 * What the live sources are fetching, across processes (issue 17): a web process has no scheduler,
 * so GET LIVE_PROGRESS_PATH there reads what the ingest processes write where runs are published.
 *
 *   writer  (ingest, with the PostgreSQL job queue) every WRITE_EVERY_MS, the runs of its
 *           LiveProgress as one object per source, `live/progress/{source}.json`; a source whose
 *           run has ended has its object removed
 *   reader  (web) lists and reads those objects, at most once per READ_CACHE_MS; an object not
 *           written for STALE_MS (its process was killed) is left out
 *
 * Cheap: one small put per running source every few seconds, one listing and a get per source per
 * READ_CACHE_MS however many clients ask. Role all keeps reading its own LiveProgress in memory.
 */

import { SECOND_MS } from '../../common/time.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import type { LiveProgress, RunProgress } from './progress.ts';

const PREFIX = 'live/progress/';
/** How often an ingest process writes its runs' progress. */
const WRITE_EVERY_MS = 3 * SECOND_MS;
/** A web process answers from what it read this recently. */
const READ_CACHE_MS = 2 * SECOND_MS;
/** Progress not written for this long belongs to a process that stopped without saying so. */
const STALE_MS = 30 * SECOND_MS;

interface StoredRun {
  run: RunProgress;
  /** When it was written, ms since 1970. */
  written: number;
}

export interface ProgressWriterOptions {
  log: (message: string, error: unknown) => void;
  now?: () => number;
  /** Default WRITE_EVERY_MS. */
  everyMs?: number;
}

/** Writes `progress` to the store every `everyMs` until the answer is called (which removes what it wrote). */
export function writeProgress(progress: LiveProgress, store: ObjectStore, { log, now = Date.now, everyMs = WRITE_EVERY_MS }: ProgressWriterOptions): () => Promise<void> {
  let written = new Set<string>();
  const write = async () => {
    const runs = progress.list();
    for (const run of runs) await store.put(`${PREFIX}${run.source}.json`, JSON.stringify({ run, written: now() } satisfies StoredRun));
    const ended = [...written].filter((source) => !runs.some((run) => run.source === source));
    if (ended.length > 0) await store.delete(ended.map((source) => `${PREFIX}${source}.json`));
    written = new Set(runs.map((run) => run.source));
  };
  let writing = Promise.resolve();
  const tick = () => {
    writing = writing.then(write).catch((error: unknown) => log('live progress cannot be written to the store', error));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await writing;
    await store.delete([...written].map((source) => `${PREFIX}${source}.json`)).catch((error: unknown) => log('live progress cannot be removed from the store', error));
  };
}

/** The runs the ingest processes are fetching, as they last wrote them. */
export function storedProgressReader(store: ObjectStore, now: () => number = Date.now): () => Promise<RunProgress[]> {
  let cached: { at: number; runs: Promise<RunProgress[]> } | null = null;
  const read = async (): Promise<RunProgress[]> => {
    const runs: RunProgress[] = [];
    // Only the objects (a local directory also lists the temporary files of writes in flight).
    for (const name of (await store.list(PREFIX)).filter((n) => n.endsWith('.json'))) {
      const stored = JSON.parse((await store.get(`${PREFIX}${name}`))?.toString('utf8') ?? 'null') as StoredRun | null;
      if (stored && now() - stored.written < STALE_MS) runs.push(stored.run);
    }
    return runs;
  };
  return () => {
    if (!cached || now() - cached.at >= READ_CACHE_MS) {
      cached = { at: now(), runs: read() };
      // A failed read is not kept: the next request asks again.
      cached.runs.catch(() => {
        cached = null;
      });
    }
    return cached.runs;
  };
}
