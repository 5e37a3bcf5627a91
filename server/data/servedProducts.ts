/**
 * Which products this server answers for, and the one interface the data routes read them through:
 * runs ingested into the data directory (storedRuns.ts) first, the generated demo product
 * (server/demo, DESIGN.md "Data, honestly") for its own directory. Asking for a product without
 * data gets a 404 that says what is served instead of a silent substitute.
 *
 *   route                          ProductData            RunData
 *   minifest.json                  minifest()
 *   tiles/{dir}/{ref}/{valid}/...  checkLayer() -> run(ref) -> checkStep() -> tile()
 *   forecast/point/{product}/...   run(ref) or current()  -> point()
 *   forecast/meteogram/{product}/  run(ref) or current()  -> levels()
 *
 * Every check throws an HttpError with the same wording for both kinds of product.
 */

import { PRODUCTS, type Product } from '../../common/catalogue/index.ts';
import { LEVEL_IDENTS } from '../../common/catalogue/levels.ts';
import type { LevelForecast, PointForecast } from '../../common/api/forecast.ts';
import type { MinifestAnswer, ServedProduct } from '../../common/api/products.ts';
import { hourStamp, parseHourStamp } from '../../common/minifest.ts';
import type { TileAddress } from '../../common/tiling.ts';
import { badRequest, notFound } from '../http/httpError.ts';
import { evaluatePoint } from '../demo/demoModel.ts';
import { DEMO_STEP_HOURS, demoMinifest, demoRun, isDemoStep } from '../demo/demoRun.ts';
import { DEMO_TILE_FILES, type DemoTileStore } from '../demo/demoTiles.ts';
import { layerKey } from '../ingest/layout.ts';
import { pointUnits, type StoredRun, type StoredRuns } from './storedRuns.ts';
import { ACCUMULATION_SOURCES, isAccumulationFile } from '../../common/catalogue/accumulations.ts';
import { AccumulationPlanError, AccumulationTiles, decodeAnswer, makeAccumulation, planAccumulation } from './accumulationTiles.ts';
import { HOUR_MS, SECOND_MS } from '../../common/time.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { BusyError } from './workerPool.ts';

/** Tries of a demo tile set for an accumulation while the tile threads are busy (each after their Retry-After). */
const DEMO_ACCUMULATION_ATTEMPTS = 5;

/** A tile in the forms it is sent (server/data/servedTile.ts). */
export interface TileAnswer {
  gzip: Buffer;
  etagGzip: string;
  etagIdentity: string;
  /** The inflated bytes, made once per cached tile. */
  identity(): Promise<Buffer>;
}

export interface PointOptions {
  /** Keep only steps whose hour is a multiple of this (SPEC §7 step: 1 or 3). */
  step?: number;
  /** Bilinear between the grid nodes around the place (default), else the nearest node. */
  interpolate?: boolean;
  /** Keep only steps valid from / to these times, ms inclusive (city tiles ask for a day). */
  from?: number;
  to?: number;
  /** Put the model's terrain height at the place in the header (one more small read; the forecast routes ask for it). */
  modelElevation?: boolean;
}

const inWindow = (time: number, { from = -Infinity, to = Infinity }: PointOptions) => time >= from && time <= to;

export interface RunData {
  readonly refTime: number;
  checkStep(validTime: number, file: string, level: string): void;
  tile(validTime: number, address: TileAddress, file: string, level: string): Promise<TileAnswer>;
  /**
   * An accumulation file (common/catalogue/accumulations.ts) over [validTime, validTime + hours]:
   * 404 naming the steps when the run cannot make it.
   */
  accumulation(validTime: number, address: TileAddress, file: string, level: string, hours: number): Promise<TileAnswer>;
  point(lat: number, lon: number, options: PointOptions): Promise<PointForecast>;
  levels(lat: number, lon: number, options: PointOptions): Promise<LevelForecast>;
}

export interface ProductData {
  readonly product: Product;
  minifest(): Promise<MinifestAnswer>;
  /** 404 unless the product has this tile file, level and suffix (an accumulation file: its source file). */
  checkLayer(file: string, level: string, suffix: string): void;
  /** The run with this reference time; 404 naming the current run when there is none. */
  run(refTime: number): Promise<RunData>;
  current(): Promise<RunData>;
}

/** Decimals kept per point variable: well below what any unit shows, and a third of the JSON. */
const POINT_DECIMALS: Readonly<Record<string, number>> = {
  wind_u: 2, wind_v: 2, gust: 2, temp: 2, dewpoint: 2, rh: 1, pressure: 1, rain: 3, rainAccu: 2, clouds: 1, lclouds: 1, mclouds: 1, hclouds: 1, cape: 0, waves: 2, gh: 0,
};

function round(value: number, decimals: number): number | null {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** The stored files an accumulation file is made from (common/catalogue/accumulations.ts). */
function accumulationInputs(file: string): string[] {
  const spec = ACCUMULATION_SOURCES[file];
  return spec.rate ? [spec.source, spec.rate] : [spec.source];
}

/** An accumulation tile of a run: planned from the hours of its files, made once, kept (404 when the run cannot make it). */
async function accumulationAnswer(
  tiles: AccumulationTiles, key: string, file: string, start: number, range: number,
  hoursOf: (file: string) => readonly number[] | undefined, read: (hour: number, file: string) => Promise<TileAnswer>, serial = false,
): Promise<TileAnswer> {
  let plan;
  try {
    plan = planAccumulation(file, start, range, hoursOf);
  } catch (error) {
    if (error instanceof AccumulationPlanError) throw notFound(error.message);
    throw error;
  }
  return tiles.get(key, () => makeAccumulation(plan, async (hour, source) => decodeAnswer(await read(hour, source))), { serial });
}

function checkSuffix(product: Product, suffix: string): void {
  if (suffix !== product.fileSuffix) throw notFound(`Tiles of ${product.ident} end in .${product.fileSuffix}, not .${suffix}`);
}

// ---- demo ------------------------------------------------------------------------------------

/** Base units of the demo series (common/catalogue METRICS). */
const DEMO_POINT_UNITS = { wind: 'm/s', gust: 'm/s', temp: 'K', pressure: 'Pa', rain: 'mm/h', clouds: '%' } as const;

class DemoProduct implements ProductData {
  constructor(readonly product: Product, private readonly now: () => number, private readonly tiles: DemoTileStore, private readonly accumulations: AccumulationTiles) {}

  async minifest(): Promise<MinifestAnswer> {
    return { ...demoMinifest(demoRun(this.now())) };
  }

  checkLayer(file: string, level: string, suffix: string): void {
    const { product } = this;
    if (isAccumulationFile(file) && product.accumulations && accumulationInputs(file).some((f) => DEMO_TILE_FILES.includes(f))) file = accumulationInputs(file).find((f) => DEMO_TILE_FILES.includes(f))!;
    if (!DEMO_TILE_FILES.includes(file)) throw notFound(`Unknown tile file "${file}" for ${product.ident}; files are ${DEMO_TILE_FILES.join(', ')}`);
    if (!product.levels.includes(level)) throw notFound(`Level "${level}" is not available for ${product.ident}; levels are ${product.levels.join(', ')}`);
    checkSuffix(product, suffix);
  }

  async current(): Promise<RunData> {
    return this.runData(demoRun(this.now()));
  }

  async run(refTime: number): Promise<RunData> {
    const run = demoRun(this.now());
    if (refTime !== run.refTime) {
      throw notFound(`Run ${hourStamp(refTime)} of ${this.product.ident} is not available; the current run is ${hourStamp(run.refTime)} (see the minifest)`);
    }
    return this.runData(run);
  }

  private runData(run: ReturnType<typeof demoRun>): RunData {
    const { product, tiles, accumulations } = this;
    const hours = run.steps.map((t) => (t - run.refTime) / HOUR_MS);
    return {
      refTime: run.refTime,
      checkStep(validTime) {
        if (!isDemoStep(run, validTime)) {
          throw notFound(`Valid time ${hourStamp(validTime)} is not a step of run ${hourStamp(run.refTime)}: steps run hourly from ${hourStamp(run.steps[0])} to ${hourStamp(run.steps[run.steps.length - 1])}`);
        }
      },
      async tile(validTime, address, file) {
        const tile = (await tiles.get(validTime, address)).files.get(file);
        if (!tile) throw notFound(`Tile file "${file}" was not generated`);
        return tile;
      },
      async accumulation(validTime, address, file, level, range) {
        const start = (validTime - run.refTime) / HOUR_MS;
        const key = `demo/${run.refTime}/${validTime}/${address.z}/${address.x}/${address.y}/${file}-${level}/${range}`;
        // Generated tile sets, one step after another (serial), waiting for the tile threads when they are busy.
        return accumulationAnswer(accumulations, key, file, start, range, (f) => (DEMO_TILE_FILES.includes(f) ? hours : undefined), async (hour, source) => {
          for (let attempt = 1; ; attempt++) {
            try {
              const tile = (await tiles.get(run.refTime + hour * HOUR_MS, address)).files.get(source);
              if (!tile) throw notFound(`Tile file "${source}" was not generated`);
              return tile;
            } catch (error) {
              if (!(error instanceof BusyError) || attempt >= DEMO_ACCUMULATION_ATTEMPTS) throw error;
              await sleep(error.retryAfterS * SECOND_MS);
            }
          }
        }, true);
      },
      async point(lat, lon, options) {
        const { step = DEMO_STEP_HOURS } = options;
        const ts = run.steps.filter((t, k) => (k * DEMO_STEP_HOURS) % step === 0 && inWindow(t, options));
        const data: Record<string, (number | null)[]> = { wind_u: [], wind_v: [], gust: [], temp: [], pressure: [], rain: [], clouds: [] };
        for (const time of ts) {
          const p = evaluatePoint(lat, lon, time);
          data.wind_u.push(round(p.u, POINT_DECIMALS.wind_u));
          data.wind_v.push(round(p.v, POINT_DECIMALS.wind_v));
          data.gust.push(round(p.gust, POINT_DECIMALS.gust));
          data.temp.push(round(p.temp, POINT_DECIMALS.temp));
          data.pressure.push(round(p.pressure, POINT_DECIMALS.pressure));
          data.rain.push(round(p.rain, POINT_DECIMALS.rain));
          data.clouds.push(round(p.clouds, POINT_DECIMALS.clouds));
        }
        return { header: { product: product.ident, refTime: run.refTime, lat, lon, step, modelStep: DEMO_STEP_HOURS, demo: true, units: { ...DEMO_POINT_UNITS } }, ts, data };
      },
      async levels(lat, lon, options) {
        const { step = DEMO_STEP_HOURS } = options;
        // The demo model is a surface model: no pressure levels.
        const ts = run.steps.filter((t, k) => (k * DEMO_STEP_HOURS) % step === 0 && inWindow(t, options));
        return { header: { product: product.ident, refTime: run.refTime, lat, lon, step, modelStep: DEMO_STEP_HOURS, demo: true, levels: [], units: {} }, ts, data: {} };
      },
    };
  }
}

// ---- ingested runs ----------------------------------------------------------------------------

class StoredProduct implements ProductData {
  constructor(readonly product: Product, private readonly runs: StoredRuns, private readonly latest: StoredRun, private readonly accumulations: AccumulationTiles) {}

  minifest(): Promise<MinifestAnswer> {
    return this.latest.minifest();
  }

  checkLayer(file: string, level: string, suffix: string): void {
    const { product } = this;
    const layers = Object.values(this.latest.manifest.layers);
    const files = [...new Set(layers.map((l) => l.file))];
    // An accumulation is made from its source file (or its rate file where the run keeps no totals).
    if (isAccumulationFile(file) && product.accumulations) file = accumulationInputs(file).find((f) => files.includes(f)) ?? file;
    if (!files.includes(file)) throw notFound(`Unknown tile file "${file}" for ${product.ident}; files are ${files.join(', ')}`);
    if (!this.latest.manifest.layers[layerKey(file, level)]) {
      throw notFound(`Level "${level}" is not available for ${product.ident}; levels are ${layers.filter((l) => l.file === file).map((l) => l.level).join(', ')}`);
    }
    checkSuffix(product, suffix);
  }

  async current(): Promise<RunData> {
    return storedRunData(this.product, this.latest, this.accumulations);
  }

  async run(refTime: number): Promise<RunData> {
    const run = await this.runs.byRefTime(this.product.directory, refTime);
    if (!run) {
      throw notFound(`Run ${hourStamp(refTime)} of ${this.product.ident} is not available; the current run is ${hourStamp(this.latest.refTime)} (see the minifest)`);
    }
    return storedRunData(this.product, run, this.accumulations);
  }
}

function storedRunData(product: Product, run: StoredRun, accumulations: AccumulationTiles): RunData {
  const { manifest } = run;
  const gone = (error: unknown): never => {
    // Pruned while this request read it (storedRuns.ts; an object store's ranged reads find it gone): 404, as for its tiles.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`Run ${hourStamp(run.refTime)} of ${product.ident} is no longer available (see the minifest)`);
    throw error;
  };
  /** The model's terrain height at a place in whole metres; undefined when the run has none there. */
  const elevationAt = async (lat: number, lon: number, interpolate: boolean): Promise<number | undefined> => {
    if (!manifest.points?.statics?.includes('elevation')) return undefined;
    const reader = await run.pointStore()?.catch(gone);
    const value = (await reader?.statics(lat, lon, interpolate).catch(gone))?.elevation;
    return value !== undefined && Number.isFinite(value) ? Math.round(value) : undefined;
  };
  return {
    refTime: run.refTime,
    checkStep(validTime, file, level) {
      const layer = manifest.layers[layerKey(file, level)];
      if (!layer) throw notFound(`Run ${hourStamp(run.refTime)} of ${product.ident} has no ${file} at level ${level}`);
      const hour = (validTime - run.refTime) / HOUR_MS;
      if (!layer.hours.includes(hour)) {
        const steps = layer.hours.map((h) => `+${h}`).join(' ');
        throw notFound(`Valid time ${hourStamp(validTime)} is not a step of run ${hourStamp(run.refTime)} for ${file}-${level}: its steps are ${steps.length > 200 ? `${steps.slice(0, 200)}...` : steps} h`);
      }
    },
    async tile(validTime, address, file, level) {
      const tile = await run.tile(validTime, address, file, level);
      if (!tile) throw notFound(`Tile ${address.z}/${address.x}/${address.y} ${file}-${level} of ${product.ident} has no stored data`);
      return tile;
    },
    async accumulation(validTime, address, file, level, range) {
      const start = (validTime - run.refTime) / HOUR_MS;
      const key = `${run.dir}/${validTime}/${address.z}/${address.x}/${address.y}/${file}-${level}/${range}`;
      return accumulationAnswer(accumulations, key, file, start, range, (f) => manifest.layers[layerKey(f, level)]?.hours, async (hour, source) => {
        const tile = await run.tile(run.refTime + hour * HOUR_MS, address, source, level);
        if (!tile) throw notFound(`Tile ${address.z}/${address.x}/${address.y} ${source}-${level} of ${product.ident} has no stored data at +${hour} h`);
        return tile;
      });
    },
    async point(lat, lon, options) {
      const { step, interpolate = true } = options;
      const reader = await run.pointStore()?.catch(gone);
      if (!reader) throw notFound(`${product.ident} has no point forecast in run ${hourStamp(run.refTime)}`);
      const [series, elevation] = await Promise.all([
        reader.series(lat, lon, interpolate).catch(gone), options.modelElevation ? elevationAt(lat, lon, interpolate) : undefined,
      ]);
      // SPEC §8: "Data not available for this location".
      if (!series) throw notFound(`Data not available for this location: ${product.ident} covers ${JSON.stringify(manifest.bounds)}`);
      const keep = series.hours.map((h, k) => [h, k] as const).filter(([h]) => (!step || h % step === 0) && inWindow(run.refTime + h * HOUR_MS, options));
      const data: Record<string, (number | null)[]> = {};
      for (const [ident, values] of Object.entries(series.values)) {
        data[ident] = keep.map(([, k]) => round(values[k], POINT_DECIMALS[ident] ?? 3));
      }
      const modelStep = smallestGap(series.hours);
      const header: PointForecast['header'] = {
        product: product.ident, refTime: run.refTime, lat, lon, step: step ?? modelStep, modelStep,
        units: pointUnits(Object.keys(series.values)),
      };
      if (product.sample) header.sample = true;
      if (elevation !== undefined) header.modelElevation = elevation;
      return { header, ts: keep.map(([h]) => run.refTime + h * HOUR_MS), data };
    },
    async levels(lat, lon, options) {
      const { step, interpolate = true } = options;
      const reader = await run.levelStore()?.catch(gone);
      const hours = reader?.header.hours ?? manifest.hours;
      const modelStep = smallestGap(hours);
      const header: LevelForecast['header'] = { product: product.ident, refTime: run.refTime, lat, lon, step: step ?? modelStep, modelStep, levels: [], units: {} };
      if (product.sample) header.sample = true;
      const elevation = options.modelElevation ? await elevationAt(lat, lon, interpolate) : undefined;
      if (elevation !== undefined) header.modelElevation = elevation;
      const keep = hours.map((h, k) => [h, k] as const).filter(([h]) => (!step || h % step === 0) && inWindow(run.refTime + h * HOUR_MS, options));
      const ts = keep.map(([h]) => run.refTime + h * HOUR_MS);
      // No pressure levels in this run (or a run published before levels.bin existed).
      if (!reader) return { header, ts, data: {} };
      const series = await reader.series(lat, lon, interpolate).catch(gone);
      if (!series) throw notFound(`Data not available for this location: ${product.ident} covers ${JSON.stringify(manifest.bounds)}`);
      const data: Record<string, (number | null)[]> = {};
      const levels = new Set<string>();
      const idents = new Set<string>();
      for (const [name, values] of Object.entries(series.values)) {
        const cut = name.lastIndexOf('-');
        const ident = name.slice(0, cut);
        data[name] = keep.map(([, k]) => round(values[k], POINT_DECIMALS[ident] ?? 3));
        levels.add(name.slice(cut + 1));
        idents.add(ident);
      }
      header.levels = [...levels].sort((a, b) => LEVEL_IDENTS.indexOf(a) - LEVEL_IDENTS.indexOf(b));
      header.units = pointUnits([...idents]);
      return { header, ts, data };
    },
  };
}

// ---- the served set ---------------------------------------------------------------------------

/** The smallest gap between forecast hours (1 for a run of one step). */
function smallestGap(hours: readonly number[]): number {
  let min = Infinity;
  for (let k = 1; k < hours.length; k++) min = Math.min(min, hours[k] - hours[k - 1]);
  return Number.isFinite(min) ? min : 1;
}

export interface ServedProductsOptions {
  now: () => number;
  demoTiles: DemoTileStore;
  /** Ingested runs; null serves the demo product only. */
  stored: StoredRuns | null;
}

const SERVED_TTL_MS = 5000;

export class ServedProducts {
  private storedCache: { at: number; directories: string[] } | null = null;
  /** Accumulation tiles made on request, shared by every product (keys carry the run). */
  private readonly accumulations = new AccumulationTiles();

  constructor(private readonly options: ServedProductsOptions) {}

  /** Directories of the data directory with a current run (for error messages), cached a few seconds. */
  private async storedDirectories(): Promise<string[]> {
    const { stored, now } = this.options;
    if (!stored) return [];
    if (this.storedCache && now() - this.storedCache.at < SERVED_TTL_MS) return this.storedCache.directories;
    const directories = await stored.publishedDirectories([...new Set(Object.values(PRODUCTS).map((p) => p.directory))]);
    this.storedCache = { at: now(), directories };
    return directories;
  }

  private async unavailable(what: string, product: Product | undefined): Promise<Error> {
    const stored = (await this.storedDirectories()).filter((d) => d !== PRODUCTS.demo.directory);
    const servedText = stored.length
      ? `it serves ${[PRODUCTS.demo.directory, ...stored].map((d) => `"${d}"`).join(', ')}`
      : `it serves only the demo product (directory "${PRODUCTS.demo.directory}")`;
    if (product) return notFound(`No data for ${product.modelName} (${what}) has been loaded on this server; ${servedText}`);
    return notFound(`Unknown product ${what}; this server: ${servedText}`);
  }

  private async forProduct(product: Product): Promise<ProductData | null> {
    const { stored, now, demoTiles } = this.options;
    if (stored && !product.demo) {
      const latest = await stored.current(product.directory);
      if (latest) return new StoredProduct(product, stored, latest, this.accumulations);
    }
    if (product.demo) return new DemoProduct(product, now, demoTiles, this.accumulations);
    return null;
  }

  /**
   * The products this server has data for, in catalogue order: the demo product and every product
   * with a current ingested run. The product picker offers these.
   */
  async served(): Promise<ServedProduct[]> {
    const directories = new Set(await this.storedDirectories());
    const out: ServedProduct[] = [];
    for (const product of Object.values(PRODUCTS)) {
      if (!product.demo && !directories.has(product.directory)) continue;
      const data = await this.forProduct(product);
      if (!data) continue;
      const run = await data.current();
      out.push({
        ident: product.ident, directory: product.directory, ref: hourStamp(run.refTime),
        ...(product.demo ? { demo: true as const } : {}), ...(product.sample ? { sample: true as const } : {}),
        minifest: await data.minifest(),
      });
    }
    return out;
  }

  /** The product whose tile / minifest directory this is, else a 404 naming what is served. */
  async byDirectory(directory: string): Promise<ProductData> {
    const product = Object.values(PRODUCTS).find((p) => p.directory === directory);
    const data = product ? await this.forProduct(product) : null;
    if (data) return data;
    throw await this.unavailable(`directory "${directory}"`, product);
  }

  /** The product with this ident (point forecast paths use idents), else a 404. */
  async byIdent(ident: string): Promise<ProductData> {
    const product = Object.prototype.hasOwnProperty.call(PRODUCTS, ident) ? PRODUCTS[ident] : undefined;
    const data = product ? await this.forProduct(product) : null;
    if (data) return data;
    throw await this.unavailable(`"${ident}"`, product);
  }
}

/** Parses a YYYYMMDDHH hour stamp from a path, 400 when it is not one. */
export function hourStampParam(text: string, what: string): number {
  const ms = parseHourStamp(text);
  if (ms === null) throw badRequest(`${what} "${text}" is not a valid hour stamp (YYYYMMDDHH, UTC)`);
  return ms;
}
