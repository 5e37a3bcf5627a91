/**
 * The in-process scheduler of the live sources (DESIGN.md "Data flow" 1). Per source, at start and
 * then once per update interval: find the newest complete run upstream; when it is newer than the
 * last one ingested, download it (resuming what is on disk) and hand its step files to the ingest.
 *
 *   round  ──>  findLatestRun(newer than state.json)  ──>  download  ──>  ingestFiles  ──>  state.json
 *
 * One job at a time on the machine: rounds of all sources queue in this process, and a lock file
 * (`{dataDir}/downloads/.lock`, holding the pid) keeps a second server process out. A failed round
 * is logged and tried again after `retryDelayMs`. After a run is ingested, the next round is due
 * when the following run should be complete: its reference time (last + interval) plus the
 * model's publication delay, plus jitter so that many servers do not ask at the same second.
 * `signal` (the server's close) stops the waits, the downloads and the ingest.
 */

import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { acquirePidLock, writeFileAtomic } from '../ingest/layout.ts';
import { sourcesConfigFromEnv } from './config.ts';
import { realSleep, SourceHttp, type Sleep } from './http.ts';
import { removeRunFolders } from './runFolder.ts';
import { MINUTE_MS } from '../../common/time.ts';
import { runLabel, type LiveSource, type SourceContext, type SourceLogger } from './source.ts';

// The ingest's contract (server/ingest/ingest.ts). Kept here as types so that the sources build and
// test on their own; the real function is loaded when the first run is ingested.
export interface IngestProgress { phase: string; done: number; total: number; message?: string }
export interface IngestOptions {
  dataDir: string;
  product?: string;
  onProgress?: (p: IngestProgress) => void;
  signal?: AbortSignal;
}
export interface IngestResult { product: string; refTime: number; steps: number[]; variables: string[]; tiles: number; ms: number }
export type IngestFn = (files: string[] | AsyncIterable<string>, options: IngestOptions) => Promise<IngestResult>;

const INGEST_MODULE = '../ingest/ingest.ts';

/** The real ingest, imported on first use. */
export const defaultIngest: IngestFn = async (files, options) => {
  const module = (await import(/* @vite-ignore */ INGEST_MODULE)) as { ingestFiles: IngestFn };
  return module.ingestFiles(files, options);
};

export interface SchedulerOptions {
  /** The server's logger (`app.log`). */
  logger: SourceLogger;
  dataDir: string;
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
  /** Runs one round of a source now (queued behind any running job). */
  runRound(sourceId: string): Promise<RoundOutcome>;
  /** Stops all loops (aborting a running job) and waits for them to end. */
  stop(): Promise<void>;
  /** Settles when every source loop has ended. */
  readonly done: Promise<void>;
}

const DEFAULT_RETRY_DELAY_MS = 30 * MINUTE_MS;
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

export async function readSourceState(downloadDir: string): Promise<SourceState | null> {
  try {
    const state = JSON.parse(await readFile(join(downloadDir, 'state.json'), 'utf8')) as SourceState;
    return Number.isFinite(state.refTime) ? state : null;
  } catch {
    return null;
  }
}

async function writeSourceState(downloadDir: string, state: SourceState): Promise<void> {
  await writeFileAtomic(join(downloadDir, 'state.json'), JSON.stringify(state));
}

/** Logs a long task's progress at each phase change and every tenth of it, no more. */
function progressLogger(log: SourceLogger, base: object, msg: string): (p: { phase?: string; done: number; total: number }) => void {
  let lastPhase: string | undefined;
  let lastTenth = -1;
  return (p) => {
    const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0;
    if (p.phase === lastPhase && tenth === lastTenth) return;
    lastPhase = p.phase;
    lastTenth = tenth;
    log.info({ ...base, ...p }, msg);
  };
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { logger: log, dataDir } = options;
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
  let queue: Promise<unknown> = Promise.resolve();

  const runnable = options.sources.filter((source) => {
    if (source.unsupportedReason) log.warn({ source: source.id, reason: source.unsupportedReason }, 'live source not started');
    return !source.unsupportedReason;
  });

  /** One job at a time: rounds wait for the one before. */
  const enqueue = <T>(job: () => Promise<T>): Promise<T> => {
    const result = queue.then(job, job);
    queue = result.catch(() => undefined);
    return result;
  };

  async function round(source: LiveSource): Promise<RoundOutcome> {
    const downloadDir = join(downloadsRoot, source.id);
    await mkdir(downloadDir, { recursive: true });
    const lock = await acquirePidLock(lockPath);
    if (!('release' in lock)) {
      log.info({ source: source.id }, 'another Isobar process is downloading; trying later');
      return { kind: 'busy' };
    }
    try {
      const state = await readSourceState(downloadDir);
      const ctx: SourceContext = { http, log, downloadDir, now, signal };
      const plan = await source.findLatestRun(ctx, state?.refTime);
      if (!plan) {
        log.info({ source: source.id, last: state ? runLabel(state.refTime) : null }, 'no newer complete run upstream');
        return { kind: 'none', lastRefTime: state?.refTime };
      }
      const run = runLabel(plan.refTime);
      log.info({ source: source.id, run, steps: plan.steps.length }, 'downloading run');
      // Partial downloads of any other run are abandoned: this one is newer.
      await removeRunFolders(downloadDir, plan.refTime);
      const started = now();
      const logDownload = progressLogger(log, { source: source.id, run }, 'download progress');
      const files = await source.download(plan, ctx, (p) => logDownload({ done: p.stepsDone, total: p.steps }));
      log.info({ source: source.id, run, files: files.length, ms: now() - started }, 'run downloaded; ingesting');
      const logIngest = progressLogger(log, { source: source.id, run }, 'ingest progress');
      const result = await ingest(files, { dataDir, product: source.product, signal, onProgress: logIngest });
      await writeSourceState(downloadDir, { refTime: plan.refTime, ingestedAt: new Date(now()).toISOString() });
      log.info({ source: source.id, run, tiles: result.tiles, variables: result.variables, ms: result.ms }, 'run ingested');
      try {
        options.onIngested?.({ source: source.id, result });
      } catch (error) {
        log.warn({ source: source.id, err: error instanceof Error ? error.message : String(error) }, 'onIngested failed');
      }
      if (!options.keepDownloads) await removeRunFolders(downloadDir);
      return { kind: 'ingested', refTime: plan.refTime };
    } finally {
      await lock.release();
    }
  }

  async function guardedRound(source: LiveSource): Promise<RoundOutcome> {
    try {
      return await enqueue(() => round(source));
    } catch (error) {
      if (signal.aborted) throw error;
      log.error({ source: source.id, err: error instanceof Error ? error.message : String(error) }, 'live source round failed; retrying next round');
      return { kind: 'failed', error };
    }
  }

  async function loop(source: LiveSource): Promise<void> {
    const intervalMs = (options.premium ? source.premiumIntervalMinutes : source.intervalMinutes) * MINUTE_MS;
    let lastRefTime = (await readSourceState(join(downloadsRoot, source.id)))?.refTime;
    while (!signal.aborted) {
      const outcome = await guardedRound(source);
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
    runRound(sourceId) {
      const source = runnable.find((s) => s.id === sourceId);
      if (!source) return Promise.reject(new Error(`No running live source "${sourceId}"`));
      return guardedRound(source);
    },
    async stop() {
      stopper.abort(new Error('scheduler stopped'));
      await done;
    },
    done,
  };
}

/**
 * Starts the sources ISOBAR_SOURCES names, with ISOBAR_DATA_DIR and the other variables of
 * config.ts; null when none is named (the default). A bad configuration throws. The server does
 * not call this: buildApp (server/app.ts, option liveSources) reads the same configuration, starts
 * the scheduler on listen into its own data directory and stops it on close. This is for a
 * process that downloads without serving.
 */
export function startLiveSources(options: { logger: SourceLogger; ingest?: IngestFn; signal?: AbortSignal; env?: Record<string, string | undefined> }): Scheduler | null {
  const config = sourcesConfigFromEnv(options.env);
  if (config.sources.length === 0) return null;
  return startScheduler({
    logger: options.logger, dataDir: config.dataDir, sources: config.sources, premium: config.premium,
    ingest: options.ingest, signal: options.signal,
  });
}
