/** Test helpers: the satellite fixtures of ../shared/data/obs/satellite (never copied into the repository), and ABI files written the PUG's way. */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import h5wasm from 'h5wasm/node';
import { geos } from './geos.ts';

export const SATELLITE_FIXTURE = {
  nwcsafCt: 'obs/satellite/msg3-nwcsaf_cloudtype_201304290415_belgium_SAFNWC_MSG3_CT___201304290415_BEL_________.h5',
} as const;

/**
 * Writes a small GOES-R ABI L2 CMIP / MCMIP file the way the PUG (vol. 5 §4.1, vol. 3 §4.2.8) lays
 * it out: there is no ABI fixture, so tests write one with h5wasm. The grid is the ABI fixed grid
 * coarsened (`step` radians between cells instead of 56 µrad), the values come from `field` at each
 * cell's longitude/latitude (the satellite's own inverse projection) and are packed as the ABI
 * packs them (16-bit unsigned, scale_factor / add_offset, _FillValue -1 off the Earth).
 */

export interface AbiBandSpec {
  band: number;
  wavelengthUm: number;
  /** Kelvin (bands 7-16) or reflectance factor (1-6) at a lon/lat. */
  field: (lon: number, lat: number) => number;
}

export interface AbiFileSpec {
  platform: string;
  lon0: number;
  start: Date;
  /** One band: a CMIP file; several: MCMIP. */
  bands: AbiBandSpec[];
  cells?: number;
  step?: number;
}

/** GOES-R fixed grid constants (PUG vol. 3 §4.2.8). */
export const GOES_R = { h: 35786023, a: 6378137, b: 6356752.31414 } as const;

export async function writeAbiFile(spec: AbiFileSpec): Promise<Uint8Array> {
  await h5wasm.ready;
  const n = spec.cells ?? 120;
  const step = spec.step ?? 0.151844 * 2 / (n - 1);
  const dir = await mkdtemp(join(tmpdir(), 'isobar-abi-'));
  const path = join(dir, 'abi.nc');
  const mcmip = spec.bands.length > 1;
  const f = new h5wasm.File(path, 'w');
  try {
    const t = spec.start.toISOString().replace(/(\.\d)\d\dZ$/, '$1Z'); // PUG form: 2017-09-10T17:00:21.7Z
    f.create_attribute('platform_ID', spec.platform);
    f.create_attribute('time_coverage_start', t);
    f.create_attribute('title', mcmip ? 'ABI L2 Cloud and Moisture Imagery (Multi-band)' : 'ABI L2 Cloud and Moisture Imagery');
    f.create_attribute('scene_id', 'Full Disk');
    f.create_attribute('Conventions', 'CF-1.7');
    const proj = f.create_dataset({ name: 'goes_imager_projection', data: new Int32Array([-2147483647]), shape: [], dtype: '<i' });
    proj.create_attribute('grid_mapping_name', 'geostationary');
    proj.create_attribute('perspective_point_height', GOES_R.h, null, '<d');
    proj.create_attribute('semi_major_axis', GOES_R.a, null, '<d');
    proj.create_attribute('semi_minor_axis', GOES_R.b, null, '<d');
    proj.create_attribute('inverse_flattening', 298.2572221, null, '<d');
    proj.create_attribute('latitude_of_projection_origin', 0, null, '<d');
    proj.create_attribute('longitude_of_projection_origin', spec.lon0, null, '<d');
    proj.create_attribute('sweep_angle_axis', 'x');
    const index = Int16Array.from({ length: n }, (_, i) => i);
    const half = ((n - 1) / 2) * step;
    for (const [name, scale, offset] of [['x', step, -half], ['y', -step, half]] as const) {
      const v = f.create_dataset({ name, data: index, shape: [n], dtype: '<h' });
      v.create_attribute('scale_factor', scale, null, '<f');
      v.create_attribute('add_offset', offset, null, '<f');
      v.create_attribute('units', 'rad');
      v.create_attribute('axis', name.toUpperCase());
      v.create_attribute('standard_name', `projection_${name}_coordinate`);
      v.make_scale(name);
    }
    const p = geos({ lon0: spec.lon0, h: GOES_R.h, rEq: GOES_R.a, rPol: GOES_R.b, sweep: 'x' });
    const ll = new Float64Array(2);
    for (const b of spec.bands) {
      const tag = mcmip ? `_C${String(b.band).padStart(2, '0')}` : '';
      const kelvin = b.band >= 7;
      const scale = kelvin ? 0.04 : 0.0003;
      const offset = kelvin ? 89.6 : 0;
      const q = new Int16Array(n * n);
      for (let j = 0; j < n; j++) {
        for (let i = 0; i < n; i++) {
          p.fromScan(-half + i * step, half - j * step, ll);
          const value = Number.isNaN(ll[0]) ? Number.NaN : b.field(ll[0], ll[1]);
          q[j * n + i] = Number.isNaN(value) ? -1 : Math.round((value - offset) / scale) << 16 >> 16;
        }
      }
      const cmi = f.create_dataset({ name: `CMI${tag}`, data: q, shape: [n, n], dtype: '<h' });
      cmi.create_attribute('scale_factor', scale, null, '<f');
      cmi.create_attribute('add_offset', offset, null, '<f');
      cmi.create_attribute('_FillValue', -1, null, '<h');
      cmi.create_attribute('_Unsigned', 'true');
      cmi.create_attribute('units', kelvin ? 'K' : '1');
      cmi.create_attribute('grid_mapping', 'goes_imager_projection');
      cmi.attach_scale(0, '/y');
      cmi.attach_scale(1, '/x');
      f.create_dataset({ name: `band_id${tag}`, data: new Int8Array([b.band]), shape: [1], dtype: '|b' });
      f.create_dataset({ name: `band_wavelength${tag}`, data: new Float32Array([b.wavelengthUm]), shape: [1], dtype: '<f' });
    }
  } finally {
    f.close();
  }
  try {
    return new Uint8Array(await readFile(path));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
