/**
 * Re-lays a decoded regular lat/lon or Gaussian field from the file's scanning order (Flag Table
 * 3.4) into the one layout the ingest regridder reads:
 *
 *   values[y * Ni + x]   y = 0 the northernmost row, going south; x = 0 the westernmost column,
 *                        going east; longitudes lon0 + x * dLon, latitudes lat0 - y * dLat
 *                        (Gaussian: latitudes[y], since Gaussian rows are not evenly spaced)
 *
 * Scanning mode bits: 0x80 points go west (-i); 0x40 rows go north (+j); 0x20 points along a
 * meridian are consecutive (columns stored one after another); 0x10 every other row (column)
 * runs the opposite way ("boustrophedonic", ecCodes alternativeRowScanning).
 */

import type { GribFieldInfo } from './message.ts';
import { GribError } from './reader.ts';

export interface NorthUpField {
  /** Ni * Nj values, rows north -> south, columns west -> east, NaN = missing. */
  values: Float32Array;
  /** Latitude of row 0 and longitude of column 0, degrees (lon0 as in the file, e.g. 0 or -180). */
  lat0: number;
  lon0: number;
  /** Row and column spacing, degrees (Gaussian: the mean row spacing; use `latitudes`). */
  dLat: number;
  dLon: number;
  Ni: number;
  Nj: number;
  /** Gaussian grids: the latitude of each row, north to south. */
  latitudes?: Float64Array;
  /** True when the columns go all the way round (Ni * dLon = 360): column Ni would repeat column 0. */
  global: boolean;
}

function copyLine(
  src: Float32Array, from: number, length: number, reversed: boolean,
  dst: Float32Array, start: number, stride: number,
): void {
  if (reversed) {
    for (let k = 0; k < length; k++) dst[start + (length - 1 - k) * stride] = src[from + k];
  } else if (stride === 1) {
    dst.set(src.subarray(from, from + length), start);
  } else {
    for (let k = 0; k < length; k++) dst[start + k * stride] = src[from + k];
  }
}

/** `values` from decodeField, laid out north-up. Throws a GribError for grids it cannot lay out. */
export function toNorthUp(info: GribFieldInfo, values: Float32Array): NorthUpField {
  const grid = info.grid;
  if (!grid.mappable || (grid.type !== 'regular_ll' && grid.type !== 'regular_gg')) {
    throw new GribError(`${grid.type} grid (template 3.${grid.template}) cannot be laid out north-up: ${grid.unsupportedReason ?? 'not a lat/lon grid'}`);
  }
  const { Ni, Nj, scanningMode } = grid;
  if (values.length !== Ni * Nj) throw new GribError(`${values.length} values for a ${Ni} x ${Nj} grid`);
  const iMinus = (scanningMode & 0x80) !== 0;
  const jPlus = (scanningMode & 0x40) !== 0;
  const columns = (scanningMode & 0x20) !== 0;
  const alternate = (scanningMode & 0x10) !== 0;
  const out = new Float32Array(Ni * Nj);
  if (!columns) {
    for (let r = 0; r < Nj; r++) {
      const y = jPlus ? Nj - 1 - r : r;
      copyLine(values, r * Ni, Ni, iMinus !== (alternate && r % 2 === 1), out, y * Ni, 1);
    }
  } else {
    for (let c = 0; c < Ni; c++) {
      const x = iMinus ? Ni - 1 - c : c;
      // A column stored south -> north fills rows from the bottom.
      copyLine(values, c * Nj, Nj, jPlus !== (alternate && c % 2 === 1), out, x, Ni);
    }
  }
  const result: NorthUpField = {
    values: out, lat0: grid.north!, lon0: grid.west!, dLat: grid.dLat ?? 0, dLon: grid.dLon!, Ni, Nj, global: grid.global ?? false,
  };
  if (grid.type === 'regular_gg') {
    const rows = grid.latitudes!;
    const latitudes = rows[0] >= rows[Nj - 1] ? rows.slice() : rows.slice().reverse();
    result.latitudes = latitudes;
    result.dLat = Nj > 1 ? (latitudes[0] - latitudes[Nj - 1]) / (Nj - 1) : 0;
  }
  return result;
}
