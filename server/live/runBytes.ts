/**
 * What one run of a source downloads: the byte ranges of the fields it asks for, summed over every
 * step, from the upstream's own index files of its newest complete run (no field data is fetched).
 *
 *   npx tsx server/live/runBytes.ts [source...]     default: the default set (config.ts DEFAULT_SOURCES)
 *
 * The sources and their URLs come from the environment as for the server (ISOBAR_GFS_URL, ...).
 * README "Live data" quotes its figures.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SOURCES, sourcesConfigFromEnv } from './config.ts';
import { SourceHttp } from './http.ts';
import { fieldsForStep, IndexedSource, selectFields } from './indexedSource.ts';
import { planRanges, type IndexEntry } from './indexFiles.ts';
import { SILENT_LOGGER, runLabel, type LiveSource } from './source.ts';

export interface RunBytes {
  source: string;
  refTime: number;
  steps: number;
  /** Bytes of the ranges asked for; a range open to the end of its file (the index has no length for the last field) is measured with a HEAD of the file. */
  bytes: number;
}

async function fileLength(url: string): Promise<number> {
  const response = await fetch(url, { method: 'HEAD' });
  const length = Number(response.headers.get('content-length'));
  if (!response.ok || !Number.isFinite(length)) throw new Error(`${url}: HEAD answered ${response.status} without a length`);
  return length;
}

/** The bytes of the newest complete run of an indexed source; null when none is complete upstream. */
export async function runBytes(source: LiveSource, options: { now?: number; http?: SourceHttp } = {}): Promise<RunBytes | null> {
  if (!(source instanceof IndexedSource)) throw new Error(`${source.id}: only sources with index files can be sized`);
  const model = (source as IndexedSource<IndexEntry>).model;
  const downloadDir = await mkdtemp(join(tmpdir(), 'isobar-run-bytes-'));
  try {
    const now = options.now ?? Date.now();
    const ctx = { http: options.http ?? new SourceHttp({ log: SILENT_LOGGER }), log: SILENT_LOGGER, downloadDir, now: () => now };
    const plan = await source.findLatestRun(ctx);
    if (!plan) return null;
    let bytes = 0;
    for (const step of plan.steps) {
      const entries = selectFields(model.parseIndex(plan.indexes.get(step)!), fieldsForStep(model.fields, step, plan.steps), `${source.id} f${step}`);
      for (const range of planRanges(entries)) {
        const end = range.end ?? (await fileLength(model.dataUrl(plan.refTime, step))) - 1;
        bytes += end - range.start + 1;
      }
    }
    return { source: source.id, refTime: plan.refTime, steps: plan.steps.length, bytes };
  } finally {
    await rm(downloadDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ids = process.argv.slice(2);
  const config = sourcesConfigFromEnv({ ...process.env, ISOBAR_SOURCES: (ids.length ? ids : DEFAULT_SOURCES).join(',') });
  let total = 0;
  for (const source of config.sources) {
    const r = await runBytes(source);
    if (!r) {
      console.log(`${source.id}: no complete run upstream`);
      continue;
    }
    total += r.bytes;
    console.log(`${source.id} ${runLabel(r.refTime)}: ${r.steps} steps, ${(r.bytes / 1e6).toFixed(1)} MB`);
  }
  console.log(`total: ${(total / 1e6).toFixed(1)} MB a run; two kept runs of tiles and point stores come on top (README "Live data")`);
}
