/**
 * GOES-R ABI Level 2 Cloud and Moisture Imagery, netCDF-4 (HDF5) read with h5wasm in the ingest,
 * per NOAA/NASA "GOES-R Series Product Definition and Users' Guide" (PUG) vol. 5 (L2+ products,
 * §4.1 Cloud and Moisture Imagery) and vol. 3 §4.2.8 (the ABI fixed grid):
 *   - CMIP (one band, `CMI`) and MCMIP (all sixteen at 2 km, `CMI_C01`..`CMI_C16`); both packed
 *     as 16-bit integers with `scale_factor`, `add_offset`, `_FillValue` and `_Unsigned = "true"`;
 *     units K (bands 7-16, brightness temperature) or 1 (bands 1-6, reflectance factor);
 *   - `x`, `y`: the fixed grid's scan angles of the cell centres (radians), packed the same way
 *     (x rises east, y falls south);
 *   - `goes_imager_projection`: perspective_point_height, semi_major_axis, semi_minor_axis,
 *     longitude_of_projection_origin, sweep_angle_axis ("x");
 *   - `band_id`, `band_wavelength` (µm) (`band_id_Cnn`, `band_wavelength_Cnn` in MCMIP);
 *   - global `platform_ID` (G16..G19), `time_coverage_start` (ISO 8601), `dataset_name`.
 */

import { SatelliteFormatError, type SatelliteImage, type SatelliteQuantity } from './field.ts';
import { geos, GeosError } from './geos.ts';
import { attrsOf, getNode, num, withHdf5, type H5File } from '../hdf5.ts';

export class AbiError extends SatelliteFormatError {
  override name = 'AbiError';
}

interface Var {
  shape: number[];
  attrs: Record<string, unknown>;
  raw: ArrayLike<number>;
}

function variable(file: H5File, name: string): Var | null {
  const node = getNode(file, `/${name}`) as { shape?: number[]; value?: unknown } | null;
  if (!node?.shape) return null;
  const raw = node.value as ArrayLike<number> | null;
  if (!raw || typeof raw.length !== 'number') throw new AbiError(`variable ${name} does not read`);
  return { shape: node.shape, attrs: attrsOf(node), raw };
}

/** Unpacks netCDF packed integers (CF: value = stored * scale_factor + add_offset; _Unsigned; _FillValue -> NaN). */
function unpack(v: Var, name: string): Float32Array {
  const scale = num(v.attrs.scale_factor) ?? 1;
  const offset = num(v.attrs.add_offset) ?? 0;
  const unsigned = String(v.attrs._Unsigned ?? '') === 'true';
  let raw = v.raw;
  if (unsigned && raw instanceof Int16Array) raw = new Uint16Array(raw.buffer, raw.byteOffset, raw.length);
  else if (unsigned && raw instanceof Int8Array) raw = new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
  let fill = num(v.attrs._FillValue);
  if (fill !== null && unsigned && fill < 0) fill += raw instanceof Uint16Array ? 0x10000 : 0x100;
  const out = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const q = raw[i];
    out[i] = q === fill || Number.isNaN(q) ? Number.NaN : q * scale + offset;
  }
  if (out.length === 0) throw new AbiError(`variable ${name} is empty`);
  return out;
}

function parseIso(text: unknown): number | null {
  const t = Date.parse(String(text ?? ''));
  return Number.isFinite(t) ? t : null;
}

/**
 * Reads one band of an ABI L2 CMIP or MCMIP file. `band` picks the MCMIP channel (required there);
 * a CMIP file must hold that band when it is given.
 */
export async function readAbiCmi(bytes: Uint8Array, band?: number): Promise<SatelliteImage> {
  return withHdf5(bytes, (m) => new AbiError(m), (file) => readBand(file, band));
}

/** Several bands of one MCMIP file, opened once (a full disk is a few hundred MB). */
export async function readAbiCmiBands(bytes: Uint8Array, bands: readonly number[]): Promise<SatelliteImage[]> {
  return withHdf5(bytes, (m) => new AbiError(m), (file) => bands.map((band) => readBand(file, band)));
}

function readBand(file: H5File, band: number | undefined): SatelliteImage {
  const global = attrsOf(file);
  const proj = attrsOf(getNode(file, '/goes_imager_projection'));
  if (proj.perspective_point_height === undefined) throw new AbiError('no goes_imager_projection variable: not an ABI fixed-grid product (or the file is truncated)');
  const bandTag = band === undefined ? '' : `_C${String(band).padStart(2, '0')}`;
  const mcmip = getNode(file, '/CMI') === null;
  if (mcmip && band === undefined) throw new AbiError('no CMI variable, and no band named for a multi-band (MCMIP) file');
  const cmiName = mcmip ? `CMI${bandTag}` : 'CMI';
  const cmi = variable(file, cmiName);
  if (!cmi) throw new AbiError(`no ${cmiName} variable`);
  const bandId = num(variable(file, mcmip ? `band_id${bandTag}` : 'band_id')?.raw[0]);
  if (band !== undefined && bandId !== null && bandId !== band) throw new AbiError(`file holds band ${bandId}, not band ${band}`);
  const wavelength = num(variable(file, mcmip ? `band_wavelength${bandTag}` : 'band_wavelength')?.raw[0]);
  const xv = variable(file, 'x');
  const yv = variable(file, 'y');
  if (!xv || !yv) throw new AbiError('no x / y scan-angle variables');
  const [ny, nx] = cmi.shape;
  if (cmi.shape.length !== 2 || xv.raw.length !== nx || yv.raw.length !== ny) throw new AbiError(`${cmiName} is ${cmi.shape.join('x')} but x, y have ${xv.raw.length}, ${yv.raw.length} values`);
  if (cmi.raw.length !== nx * ny) throw new AbiError(`${cmiName} holds ${cmi.raw.length} values, expected ${nx * ny}`);
  const x = unpack(xv, 'x');
  const y = unpack(yv, 'y');
  if (nx < 2 || ny < 2) throw new AbiError(`${cmiName} is ${nx}x${ny}: too small a grid`);
  const dxr = (x[nx - 1] - x[0]) / (nx - 1);
  const dyr = (y[0] - y[ny - 1]) / (ny - 1);
  if (!(dxr > 0 && dyr > 0)) throw new AbiError('x must rise eastwards and y fall southwards');
  for (const [arr, step, name] of [[x, dxr, 'x'], [y, -dyr, 'y']] as const) {
    for (let i = 1; i < arr.length; i++) {
      if (Math.abs(arr[i] - arr[i - 1] - step) > 1e-3 * Math.abs(step)) throw new AbiError(`${name} is not evenly spaced (at index ${i})`);
    }
  }
  const h = num(proj.perspective_point_height);
  const a = num(proj.semi_major_axis);
  const b = num(proj.semi_minor_axis);
  const lon0 = num(proj.longitude_of_projection_origin);
  const sweep = String(proj.sweep_angle_axis ?? 'x');
  if (h === null || a === null || b === null || lon0 === null) throw new AbiError('goes_imager_projection lacks perspective_point_height, semi_major_axis, semi_minor_axis or longitude_of_projection_origin');
  let projection;
  try {
    projection = geos({ lon0, h, rEq: a, rPol: b, sweep: sweep as 'x' | 'y' });
  } catch (cause) {
    if (cause instanceof GeosError) throw new AbiError(`goes_imager_projection: ${cause.message}`);
    throw cause;
  }
  const time = parseIso(global.time_coverage_start);
  if (time === null) throw new AbiError(`time_coverage_start ${JSON.stringify(global.time_coverage_start)} is not a date`);
  const units = String(cmi.attrs.units ?? '');
  let quantity: SatelliteQuantity;
  if (units === 'K') quantity = 'brightnessTemperature';
  else if (units === '1') quantity = 'reflectance';
  else throw new AbiError(`${cmiName} units "${units}" are neither K nor 1`);
  return {
    platform: String(global.platform_ID ?? ''),
    product: `ABI-L2-${mcmip ? 'MCMIP' : 'CMIP'} C${String(bandId ?? band ?? '?').padStart(2, '0')}`,
    time,
    quantity,
    wavelengthUm: wavelength,
    grid: { kind: 'projected', width: nx, height: ny, projection, x0: (x[0] - dxr / 2) * h, y0: (y[0] + dyr / 2) * h, dx: dxr * h, dy: dyr * h },
    values: unpack(cmi, cmiName),
  };
}
