/**
 * NOAA MRMS (Multi-Radar Multi-Sensor) reflectivity composites: GRIB2 (MRMS local discipline 209)
 * on a regular 0.01° latitude/longitude grid over CONUS, gzip as served by
 * https://mrms.ncep.noaa.gov/data/2D/<Product>/ and the AWS bucket noaa-mrms-pds. Decoded by the
 * engine's GRIB2 decoder (engine/grib; template 5.41 PNG packing through engine/codecs).
 *
 * Sentinels (MRMS GRIB2 table notes): -999 is "no coverage" (no radar sees the cell), -99 is
 * "missing", which inside the coverage is where the radars see no echo.
 */

import { gunzipSync } from 'node:zlib';
import { HOUR_MS } from '../../../common/time.ts';
import type { Engine } from '../../../engine/engine.ts';
import { decodeField, GribError, inventory, toNorthUp } from '../../../engine/grib/index.ts';
import { RadarFormatError, type RadarField } from './field.ts';

/** MRMS local GRIB2 discipline. */
export const MRMS_DISCIPLINE = 209;
export const MRMS_NO_COVERAGE = -999;
export const MRMS_MISSING = -99;

export class MrmsError extends RadarFormatError {
  override name = 'MrmsError';
}

/** gunzip when the bytes start with the gzip magic; a corrupt or truncated gzip is a MrmsError. */
export function gunzipIfNeeded(bytes: Uint8Array, ErrorType: new (message: string, options?: ErrorOptions) => Error): Uint8Array {
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    return new Uint8Array(gunzipSync(bytes));
  } catch (cause) {
    throw new ErrorType(`gzip stream is corrupt or truncated (${bytes.length} bytes): ${(cause as Error).message}`, { cause });
  }
}

/** Reads an MRMS reflectivity file (GRIB2, gzip or not) into a RadarField in dBZ. */
export async function readMrms(engine: Engine, input: Uint8Array, product = 'MRMS ReflectivityAtLowestAltitude'): Promise<RadarField> {
  const bytes = gunzipIfNeeded(input, MrmsError);
  let fields;
  try {
    fields = inventory(bytes);
  } catch (cause) {
    throw new MrmsError(`not a readable GRIB2 file: ${(cause as Error).message}`, { cause });
  }
  const info = fields.find((f) => f.discipline === MRMS_DISCIPLINE);
  if (!info) throw new MrmsError(`no MRMS field (GRIB2 discipline ${MRMS_DISCIPLINE}) among ${fields.length} fields`);
  if (info.grid.type !== 'regular_ll' || !info.grid.mappable) {
    throw new MrmsError(`MRMS grid is ${info.grid.type}, expected a regular latitude/longitude grid`);
  }
  let values: Float32Array;
  try {
    values = await decodeField(engine, bytes, info);
  } catch (cause) {
    if (cause instanceof GribError) throw new MrmsError(`MRMS field does not decode: ${cause.message}`, { cause });
    throw cause;
  }
  const grid = toNorthUp(info, values);
  const n = grid.Ni * grid.Nj;
  const dbz = new Float32Array(n);
  const coverage = new Uint8Array(n);
  const v = grid.values;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (x === MRMS_NO_COVERAGE || Number.isNaN(x)) {
      dbz[i] = Number.NaN;
    } else if (x === MRMS_MISSING) {
      dbz[i] = Number.NaN;
      coverage[i] = 1;
    } else {
      dbz[i] = x;
      coverage[i] = 1;
    }
  }
  const lon0 = grid.lon0 > 180 ? grid.lon0 - 360 : grid.lon0;
  return {
    product,
    time: info.refTime + info.forecastStart * HOUR_MS,
    grid: { kind: 'latlon', width: grid.Ni, height: grid.Nj, lon0, lat0: grid.lat0, dLon: grid.dLon, dLat: Math.abs(grid.dLat) },
    dbz,
    coverage,
  };
}
