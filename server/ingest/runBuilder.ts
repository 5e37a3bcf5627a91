/**
 * Builds one run of one product in its staging directory, a step at a time, and publishes it
 * (layout.ts). Steps may come in several calls and processes: the state lives in build.json, so a
 * later ingest of the same run goes on where the last one stopped; nothing is visible until
 * publish() renames the directory into runs/ and moves current.json.
 *
 * A step's fields, already matched to catalogue variables (fields.ts), go through:
 *   1. the best field per variable and level (GRIB_RULES priority), converted to base units;
 *   2. precipitation: amounts become rates since the previous step and a total since the run's
 *      start (derive.ts); the raw amounts stay in accum/ until publish, so a step that arrives
 *      late corrects the steps after it;
 *   3. dew point or relative humidity derived from the other and the temperature when missing;
 *      run-constant fields (the model's terrain height, common/catalogue STATIC_VARIABLES) go to
 *      the static slab the first time a step brings them, and are not decoded again;
 *   4. per tile file and level (common/catalogue FILE_VARIABLES): the native-grid tile, the
 *      pre-rendered pyramid tiles, and the point variables on the point grid (a slab per step);
 *      the pressure-level variables (temperature, wind, geopotential height) on a coarser level
 *      point grid (a second slab per step, levels.bin once published: the meteogram's data).
 *
 * Fields are decoded when their layer's turn comes (StepField.load), and tiles are gzipped and
 * written on the writer threads (tiles.ts TileFileWriter) while this thread decodes and renders
 * the next layer.
 */

import { MINIFEST_VERSION } from '../../common/api/products.ts';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEVELS } from '../../common/catalogue/levels.ts';
import { METRICS, samplingOf } from '../../common/catalogue/metrics.ts';
import { FILE_VARIABLES, STATIC_VARIABLES, VARIABLES, type Quantization } from '../../common/catalogue/variables.ts';
import type { Product } from '../../common/catalogue/products.ts';
import { hourStamp, type Minifest } from '../../common/minifest.ts';
import { tileByteLength } from '../../common/tile.ts';
import { TILE_NODES } from '../../common/tiling.ts';
import type { Engine } from '../../engine/engine.ts';
import { Regridder, sourceBounds, type Sampling, type SourceGrid, type TargetGrid } from '../../engine/regrid.ts';
import { addIncrement, dewPointFrom, incrementOf, rateFrom, relativeHumidityFrom, type Accumulation } from './derive.ts';
import { IngestError, type FieldInfo } from './fields.ts';
import { deriveModelFields } from './modelFields.ts';
import type { VariableMatch } from '../../common/catalogue/variables.ts';
import {
  acquirePidLock, layerKey, nativeRelPath, newRunId, publishRun, publishSnapshot, RUN_FORMAT, stagingDir, tileRelPath, writeFileAtomic,
  type PointStoreInfo, type RunLayer, type RunManifest,
} from './layout.ts';
import {
  levelSlabPath, pointGridFor, slabPath, staticSlabPath, writePointStore, writeSlab, type PointGrid, type PointVariable, type SlabStep,
} from './points.ts';
import type { ObjectStore } from '../storage/objectStore.ts';
import { eventLoopSlices } from '../ops/slices.ts';
import { publishRunToStore, publishSnapshotToStore, type SnapshotUploads } from '../storage/runPublication.ts';
import { nativeTileByteLength, renderNativeTile, renderTile, TileFileWriter, tilesMeeting } from './tiles.ts';
import { HOUR_MS } from '../../common/time.ts';
import { cclFrom } from './derived/convectiveCondensationLevel.ts';
import { deadFuelMoistureFrom } from './derived/deadFuelMoisture.ts';
import { europeanAqiFrom } from './derived/europeanAqi.ts';
import { fwiFrom } from './derived/fireWeatherIndex.ts';
import { fogFrom } from './derived/fog.ts';
import { icingFrom } from './derived/icing.ts';
import { solarPowerFrom } from './derived/solarPower.ts';
import { thunderFrom } from './derived/thunder.ts';
import { ti1From, type GridGeometry } from './derived/turbulence.ts';
import { wetBulbFrom } from './derived/wetBulb.ts';

/** The lat/lon geometry of a model grid, for derivatives (derived/turbulence.ts). */
function geometryOf(grid: SourceGrid): GridGeometry {
  return { ni: grid.ni, nj: grid.nj, dLon: grid.dLon, global: grid.global, latitude: (row) => grid.latitudes ? grid.latitudes[row] : grid.lat0 - row * grid.dLat };
}

const BUILD_FORMAT = 1;
/** Point grids are never finer than this by default (points.ts gives the sizes). */
const DEFAULT_POINT_RESOLUTION = 0.5;
/**
 * Level point grids are never finer than this by default: upper-air fields are smooth, and a run
 * keeps 4 variables x 15 levels per node and step (a 209-step GFS run at 1° is 1.6 GB).
 */
const DEFAULT_LEVEL_POINT_RESOLUTION = 1;

/** Pressure levels of the catalogue, from the ground up (LEVELS order: 975 hPa first). */
const PRESSURE_LEVEL_IDENTS: readonly string[] = LEVELS.filter((l) => l.hPa !== undefined).map((l) => l.ident);
/** Variables kept per pressure level for the meteogram: those the catalogue has on pressure levels. */
export const LEVEL_POINT_VARIABLES: readonly string[] = Object.values(VARIABLES)
  .filter((v) => !v.input && v.levels.some((l) => PRESSURE_LEVEL_IDENTS.includes(l))).map((v) => v.ident);

/** The column name of a variable at a pressure level in levels.bin: `temp-850h`. */
function levelSeriesName(ident: string, level: string): string {
  return `${ident}-${level}`;
}

type Decoded = { values: Float32Array; grid: SourceGrid };

export interface StepField {
  info: FieldInfo;
  match: VariableMatch;
  /**
   * Decodes the field: north-up values in the file's units, and their grid. Called at most once,
   * when the step comes to the field's layer, so that decoding the next layer on this thread
   * overlaps the gzip and writes of the last one on the writer threads (tiles.ts TileFileWriter).
   */
  load: () => Promise<Decoded>;
}

/** A step's values of one variable at one level, computed on first use; null: none after all. */
type StepValue = () => Promise<Decoded | null>;

function once(compute: () => Promise<Decoded | null>): StepValue {
  let result: Promise<Decoded | null> | null = null;
  return () => (result ??= compute());
}

function ready(decoded: Decoded): StepValue {
  return () => Promise.resolve(decoded);
}

/** A value derived from two others on the same grid (none when their grids differ). */
function derivedFrom(a: StepValue, b: StepValue, derive: (a: Float32Array, b: Float32Array) => Float32Array): StepValue {
  return once(async () => {
    const x = await a();
    const y = await b();
    return x && y && sameGrid(x.grid, y.grid) ? { values: derive(x.values, y.values), grid: x.grid } : null;
  });
}

export interface PrerenderPolicy {
  /** Highest data zoom written at ingest for surface layers (default: the product's free maximum). */
  surface?: number;
  /** ... for pressure levels and 100 m (default: two zooms below the free maximum). */
  levels?: number;
}

export interface IngestProgress {
  phase: string;
  done: number;
  total: number;
  message?: string;
}

export interface RunBuilderOptions {
  /** Where the run is staged (built), and published unless `storage` is a remote store. */
  dataDir: string;
  /**
   * Where the run is published: a remote object store (S3) gets it uploaded
   * (server/storage/runPublication.ts); absent or the data directory, layout.ts's renames.
   */
  storage?: ObjectStore;
  product: Product;
  refTime: number;
  engine: Engine;
  prerender?: PrerenderPolicy;
  /** Point-series grid spacing in degrees (default: the model's, but not finer than DEFAULT_POINT_RESOLUTION). */
  pointResolution?: number;
  /** Level point grid spacing in degrees (default: the model's, but not finer than DEFAULT_LEVEL_POINT_RESOLUTION). */
  levelPointResolution?: number;
  signal?: AbortSignal;
  onProgress?: (p: IngestProgress) => void;
}

type Bounds = { west: number; east: number; north: number; south: number };

interface BuildState {
  format: typeof BUILD_FORMAT;
  product: string;
  refTime: number;
  hours: number[];
  layers: Record<string, RunLayer>;
  /** Area of the model grid; null until the first field, `global` when it covers the globe. */
  bounds: Bounds | null;
  global: boolean;
  pointGrid: PointGrid | null;
  /** Point slabs by hour: the slab's variables in column order. */
  slabs: Record<string, string[]>;
  /** The level point grid, set by the first step with pressure levels (absent in builds begun before it existed). */
  levelPointGrid?: PointGrid | null;
  /** Level slabs by hour: `{ident}-{level}` names in column order. */
  levelSlabs?: Record<string, string[]>;
  /** The static slab's variables in column order (run-constant fields on the point grid); absent = none yet. */
  staticSlab?: string[];
  /** Raw precipitation amounts kept in accum/ (mm on the model grid). */
  accumulations: Accumulation[];
  /** Hours whose total since the start is kept in accum/. */
  totals: number[];
  /** The model grid of accum/ (Gaussian latitudes as a plain list). */
  accumGrid: (Omit<SourceGrid, 'latitudes'> & { latitudes?: number[] }) | null;
  stats: { tiles: number; files: number };
  started: number;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new IngestError('Ingest aborted');
}

function isPressureOrHeight(level: string): boolean {
  return level !== 'surface';
}

/** Steps as SPEC §3 minifest ranges [step, from, to], greedily: equal spacing runs as far as it goes. */
function minifestRanges(hours: readonly number[]): [number, number, number][] {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  const ranges: [number, number, number][] = [];
  let i = 0;
  while (i < sorted.length) {
    if (i === sorted.length - 1) {
      ranges.push([1, sorted[i], sorted[i]]);
      break;
    }
    const step = sorted[i + 1] - sorted[i];
    let k = i + 1;
    while (k + 1 < sorted.length && sorted[k + 1] - sorted[k] === step) k++;
    ranges.push([step, sorted[i], sorted[k]]);
    i = k + 1;
  }
  return ranges;
}

function sameGrid(a: SourceGrid, b: SourceGrid): boolean {
  return a.ni === b.ni && a.nj === b.nj && Math.abs(a.lon0 - b.lon0) < 1e-9 && Math.abs(a.lat0 - b.lat0) < 1e-9
    && Math.abs(a.dLon - b.dLon) < 1e-12 && Math.abs(a.dLat - b.dLat) < 1e-12;
}

export class RunBuilder {
  readonly dir: string;
  private state!: BuildState;
  private readonly regridders: Regridder[];
  private readonly writer: TileFileWriter;
  private closed = false;
  /** What this build's snapshots have uploaded to a remote store. */
  private readonly snapshotUploads: SnapshotUploads = new Map();

  private constructor(private readonly options: RunBuilderOptions) {
    this.dir = stagingDir(options.dataDir, options.product.directory, options.refTime);
    this.regridders = [new Regridder(options.engine), new Regridder(options.engine)];
    this.writer = new TileFileWriter(this.dir);
  }

  /** Opens the run's staging directory: resumes a build left there, or starts one. Takes its lock. */
  static async open(options: RunBuilderOptions): Promise<RunBuilder> {
    const builder = new RunBuilder(options);
    try {
      await builder.lock();
      await builder.loadState();
    } catch (error) {
      builder.closed = true;
      for (const r of builder.regridders) r.release();
      throw error;
    }
    return builder;
  }

  get hours(): number[] {
    return [...this.state.hours];
  }

  get tiles(): number {
    return this.state.stats.tiles;
  }

  get layerKeys(): string[] {
    return Object.keys(this.state.layers);
  }

  hasStep(hour: number): boolean {
    return this.state.hours.includes(hour);
  }

  private async lock(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, '.lock');
    const lock = await acquirePidLock(path);
    if ('heldBy' in lock) {
      throw new IngestError(`Run ${hourStamp(this.options.refTime)} of ${this.options.product.ident} is being built by process ${lock.heldBy} (${path})`);
    }
  }

  private async loadState(): Promise<void> {
    const text = await readFile(join(this.dir, 'build.json'), 'utf8').catch(() => null);
    if (text) {
      const state = JSON.parse(text) as BuildState;
      if (state.format === BUILD_FORMAT && state.product === this.options.product.ident && state.refTime === this.options.refTime) {
        this.state = state;
        return;
      }
    }
    // Nothing to resume: anything in the directory is from a build that never recorded a step.
    for (const name of ['tiles', 'native', 'points', 'accum']) await rm(join(this.dir, name), { recursive: true, force: true });
    this.state = {
      format: BUILD_FORMAT, product: this.options.product.ident, refTime: this.options.refTime, hours: [], layers: {}, bounds: null,
      global: false, pointGrid: null, slabs: {}, accumulations: [], totals: [], accumGrid: null, stats: { tiles: 0, files: 0 }, started: Date.now(),
    };
  }

  private async saveState(): Promise<void> {
    await writeFileAtomic(join(this.dir, 'build.json'), JSON.stringify(this.state));
  }

  /**
   * Lets go of the engine memory and the lock. The staging directory stays for a later build when
   * it holds steps; a build that recorded none leaves nothing behind.
   */
  async release(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const r of this.regridders) r.release();
    await this.writer.close();
    if (this.state && !this.state.hours.length) await rm(this.dir, { recursive: true, force: true });
    else await rm(join(this.dir, '.lock'), { force: true });
  }

  private prerenderZoom(level: string): number {
    const { product, prerender } = this.options;
    const free = product.maxTileZoom.free;
    const zoom = isPressureOrHeight(level) ? prerender?.levels ?? Math.max(0, free - 2) : prerender?.surface ?? free;
    return Math.max(0, Math.min(zoom, product.maxTileZoom.premium));
  }

  private pointResolution(grid: SourceGrid): number {
    if (this.options.pointResolution) return this.options.pointResolution;
    const spacing = Math.max(grid.dLon, grid.dLat);
    return Math.max(DEFAULT_POINT_RESOLUTION, spacing);
  }

  private levelPointResolution(grid: SourceGrid): number {
    if (this.options.levelPointResolution) return this.options.levelPointResolution;
    return Math.max(DEFAULT_LEVEL_POINT_RESOLUTION, grid.dLon, grid.dLat);
  }

  /** Records the model grid's area the first time; every later field must be on a grid inside the same area. */
  private noteGrid(grid: SourceGrid): void {
    if (this.state.bounds) return;
    const bounds = sourceBounds(grid);
    this.state.bounds = bounds;
    this.state.global = bounds.east - bounds.west >= 360 && bounds.north >= 90 && bounds.south <= -90;
    this.state.pointGrid = pointGridFor(bounds, this.pointResolution(grid));
  }

  /**
   * Adds (or redoes) one step: `fields` are every field of the step this call has. Throws an
   * IngestError for nothing usable; the state is saved once the step's files are all written.
   */
  async addStep(hour: number, fields: StepField[]): Promise<{ layers: string[]; tiles: number }> {
    const { signal } = this.options;
    throwIfAborted(signal);
    // 1. The best field per variable and level, in base units.
    const best = new Map<string, StepField>();
    for (const field of fields) {
      const key = `${field.match.variable.ident}@${field.match.level}`;
      const have = best.get(key);
      if (!have || field.match.priority > have.match.priority) best.set(key, field);
    }
    const values = new Map<string, StepValue>();
    for (const [key, field] of best) {
      values.set(key, once(async () => {
        const decoded = await field.load();
        const { factor, add } = field.match;
        let v = decoded.values;
        if (factor !== 1 || add !== 0) {
          v = new Float32Array(decoded.values.length);
          for (let k = 0; k < v.length; k++) v[k] = decoded.values[k] * factor + add;
        }
        this.noteGrid(decoded.grid);
        return { values: v, grid: decoded.grid };
      }));
    }
    // The run's area and point grid come from the first field of the first step.
    const first = values.values().next().value;
    if (!this.state.bounds && first) await first();

    // Run-constant fields: kept once in the static slab; another step's copy is not even decoded.
    const statics = [...values.keys()].filter((key) => VARIABLES[key.split('@')[0]].static);
    const newStatics = new Map<string, StepValue>();
    for (const key of statics) {
      if (!this.state.staticSlab?.includes(key.split('@')[0])) newStatics.set(key, values.get(key)!);
      values.delete(key);
    }
    if (newStatics.size) await this.writeStaticSlab(newStatics);
    if (statics.length && !values.size) {
      // A file of constants only (DWD's time-invariant HSURF): no step of its own.
      await this.saveState();
      return { layers: [], tiles: 0 };
    }

    // 2. Precipitation amounts -> rate since the previous step and total since the start.
    const later: number[] = [];
    const rain = best.get('rain@surface');
    if (rain && rain.match.kind === 'accumulation') {
      const { values: amount, grid } = (await values.get('rain@surface')!())!;
      values.delete('rain@surface');
      const accumulation = { start: hour - (rain.info.forecastEnd - rain.info.forecastStart), end: hour };
      await this.keepAccumulation(accumulation, amount, grid);
      const derived = await this.deriveRain(accumulation);
      if (derived) {
        values.set('rain@surface', ready({ values: derived.rate, grid }));
        if (derived.total) values.set('rainAccu@surface', ready({ values: derived.total, grid }));
      }
      // Steps already built after this one (it arrived late): their increments and totals may start here.
      later.push(...this.state.accumulations.filter((a) => a.end > hour).map((a) => a.end));
    }

    // 3. Dew point and relative humidity from each other.
    const temp = values.get('temp@surface');
    const rh = values.get('rh@surface');
    const dew = values.get('dewpoint@surface');
    if (temp && rh && !dew) values.set('dewpoint@surface', derivedFrom(temp, rh, dewPointFrom));
    if (temp && dew && !rh) values.set('rh@surface', derivedFrom(temp, dew, relativeHumidityFrom));
    // Wave flow, precipitation type, cloud heights, SST, snow depth from their inputs (modelFields.ts).
    deriveModelFields(values);

    // 4. Derived fields (server/ingest/derived); their input-only variables are dropped after.
    await this.deriveFields(hour, values);

    if (!values.size) throw new IngestError(`Step +${hour} h has no field the catalogue can store`);
    const isNew = !this.state.hours.includes(hour);
    let result: { layers: string[]; tiles: number };
    try {
      result = await this.writeOutputs(hour, values);
    } catch (error) {
      // A field that cannot be decoded fails the step half-way through its layers: a step not
      // built before leaves none of its files (a step built before keeps what it has, as when a
      // write fails).
      if (isNew) await this.discardStep(hour).catch(() => undefined);
      throw error;
    }
    if (!this.state.hours.includes(hour)) {
      this.state.hours.push(hour);
      this.state.hours.sort((a, b) => a - b);
    }
    await this.saveState();
    for (const end of later.sort((a, b) => a - b)) await this.redoRain(end);
    return result;
  }

  // ---- Derived fields -------------------------------------------------------------------------
  /**
   * The fields computed from the step's model fields, each formula a pure module of
   * server/ingest/derived naming its method and reference: wet-bulb temperature, fog, 10-h dead
   * fuel moisture, thunder, solar power, CCL, FWI (with the rain of the 24 h before the step, from
   * the run's precipitation totals: the total since the start while the run is under 24 h old; no
   * FWI when the run has no total at this step), the European AQI of the pollutants the step has,
   * and on pressure levels icing and turbulence. Input-only variables are removed afterwards.
   */
  private async deriveFields(hour: number, values: Map<string, StepValue>): Promise<void> {
    const get = (key: string) => values.get(key);
    const set = (key: string, inputs: (StepValue | undefined)[], derive: (...fields: Float32Array[]) => Float32Array) => {
      if (values.has(key) || inputs.some((i) => !i)) return;
      values.set(key, once(async () => {
        const decoded: Decoded[] = [];
        for (const input of inputs) {
          const d = await input!();
          if (!d) return null;
          decoded.push(d);
        }
        if (decoded.some((d) => !sameGrid(d.grid, decoded[0].grid))) return null;
        return { values: derive(...decoded.map((d) => d.values)), grid: decoded[0].grid };
      }));
    };
    const temp = get('temp@surface');
    const rh = get('rh@surface');
    const dew = get('dewpoint@surface');
    const u = get('wind_u@surface');
    const v = get('wind_v@surface');
    set('wetbulbtemp@surface', [temp, rh], wetBulbFrom);
    set('fog@surface', [temp, dew, rh], fogFrom);
    set('dfm10h@surface', [temp, rh], deadFuelMoistureFrom);
    set('thunder@surface', [get('cape@surface'), get('convRain@surface')], thunderFrom);
    set('solarpower@surface', [get('ghi@surface'), temp], solarPowerFrom);
    const soundings = PRESSURE_LEVEL_IDENTS.filter((l) => values.has(`temp@${l}`));
    if (soundings.length) {
      set('ccl@surface', [temp, dew, get('surfacePressure@surface'), ...soundings.map((l) => get(`temp@${l}`))], (t, d, ps, ...levels) => (
        cclFrom(t, d, ps, levels.map((field, k) => ({ pressure: LEVELS.find((x) => x.ident === soundings[k])!.hPa! * 100, temp: field })))
      ));
    }
    const rain24 = await this.rainBefore(hour, 24);
    if (rain24) {
      const month = new Date(this.options.refTime + hour * HOUR_MS).getUTCMonth() + 1;
      set('fwi@surface', [temp, rh, u, v, ready(rain24)], (t, r, uu, vv, p) => fwiFrom(t, r, uu, vv, p, month));
    }
    const pollutants = (['pm2p5', 'pm10', 'no2', 'go3'] as const).filter((p) => values.has(`${p}@surface`));
    if (pollutants.length) {
      set('aqi@surface', pollutants.map((p) => get(`${p}@surface`)), (...fields) => (
        europeanAqiFrom(Object.fromEntries(fields.map((f, k) => [pollutants[k] === 'go3' ? 'o3' : pollutants[k], f])))
      ));
    }
    PRESSURE_LEVEL_IDENTS.forEach((level, k) => {
      set(`icing@${level}`, [get(`temp@${level}`), get(`rh@${level}`)], icingFrom);
      const above = PRESSURE_LEVEL_IDENTS[k + 1];
      if (!above) return;
      const inputs = [`wind_u@${level}`, `wind_v@${level}`, `gh@${level}`, `wind_u@${above}`, `wind_v@${above}`, `gh@${above}`].map(get);
      if (values.has(`turbulence@${level}`) || inputs.some((i) => !i)) return;
      // Derivatives need the grid's geometry: derivedFrom-like, with the grid at hand.
      values.set(`turbulence@${level}`, once(async () => {
        const f: Decoded[] = [];
        for (const input of inputs) {
          const d = await input!();
          if (!d || !sameGrid(d.grid, (f[0] ?? d).grid)) return null;
          f.push(d);
        }
        const [ub, vb, zb, ut, vt, zt] = f.map((d) => d.values);
        return { values: ti1From(ub, vb, zb, ut, vt, zt, geometryOf(f[0].grid)), grid: f[0].grid };
      }));
    });
    for (const key of [...values.keys()]) if (VARIABLES[key.split('@')[0]].input) values.delete(key);
  }

  /** Rain (mm) of the `hours` before a step from the run's totals; null when the run has no total there. */
  private async rainBefore(hour: number, hours: number): Promise<Decoded | null> {
    const grid = this.state.accumGrid;
    if (!grid || !this.state.totals.includes(hour)) return null;
    const total = await this.readAccum(`total-${hour}`);
    const start = hour - hours;
    const earlier = start > 0 ? (this.state.totals.includes(start) ? await this.readAccum(`total-${start}`) : undefined) : null;
    if (!total || earlier === undefined) return null;
    const values = earlier ? total.map((t, k) => Math.max(0, t - earlier[k])) : total;
    return { values, grid: { ...grid, latitudes: grid.latitudes ? Float64Array.from(grid.latitudes) : undefined } };
  }

  private accumPath(name: string): string {
    return join(this.dir, 'accum', `${name}.f32`);
  }

  private async readAccum(name: string): Promise<Float32Array | null> {
    const bytes = await readFile(this.accumPath(name)).catch(() => null);
    if (!bytes) return null;
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }

  private async writeAccum(name: string, values: Float32Array): Promise<void> {
    await mkdir(join(this.dir, 'accum'), { recursive: true });
    await writeFile(this.accumPath(name), new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  private async keepAccumulation(a: Accumulation, amount: Float32Array, grid: SourceGrid): Promise<void> {
    if (this.state.accumGrid && !sameGrid(this.state.accumGrid as SourceGrid, grid)) {
      throw new IngestError(`Precipitation of step +${a.end} h is on another grid than the run's earlier steps`);
    }
    this.state.accumGrid ??= { ...grid, latitudes: grid.latitudes ? [...grid.latitudes] : undefined };
    await this.writeAccum(`amount-${a.start}-${a.end}`, amount);
    if (!this.state.accumulations.some((k) => k.start === a.start && k.end === a.end)) this.state.accumulations.push(a);
  }

  /** Rate over (from, end] and total at end for a kept amount; null when the amount spans no time. */
  private async deriveRain(a: Accumulation): Promise<{ rate: Float32Array; total: Float32Array | null } | null> {
    const { from, minus } = incrementOf(a, this.state.accumulations);
    if (!(a.end > from)) return null;
    const amount = (await this.readAccum(`amount-${a.start}-${a.end}`))!;
    const previous = minus ? await this.readAccum(`amount-${minus.start}-${minus.end}`) : null;
    const rate = rateFrom(amount, previous, a.end - from);
    // The total needs the total at `from`: 0 at the run's start, else kept from an earlier step.
    const base = from === 0 ? null : this.state.totals.includes(from) ? await this.readAccum(`total-${from}`) : undefined;
    let total: Float32Array | null = null;
    if (base !== undefined) {
      total = addIncrement(base, amount, previous);
      await this.writeAccum(`total-${a.end}`, total);
      if (!this.state.totals.includes(a.end)) this.state.totals.push(a.end);
    }
    return { rate, total };
  }

  /** Rewrites the rain layers of an already built step after an earlier step arrived late. */
  private async redoRain(end: number): Promise<void> {
    const a = this.state.accumulations.find((k) => k.end === end);
    const grid = this.state.accumGrid;
    if (!a || !grid) return;
    const sourceGrid: SourceGrid = { ...grid, latitudes: grid.latitudes ? Float64Array.from(grid.latitudes) : undefined };
    const derived = await this.deriveRain(a);
    if (!derived) return;
    const values = new Map([['rain@surface', ready({ values: derived.rate, grid: sourceGrid })]]);
    if (derived.total) values.set('rainAccu@surface', ready({ values: derived.total, grid: sourceGrid }));
    await this.writeOutputs(end, values);
    await this.saveState();
  }

  /** Removes the tiles and native tiles of a step that failed before it was recorded. */
  private async discardStep(hour: number): Promise<void> {
    await this.writer.idle();
    const stamp = hourStamp(this.options.refTime + hour * HOUR_MS);
    for (const name of ['tiles', 'native']) await rm(join(this.dir, name, stamp), { recursive: true, force: true });
  }

  /**
   * Tiles, native tiles and point slab columns of the variables given, for one step. Each layer's
   * fields are decoded when its turn comes; its tiles are rendered here and gzipped and written
   * on the writer threads while the next layer is decoded and rendered.
   */
  private async writeOutputs(hour: number, values: Map<string, StepValue>): Promise<{ layers: string[]; tiles: number }> {
    const { signal, refTime } = this.options;
    const validTime = refTime + hour * HOUR_MS;
    const bounds = this.state.global ? null : this.state.bounds;
    const written: string[] = [];
    const tilesBefore = this.writer.written;
    // Thousands of tiles rendered on this thread: timers and requests get a turn between them.
    const slice = eventLoopSlices();
    // Layers in this step: tile file + level with all its channels present.
    const layers = new Map<string, { file: string; level: string }>();
    for (const key of values.keys()) {
      const [ident, level] = key.split('@');
      const file = VARIABLES[ident].file;
      layers.set(layerKey(file, level), { file, level });
    }
    for (const [key, { file, level }] of layers) {
      const channelVars = FILE_VARIABLES[file];
      const sources = channelVars.map((v) => values.get(`${v.ident}@${level}`));
      if (sources.some((c) => !c)) continue; // wind needs both u and v
      throwIfAborted(signal);
      const channels: Decoded[] = [];
      for (const source of sources) {
        await slice();
        const decoded = await source!();
        if (decoded) channels.push(decoded);
      }
      if (channels.length < sources.length) continue;
      const grid = channels[0].grid;
      if (channels.some((c) => !sameGrid(c.grid, grid))) throw new IngestError(`The channels of ${key} at +${hour} h are on different grids`);
      const quantizations = channelVars.map((v) => v.quantization);
      const sampling = samplingOf(METRICS[channelVars[0].metric]);
      const regridders = this.regridders.slice(0, channels.length);
      channels.forEach((c, k) => regridders[k].load(c.values, grid));
      const nativeTile = this.writer.buffer(nativeTileByteLength(channels.length, grid));
      await this.writer.write(nativeRelPath(validTime, file, level), renderNativeTile(regridders, channels.map((c) => c.values), grid, quantizations, nativeTile, sampling));
      const tileBytes = tileByteLength(channels.length, TILE_NODES, TILE_NODES);
      const top = this.prerenderZoom(level);
      for (let z = 0; z <= top; z++) {
        for (const address of tilesMeeting(z, bounds)) {
          throwIfAborted(signal);
          const tile = renderTile(regridders, quantizations, address, this.writer.buffer(tileBytes), sampling);
          await this.writer.write(tileRelPath(validTime, z, address.x, address.y, file, level), tile);
          await slice();
        }
      }
      const layer = this.state.layers[key] ??= { file, level, channels: channels.length, hours: [], prerendered: top };
      if (!layer.hours.includes(hour)) {
        layer.hours.push(hour);
        layer.hours.sort((a, b) => a - b);
      }
      written.push(key);
    }
    // The point slabs take every value of the step, those of incomplete layers (a u without its v) too.
    const decoded = new Map<string, Decoded>();
    for (const [key, value] of values) {
      await slice();
      const d = await value();
      if (d) decoded.set(key, d);
    }
    await this.writePointSlab(hour, decoded);
    await this.writer.flush();
    const tiles = this.writer.written - tilesBefore;
    this.state.stats.tiles += tiles;
    return { layers: written, tiles };
  }

  private async writePointSlab(hour: number, values: Map<string, { values: Float32Array; grid: SourceGrid }>): Promise<void> {
    const pointGrid = this.state.pointGrid;
    if (pointGrid) {
      const columns = [...values.entries()]
        .filter(([key]) => key.endsWith('@surface') && VARIABLES[key.split('@')[0]].point)
        .map(([key, field]) => {
          const variable = VARIABLES[key.split('@')[0]];
          return { name: variable.ident, ...field, quantization: variable.quantization, sampling: samplingOf(METRICS[variable.metric]) };
        });
      if (columns.length) this.state.slabs[hour] = await this.writeSlabColumns(slabPath(this.dir, hour), pointGrid, this.state.slabs[hour] ?? [], columns);
    }
    const levelColumns = [...values.entries()].filter(([key]) => {
      const [ident, level] = key.split('@');
      return LEVEL_POINT_VARIABLES.includes(ident) && PRESSURE_LEVEL_IDENTS.includes(level);
    }).map(([key, field]) => {
      const [ident, level] = key.split('@');
      return { name: levelSeriesName(ident, level), ...field, quantization: VARIABLES[ident].quantization };
    });
    if (levelColumns.length && this.state.bounds) {
      const grid = this.state.levelPointGrid ??= pointGridFor(this.state.bounds, this.levelPointResolution(levelColumns[0].grid));
      const slabs = this.state.levelSlabs ??= {};
      slabs[hour] = await this.writeSlabColumns(levelSlabPath(this.dir, hour), grid, slabs[hour] ?? [], levelColumns);
    }
  }

  /** Regrids run-constant fields onto the point grid into the static slab (merged with what it holds). */
  private async writeStaticSlab(values: Map<string, StepValue>): Promise<void> {
    const pointGrid = this.state.pointGrid;
    if (!pointGrid) return;
    const columns: { name: string; values: Float32Array; grid: SourceGrid; quantization: Quantization }[] = [];
    for (const [key, value] of values) {
      const decoded = await value();
      const ident = key.split('@')[0];
      if (decoded) columns.push({ name: ident, ...decoded, quantization: VARIABLES[ident].quantization });
    }
    if (columns.length) this.state.staticSlab = await this.writeSlabColumns(staticSlabPath(this.dir), pointGrid, this.state.staticSlab ?? [], columns);
  }

  /**
   * Regrids fields onto a point grid and writes them as the step's slab, merged with the columns of
   * the slab already there (a step completed by a later call, rain redone). Returns the slab's columns.
   */
  private async writeSlabColumns(
    path: string, pointGrid: PointGrid, existing: readonly string[],
    fields: { name: string; values: Float32Array; grid: SourceGrid; quantization: Quantization; sampling?: Sampling }[],
  ): Promise<string[]> {
    const target: TargetGrid = { nx: pointGrid.nx, ny: pointGrid.ny, lon0: pointGrid.lon0, dLon: pointGrid.dLon, lat0: pointGrid.lat0, dLat: pointGrid.dLat };
    const nodes = pointGrid.nx * pointGrid.ny;
    const columns = new Map<string, Uint16Array>();
    if (existing.length) {
      const bytes = await readFile(path).catch(() => null);
      if (bytes && bytes.byteLength === nodes * existing.length * 2) {
        const slab = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        existing.forEach((name, c) => {
          const column = new Uint16Array(nodes);
          for (let k = 0, p = c; k < nodes; k++, p += existing.length) column[k] = slab[p];
          columns.set(name, column);
        });
      }
    }
    const regridder = this.regridders[0];
    for (const { name, values, grid, quantization, sampling } of fields) {
      regridder.load(values, grid);
      regridder.regrid(target, sampling);
      columns.set(name, regridder.quantize(quantization, 0).slice());
    }
    await mkdir(join(this.dir, 'points'), { recursive: true });
    const order = [...columns.keys()];
    await writeSlab(path, nodes, order.map((name) => columns.get(name)!));
    return order;
  }

  /**
   * Makes the run visible: writes the point-series store, the manifest and the minifest, drops the
   * build's scratch, renames the directory into runs/ and points current.json at it (to a remote
   * store: uploads the run, then the pointer, then removes the staging directory).
   */
  async publish(): Promise<{ id: string; manifest: RunManifest; current: boolean }> {
    const { product, refTime, dataDir, onProgress } = this.options;
    if (!this.state.hours.length) throw new IngestError(`Run ${hourStamp(refTime)} of ${product.ident} has no steps to publish`);
    await this.writer.flush();
    onProgress?.({ phase: 'publish', done: 0, total: 1, message: 'point-series store' });
    const id = newRunId(refTime);
    const manifest = await this.writeServed(this.dir, id);
    const remote = this.remoteStorage();
    let current: boolean;
    if (remote) {
      // Uploaded before the build's scratch goes: an upload that fails leaves the build to publish again.
      ({ current } = await publishRunToStore(remote, product.directory, this.dir, id, refTime));
      await this.release();
      await rm(this.dir, { recursive: true, force: true });
    } else {
      for (const name of ['points', 'accum']) await rm(join(this.dir, name), { recursive: true, force: true });
      await rm(join(this.dir, 'build.json'), { force: true });
      await this.release();
      ({ current } = await publishRun(dataDir, product.directory, this.dir, id, refTime));
    }
    onProgress?.({ phase: 'publish', done: 1, total: 1, message: `run ${id}${current ? '' : ' (older than the current run: not made current)'}` });
    return { id, manifest, current };
  }

  /**
   * Makes the steps built so far visible while the build goes on (layout.ts publishSnapshot): the
   * run's point stores, manifest and minifest in a new runs/{id}, its tiles linked, not copied (in
   * object storage: uploaded once to the build's prefix, runPublication.ts).
   */
  async publishSnapshot(): Promise<{ id: string; current: boolean }> {
    const { product, refTime, dataDir } = this.options;
    if (!this.state.hours.length) throw new IngestError(`Run ${hourStamp(refTime)} of ${product.ident} has no steps to publish`);
    await this.writer.flush();
    const id = newRunId(refTime);
    const remote = this.remoteStorage();
    const { current } = remote
      ? await publishSnapshotToStore(remote, product.directory, this.dir, id, refTime, async (dir, objects) => void await this.writeServed(dir, id, objects), this.snapshotUploads)
      : await publishSnapshot(dataDir, product.directory, this.dir, id, refTime, async (dir) => void await this.writeServed(dir, id));
    return { id, current };
  }

  /** The remote store runs are published to; null when they go to the data directory. */
  private remoteStorage(): ObjectStore | null {
    const { storage } = this.options;
    return storage && storage.localRoot === null ? storage : null;
  }

  /**
   * Writes the point stores, run.json and minifest.json of the steps built so far into `dir`;
   * `objects`: where the tiles are when not beside them (RunManifest.objects).
   */
  private async writeServed(dir: string, id: string, objects?: string): Promise<RunManifest> {
    const { product, refTime } = this.options;
    const state = this.state;
    let points: PointStoreInfo | null = null;
    const grid = state.pointGrid;
    const pointVariables = Object.values(VARIABLES).filter((v) => v.point && Object.values(state.slabs).some((vars) => vars.includes(v.ident)));
    const statics = STATIC_VARIABLES.filter((v) => state.staticSlab?.includes(v.ident));
    if (grid && (pointVariables.length || statics.length)) {
      const steps: SlabStep[] = state.hours.map((hour) => ({ hour, path: slabPath(this.dir, hour), variables: state.slabs[hour] ?? [] }));
      const quantized = (v: (typeof statics)[number]): PointVariable => ({ ident: v.ident, offset: Math.fround(v.quantization.offset), scale: Math.fround(v.quantization.scale) });
      const bytes = await writePointStore(join(dir, 'points.bin'), {
        refTime, hours: state.hours, grid, variables: pointVariables.map(quantized), ...(statics.length ? { statics: statics.map(quantized) } : {}),
      }, steps, statics.length ? { path: staticSlabPath(this.dir), variables: state.staticSlab! } : undefined);
      points = { file: 'points.bin', ...grid, variables: pointVariables.map((v) => v.ident), statics: statics.map((v) => v.ident), bytes };
    }
    const levelPoints = await this.writeLevelStore(dir);
    const published = new Date().toISOString();
    const manifest: RunManifest = {
      format: RUN_FORMAT, id, product: product.ident, directory: product.directory, refTime, hours: state.hours, layers: state.layers,
      maxZoom: product.maxTileZoom.premium, bounds: state.global ? null : state.bounds, points, levelPoints, published,
      stats: { tiles: state.stats.tiles, ms: Date.now() - state.started, files: state.stats.files }, ...(objects ? { objects } : {}),
    };
    const layerLevels: Record<string, string[]> = {};
    for (const layer of Object.values(state.layers)) (layerLevels[layer.file] ??= []).push(layer.level);
    const minifest: Minifest & { layers: Record<string, string[]>; sample?: boolean } = {
      ref: new Date(refTime).toISOString(), dst: minifestRanges(state.hours), update: published, v: MINIFEST_VERSION, layers: layerLevels,
    };
    if (product.sample) minifest.sample = true;
    await writeFile(join(dir, 'run.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    await writeFile(join(dir, 'minifest.json'), JSON.stringify(minifest));
    return manifest;
  }

  /** levels.bin from the level slabs: every variable at every level any step has, by variable then level from the ground up. */
  private async writeLevelStore(dir: string): Promise<PointStoreInfo | null> {
    const { levelPointGrid: grid, levelSlabs = {}, hours } = this.state;
    const present = new Set(Object.values(levelSlabs).flat());
    const names = LEVEL_POINT_VARIABLES.flatMap((ident) => PRESSURE_LEVEL_IDENTS.map((level) => levelSeriesName(ident, level))).filter((n) => present.has(n));
    if (!grid || !names.length) return null;
    const steps: SlabStep[] = hours.map((hour) => ({ hour, path: levelSlabPath(this.dir, hour), variables: levelSlabs[hour] ?? [] }));
    const variables = names.map((name) => {
      const q = VARIABLES[name.slice(0, name.lastIndexOf('-'))].quantization;
      return { ident: name, offset: Math.fround(q.offset), scale: Math.fround(q.scale) };
    });
    const bytes = await writePointStore(join(dir, 'levels.bin'), { refTime: this.options.refTime, hours, grid, variables }, steps);
    return { file: 'levels.bin', ...grid, variables: names, bytes };
  }

  /** Counts a source file toward the run's stats. */
  noteFile(): void {
    this.state.stats.files++;
  }
}
