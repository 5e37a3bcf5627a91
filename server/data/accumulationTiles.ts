/**
 * Accumulation tiles (SPEC §7 tiles: "accumulations use an acRange query"): the amount or the
 * extreme over the range [t, t + acRange] made on request from tiles a run already holds, by the
 * methods of common/catalogue/accumulations.ts:
 *
 *   total   what fell over the range = total(t + range) - total(t), totals since the run's start
 *           (server/ingest/runBuilder.ts rainAccu); at the run's start the total is 0
 *   gain    state(t + range) - state(t), never below 0 (snow water equivalent on the ground)
 *   rates   where a product keeps no totals (the demo product): sum of rate(s) x hours to the next
 *           step over the steps s in [t, t + range)
 *   max     the largest value of the steps in (t, t + range]: a model's gust is the largest of the
 *           hour or hours before its step (ECMWF 10fg) or the gust at the step (NCEP GUST)
 *
 * Inputs are decoded data tiles of one address (common/tile.ts), the output a tile of the same
 * geometry, quantized as the source variable is (common/catalogue/variables.ts), gzip-compressed
 * and kept in a byte-bounded LRU like every served tile.
 */

import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { decodeDataTile, encodeDataTile, Predictor, type DecodedTile } from '../../common/tile.ts';
import { ACCUMULATION_SOURCES } from '../../common/catalogue/accumulations.ts';
import { FILE_VARIABLES, type Quantization } from '../../common/catalogue/variables.ts';
import { ByteLru } from './byteLru.ts';
import { ServedTile } from './servedTile.ts';
import type { TileAnswer } from './servedProducts.ts';

const gzipAsync = promisify(gzip);

/** zlib's default level: made once per range and kept, so smaller bytes are worth more than the ingest's speed. */
const ACCUMULATION_GZIP_LEVEL = 6;
/** Accumulation tiles kept in memory (about 60 KB each gzip-compressed at 257 x 257 nodes). */
const ACCUMULATION_CACHE_BYTES = 64 * 1024 * 1024;

/** Which stored steps make an accumulation tile, as hours after the run's reference time. */
export type AccumulationPlan = { quantization: Quantization } & (
  | { method: 'total'; file: string; end: number; start: number | null }
  | { method: 'gain'; file: string; end: number; start: number }
  | { method: 'rates'; file: string; steps: number[]; hours: number[] }
  | { method: 'max'; file: string; steps: number[] });

/** Why a run cannot make an accumulation (the route answers 404 with it). */
export class AccumulationPlanError extends Error {}

const listHours = (hours: readonly number[]) => {
  const text = hours.map((h) => `+${h}`).join(' ');
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/**
 * The steps an accumulation file over [start, start + range] hours needs, given the hours each
 * tile file of the run has (undefined: no such file). Every step it names exists.
 */
export function planAccumulation(file: string, start: number, range: number, hoursOf: (file: string) => readonly number[] | undefined): AccumulationPlan {
  const spec = ACCUMULATION_SOURCES[file];
  if (!spec) throw new AccumulationPlanError(`"${file}" is not an accumulation`);
  const end = start + range;
  // Stored as the accumulation's own variable where it has one (rainAccu), else as its source (gust).
  const quantization = (FILE_VARIABLES[file] ?? FILE_VARIABLES[spec.source])[0].quantization;
  const need = (source: string, hour: number, hours: readonly number[], why: string) => {
    if (!hours.includes(hour)) throw new AccumulationPlanError(`${file} over +${start}..+${end} h needs ${source} at +${hour} h (${why}); the run has ${source} at ${listHours(hours)} h`);
  };
  if (spec.method === 'max') {
    const hours = hoursOf(spec.source);
    if (!hours) throw new AccumulationPlanError(`${file} needs ${spec.source}, which this run does not have`);
    need(spec.source, end, hours, 'the range\'s end');
    return { quantization, method: 'max', file: spec.source, steps: hours.filter((h) => h > start && h <= end) };
  }
  if (spec.method === 'gain') {
    const hours = hoursOf(spec.source);
    if (!hours) throw new AccumulationPlanError(`${file} needs ${spec.source}, which this run does not have`);
    need(spec.source, end, hours, 'the range\'s end');
    need(spec.source, start, hours, 'the range\'s start');
    return { quantization, method: 'gain', file: spec.source, end, start };
  }
  const totals = hoursOf(spec.source);
  if (totals) {
    need(spec.source, end, totals, 'the total at the range\'s end');
    if (start !== 0) need(spec.source, start, totals, 'the total at the range\'s start');
    return { quantization, method: 'total', file: spec.source, end, start: start === 0 ? null : start };
  }
  const rates = spec.rate ? hoursOf(spec.rate) : undefined;
  if (!spec.rate || !rates) throw new AccumulationPlanError(`${file} needs ${spec.source}${spec.rate ? ` or ${spec.rate}` : ''}, which this run does not have`);
  need(spec.rate, start, rates, 'the range\'s start');
  need(spec.rate, end, rates, 'the range\'s end');
  const steps = rates.filter((h) => h >= start && h <= end);
  return { quantization, method: 'rates', file: spec.rate, steps: steps.slice(0, -1), hours: steps.slice(1).map((h, k) => h - steps[k]) };
}

/**
 * Makes the tile bytes of a plan from the run's decoded tiles of one address (read in step order,
 * one at a time, so that a long range holds two tiles at most besides the result).
 */
export async function makeAccumulation(plan: AccumulationPlan, read: (hour: number, file: string) => Promise<DecodedTile>): Promise<Uint8Array> {
  const { quantization } = plan;
  if (plan.method === 'total' || plan.method === 'gain') {
    const end = await read(plan.end, plan.file);
    const start = plan.start === null ? null : await read(plan.start, plan.file);
    return encodeAccumulation(end, differenceOfTotals(end, start), quantization);
  }
  if (plan.method === 'rates') {
    let first: DecodedTile | null = null;
    let sum: Float32Array | null = null;
    for (let n = 0; n < plan.steps.length; n++) {
      const tile = await read(plan.steps[n], plan.file);
      first ??= tile;
      const part = sumOfRates([tile], [plan.hours[n]]);
      if (sum) for (let k = 0; k < sum.length; k++) sum[k] += part[k];
      else sum = part;
    }
    return encodeAccumulation(first!, sum!, quantization);
  }
  let first: DecodedTile | null = null;
  let max: Float32Array | null = null;
  for (const hour of plan.steps) {
    const tile = await read(hour, plan.file);
    first ??= tile;
    max = max ? maximumOf([tile, { header: tile.header, channels: [max] }]) : maximumOf([tile]);
  }
  return encodeAccumulation(first!, max!, quantization);
}

function checkSameGrid(tiles: readonly DecodedTile[]): void {
  const [first] = tiles;
  for (const t of tiles) {
    const a = t.header;
    const b = first.header;
    if (a.width !== b.width || a.height !== b.height || a.west !== b.west || a.east !== b.east || a.north !== b.north || a.south !== b.south) {
      throw new Error(`Accumulation inputs are on different grids: ${a.width}x${a.height} and ${b.width}x${b.height}`);
    }
  }
}

/** total(end) - total(start), never below 0 (packing noise); no data where either has none. `start` null: the run's start (0). */
export function differenceOfTotals(end: DecodedTile, start: DecodedTile | null): Float32Array {
  if (start) checkSameGrid([end, start]);
  const e = end.channels[0];
  const s = start?.channels[0];
  const out = new Float32Array(e.length);
  for (let k = 0; k < e.length; k++) out[k] = Math.max(0, e[k] - (s ? s[k] : 0));
  // Math.max(0, NaN) is NaN: a missing value stays missing.
  return out;
}

/** Sum of rate x hours over the steps (rates per hour); no data where any step has none. */
export function sumOfRates(rates: readonly DecodedTile[], hours: readonly number[]): Float32Array {
  if (rates.length !== hours.length || !rates.length) throw new Error(`Need one duration per rate step: ${rates.length} steps, ${hours.length} durations`);
  checkSameGrid(rates);
  const out = new Float32Array(rates[0].channels[0].length);
  rates.forEach((tile, n) => {
    const r = tile.channels[0];
    for (let k = 0; k < out.length; k++) out[k] += Math.max(0, r[k]) * hours[n];
  });
  return out;
}

/** The largest value of the steps at each node, steps without data left out; no data where none has any. */
export function maximumOf(steps: readonly DecodedTile[]): Float32Array {
  if (!steps.length) throw new Error('No step to take a maximum of');
  checkSameGrid(steps);
  const out = new Float32Array(steps[0].channels[0].length).fill(NaN);
  for (const tile of steps) {
    const v = tile.channels[0];
    for (let k = 0; k < out.length; k++) {
      if (!(v[k] <= out[k])) out[k] = Number.isNaN(v[k]) ? out[k] : v[k];
    }
  }
  return out;
}

/** The tile bytes of an accumulation: the inputs' geometry, one channel, the variable's quantization. */
export function encodeAccumulation(like: DecodedTile, values: Float32Array, quantization: Quantization): Uint8Array {
  const { west, east, north, south, width, height } = like.header;
  return encodeDataTile({ west, east, north, south, width, height, predictor: Predictor.RowDelta, channels: [values], quantization: [quantization] });
}

/** Reads a served tile's bytes as a decoded tile. */
export async function decodeAnswer(answer: TileAnswer): Promise<DecodedTile> {
  return decodeDataTile(await answer.identity());
}

/** Made accumulation tiles by key, each made once while several requests wait for it. */
export class AccumulationTiles {
  private readonly done = new ByteLru<ServedTile>(ACCUMULATION_CACHE_BYTES);
  private readonly making = new Map<string, Promise<ServedTile>>();

  /** Accumulations made one after another (`serial`): the end of the last one queued. */
  private serialTail: Promise<unknown> = Promise.resolve();

  /**
   * The tile under `key`, made by `make` (its raw tile bytes) the first time. `serial` makes it
   * after every other serial one: an accumulation of generated tiles (the demo product) reads a
   * tile set per step, and several at once would fill the tile threads' queue (503) for everyone.
   */
  async get(key: string, make: () => Promise<Uint8Array>, options: { serial?: boolean } = {}): Promise<ServedTile> {
    const kept = this.done.get(key);
    if (kept) return kept;
    let job = this.making.get(key);
    if (!job) {
      const raw = options.serial ? this.serialTail.then(make) : make();
      if (options.serial) this.serialTail = raw.catch(() => undefined);
      job = raw.then(async (raw) => {
        const tile = ServedTile.fromGzip(await gzipAsync(raw, { level: ACCUMULATION_GZIP_LEVEL }));
        this.done.set(key, tile, tile.bytes);
        return tile;
      }).finally(() => this.making.delete(key));
      this.making.set(key, job);
    }
    return job;
  }
}
