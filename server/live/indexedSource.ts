/**
 * A source whose files come with an index of byte ranges (NOAA `.idx`, ECMWF `.index`): the run is
 * complete when every wanted step's index is published, and each step is fetched as the byte
 * ranges of the wanted fields only, adjacent ranges merged, every chunk checked to be whole GRIB2
 * messages, written to the step's part file at its place, so a broken download resumes at the
 * first chunk it lacks.
 */

import { open, readFile, stat } from 'node:fs/promises';
import { GribFormatError, gribMessages } from './gribMessages.ts';
import { HttpStatusError, type ByteRange, type SourceHttp } from './http.ts';
import { IndexFormatError, planRanges, type IndexEntry } from './indexFiles.ts';
import { RunFolder } from './runFolder.ts';
import { HOUR_MS } from '../../common/time.ts';
import {
  candidateRuns, forEachConcurrent, runLabel,
  type DownloadProgress, type LiveSource, type RunPlan, type RunSchedule, type SourceContext,
} from './source.ts';

/** One field Isobar wants, in the model's own naming; `optional` ones may be absent from a step. */
export interface FieldSpec<E> {
  name: string;
  match: (entry: E) => boolean;
  optional?: boolean;
  /** Constant through a run (the model's terrain height): fetched with the run's first step only. */
  firstStepOnly?: boolean;
}

/** The fields wanted from one step of a run: the run-constant ones only at its first step. */
export function fieldsForStep<E>(fields: readonly FieldSpec<E>[], step: number, steps: readonly number[]): readonly FieldSpec<E>[] {
  return step === Math.min(...steps) ? fields : fields.filter((f) => !f.firstStepOnly);
}

export interface IndexedModel<E extends IndexEntry> {
  id: string;
  product: string;
  label: string;
  intervalMinutes: number;
  premiumIntervalMinutes: number;
  schedule: RunSchedule;
  /** The steps wanted from a run; empty when that run does not reach far enough. */
  steps: (refTime: number) => number[];
  dataUrl: (refTime: number, step: number) => string;
  indexUrl: (refTime: number, step: number) => string;
  parseIndex: (text: string) => E[];
  fields: readonly FieldSpec<E>[];
  /** Steps downloaded at once. */
  concurrency?: number;
  /** Least ms between two requests to this upstream (NOMADS caps clients at ~120 requests a minute). */
  minRequestIntervalMs?: number;
  unsupportedReason?: string;
}

export interface IndexedPlan extends RunPlan {
  /** Index text of every step not yet complete on disk. */
  indexes: Map<number, string>;
}

export class MissingFieldError extends Error {
  override name = 'MissingFieldError';
}

/** The index entries of the wanted fields; a required field that is absent is an error naming it. */
export function selectFields<E extends IndexEntry>(entries: readonly E[], fields: readonly FieldSpec<E>[], where: string): E[] {
  const chosen = new Set<E>();
  for (const field of fields) {
    const matches = entries.filter(field.match);
    if (matches.length === 0 && !field.optional) throw new MissingFieldError(`${where} has no ${field.name}`);
    for (const entry of matches) chosen.add(entry);
  }
  return entries.filter((entry) => chosen.has(entry));
}

const DEFAULT_CONCURRENCY = 4;

export class IndexedSource<E extends IndexEntry> implements LiveSource<IndexedPlan> {
  readonly id: string;
  readonly product: string;
  readonly label: string;
  readonly intervalMinutes: number;
  readonly premiumIntervalMinutes: number;
  readonly publishDelayMinutes: number;
  readonly unsupportedReason?: string;

  constructor(readonly model: IndexedModel<E>) {
    this.id = model.id;
    this.product = model.product;
    this.label = model.label;
    this.intervalMinutes = model.intervalMinutes;
    this.premiumIntervalMinutes = model.premiumIntervalMinutes;
    this.publishDelayMinutes = model.schedule.publishDelayMinutes;
    this.unsupportedReason = model.unsupportedReason;
  }

  private readonly throttled = new WeakMap<SourceHttp, SourceHttp>();

  /** The shared HTTP layer, or a throttled copy of it kept across calls when the upstream asks. */
  private http(ctx: SourceContext): SourceHttp {
    const interval = this.model.minRequestIntervalMs;
    if (!interval) return ctx.http;
    let http = this.throttled.get(ctx.http);
    if (!http) this.throttled.set(ctx.http, (http = ctx.http.with({ minRequestIntervalMs: interval })));
    return http;
  }

  /** The index of the first step of the newest run that may be out. */
  probeUrl(now: number): string {
    const refTime = candidateRuns(now, this.model.schedule)[0] ?? Math.floor(now / HOUR_MS) * HOUR_MS;
    return this.model.indexUrl(refTime, this.model.steps(refTime)[0] ?? 0);
  }

  async findLatestRun(ctx: SourceContext, newerThan?: number): Promise<IndexedPlan | null> {
    const { log, signal } = ctx;
    const http = this.http(ctx);
    for (const refTime of candidateRuns(ctx.now(), this.model.schedule, newerThan)) {
      const steps = this.model.steps(refTime);
      if (steps.length === 0) continue;
      const folder = RunFolder.forRun(ctx.downloadDir, refTime);
      // Upstreams publish steps in order: the last one's index is the cheap test of a whole run.
      const last = steps[steps.length - 1];
      const lastKnown = (await folder.isStepComplete(last)) || (await folder.readIndex(last)) !== null;
      if (!lastKnown && !(await http.exists(this.model.indexUrl(refTime, last), signal))) {
        log.debug({ source: this.id, run: runLabel(refTime), step: last }, 'run not published yet');
        continue;
      }
      const indexes = new Map<number, string>();
      const missing: number[] = [];
      await forEachConcurrent(steps, this.model.concurrency ?? DEFAULT_CONCURRENCY, async (step) => {
        if (await folder.isStepComplete(step)) return;
        const text = (await folder.readIndex(step)) ?? (await http.text(this.model.indexUrl(refTime, step), signal));
        if (text === null) missing.push(step);
        else indexes.set(step, text);
      });
      if (missing.length > 0) {
        log.info({ source: this.id, run: runLabel(refTime), missing: missing.sort((a, b) => a - b) }, 'run incomplete upstream; trying an older one');
        continue;
      }
      return { source: this.id, refTime, steps, indexes };
    }
    return null;
  }

  async download(plan: IndexedPlan, ctx: SourceContext, onProgress?: (progress: DownloadProgress) => void): Promise<string[]> {
    const folder = RunFolder.forRun(ctx.downloadDir, plan.refTime);
    await folder.create();
    for (const [step, text] of plan.indexes) {
      if ((await folder.readIndex(step)) === null) await folder.writeIndex(step, text);
    }
    // Every step's byte ranges first, in step order: an index without a required field fails the
    // run before any byte is fetched, and always names the first such step.
    const ranges = new Map<number, ByteRange[]>();
    for (const step of plan.steps) {
      if (await folder.isStepComplete(step)) continue;
      const text = plan.indexes.get(step) ?? (await folder.readIndex(step));
      if (text === null) throw new Error(`${this.id} ${runLabel(plan.refTime)} f${step}: no index to plan the download from`);
      const where = `${this.id} ${runLabel(plan.refTime)} step ${step} index`;
      try {
        ranges.set(step, planRanges(selectFields(this.model.parseIndex(text), fieldsForStep(this.model.fields, step, plan.steps), where)));
      } catch (error) {
        // A bad index: plan the step afresh next round.
        if (error instanceof IndexFormatError) await folder.discardStep(step);
        throw error;
      }
    }
    const progress: DownloadProgress = { source: this.id, refTime: plan.refTime, stepsDone: 0, steps: plan.steps.length, bytes: 0 };
    await forEachConcurrent(plan.steps, this.model.concurrency ?? DEFAULT_CONCURRENCY, async (step) => {
      const stepRanges = ranges.get(step);
      if (stepRanges) {
        try {
          await downloadRanges(this.http(ctx), ctx.signal, this.model.dataUrl(plan.refTime, step), stepRanges, folder, step, (n) => {
            progress.bytes += n;
          });
        } catch (error) {
          // The file no longer matches its index (republished upstream, or a bad index): plan it afresh next round.
          if (error instanceof GribFormatError || error instanceof IndexFormatError
            || (error instanceof HttpStatusError && error.status === 416)) await folder.discardStep(step);
          throw error;
        }
      }
      progress.stepsDone++;
      onProgress?.({ ...progress, step, file: folder.stepFile(step) });
    });
    return plan.steps.map((step) => folder.stepFile(step));
  }
}

function rangeLength(range: ByteRange): number {
  return range.end === null ? Infinity : range.end - range.start + 1;
}

/**
 * Fetches `ranges` of `url` into the step's part file, chunk i at the sum of the lengths before it.
 * What an earlier attempt left is kept up to the last whole chunk; a torn chunk is cut off and
 * fetched again. Then the whole file is checked and the step marked complete.
 */
async function downloadRanges(
  http: SourceHttp, signal: AbortSignal | undefined, url: string, ranges: ByteRange[], folder: RunFolder, step: number, onBytes: (n: number) => void,
): Promise<void> {
  const part = folder.partFile(step);
  await (await open(part, 'a')).close();
  const handle = await open(part, 'r+');
  try {
    const have = (await stat(part)).size;
    let position = 0;
    let first = 0;
    while (first < ranges.length && position + rangeLength(ranges[first]) <= have) {
      position += rangeLength(ranges[first]);
      first++;
    }
    if (have !== position) await handle.truncate(position);
    for (let i = first; i < ranges.length; i++) {
      const bytes = await http.range(url, ranges[i], { signal, validate: (b) => void gribMessages(b) });
      await handle.write(bytes, 0, bytes.length, position);
      position += bytes.length;
      onBytes(bytes.length);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  const messages = gribMessages(await readFile(part)).length;
  const bytes = (await stat(part)).size;
  await folder.completeStep(step, { bytes, messages, url });
}
