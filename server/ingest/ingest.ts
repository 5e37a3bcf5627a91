/**
 * The ingest entry point (DESIGN.md "Data flow" 1): GRIB2 files of one run of one product in,
 * tiles + minifest + point-series store of that run out, published atomically (layout.ts).
 *
 *   ingestFiles(files, { dataDir })     files: paths, or an async iterable the downloaders feed
 *     for each file as it comes:          one step at a time as each download completes
 *       inventory -> catalogue matches (fields.ts) -> product (given or inferred) and run
 *       per step in the file: RunBuilder.addStep (runBuilder.ts), which decodes each field when it
 *         comes to the field's layer
 *       (snapshots: the steps built so far are published as a snapshot after the file, layout.ts)
 *     publish (unless publish: false: the run stays staged and a later call adds more steps)
 *
 * Every file must belong to the same product and run; anything else is an IngestError that says
 * which file and why, and nothing of that run is published.
 */

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { PRODUCTS, type Product } from '../../common/catalogue/products.ts';
import { hourStamp } from '../../common/minifest.ts';
import { loadEngine } from './engine.ts';
import {
  engineGribReader, hourOf, IngestError, inferProduct, matchFields, runRefTimeOf, type GribReader, type MatchedField,
} from './fields.ts';
import { RunBuilder, type IngestProgress, type PrerenderPolicy, type StepField } from './runBuilder.ts';
import type { ObjectStore } from '../storage/objectStore.ts';

export { IngestError } from './fields.ts';
export type { IngestProgress } from './runBuilder.ts';

export interface IngestOptions {
  /** Where runs are built (staging), and published unless `storage` is a remote store. */
  dataDir: string;
  /** Where runs are published (RunBuilderOptions.storage); default the data directory. */
  storage?: ObjectStore;
  /** Catalogue product ident; inferred from the files when absent. */
  product?: string;
  onProgress?: (p: IngestProgress) => void;
  signal?: AbortSignal;
  /** Publish once the files are done (default). false keeps the run staged: a later call adds steps and publishes. */
  publish?: boolean;
  /** Zooms written at ingest; the rest up to the product's premium maximum are rendered on first request. */
  prerender?: PrerenderPolicy;
  /** Point-series grid spacing in degrees (default: the model's, not finer than 0.5°). */
  pointResolution?: number;
  /** The GRIB2 decoder: the engine's by default; tests give synthetic fields. */
  reader?: GribReader;
  /** Steps the staged build already has are not built again (a download resumed after a restart). */
  skipBuilt?: boolean;
  /**
   * Serve the run while it is built: after a file adds steps, the steps so far are published as a
   * snapshot (RunBuilder.publishSnapshot), the first at once, then at most one per `minIntervalMs`.
   */
  snapshots?: { minIntervalMs: number };
  /** After each file: the run's steps built so far, and how many of them are served. */
  onSteps?: (p: { refTime: number; built: number[]; served: number }) => void;
}

export interface IngestResult {
  product: string;
  refTime: number;
  /** Forecast hours of the run's steps so far. */
  steps: number[];
  /** Layers written (`${file}-${level}`) over the whole run so far. */
  variables: string[];
  /** Tiles written by this call (pyramid and native). */
  tiles: number;
  ms: number;
  /** Set when the run was published. */
  runId?: string;
  /** Files that held no field the catalogue stores. */
  skipped: string[];
}

function productByIdent(ident: string): Product {
  if (Object.prototype.hasOwnProperty.call(PRODUCTS, ident)) return PRODUCTS[ident];
  throw new IngestError(`Unknown product "${ident}"; the catalogue has ${Object.keys(PRODUCTS).filter((p) => p !== 'demo').join(', ')}`);
}

async function* asAsync(files: string[] | AsyncIterable<string>): AsyncIterable<string> {
  yield* files;
}

function unmappable(fields: MatchedField[]): MatchedField | undefined {
  return fields.find((f) => !f.info.grid.mappable);
}

export async function ingestFiles(files: string[] | AsyncIterable<string>, options: IngestOptions): Promise<IngestResult> {
  const started = performance.now();
  const { signal, onProgress } = options;
  const total = Array.isArray(files) ? files.length : 0;
  const engine = await loadEngine();
  const reader = options.reader ?? engineGribReader(engine);
  let product: Product | null = options.product ? productByIdent(options.product) : null;
  if (product?.demo) throw new IngestError('The demo product is generated, not ingested');
  let builder: RunBuilder | null = null;
  let refTime = 0;
  let tiles = 0;
  let count = 0;
  let served = 0;
  let lastSnapshot = -Infinity;
  const skipped: string[] = [];
  const unusedNames = new Set<string>();
  try {
    for await (const path of asAsync(files)) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new IngestError('Ingest aborted');
      count++;
      const name = basename(path);
      const bytes = new Uint8Array(await readFile(path).catch((cause: unknown) => {
        throw new IngestError(`${path}: cannot be read (${(cause as Error).message})`, { cause });
      }));
      let infos;
      try {
        infos = reader.inventory(bytes);
      } catch (cause) {
        throw new IngestError(`${path}: not a GRIB2 file the decoder can read: ${(cause as Error).message}`, { cause });
      }
      const { matched, unused } = matchFields(infos, count - 1);
      for (const info of unused) unusedNames.add(`${info.shortName}@${info.typeOfLevel}`);
      if (!matched.length) {
        skipped.push(path);
        onProgress?.({ phase: 'file', done: count, total: Math.max(total, count), message: `${name}: no field the catalogue stores (${infos.length} fields)` });
        continue;
      }
      const bad = unmappable(matched);
      if (bad) {
        throw new IngestError(`${path}: ${bad.info.shortName} is on a ${bad.info.grid.type} grid (template 3.${bad.info.grid.template}), which cannot be mapped to lat/lon tiles${bad.info.grid.unsupportedReason ? `: ${bad.info.grid.unsupportedReason}` : ''}`);
      }
      const fileProduct = options.product ? product! : inferProduct(matched, path);
      if (product && fileProduct.ident !== product.ident) {
        throw new IngestError(`${path} belongs to ${fileProduct.ident}, but this ingest is loading ${product.ident}: one product per ingest`);
      }
      product = fileProduct;
      const byHour = new Map<number, MatchedField[]>();
      for (const field of matched) {
        const fieldRef = runRefTimeOf(product, field.info);
        if (!builder) {
          refTime = fieldRef;
          builder = await RunBuilder.open({
            dataDir: options.dataDir, storage: options.storage, product, refTime, engine, prerender: options.prerender, pointResolution: options.pointResolution, signal, onProgress,
          });
        } else if (fieldRef !== refTime) {
          throw new IngestError(`${path} holds run ${hourStamp(fieldRef)} of ${product.ident}, but this ingest is building run ${hourStamp(refTime)}: one run per ingest (mixed runs)`);
        }
        const hour = hourOf(refTime, field.info);
        if (hour < 0) throw new IngestError(`${path}: ${field.info.shortName} is valid before the run's reference time ${hourStamp(refTime)}`);
        const list = byHour.get(hour) ?? [];
        list.push(field);
        byHour.set(hour, list);
      }
      builder!.noteFile();
      const hours = [...byHour.keys()].sort((a, b) => a - b).filter((hour) => !(options.skipBuilt && builder!.hasStep(hour)));
      for (const [k, hour] of hours.entries()) {
        // Decoded by the builder as it comes to each field's layer (a field another one of its
        // variable and level outranks is not decoded at all).
        const stepFields: StepField[] = byHour.get(hour)!.map((field) => ({
          info: field.info,
          match: field.match,
          load: async () => {
            try {
              return await reader.decode(bytes, field.info);
            } catch (cause) {
              throw new IngestError(`${path}: field ${field.info.message}.${field.info.field} (${field.info.shortName} ${field.info.typeOfLevel} ${field.info.level}) cannot be decoded: ${(cause as Error).message}`, { cause });
            }
          },
        }));
        const step = await builder!.addStep(hour, stepFields);
        tiles += step.tiles;
        onProgress?.({
          phase: 'step', done: count, total: Math.max(total, count),
          message: `${name}: +${hour} h (${k + 1}/${hours.length}), ${step.layers.length} layers, ${step.tiles} tiles`,
        });
      }
      const snapshotDue = options.snapshots && performance.now() - lastSnapshot >= options.snapshots.minIntervalMs;
      if (snapshotDue && builder!.hours.length > served) {
        const { id } = await builder!.publishSnapshot();
        served = builder!.hours.length;
        lastSnapshot = performance.now();
        onProgress?.({ phase: 'snapshot', done: count, total: Math.max(total, count), message: `run ${id}: ${served} step(s) served` });
      }
      options.onSteps?.({ refTime, built: builder!.hours, served });
    }
    if (!builder || !product) {
      const names = [...unusedNames].slice(0, 12).join(', ');
      throw new IngestError(`No field of ${count} file(s) maps to a catalogue variable${names ? ` (fields: ${names}${unusedNames.size > 12 ? ', ...' : ''})` : ''}`);
    }
    const result: IngestResult = {
      product: product.ident, refTime, steps: builder.hours, variables: builder.layerKeys, tiles, ms: 0, skipped,
    };
    if (options.publish ?? true) {
      const { id } = await builder.publish();
      result.runId = id;
    }
    result.ms = Math.round(performance.now() - started);
    return result;
  } finally {
    await (builder as RunBuilder | null)?.release();
  }
}
