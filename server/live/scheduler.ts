/**
 * The scheduler of the live sources (DESIGN.md "Data flow" 1). Per source, at start and then once
 * per update interval: find the newest complete run upstream; when it is newer than the last one
 * ingested, download it (resuming what is on disk) and hand its step files to the ingest.
 *
 *   round  ──>  findLatestRun(newer than state.json)  ──>  download  ──>  ingestFiles  ──>  state.json
 *
 * Steps are handed to the ingest as their files land, in step order, so a run is built while it
 * downloads; a download resumed after a restart keeps its complete step files and the staged
 * build keeps its steps (skipBuilt). The first run of a product the data directory ever gets is
 * published step by step (snapshots): something real is served minutes after the first start.
 * Later runs replace the served one only when complete. `progress` (progress.ts) tells the UI.
 *
 * A round is a job of the job queue (server/jobs/jobQueue.ts, QUEUES.liveRound, keyed by source):
 *
 *   in process  (role all, the default) rounds of all sources run one at a time in this process,
 *               and a lock file (`{dataDir}/downloads/.lock`, holding the pid) keeps a second
 *               server process on the same data directory out
 *   postgres    (role ingest) every ingest process runs this timing loop; a round is sent only
 *               while no round of its source waits or runs anywhere (`alone`), and any ingest
 *               process works it in its own scratch data directory. A killed process's round is
 *               handed to another (pgBossQueue.ts), which resumes the run from what is published
 *               and ingests it into its own scratch directory
 *
 * The last run ingested (state.json) is kept where runs are published (`storage`), so that every
 * process reads it, at the key that was always its path in the data directory. A failed round
 * is logged and tried again after `retryDelayMs`; so is a round whose source was busy elsewhere. After a run is ingested, the next round is due
 * when the following run should be complete: its reference time (last + interval) plus the
 * model's publication delay, plus jitter so that many servers do not ask at the same second.
 * `signal` (the server's close) stops the waits, the downloads and the ingest.
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { hourStamp } from '../../common/minifest.ts';
import { acquirePidLock, readCurrentRunId } from '../ingest/layout.ts';
import { inProcessJobQueue, QUEUES, type JobQueue } from '../jobs/jobQueue.ts';
import { ingestDuration, onScrape, sourceDataAge, sourceLastSuccess } from '../ops/metrics.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { sourcesConfigFromEnv } from './config.ts';
import { DataCapError, enforceDataCap } from './dataCap.ts';
import { LiveProgress } from './progress.ts';
import { realSleep, SourceHttp, type Sleep } from './http.ts';
import { removeRunFolders } from './runFolder.ts';
import { MINUTE_MS, SECOND_MS } from '../../common/time.ts';
import { runLabel, type LiveSource, type RunPlan, type SourceContext, type SourceLogger } from './source.ts';

// The ingest's contract (server/ingest/ingest.ts). Kept here as types so that the sources build and
// test on their own; the real function is loaded when the first run is ingested.
export interface IngestProgress { phase: string; done: number; total: number; message?: string }
export interface IngestOptions {
  dataDir: string;
  storage?: ObjectStore;
  product?: string;
  onProgress?: (p: IngestProgress) => void;
  signal?: AbortSignal;
  skipBuilt?: boolean;
  snapshots?: { minIntervalMs: number };
  onSteps?: (p: { refTime: number; built: number[]; served: number }) => void;
}
export interface IngestResult { product: string; refTime: number; steps: number[]; variables: string[]; tiles: number; ms: number }
export type IngestFn = (files: string[] | AsyncIterable<string>, options: IngestOptions) => Promise<IngestResult>;

/** The real ingest, imported on first use (in the built server, server/build.ts, part of the server's bundle). */
export const defaultIngest: IngestFn = async (files, options) => {
  const module = (await import('../ingest/ingest.ts')) as { ingestFiles: IngestFn };
  return module.ingestFiles(files, options);
};

export interface SchedulerOptions {
  /** The server's logger (`app.log`). */
  logger: SourceLogger;
  /** Where downloads and builds go (and runs are published unless `storage` is remote). */
  dataDir: string;
  /** Where runs are published and their pointers read (server/storage): default the data directory. */
  storage?: ObjectStore;
  sources: readonly LiveSource[];
  ingest?: IngestFn;
  signal?: AbortSignal;
  /** Follow the Premium update intervals (SPEC §9). */
  premium?: boolean;
  http?: SourceHttp;
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
  /** Wait after a failed round or when the next run is late (default 30 min). */
  retryDelayMs?: number;
  /** Jitter added to each wait, as a share of the wait's base (default 0.05). */
  jitter?: number;
  /** Keep run folders after ingest (default: removed). */
  keepDownloads?: boolean;
  /** Called once a run is ingested and published (the server re-reads its current-run pointers). */
  onIngested?: (event: { source: string; result: IngestResult }) => void;
  /** Called when a snapshot of a run still arriving is published (the first run of a product). */
  onServed?: (event: { source: string; product: string; served: number }) => void;
  /** Runs on their way, for the UI (default: a new one, read through Scheduler.progress). */
  progress?: LiveProgress;
  /** Cap on the data directory, bytes (ISOBAR_DATA_MAX_GB): older runs and downloads are pruned to stay under it. */
  maxDataBytes?: number;
  /** The queue rounds go through (default: one in this process, stopped with the scheduler). */
  jobs?: JobQueue;
}

/** A live round job: the source whose round it is. */
interface RoundJob {
  source: string;
}

export type RoundOutcome =
  | { kind: 'ingested'; refTime: number }
  | { kind: 'none'; lastRefTime?: number }
  | { kind: 'busy' }
  | { kind: 'failed'; error: unknown };

export interface SourceState {
  /** Reference time of the last run ingested, ms. */
  refTime: number;
  ingestedAt: string;
}

export interface Scheduler {
  /** Runs on their way. */
  readonly progress: LiveProgress;
  /** Runs one round of a source now (queued behind any running job). */
  runRound(sourceId: string): Promise<RoundOutcome>;
  /** Stops all loops (aborting a running job) and waits for them to end. */
  stop(): Promise<void>;
  /** Settles when every source loop has ended. */
  readonly done: Promise<void>;
}

const DEFAULT_RETRY_DELAY_MS = 30 * MINUTE_MS;
/** Least time between two snapshots of a run published step by step: each rewrites its point stores. */
export const SNAPSHOT_INTERVAL_MS = 20 * SECOND_MS;
/** Least time between two looks at the data directory's size while a run downloads (a walk of every file). */
const DATA_CAP_CHECK_MS = 30 * SECOND_MS;
const DEFAULT_JITTER = 0.05;

/**
 * Ms until a source's next round. After a failure, or when the next run is already overdue, poll
 * again after `retryDelayMs`; otherwise wait until the run after `lastRefTime` should be complete.
 */
export function nextRoundDelay(p: {
  now: number; lastRefTime?: number; failed: boolean; intervalMs: number; publishDelayMs: number;
  retryDelayMs: number; jitter: number; random: () => number;
}): number {
  const jittered = (base: number) => Math.round(base + p.random() * p.jitter * base);
  if (p.failed || p.lastRefTime === undefined) return jittered(p.retryDelayMs);
  const due = p.lastRefTime + p.intervalMs + p.publishDelayMs;
  return due - p.now > 0 ? Math.round(due - p.now + p.random() * p.jitter * p.intervalMs) : jittered(p.retryDelayMs);
}

/** Where a source's state is kept in the store: in the data directory, its path as before. */
function sourceStateKey(sourceId: string): string {
  return `downloads/${sourceId}/state.json`;
}

/** The last run a source ingested, as recorded where runs are published; null when none (or unreadable). */
export async function readSourceState(store: ObjectStore, sourceId: string): Promise<SourceState | null> {
  try {
    const state = JSON.parse((await store.get(sourceStateKey(sourceId)))?.toString('utf8') ?? 'null') as SourceState | null;
    return Number.isFinite(state?.refTime) ? state : null;
  } catch {
    return null;
  }
}

async function writeSourceState(store: ObjectStore, sourceId: string, state: SourceState): Promise<void> {
  await store.put(sourceStateKey(sourceId), JSON.stringify(state));
}

/**
 * Logs a long task's progress at each phase change, every tenth of it, and each time its total
 * grows, no more. A run ingested as its steps land has a total that grows with each step file (one
 * line per step: a stalled step shows as the last line).
 */
export function progressLogger(log: Pick<SourceLogger, 'info'>, base: object, msg: string): (p: { phase?: string; done: number; total: number }) => void {
  let last = '';
  return (p) => {
    const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0;
    const key = `${p.phase ?? ''} ${tenth} ${p.total}`;
    if (key === last) return;
    last = key;
    log.info({ ...base, ...p }, msg);
  };
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { logger: log, dataDir, storage } = options;
  const ingest = options.ingest ?? defaultIngest;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const jitter = options.jitter ?? DEFAULT_JITTER;
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  const http = options.http ?? new SourceHttp({ log, sleep, random, now });
  const downloadsRoot = join(dataDir, 'downloads');
  const lockPath = join(downloadsRoot, '.lock');
  const progress = options.progress ?? new LiveProgress();
  const jobs = options.jobs ?? inProcessJobQueue();
  const stateStore = storage ?? new LocalDirectoryStore(dataDir);
  /** Reference time of the run each source last published here, for the data age metric. */
  const published = new Map<string, number>();

  const runnable = options.sources.filter((source) => {
    if (source.unsupportedReason) log.warn({ source: source.id, reason: source.unsupportedReason }, 'live source not started');
    return !source.unsupportedReason;
  });

  /** The pid lock of the data directory, where this process's queue is its own; with the shared queue, the source's key. */
  async function lockDataDir(): Promise<{ release(): Promise<void> } | null> {
    if (jobs.kind !== 'in-process') return { release: async () => {} };
    const lock = await acquirePidLock(lockPath);
    return 'release' in lock ? lock : null;
  }

  async function round(source: LiveSource, jobSignal: AbortSignal): Promise<RoundOutcome> {
    // The scheduler's stop, or the job's: this process stops or was declared dead.
    const roundSignal = AbortSignal.any([signal, jobSignal]);
    const downloadDir = join(downloadsRoot, source.id);
    await mkdir(downloadDir, { recursive: true });
    const lock = await lockDataDir();
    if (!lock) {
      log.info({ source: source.id }, 'another Isobar process is downloading; trying later');
      return { kind: 'busy' };
    }
    try {
      const state = await readSourceState(stateStore, source.id);
      const ctx: SourceContext = { http, log, downloadDir, now, signal: roundSignal };
      const plan = await source.findLatestRun(ctx, state?.refTime).finally(() => progress.setLooking(source.id, false));
      if (!plan) {
        log.info({ source: source.id, last: state ? runLabel(state.refTime) : null }, 'no newer complete run upstream');
        return { kind: 'none', lastRefTime: state?.refTime };
      }
      const run = runLabel(plan.refTime);
      const directory = PRODUCTS[source.product]?.directory;
      // The product's first run (or its snapshot served before a restart): served step by step as it lands.
      const currentId = directory === undefined ? undefined : await readCurrentRunId(storage ?? dataDir, directory);
      const stepByStep = currentId === null || currentId?.slice(0, 10) === hourStamp(plan.refTime);
      log.info({ source: source.id, run, steps: plan.steps.length, stepByStep }, 'downloading run');
      // Partial downloads of any other run are abandoned: this one is newer.
      await removeRunFolders(downloadDir, plan.refTime);
      if (options.maxDataBytes !== undefined) await enforceDataCap({ dataDir, maxBytes: options.maxDataBytes, log, keep: { source: source.id, refTime: plan.refTime } });
      progress.start({ source: source.id, product: source.product, refTime: plan.refTime, total: plan.steps.length });
      try {
        const result = await downloadAndIngest(source, plan, { ...ctx, signal: roundSignal }, stepByStep);
        await writeSourceState(stateStore, source.id, { refTime: plan.refTime, ingestedAt: new Date(now()).toISOString() });
        recordPublished(source, plan.refTime, result);
        log.info({ source: source.id, run, tiles: result.tiles, variables: result.variables, ms: result.ms }, 'run ingested');
        try {
          options.onIngested?.({ source: source.id, result });
        } catch (error) {
          log.warn({ source: source.id, err: error instanceof Error ? error.message : String(error) }, 'onIngested failed');
        }
      } finally {
        progress.end(source.id);
      }
      if (!options.keepDownloads) await removeRunFolders(downloadDir);
      return { kind: 'ingested', refTime: plan.refTime };
    } finally {
      await lock.release();
    }
  }

  /**
   * Downloads a run and builds it at the same time: each step's file goes to the ingest once it and
   * the steps before it are on disk. A failed download fails the ingest (the staged steps stay for
   * the next round) and a failed ingest stops the download.
   */
  async function downloadAndIngest(source: LiveSource, plan: RunPlan, ctx: SourceContext & { signal: AbortSignal }, stepByStep: boolean): Promise<IngestResult> {
    const { signal } = ctx;
    const run = runLabel(plan.refTime);
    const started = now();
    const stop = new AbortController();
    const files = new StepFiles(plan.steps);
    let capChecked = now();
    const logDownload = progressLogger(log, { source: source.id, run }, 'download progress');
    const download = source.download(plan, { ...ctx, signal: AbortSignal.any([signal, stop.signal]) }, (p) => {
      logDownload({ done: p.stepsDone, total: p.steps });
      progress.update(source.id, { downloaded: p.stepsDone });
      if (p.step !== undefined && p.file !== undefined) files.land(p.step, p.file);
      if (options.maxDataBytes !== undefined && now() - capChecked >= DATA_CAP_CHECK_MS) {
        capChecked = now();
        void enforceDataCap({ dataDir, maxBytes: options.maxDataBytes, log, keep: { source: source.id, refTime: plan.refTime } }).catch((error: unknown) => {
          if (error instanceof DataCapError) stop.abort(error);
        });
      }
    }).then((list) => {
      log.info({ source: source.id, run, files: list.length, ms: now() - started }, 'run downloaded');
      files.end(list);
    }, (error: unknown) => {
      files.fail(stop.signal.aborted && stop.signal.reason instanceof DataCapError ? stop.signal.reason : error);
    });
    const logIngest = progressLogger(log, { source: source.id, run }, 'ingest progress');
    let served = 0;
    try {
      return await ingest(files.iterate(), {
        dataDir, storage, product: source.product, signal, onProgress: logIngest, skipBuilt: true,
        ...(stepByStep ? { snapshots: { minIntervalMs: SNAPSHOT_INTERVAL_MS } } : {}),
        onSteps: (p) => {
          progress.update(source.id, { built: p.built.length, served: p.served });
          if (p.served > served) {
            served = p.served;
            log.info({ source: source.id, run, served, steps: plan.steps.length }, 'run served so far');
            try {
              options.onServed?.({ source: source.id, product: source.product, served });
            } catch (error) {
              log.warn({ source: source.id, err: error instanceof Error ? error.message : String(error) }, 'onServed failed');
            }
          }
        },
      });
    } catch (error) {
      stop.abort(error);
      throw error;
    } finally {
      await download;
    }
  }

  function recordPublished(source: LiveSource, refTime: number, result: IngestResult): void {
    ingestDuration.observe({ product: source.product }, result.ms / SECOND_MS);
    sourceLastSuccess.set({ source: source.id }, now() / SECOND_MS);
    published.set(source.id, refTime);
  }

  const stopDataAge = onScrape(() => {
    for (const [source, refTime] of published) sourceDataAge.set({ source }, (now() - refTime) / SECOND_MS);
  });

  const working = jobs.work<RoundJob, RoundOutcome>(QUEUES.liveRound, async (job, jobSignal) => {
    const source = runnable.find((s) => s.id === job.source);
    if (!source) throw new Error(`The live source "${job.source}" is not followed by this process`);
    return round(source, jobSignal);
  });

  async function guardedRound(source: LiveSource): Promise<RoundOutcome> {
    try {
      await working;
      const ran = await jobs.run<RoundJob, RoundOutcome>(QUEUES.liveRound, { source: source.id }, { key: source.id, alone: true });
      if (ran.kind === 'duplicate') {
        log.info({ source: source.id }, 'a round of this source waits or runs in another ingest process; trying later');
        return { kind: 'busy' };
      }
      return ran.output;
    } catch (error) {
      if (signal.aborted) throw error;
      log.error({ source: source.id, err: error instanceof Error ? error.message : String(error) }, 'live source round failed; retrying next round');
      return { kind: 'failed', error };
    }
  }

  async function loop(source: LiveSource): Promise<void> {
    const intervalMs = (options.premium ? source.premiumIntervalMinutes : source.intervalMinutes) * MINUTE_MS;
    let lastRefTime = (await readSourceState(stateStore, source.id))?.refTime;
    progress.setLooking(source.id, true);
    while (!signal.aborted) {
      const outcome = await guardedRound(source);
      progress.setLooking(source.id, false);
      if (outcome.kind === 'ingested') lastRefTime = outcome.refTime;
      const delay = nextRoundDelay({
        now: now(), lastRefTime, failed: outcome.kind === 'failed' || outcome.kind === 'busy', intervalMs,
        publishDelayMs: source.publishDelayMinutes * MINUTE_MS, retryDelayMs, jitter, random,
      });
      log.debug({ source: source.id, nextRoundInMinutes: Math.round(delay / MINUTE_MS) }, 'next round scheduled');
      await sleep(delay, signal);
    }
  }

  const loops = runnable.map((source) => loop(source).catch((error: unknown) => {
    if (!signal.aborted) log.error({ source: source.id, err: String(error) }, 'live source loop ended');
  }));
  if (runnable.length > 0) log.info({ sources: runnable.map((s) => s.id), dataDir }, 'live sources started');
  const done = Promise.all(loops).then(() => undefined);

  return {
    progress,
    runRound(sourceId) {
      const source = runnable.find((s) => s.id === sourceId);
      if (!source) return Promise.reject(new Error(`No running live source "${sourceId}"`));
      return guardedRound(source);
    },
    async stop() {
      stopper.abort(new Error('scheduler stopped'));
      await done;
      stopDataAge();
      if (!options.jobs) await jobs.stop();
    },
    done,
  };
}

/**
 * Starts the sources ISOBAR_SOURCES names, with ISOBAR_DATA_DIR and the other variables of
 * config.ts; null when none is named (unset or `none`: the default set is the server's, after its probe). A bad configuration throws. The server does
 * not call this: buildApp (server/app.ts, option liveSources) reads the same configuration, starts
 * the scheduler on listen into its own data directory and stops it on close. This is for a
 * process that downloads without serving.
 */
export function startLiveSources(options: {
  logger: SourceLogger; ingest?: IngestFn; signal?: AbortSignal; env?: Record<string, string | undefined>; storage?: ObjectStore;
}): Scheduler | null {
  const config = sourcesConfigFromEnv(options.env);
  if (config.mode !== 'listed' || config.sources.length === 0) return null;
  return startScheduler({
    logger: options.logger, dataDir: config.dataDir, storage: options.storage, sources: config.sources, premium: config.premium, maxDataBytes: config.maxDataBytes,
    ingest: options.ingest, signal: options.signal,
  });
}

/** Step files handed on in step order as they land: step k goes once steps 0..k are all on disk. */
class StepFiles {
  private readonly landed = new Map<number, string>();
  private next = 0;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly steps: readonly number[]) {}

  land(step: number, file: string): void {
    this.landed.set(step, file);
    this.wake?.();
  }

  /** The download is done: its list has every step's file. */
  end(files: readonly string[]): void {
    files.forEach((file, k) => {
      if (!this.landed.has(this.steps[k])) this.landed.set(this.steps[k], file);
    });
    this.ended = true;
    this.wake?.();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake?.();
  }

  async *iterate(): AsyncGenerator<string> {
    while (this.next < this.steps.length) {
      const file = this.landed.get(this.steps[this.next]);
      if (file !== undefined) {
        this.next++;
        yield file;
        continue;
      }
      if (this.failure) throw this.failure.error;
      if (this.ended) throw new Error(`The download ended without step ${this.steps[this.next]}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }
}
