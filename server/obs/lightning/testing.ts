/**
 * Test helper: the three consecutive GOES-16 GLM L2 LCFA files of ../shared/data/obs/lightning
 * (never copied into the repository) and the key each has in NOAA's open bucket
 * (noaa-goes16/GLM-L2-LCFA/{year}/{day of year}/{hour}/{file name}); and, as there is no GOES-West
 * fixture, a GOES-West file made from one of them (goesWestCopy).
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import type { GlmView } from './glm.ts';

const ORIGINAL_NAMES = [
  'OR_GLM-L2-LCFA_G16_s20181830433000_e20181830433200_c20181830433231.nc',
  'OR_GLM-L2-LCFA_G16_s20181830433200_e20181830433400_c20181830433424.nc',
  'OR_GLM-L2-LCFA_G16_s20181830433400_e20181830434000_c20181830434029.nc',
] as const;

const STARTS = ['20180702T043300', '20180702T043320', '20180702T043340'] as const;

export const GLM_FIXTURES = ORIGINAL_NAMES.map((name, i) => ({
  /** Path under ../shared/data. */
  fixture: `obs/lightning/goes16_glm-l2-lcfa_${STARTS[i]}_${name}`,
  /** Key in the noaa-goes16 bucket. */
  key: `GLM-L2-LCFA/2018/183/04/${name}`,
  name,
  /** flash_count of the file (data/README.md). */
  flashes: [302, 277, 274][i],
}));

/** GOES-West's nominal subpoint (GOES-17 and GOES-18 at 137.2° W; GOES-16's files say -75). */
export const GOES_WEST_SUBPOINT_LON = -137.2;

/** Where and when a flash of the GOES-16 file is in the West copy, and its quality flag there. */
export interface WestFlash {
  lon: number;
  lat: number;
  /** Added to the first event's time (ms; rounded to the variable's 2 ms step). */
  dtMs: number;
  quality: number;
}

type H5File = InstanceType<typeof h5wasm.File>;
type Dataset = InstanceType<typeof h5wasm.Dataset>;
/** The flash variables the reader uses, copied with their attributes (scale, offset, units, fill, _Unsigned). */
const FLASH_VARIABLES = ['flash_id', 'flash_time_offset_of_first_event', 'flash_lat', 'flash_lon', 'flash_energy', 'flash_area', 'flash_quality_flag'];

function copyAttributes(from: Dataset | H5File, to: Dataset | H5File, replace: Record<string, string> = {}): void {
  for (const [name, attribute] of Object.entries(from.attrs)) {
    if (name === 'DIMENSION_LIST' || name === '_Netcdf4Dimid' || name === 'REFERENCE_LIST') continue; // netCDF's dimension bookkeeping
    to.create_attribute(name, replace[name] ?? (attribute.value as string));
  }
}

/**
 * A GOES-16 GLM file as GOES-West's would be, written with h5wasm: the global attributes with
 * platform_ID G17, orbital_slot GOES-West and the G17 dataset name; the subpoint at
 * GOES_WEST_SUBPOINT_LON and the field of view moved with it (its west bound then crosses the
 * antimeridian); and the flash variables the reader uses, each flash placed by `move` or left out
 * (null). Events and groups are not copied (the reader keeps only flashes). Read the result with
 * readGlmFlashes for the values as stored.
 */
export async function goesWestCopy(bytes: Uint8Array, move: (i: number, lon: number, lat: number) => WestFlash | null): Promise<Uint8Array> {
  await h5wasm.ready;
  // h5wasm/node writes real files (glm.ts): a temporary folder of their own.
  const dir = await mkdtemp(join(tmpdir(), 'isobar-goes-west-'));
  const eastPath = join(dir, 'east.nc');
  const westPath = join(dir, 'west.nc');
  await writeFile(eastPath, bytes);
  const east = new h5wasm.File(eastPath, 'r');
  const west = new h5wasm.File(westPath, 'w');
  try {
    const get = (name: string) => east.get(name) as Dataset;
    copyAttributes(east, west, { platform_ID: 'G17', orbital_slot: 'GOES-West', dataset_name: westName(String(east.attrs.dataset_name.value)) });
    const time = get('flash_time_offset_of_first_event');
    if (!/^milliseconds since/.test(String(time.attrs.units.value))) throw new Error('goesWestCopy reads the v01r00 files (milliseconds)');
    const step = Number((time.attrs.scale_factor.value as Float32Array)[0]);
    const columns = Object.fromEntries(FLASH_VARIABLES.map((name) => [name, get(name).value as Float32Array | Int16Array | Int8Array]));
    const lon = columns.flash_lon;
    const keep: number[] = [];
    for (let i = 0; i < lon.length; i++) {
      const to = move(i, lon[i], columns.flash_lat[i]);
      if (to === null) continue;
      keep.push(i);
      columns.flash_lon[i] = to.lon;
      columns.flash_lat[i] = to.lat;
      columns.flash_time_offset_of_first_event[i] += Math.round(to.dtMs / step);
      columns.flash_quality_flag[i] = to.quality;
    }
    for (const name of FLASH_VARIABLES) {
      const column = columns[name];
      const data = new (column.constructor as Float32ArrayConstructor)(keep.length);
      keep.forEach((i, k) => (data[k] = column[i]));
      copyAttributes(get(name), west.create_dataset({ name, data, shape: [keep.length] }));
    }
    west.create_dataset({ name: 'flash_count', data: Int32Array.of(keep.length), shape: [] });
    const [westBound, eastBound] = get('lon_field_of_view_bounds').value as Float32Array;
    const view = goesWestView({ subpointLon: Number(get('nominal_satellite_subpoint_lon').value), west: westBound, east: eastBound });
    west.create_dataset({ name: 'lon_field_of_view_bounds', data: Float32Array.of(view.west, view.east) });
    west.create_dataset({ name: 'lat_field_of_view_bounds', data: get('lat_field_of_view_bounds').value as Float32Array });
    west.create_dataset({ name: 'nominal_satellite_subpoint_lon', data: Float32Array.of(GOES_WEST_SUBPOINT_LON), shape: [] });
    west.create_dataset({ name: 'nominal_satellite_subpoint_lat', data: Float32Array.of(Number(get('nominal_satellite_subpoint_lat').value)), shape: [] });
  } finally {
    east.close();
    west.close();
  }
  try {
    return new Uint8Array(await readFile(westPath));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** GOES-West's longitudes of view: GOES-East's moved with the subpoint (-141.56..-8.44 becomes 156.24..-70.64). */
export function goesWestView(east: Pick<GlmView, 'subpointLon' | 'west' | 'east'>): Pick<GlmView, 'subpointLon' | 'west' | 'east'> {
  const shift = GOES_WEST_SUBPOINT_LON - east.subpointLon;
  const wrap = (x: number) => ((((x + shift + 180) % 360) + 360) % 360) - 180;
  return { subpointLon: GOES_WEST_SUBPOINT_LON, west: wrap(east.west), east: wrap(east.east) };
}

/** The GOES-17 file name of the same 20 s (OR_GLM-L2-LCFA_G17_...). */
export function westName(name: string): string {
  return name.replace('_G16_', '_G17_');
}
