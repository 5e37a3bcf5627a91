/**
 * What every live source (one weather model from one publisher) offers the scheduler, and the
 * run-time arithmetic they share. A run is named by its reference time in ms since the epoch (UTC);
 * a step by its forecast hour.
 *
 * Downloads of one run live in their own folder (see runFolder.ts); a source hands the scheduler
 * one GRIB2 file per step, holding only the fields Isobar reads, in upstream byte order.
 */

import type { SourceHttp } from './http.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';

/** The part of a pino / Fastify logger the sources use. */
export interface SourceLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const SILENT_LOGGER: SourceLogger = { debug() {}, info() {}, warn() {}, error() {} };

export interface DownloadProgress {
  source: string;
  refTime: number;
  /** Steps whose file is complete on disk. */
  stepsDone: number;
  steps: number;
  /** Bytes received in this session (a resumed run does not count what it already had). */
  bytes: number;
  /** The step just completed and its file (complete on disk). */
  step?: number;
  file?: string;
}

export interface SourceContext {
  http: SourceHttp;
  log: SourceLogger;
  /** Where this source keeps its run folders: `{dataDir}/downloads/{source id}`. */
  downloadDir: string;
  now: () => number;
  signal?: AbortSignal;
}

/** A complete run found upstream, with what is needed to download it. */
export interface RunPlan {
  source: string;
  refTime: number;
  /** Forecast hours, ascending. */
  steps: number[];
}

export interface LiveSource<Plan extends RunPlan = RunPlan> {
  /** Configuration name (ISOBAR_SOURCES) and folder name: `gfs`, `gfsWave`, `ecmwf`, `aifs`, `icon`, `iconEu`. */
  readonly id: string;
  /** Product ident handed to the ingest. */
  readonly product: string;
  readonly label: string;
  /** Minutes between the runs Isobar takes (SPEC §9 update intervals, from the product catalogue). */
  readonly intervalMinutes: number;
  readonly premiumIntervalMinutes: number;
  /** Typical minutes from a run's reference time until its last wanted step is published. */
  readonly publishDelayMinutes: number;
  /** Set when the scheduler must not run this source; says why. */
  readonly unsupportedReason?: string;
  /** A small upstream file whose answer (any HTTP status) shows the upstream is reachable (probe.ts). */
  probeUrl?(now: number): string;
  /**
   * The newest run that is complete upstream (every wanted step published), probing backwards from
   * now; null when none newer than `newerThan` is. Never downloads field data.
   */
  findLatestRun(ctx: SourceContext, newerThan?: number): Promise<Plan | null>;
  /**
   * Downloads the wanted fields of every step, resuming what an earlier call left; returns the
   * step files in step order. `onProgress` is called once per step as its file is complete.
   */
  download(plan: Plan, ctx: SourceContext, onProgress?: (progress: DownloadProgress) => void): Promise<string[]>;
}

/** Why a source cannot run while the catalogue lacks its product: the ingest refuses unknown products. */
export const NO_PRODUCT = (ident: string): string => `The catalogue (common/catalogue/products.ts) has no "${ident}" product for its runs yet`;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** UTC parts of a reference time as upstream paths spell them. */
export function runParts(refTime: number): { yyyymmdd: string; hh: string; yyyymmddhh: string } {
  const d = new Date(refTime);
  const yyyymmdd = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}`;
  const hh = pad(d.getUTCHours(), 2);
  return { yyyymmdd, hh, yyyymmddhh: `${yyyymmdd}${hh}` };
}

/** Forecast hour as three digits (`f003`, `_003_`). */
export function hour3(step: number): string {
  return pad(step, 3);
}

/** `2024-01-02T06Z`, for logs. */
export function runLabel(refTime: number): string {
  return `${new Date(refTime).toISOString().slice(0, 13)}Z`;
}

export interface RunSchedule {
  /** UTC hours at which the model starts a run. */
  runHours: readonly number[];
  /** Minutes after the reference time before which a run is never complete. */
  publishDelayMinutes: number;
  /** How far back to look for a complete run. */
  lookbackHours: number;
}

/**
 * Reference times worth probing, newest first: every run hour from `now - publishDelay` back to
 * `now - lookback`, stopping before `newerThan` (a run already taken is never probed again).
 */
export function candidateRuns(now: number, schedule: RunSchedule, newerThan = -Infinity): number[] {
  const latest = now - schedule.publishDelayMinutes * MINUTE_MS;
  const oldest = now - schedule.lookbackHours * HOUR_MS;
  const runs: number[] = [];
  let t = Math.floor(latest / HOUR_MS) * HOUR_MS;
  for (; t >= oldest && t > newerThan; t -= HOUR_MS) {
    if (schedule.runHours.includes(new Date(t).getUTCHours())) runs.push(t);
  }
  return runs;
}

/** Forecast hours 0, every, 2 * every, ... up to `last` inclusive. */
export function stepRange(from: number, to: number, every: number): number[] {
  const steps: number[] = [];
  for (let h = from; h <= to; h += every) steps.push(h);
  return steps;
}

/**
 * Runs `task` for every item, at most `limit` at once, in order of start. After the first failure
 * no new item starts; the failure is thrown once the running ones have settled.
 */
export async function forEachConcurrent<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/**
 * Pressure levels fetched for wind, temperature and geopotential: the standard levels of the
 * catalogue (common/catalogue/levels.ts) that the map offers most, kept few for download volume.
 */
export const PRESSURE_LEVELS_HPA: readonly number[] = [850, 700, 500, 300, 250, 200];
