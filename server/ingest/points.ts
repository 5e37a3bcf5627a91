/**
 * The point-series store: one file per run holding, for every node of a regular point grid, every
 * point variable at every step, so one place's whole forecast is one read (two rows of two
 * neighbouring records for a bilinear answer). DESIGN.md "Data flow" 2: the point forecast and
 * meteogram read it.
 *
 *   points.bin, little-endian
 *   offset        size          field
 *   0             4             magic 'I' 'S' 'B' 'P'
 *   4             2             version (u16) = 1
 *   6             2             reserved, 0
 *   8             4             header length M (u32)
 *   12            M             header, JSON (utf-8): PointStoreHeader
 *   D = 12 + M rounded up to 16
 *   D + k * R     R = 2 * V * S  record of node k = j * nx + i (row j from the north, column i from lon0):
 *                               u16 q[V][S], variable-major: variable 0 at steps 0..S-1, then variable 1, ...
 *                               value = offset[v] + scale[v] * q (f32, as data tiles), q = 65535 missing
 *
 *   E = D + nx * ny * R           static section (version 2, when the header lists `statics`):
 *   E + k * T     T = 2 * W     node k's run-constant values, u16 q[W] (W = statics.length), same
 *                               rule: the model's terrain height (the `elevation` variable), one
 *                               value per node for the whole run, not per step
 *
 *   size = D + nx * ny * (V * S + W) * 2. A 0.25° GFS run of 209 steps (0-120 h hourly, then 3-hourly to
 *   384 h) with the 14 surface variables is 1440 x 721 x 14 x 209 x 2 B = 6.1 GB on its native grid;
 *   at the default 0.5° point grid 721 x 361 nodes, 1.5 GB; at 1°, 0.38 GB.
 *
 * While a run is built each step writes a slab, points/{hour}.slab: u16 q[nx * ny][V_step], the
 * step's own variables in the order build.json lists them; the run-constant fields go to
 * points/static.slab (the same layout, written once). Publishing transposes the slabs into
 * points.bin, a band of rows at a time, and appends the static slab as it is. Version 1 stores
 * (no static section) are still read.
 *
 * A reader reads a store through a ByteSource: a local file (PointStoreReader.open), or an object in
 * object storage read by ranges through a small block cache (server/storage/rangeReader.ts), so a
 * point forecast never downloads a whole store.
 *
 * levels.bin has the same layout for the pressure-level variables of the meteogram, named
 * `{ident}-{level}` (temp-850h, wind_u-850h, wind_v-850h, gh-850h), on a coarser grid (runBuilder.ts
 * DEFAULT_LEVEL_POINT_RESOLUTION); its slabs are points/{hour}.levels.slab.
 */

import { open, readFile, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_DATA } from '../../common/tile.ts';
import { wrapLon } from '../../common/tiling.ts';
import type { TargetGrid } from '../../engine/regrid.ts';

const POINTS_MAGIC = 0x50425349; // 'ISBP' read as a little-endian u32
const POINTS_VERSION = 2;
/** Versions this build reads: 1 has no static section. */
const READABLE_VERSIONS: readonly number[] = [1, 2];
const PREFIX_BYTES = 12;
const ALIGN = 16;
/** Output band of the transposition, bytes: bounds the memory publishing takes. */
const BAND_BYTES = 64 * 1024 * 1024;

/** A regular grid (node (i, j) at lon0 + i * dLon, lat0 - j * dLat) that may wrap. */
export interface PointGrid extends TargetGrid {
  /** Columns go all the way round: the cell east of column nx-1 is (nx-1, 0). */
  global: boolean;
}

export interface PointVariable {
  ident: string;
  offset: number;
  scale: number;
}

export interface PointStoreHeader {
  refTime: number;
  /** Forecast hours of the steps, ascending. */
  hours: number[];
  grid: PointGrid;
  variables: PointVariable[];
  /** Run-constant variables (one value per node, not per step) in the static section; absent = none. */
  statics?: PointVariable[];
}

export class PointStoreError extends Error {
  override name = 'PointStoreError';
}

/**
 * The point grid for a source area (null: the globe): nodes every `resolution` degrees on whole
 * multiples of it, inside the area. An area all the way round gets columns -180 .. 180 - r that wrap.
 */
export function pointGridFor(bounds: { west: number; east: number; north: number; south: number } | null, resolution: number): PointGrid {
  if (!(resolution > 0) || 360 / resolution > 65536) throw new PointStoreError(`Point grid resolution ${resolution}° is out of range`);
  const area = bounds ?? { west: -180, east: 180, north: 90, south: -90 };
  const eps = 1e-9;
  const lat0 = Math.floor(Math.min(90, area.north) / resolution + eps) * resolution;
  const lat1 = Math.ceil(Math.max(-90, area.south) / resolution - eps) * resolution;
  const ny = Math.round((lat0 - lat1) / resolution) + 1;
  if (area.east - area.west >= 360 - eps) {
    const nx = Math.round(360 / resolution);
    if (ny < 2) throw new PointStoreError(`The area is lower than two ${resolution}° point grid rows`);
    return { nx, ny, lon0: -180, dLon: 360 / nx, lat0, dLat: resolution, global: true };
  }
  const lon0 = Math.ceil(area.west / resolution - eps) * resolution;
  const lon1 = Math.floor(area.east / resolution + eps) * resolution;
  const nx = Math.round((lon1 - lon0) / resolution) + 1;
  if (nx < 2 || ny < 2) throw new PointStoreError(`The area is smaller than two ${resolution}° point grid nodes`);
  return { nx, ny, lon0, dLon: resolution, lat0, dLat: resolution, global: false };
}

export function slabPath(dir: string, hour: number): string {
  return join(dir, 'points', `${hour}.slab`);
}

/** The step's slab of pressure-level variables (levels.bin, same layout). */
export function levelSlabPath(dir: string, hour: number): string {
  return join(dir, 'points', `${hour}.levels.slab`);
}

/** The slab of the run-constant fields (the model's terrain height), written once per run. */
export function staticSlabPath(dir: string): string {
  return join(dir, 'points', 'static.slab');
}

/** Interleaves one step's variables (q per node, one array per variable) into a slab and writes it. */
export async function writeSlab(path: string, nodes: number, columns: Uint16Array[]): Promise<void> {
  const v = columns.length;
  const slab = new Uint16Array(nodes * v);
  for (let c = 0; c < v; c++) {
    const q = columns[c];
    if (q.length !== nodes) throw new PointStoreError(`Slab column ${c} has ${q.length} values, expected ${nodes}`);
    for (let k = 0, p = c; k < nodes; k++, p += v) slab[p] = q[k];
  }
  await writeFile(path, new Uint8Array(slab.buffer, slab.byteOffset, slab.byteLength));
}

export interface SlabStep {
  hour: number;
  path: string;
  /** The slab's variables, in its column order. */
  variables: string[];
}

function headerBytes(header: PointStoreHeader): { json: Uint8Array; dataOffset: number } {
  const json = new TextEncoder().encode(JSON.stringify(header));
  return { json, dataOffset: Math.ceil((PREFIX_BYTES + json.length) / ALIGN) * ALIGN };
}

/** The static slab of a run: its path and its columns' variables, in column order. */
export interface StaticSlab {
  path: string;
  variables: string[];
}

/**
 * Transposes the step slabs into points.bin (step-major in, node-major out), a band of rows at a
 * time, then appends the static slab's columns in the header's `statics` order.
 */
export async function writePointStore(path: string, header: PointStoreHeader, steps: SlabStep[], staticSlab?: StaticSlab): Promise<number> {
  const { grid, variables, hours } = header;
  const statics = header.statics ?? [];
  const V = variables.length;
  const S = hours.length;
  if (steps.length !== S || steps.some((s, k) => s.hour !== hours[k])) throw new PointStoreError('Slabs do not match the hours of the header');
  if (statics.length && (!staticSlab || statics.some((v) => !staticSlab.variables.includes(v.ident)))) {
    throw new PointStoreError(`The static slab lacks some of ${statics.map((v) => v.ident).join(', ')}`);
  }
  const nodes = grid.nx * grid.ny;
  const recordValues = V * S;
  const { json, dataOffset } = headerBytes(header);
  const out = await open(path, 'w');
  /** Per step, its slab; null for a step without point variables (it wrote no slab: its values are missing). */
  const slabs: (FileHandle | null)[] = [];
  try {
    const prefix = new Uint8Array(dataOffset);
    const view = new DataView(prefix.buffer);
    view.setUint32(0, POINTS_MAGIC, true);
    view.setUint16(4, POINTS_VERSION, true);
    view.setUint32(8, json.length, true);
    prefix.set(json, PREFIX_BYTES);
    await out.write(prefix, 0, prefix.length, 0);
    // Where each step's columns go: slab column -> store variable.
    const columnOf = steps.map((s) => variables.map((v) => s.variables.indexOf(v.ident)));
    for (const s of steps) slabs.push(s.variables.length ? await open(s.path, 'r') : null);
    const rowsPerBand = Math.max(1, Math.floor(BAND_BYTES / (grid.nx * recordValues * 2)));
    for (let j0 = 0; j0 < grid.ny; j0 += rowsPerBand) {
      const rows = Math.min(rowsPerBand, grid.ny - j0);
      const bandNodes = rows * grid.nx;
      const band = new Uint16Array(bandNodes * recordValues).fill(NO_DATA);
      for (let s = 0; s < S; s++) {
        const width = steps[s].variables.length;
        if (!width) continue;
        const slab = new Uint16Array(bandNodes * width);
        const bytes = new Uint8Array(slab.buffer);
        const { bytesRead } = await slabs[s]!.read(bytes, 0, bytes.length, j0 * grid.nx * width * 2);
        if (bytesRead !== bytes.length) throw new PointStoreError(`Slab of hour ${steps[s].hour} is truncated`);
        const columns = columnOf[s];
        for (let v = 0; v < V; v++) {
          const c = columns[v];
          if (c < 0) continue;
          for (let k = 0, p = c, o = v * S + s; k < bandNodes; k++, p += width, o += recordValues) band[o] = slab[p];
        }
      }
      await out.write(new Uint8Array(band.buffer), 0, band.byteLength, dataOffset + j0 * grid.nx * recordValues * 2);
    }
    const staticOffset = dataOffset + nodes * recordValues * 2;
    if (statics.length) {
      // One value per node and static variable: small enough (0.5 MB for a 0.5° grid) to do at once.
      const slab = await readSlab(staticSlab!.path);
      const width = staticSlab!.variables.length;
      if (slab.length !== nodes * width) throw new PointStoreError(`The static slab has ${slab.length} values, expected ${nodes * width}`);
      const W = statics.length;
      const section = new Uint16Array(nodes * W);
      statics.forEach((v, w) => {
        const c = staticSlab!.variables.indexOf(v.ident);
        for (let k = 0, p = c, o = w; k < nodes; k++, p += width, o += W) section[o] = slab[p];
      });
      await out.write(new Uint8Array(section.buffer), 0, section.byteLength, staticOffset);
    }
    return staticOffset + nodes * statics.length * 2;
  } finally {
    await out.close();
    for (const s of slabs) await s?.close();
  }
}

export interface PointSeries {
  refTime: number;
  hours: number[];
  /** The node or point the values are for. */
  lat: number;
  lon: number;
  /** Per variable, one value per hour (NaN = missing). */
  values: Record<string, Float32Array>;
}

/** Where a place falls among the nodes: the nodes to read and their weights. */
interface Cell {
  /** Nearest node, or the north-west node of the cell around the place. */
  i0: number;
  j0: number;
  /** Column east of i0 (0 when the cell wraps round a global grid); -1 for the nearest node alone. */
  i1: number;
  /** Bilinear weights of the nodes (i0, j0), (i1, j0), (i0, j0 + 1), (i1, j0 + 1). */
  weights: [number, number, number, number];
}

/** Random access to a store's bytes: a file, or an object read by ranges. */
export interface ByteSource {
  /** What it is, for error messages. */
  readonly name: string;
  size(): Promise<number>;
  /** `length` bytes from `position` into `into` at `offset`; answers how many there were. */
  read(into: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/** A local file as a ByteSource. */
class FileSource implements ByteSource {
  constructor(readonly name: string, private readonly file: FileHandle) {}

  async size(): Promise<number> {
    return (await this.file.stat()).size;
  }

  async read(into: Uint8Array, offset: number, length: number, position: number): Promise<number> {
    return (await this.file.read(into, offset, length, position)).bytesRead;
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

/** Reads points.bin: the header once, then one or two small reads per place. */
export class PointStoreReader {
  private constructor(
    private readonly file: ByteSource,
    readonly header: PointStoreHeader,
    private readonly dataOffset: number,
  ) {}

  /** The store in a local file. */
  static async open(path: string): Promise<PointStoreReader> {
    return PointStoreReader.from(new FileSource(path, await open(path, 'r')));
  }

  /** The store a ByteSource reads (closed with the reader, or at once when it is not a store). */
  static async from(file: ByteSource): Promise<PointStoreReader> {
    const path = file.name;
    try {
      const prefix = new Uint8Array(PREFIX_BYTES);
      await file.read(prefix, 0, PREFIX_BYTES, 0);
      const view = new DataView(prefix.buffer);
      if (view.getUint32(0, true) !== POINTS_MAGIC) throw new PointStoreError(`${path} is not a point-series store (bad magic bytes)`);
      const version = view.getUint16(4, true);
      if (!READABLE_VERSIONS.includes(version)) throw new PointStoreError(`${path} is point-series store version ${version}; this build reads ${READABLE_VERSIONS.join(' and ')}`);
      const length = view.getUint32(8, true);
      if (length > 16 * 1024 * 1024) throw new PointStoreError(`${path} has a ${length}-byte header`);
      const json = new Uint8Array(length);
      await file.read(json, 0, length, PREFIX_BYTES);
      const header = JSON.parse(new TextDecoder().decode(json)) as PointStoreHeader;
      if (version < 2) delete header.statics;
      const dataOffset = Math.ceil((PREFIX_BYTES + length) / ALIGN) * ALIGN;
      const size = await file.size();
      const nodes = header.grid.nx * header.grid.ny;
      const expected = dataOffset + nodes * (header.variables.length * header.hours.length + (header.statics?.length ?? 0)) * 2;
      if (size !== expected) throw new PointStoreError(`${path} is ${size} bytes, expected ${expected}`);
      return new PointStoreReader(file, header, dataOffset);
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }

  private get recordValues(): number {
    return this.header.variables.length * this.header.hours.length;
  }

  /** Where the static section starts. */
  private get staticOffset(): number {
    return this.dataOffset + this.header.grid.nx * this.header.grid.ny * this.recordValues * 2;
  }

  /** `count` neighbouring records of `n` values from node (i, j) on (no wrap), in the section at `base`. */
  private async readRecords(base: number, n: number, i: number, j: number, count: number): Promise<Uint16Array> {
    const out = new Uint16Array(count * n);
    const bytes = new Uint8Array(out.buffer);
    const position = base + (j * this.header.grid.nx + i) * n * 2;
    const bytesRead = await this.file.read(bytes, 0, bytes.length, position);
    if (bytesRead !== bytes.length) throw new PointStoreError('Point-series store is truncated');
    return out;
  }

  /** Grid coordinates of a place, or null outside the grid. */
  private locate(lat: number, lon: number): { gx: number; gy: number } | null {
    const { nx, ny, lon0, dLon, lat0, dLat, global } = this.header.grid;
    let x = lon - lon0;
    x -= 360 * Math.floor(x / 360);
    let gx = x / dLon;
    if (!global) {
      if (gx > nx - 1 + 1e-9 && gx - 360 / dLon >= -1e-9) gx = Math.max(0, gx - 360 / dLon);
      if (gx > nx - 1 + 1e-9) return null;
      gx = Math.min(gx, nx - 1);
    } else if (gx >= nx) {
      gx -= nx;
    }
    const gy = (lat0 - lat) / dLat;
    if (gy < -1e-9 || gy > ny - 1 + 1e-9) return null;
    return { gx, gy: Math.min(Math.max(gy, 0), ny - 1) };
  }

  /** The nodes a place reads: the nearest one, or the 4 around it with bilinear weights. Null outside the grid. */
  private cell(lat: number, lon: number, interpolate: boolean): Cell | null {
    const place = this.locate(lat, lon);
    if (!place) return null;
    const { nx, ny, global } = this.header.grid;
    if (!interpolate) {
      let i = Math.round(place.gx);
      if (i >= nx) i = global ? 0 : nx - 1;
      return { i0: i, j0: Math.round(place.gy), i1: -1, weights: [1, 0, 0, 0] };
    }
    const i0 = Math.min(Math.floor(place.gx), global ? nx - 1 : nx - 2);
    const j0 = Math.min(Math.floor(place.gy), ny - 2);
    const wx = place.gx - i0;
    const wy = place.gy - j0;
    return { i0, j0, i1: i0 + 1 >= nx ? 0 : i0 + 1, weights: [(1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy] };
  }

  /**
   * The q values of a cell's nodes in the section at `base` with `n` values per record: for the
   * nearest node its record; else two neighbouring records of the row above, then of the row
   * below (four reads when the cell wraps round the grid's edge).
   */
  private async readCell(cell: Cell, base: number, n: number): Promise<{ top: Uint16Array; bottom: Uint16Array | null }> {
    const { i0, j0, i1 } = cell;
    if (i1 < 0) return { top: await this.readRecords(base, n, i0, j0, 1), bottom: null };
    const [top, bottom] = i1 === i0 + 1
      ? await Promise.all([this.readRecords(base, n, i0, j0, 2), this.readRecords(base, n, i0, j0 + 1, 2)])
      : await Promise.all([
        Promise.all([this.readRecords(base, n, i0, j0, 1), this.readRecords(base, n, i1, j0, 1)]).then(([a, b]) => concat(a, b)),
        Promise.all([this.readRecords(base, n, i0, j0 + 1, 1), this.readRecords(base, n, i1, j0 + 1, 1)]).then(([a, b]) => concat(a, b)),
      ]);
    return { top, bottom };
  }

  /**
   * Value o of the records read for a cell: the node's for the nearest node; else bilinear between
   * the 4 nodes (missing nodes skipped, fewer than 2 valid give NaN, as the tile sampler does).
   */
  private static valueAt(cell: Cell, { top, bottom }: { top: Uint16Array; bottom: Uint16Array | null }, n: number, o: number, v: PointVariable): number {
    if (!bottom) {
      const q = top[o];
      return q === NO_DATA ? NaN : Math.fround(v.offset + v.scale * q);
    }
    const qs = [top[o], top[n + o], bottom[o], bottom[n + o]];
    let count = 0;
    let sum = 0;
    let weight = 0;
    let first = NaN;
    for (let k = 0; k < 4; k++) {
      if (qs[k] === NO_DATA) continue;
      const value = Math.fround(v.offset + v.scale * qs[k]);
      count++;
      sum += value * cell.weights[k];
      weight += cell.weights[k];
      if (Number.isNaN(first)) first = value;
    }
    return count < 2 ? NaN : weight > 0 ? sum / weight : first;
  }

  /**
   * The series at a place: bilinear between the 4 nodes around it (missing nodes skipped, fewer
   * than 2 valid give NaN, as the tile sampler does), or the nearest node. Null outside the grid.
   */
  async series(lat: number, lon: number, interpolate = true): Promise<PointSeries | null> {
    const cell = this.cell(lat, lon, interpolate);
    if (!cell) return null;
    const { variables, hours, grid } = this.header;
    const S = hours.length;
    const n = this.recordValues;
    const records = await this.readCell(cell, this.dataOffset, n);
    const values: Record<string, Float32Array> = {};
    variables.forEach((v, vi) => {
      const out = new Float32Array(S);
      for (let s = 0; s < S; s++) out[s] = PointStoreReader.valueAt(cell, records, n, vi * S + s, v);
      values[v.ident] = out;
    });
    if (interpolate) return { refTime: this.header.refTime, hours, lat, lon, values };
    return { refTime: this.header.refTime, hours, lat: grid.lat0 - cell.j0 * grid.dLat, lon: wrapLon(grid.lon0 + cell.i0 * grid.dLon), values };
  }

  /**
   * The run-constant values at a place (the model's terrain height), bilinear or the nearest node
   * as series() does; NaN where missing. Empty for a store without them, null outside the grid.
   */
  async statics(lat: number, lon: number, interpolate = true): Promise<Record<string, number> | null> {
    const cell = this.cell(lat, lon, interpolate);
    if (!cell) return null;
    const statics = this.header.statics ?? [];
    if (!statics.length) return {};
    const records = await this.readCell(cell, this.staticOffset, statics.length);
    return Object.fromEntries(statics.map((v, w) => [v.ident, PointStoreReader.valueAt(cell, records, statics.length, w, v)]));
  }
}

function concat(a: Uint16Array, b: Uint16Array): Uint16Array {
  const out = new Uint16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Reads a whole slab (tests and tools). */
async function readSlab(path: string): Promise<Uint16Array> {
  const bytes = await readFile(path);
  return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}
