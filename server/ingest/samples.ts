/**
 * The sample products (issue 3, "Samples as products"): the real model files of
 * ../shared/data/samples are ingested into the data directory when the server starts, each as
 * its own catalogue product with its own dates (common/catalogue/products.ts, `sample: true`).
 * Runs already published are left alone, so only the first start pays (about 10 s, in the
 * background: the demo product serves meanwhile).
 *
 *   ISOBAR_SAMPLES_DIR   where the samples are (default ../shared/data/samples beside the
 *                        repository, when it exists); "none" turns the loader off
 */

import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import { hourStamp } from '../../common/minifest.ts';
import { loadEngine } from './engine.ts';
import { engineGribReader } from './fields.ts';
import { ingestFiles, type IngestResult } from './ingest.ts';
import { groupRuns, startsWithGrib, walk } from './inputs.ts';
import { readCurrentRunId, readRunManifest, type RunStorage } from './layout.ts';
import type { ObjectStore } from '../storage/objectStore.ts';

const DEFAULT_SAMPLES_DIR = fileURLToPath(new URL('../../../shared/data/samples', import.meta.url));

/** The samples directory to load, or null when there is none or it is turned off. */
export async function samplesDirFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const configured = env.ISOBAR_SAMPLES_DIR;
  if (configured === 'none') return null;
  const dir = configured || DEFAULT_SAMPLES_DIR;
  const info = await stat(dir).catch(() => null);
  return info?.isDirectory() ? dir : null;
}

export interface SampleLoad {
  /** Runs ingested by this call. */
  loaded: IngestResult[];
  /** Sample products that already had a published run. */
  present: string[];
  /** One line per file or run that could not be loaded. */
  failures: string[];
}

/**
 * Whether the product has a current run this build can serve whole. A run published before the
 * level store existed (its run.json has no `levelPoints`) or before the point store kept the
 * model's terrain height (`points` without `statics`) is loaded again, so the samples get their
 * airgram data and elevation without a manual clean-up.
 */
async function hasCurrentRun(where: RunStorage, directory: string): Promise<boolean> {
  const id = await readCurrentRunId(where, directory);
  const manifest = id ? await readRunManifest(where, directory, id) : null;
  return manifest !== null && 'levelPoints' in manifest && (manifest.points === null || Array.isArray(manifest.points.statics));
}

/** Ingests every sample run that the data directory (or `storage`, where runs are published) does not hold yet. */
export async function loadSamples(samplesDir: string, dataDir: string, log: (line: string) => void = () => {}, storage?: ObjectStore): Promise<SampleLoad> {
  const failures: string[] = [];
  const files: string[] = [];
  for (const path of await walk(samplesDir)) if (await startsWithGrib(path)) files.push(path);
  const groups = await groupRuns(files, engineGribReader(await loadEngine()), undefined, failures, log);
  const result: SampleLoad = { loaded: [], present: [], failures };
  for (const group of groups) {
    const product = PRODUCTS[group.product];
    if (!product.sample) {
      failures.push(`${group.files.join(', ')}: not a sample product (${group.product}); load it with npm run ingest`);
      continue;
    }
    if (await hasCurrentRun(storage ?? dataDir, product.directory)) {
      result.present.push(product.ident);
      continue;
    }
    try {
      const run = await ingestFiles(group.files, { dataDir, storage, product: product.ident });
      log(`sample ${product.ident} run ${hourStamp(run.refTime)}: ${run.steps.length} step(s), ${run.tiles} tiles in ${(run.ms / 1000).toFixed(1)} s`);
      result.loaded.push(run);
    } catch (error) {
      failures.push(`${product.ident}: ${(error as Error).message}`);
    }
  }
  return result;
}
