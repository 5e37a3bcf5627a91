/**
 * GOES-R Geostationary Lightning Mapper L2 "LCFA" files (Lightning Cluster Filter Algorithm:
 * events, groups, flashes), netCDF-4 = HDF5, read with h5wasm (the HDF5 C library in WebAssembly).
 *
 * Only the flash level is kept. Packed variables are unpacked by the netCDF attribute conventions
 * (NetCDF Users Guide, "Attribute Conventions"; CF 1.7 §8.1): a variable with `_Unsigned = "true"`
 * holds unsigned integers in a signed type, `_FillValue` marks a missing value (compared on the
 * packed integer), and value = packed * scale_factor + add_offset. The flash time is
 * `flash_time_offset_of_first_event` in the unit its `units` attribute names ("milliseconds since
 * 2018-07-02 04:33:00.000" in the v01r00 files of 2018; "seconds since ..." in later versions).
 * The satellite's view comes with the flashes: nominal_satellite_subpoint_lon/_lat (the nadir) and
 * lon/lat_field_of_view_bounds (GOES-16 at 75.2° W: -141.56..-8.44, ±66.56), which the merge of
 * GOES-East and GOES-West (mergeSatellites.ts) needs.
 * Reference: GOES-R Series Product Definition and Users' Guide (PUG) vol. 3 L1b/L2+ §5.26.3 (GLM L2+
 * Lightning Detection data fields).
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadH5wasm, type H5 } from '../hdf5.ts';

export class GlmFormatError extends Error {
  override name = 'GlmFormatError';
}

/** Where a GLM looks from and what it sees, as its file states them (degrees). */
export interface GlmView {
  /** nominal_satellite_subpoint_lon / _lat: the point below the satellite. */
  subpointLon: number;
  subpointLat: number;
  /** lon_field_of_view_bounds: west, then east; the box may cross the antimeridian (west > east). */
  west: number;
  east: number;
  /** lat_field_of_view_bounds, sorted. */
  south: number;
  north: number;
}

export interface GlmFile {
  /** Dataset name attribute (the OR_GLM-L2-LCFA_... file name). */
  datasetName: string;
  /** platform_ID, e.g. "G16". */
  platform: string;
  view: GlmView;
  /** time_coverage_start / _end, ms since the epoch. */
  start: number;
  end: number;
  /** flash_count as the file states it. */
  flashCount: number;
  /** Flash columns, file order. */
  lat: Float32Array;
  lon: Float32Array;
  /** Time of the flash's first optical event, ms since the epoch. */
  time: Float64Array;
  /** Radiant energy, joules. */
  energyJ: Float64Array;
  /** Area, km². */
  areaKm2: Float32Array;
  /** flash_quality_flag: 0 good; 1, 3, 5 degraded (flag_meanings of the file). */
  quality: Uint8Array;
}

let module: Promise<H5> | null = null;
/** h5wasm once loaded (hdf5()): what `dataset` tells datasets by. */
let datasetClass: H5['Dataset'] | null = null;

async function hdf5(): Promise<H5> {
  module ??= loadH5wasm().then(async (h5wasm) => {
    // HDF5's default handler prints a stack of diagnostics to stderr and returns -1; this one throws.
    (await h5wasm.ready).activate_throwing_error_handler();
    datasetClass = h5wasm.Dataset;
    return h5wasm;
  });
  return module;
}

type Dataset = InstanceType<H5['Dataset']>;
type Group = InstanceType<H5['File']>;

function attr(node: Dataset | Group, name: string): unknown {
  const a = node.attrs[name];
  if (!a) return undefined;
  const v = a.value;
  return ArrayBuffer.isView(v) && !(v instanceof DataView) ? (v as unknown as ArrayLike<number>)[0] : v;
}

function dataset(file: Group, name: string): Dataset {
  const node = file.get(name);
  if (!datasetClass || !(node instanceof datasetClass)) throw new GlmFormatError(`variable ${name} missing`);
  return node;
}

/** A variable's values, unpacked (header comment). */
function unpacked(file: Group, name: string, n: number): Float64Array {
  const d = dataset(file, name);
  const raw = d.value;
  if (!ArrayBuffer.isView(raw) || (raw as unknown as ArrayLike<number>).length !== n) {
    throw new GlmFormatError(`variable ${name} has ${ArrayBuffer.isView(raw) ? (raw as unknown as ArrayLike<number>).length : 'no'} values, expected ${n}`);
  }
  const values = raw as unknown as ArrayLike<number>;
  const unsigned = attr(d, '_Unsigned') === 'true';
  const bits = 8 * (values as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
  const wrap = 2 ** bits;
  const scale = Number(attr(d, 'scale_factor') ?? 1);
  const offset = Number(attr(d, 'add_offset') ?? 0);
  const fill = attr(d, '_FillValue');
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const packed = values[i];
    if (fill !== undefined && packed === Number(fill)) {
      out[i] = NaN;
      continue;
    }
    out[i] = (unsigned && packed < 0 ? packed + wrap : packed) * scale + offset;
  }
  return out;
}

/** The values of a small variable (a scalar or a bounds pair), each required to be a number. */
function numbers(file: Group, name: string, n: number): number[] {
  const raw = dataset(file, name).value;
  const values = ArrayBuffer.isView(raw) ? Array.from(raw as unknown as ArrayLike<number>, Number) : [Number(raw)];
  if (values.length !== n || !values.every(Number.isFinite)) throw new GlmFormatError(`variable ${name} should hold ${n} number${n > 1 ? 's' : ''}, has ${JSON.stringify(raw)}`);
  return values;
}

function readView(file: Group): GlmView {
  const [west, east] = numbers(file, 'lon_field_of_view_bounds', 2);
  const [lat0, lat1] = numbers(file, 'lat_field_of_view_bounds', 2);
  const [subpointLon] = numbers(file, 'nominal_satellite_subpoint_lon', 1);
  const [subpointLat] = numbers(file, 'nominal_satellite_subpoint_lat', 1);
  // A _FillValue (-999) or anything off the globe is no view.
  if (![west, east, subpointLon].every((lon) => Math.abs(lon) <= 180) || ![lat0, lat1, subpointLat].every((lat) => Math.abs(lat) <= 90)) {
    throw new GlmFormatError(`satellite view off the globe (subpoint ${subpointLon}, ${subpointLat}; bounds ${west}..${east}, ${lat0}..${lat1})`);
  }
  return { subpointLon, subpointLat, west, east, south: Math.min(lat0, lat1), north: Math.max(lat0, lat1) };
}

/** "milliseconds since 2018-07-02 04:33:00.000" -> [ms per unit, epoch ms]. */
function timeUnits(units: unknown): [number, number] {
  const match = typeof units === 'string' ? /^(milliseconds|seconds)\s+since\s+(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)\s*Z?$/.exec(units.trim()) : null;
  if (!match) throw new GlmFormatError(`unreadable time units ${JSON.stringify(units)}`);
  const epoch = Date.parse(`${match[2]}T${match[3]}Z`);
  if (!Number.isFinite(epoch)) throw new GlmFormatError(`unreadable time units ${JSON.stringify(units)}`);
  return [match[1] === 'seconds' ? 1000 : 1, epoch];
}

function isoTime(file: Group, name: string): number {
  const value = attr(file, name);
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new GlmFormatError(`global attribute ${name} missing or unreadable`);
  return ms;
}

/**
 * Reads the flashes of one GLM L2 LCFA file. Throws GlmFormatError for a file that is not HDF5
 * (truncated, corrupt), is not a GLM LCFA product, or whose flash variables disagree with its own
 * flash_count.
 */
export async function readGlmFlashes(bytes: Uint8Array): Promise<GlmFile> {
  const h5wasm = await hdf5();
  // h5wasm/node opens real files (NODERAWFS): one in a folder of its own under the system's temporary
  // folder, so that readers in several worker threads of one process never share a name, removed after.
  const dir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
  const path = join(dir, 'lcfa.nc');
  await writeFile(path, bytes);
  let file: Group | null = null;
  try {
    try {
      file = new h5wasm.File(path, 'r');
    } catch (error) {
      throw new GlmFormatError(`not a readable netCDF-4/HDF5 file (${bytes.length} bytes; truncated or corrupt?): ${String((error as Error).message).split('\n')[0]}`);
    }
    if (file.file_id < 0n) throw new GlmFormatError(`not a readable netCDF-4/HDF5 file (${bytes.length} bytes; truncated or corrupt?)`);
    return readOpen(file);
  } catch (error) {
    if (error instanceof GlmFormatError) throw error;
    throw new GlmFormatError(`GLM file unreadable (truncated or corrupt?): ${String((error as Error).message).split('\n')[0]}`);
  } finally {
    try {
      file?.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

function readOpen(file: Group): GlmFile {
  const title = attr(file, 'title');
  const datasetName = String(attr(file, 'dataset_name') ?? '');
  if (typeof title !== 'string' || !/GLM L2 Lightning Detections/.test(title) || !datasetName.includes('GLM-L2-LCFA')) {
    throw new GlmFormatError(`not a GLM L2 LCFA product (title ${JSON.stringify(title)}, dataset ${JSON.stringify(datasetName)})`);
  }
  const start = isoTime(file, 'time_coverage_start');
  const end = isoTime(file, 'time_coverage_end');
  const countValue = dataset(file, 'flash_count').value;
  const flashCount = Number(ArrayBuffer.isView(countValue) ? (countValue as unknown as ArrayLike<number>)[0] : countValue);
  const n = dataset(file, 'flash_id').shape?.[0] ?? -1;
  if (!Number.isInteger(flashCount) || flashCount !== n) throw new GlmFormatError(`flash_count ${flashCount} but ${n} flashes in flash_id`);

  const [unitMs, epoch] = timeUnits(attr(dataset(file, 'flash_time_offset_of_first_event'), 'units'));
  const offsets = unpacked(file, 'flash_time_offset_of_first_event', n);
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) time[i] = epoch + offsets[i] * unitMs;

  const quality = unpacked(file, 'flash_quality_flag', n);
  const lat = Float32Array.from(unpacked(file, 'flash_lat', n));
  const lon = Float32Array.from(unpacked(file, 'flash_lon', n));
  for (let i = 0; i < n; i++) {
    if (!(Math.abs(lat[i]) <= 90 && Math.abs(lon[i]) <= 180) || !Number.isFinite(time[i])) {
      throw new GlmFormatError(`flash ${i} has no valid place or time (${lat[i]}, ${lon[i]}, ${time[i]})`);
    }
  }
  return {
    datasetName,
    platform: String(attr(file, 'platform_ID') ?? ''),
    view: readView(file),
    start,
    end,
    flashCount,
    lat,
    lon,
    time,
    energyJ: unpacked(file, 'flash_energy', n),
    areaKm2: Float32Array.from(unpacked(file, 'flash_area', n)),
    quality: Uint8Array.from(quality, (q) => (Number.isNaN(q) ? 255 : q)),
  };
}
