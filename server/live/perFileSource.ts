/**
 * A source with one compressed file per variable, level and step and no index (DWD open data): a
 * run is complete when every wanted file is listed in its variable's directory listing; a step is
 * downloaded file by file (each resumable with Range), decompressed, checked to be whole GRIB2
 * messages, and the step's files joined into the step file.
 */

import { mkdir, readFile, rm, stat, writeFile, rename, open } from 'node:fs/promises';
import { join } from 'node:path';
import { bunzip2File, Bunzip2Error } from './bunzip2.ts';
import { gribMessages, GribFormatError } from './gribMessages.ts';
import { RunFolder } from './runFolder.ts';
import {
  candidateRuns, forEachConcurrent, runLabel,
  type DownloadProgress, type LiveSource, type RunPlan, type RunSchedule, type SourceContext,
} from './source.ts';

export interface PerFileField {
  /** Upstream variable name as in file names, e.g. `T_2M`, `U`. */
  variable: string;
  /** Pressure level in hPa for pressure-level files. */
  levelHPa?: number;
  optional?: boolean;
}

export interface PerFileModel {
  id: string;
  product: string;
  label: string;
  intervalMinutes: number;
  premiumIntervalMinutes: number;
  schedule: RunSchedule;
  steps: (refTime: number) => number[];
  /** The directory listing that holds a field's files. */
  listingUrl: (refTime: number, field: PerFileField) => string;
  /** File name of a field at a step, as listed. */
  fileName: (refTime: number, step: number, field: PerFileField) => string;
  fields: readonly PerFileField[];
  concurrency?: number;
  unsupportedReason?: string;
}

export interface PerFilePlan extends RunPlan {
  /** Files of each step: URL and name (optional fields not published are left out). */
  files: Map<number, { url: string; name: string }[]>;
}

/** The file names an HTML directory listing links to (nginx / Apache autoindex). */
export function listedNames(html: string): Set<string> {
  const names = new Set<string>();
  for (const match of html.matchAll(/href="([^"?#]+)"/g)) {
    const name = decodeURIComponent(match[1]).split('/').pop();
    if (name) names.add(name);
  }
  return names;
}

export class PerFileSource implements LiveSource<PerFilePlan> {
  readonly id: string;
  readonly product: string;
  readonly label: string;
  readonly intervalMinutes: number;
  readonly premiumIntervalMinutes: number;
  readonly publishDelayMinutes: number;
  readonly unsupportedReason?: string;

  constructor(readonly model: PerFileModel) {
    this.id = model.id;
    this.product = model.product;
    this.label = model.label;
    this.intervalMinutes = model.intervalMinutes;
    this.premiumIntervalMinutes = model.premiumIntervalMinutes;
    this.publishDelayMinutes = model.schedule.publishDelayMinutes;
    this.unsupportedReason = model.unsupportedReason;
  }

  async findLatestRun(ctx: SourceContext, newerThan?: number): Promise<PerFilePlan | null> {
    const listings = new Map<string, Set<string> | null>();
    for (const refTime of candidateRuns(ctx.now(), this.model.schedule, newerThan)) {
      const steps = this.model.steps(refTime);
      if (steps.length === 0) continue;
      const files = new Map<number, { url: string; name: string }[]>(steps.map((s) => [s, []]));
      const missing: string[] = [];
      for (const field of this.model.fields) {
        const listingUrl = this.model.listingUrl(refTime, field);
        if (!listings.has(listingUrl)) {
          const html = await ctx.http.text(listingUrl, ctx.signal);
          listings.set(listingUrl, html === null ? null : listedNames(html));
        }
        const listed = listings.get(listingUrl);
        const names = steps.map((step) => this.model.fileName(refTime, step, field));
        if (listed && names.every((name) => listed.has(name))) {
          steps.forEach((step, i) => files.get(step)?.push({ url: new URL(names[i], listingUrl).href, name: names[i] }));
        } else if (!field.optional) {
          missing.push(`${field.variable}${field.levelHPa ? `@${field.levelHPa}` : ''}`);
          break;
        }
      }
      if (missing.length > 0) {
        ctx.log.info({ source: this.id, run: runLabel(refTime), missing }, 'run incomplete upstream; trying an older one');
        continue;
      }
      return { source: this.id, refTime, steps, files };
    }
    return null;
  }

  async download(plan: PerFilePlan, ctx: SourceContext, onProgress?: (progress: DownloadProgress) => void): Promise<string[]> {
    const folder = RunFolder.forRun(ctx.downloadDir, plan.refTime);
    await folder.create();
    const progress: DownloadProgress = { source: this.id, refTime: plan.refTime, stepsDone: 0, steps: plan.steps.length, bytes: 0 };
    await forEachConcurrent(plan.steps, this.model.concurrency ?? 4, async (step) => {
      if (!(await folder.isStepComplete(step))) {
        const listed = plan.files.get(step) ?? [];
        // The file list is the step's "index": a resumed step joins the same files.
        const saved = await folder.readIndex(step);
        const files = saved === null ? listed : (JSON.parse(saved) as { url: string; name: string }[]);
        if (saved === null) await folder.writeIndex(step, JSON.stringify(listed));
        await this.downloadStep(ctx, folder, step, files, (n) => {
          progress.bytes += n;
        });
      }
      progress.stepsDone++;
      onProgress?.({ ...progress, step, file: folder.stepFile(step) });
    });
    return plan.steps.map((step) => folder.stepFile(step));
  }

  private async downloadStep(
    ctx: SourceContext, folder: RunFolder, step: number, files: { url: string; name: string }[], onBytes: (n: number) => void,
  ): Promise<void> {
    const dir = folder.stepDir(step);
    await mkdir(dir, { recursive: true });
    const gribs: string[] = [];
    for (const { url, name } of files) {
      const grib = join(dir, name.replace(/\.bz2$/, ''));
      gribs.push(grib);
      if (await exists(grib)) continue;
      const compressed = join(dir, name);
      // A corrupt download fails decompression or the GRIB check: fetch it once more, then give up.
      for (let attempt = 1; ; attempt++) {
        if (!(await exists(compressed))) await ctx.http.downloadFile(url, compressed, { signal: ctx.signal, onBytes });
        try {
          await bunzip2File(compressed, `${grib}.part`, ctx.signal);
          gribMessages(await readFile(`${grib}.part`));
          break;
        } catch (error) {
          if (!(error instanceof Bunzip2Error || error instanceof GribFormatError) || attempt >= 2) throw error;
          ctx.log.warn({ source: this.id, url, err: error.message }, 'corrupt download; fetching it again');
          await rm(compressed, { force: true });
        }
      }
      await rename(`${grib}.part`, grib);
      await rm(compressed, { force: true });
    }
    const part = folder.partFile(step);
    await writeFile(part, new Uint8Array(0));
    const handle = await open(part, 'a');
    let messages = 0;
    try {
      for (const grib of gribs) {
        const bytes = await readFile(grib);
        messages += gribMessages(bytes).length;
        await handle.write(bytes);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await folder.completeStep(step, { bytes: (await stat(part)).size, messages, url: files[0]?.url ?? '' });
    await rm(dir, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
