/**
 * DWD RADOLAN / RADVOR composites in the RADOLAN binary format (DWD, "RADOLAN/RADVOR
 * Beschreibung des Kompositformats", version 2.5): an ASCII header ended by ETX (0x03), then the
 * grid row by row from the southern row up, each row west to east.
 *
 * Header: product (2 characters), DDhhmm (UTC), WMO number (5), MMYY, then tokens: BY (total
 * length in bytes), VS (format version), SW (software), PR (precision, E+00 / E-01 / E-02), INT
 * (interval, minutes), GP (rows x columns), VV (forecast minutes, nowcasts), MF (module flags),
 * MS (radar sites: length then text).
 *
 * Values: RX (reflectivity) one byte per cell in RVP6 units, dBZ = RVP6 / 2 - 32.5, 249 clutter,
 * 250 no data. Precipitation products (RW hourly sum, RV 5-minute nowcast, ...) two bytes
 * little-endian: bits 0-11 the value times the precision, 0x1000 interpolated, 0x2000 no data,
 * 0x4000 negative, 0x8000 clutter.
 *
 * Grids: polar stereographic, true scale at 60° N, central meridian 10° E, 1 km cells. Format
 * versions below 5 on a sphere of radius 6370.04 km, the 900 x 900 grid centred on the reference
 * point 9° E 51° N (other sphere grids are refused until a fixture shows them); version 5 (DE1200, 1200 x 1100) on the WGS84 ellipsoid,
 * `+proj=stere +lat_0=90 +lat_ts=60 +lon_0=10 +a=6378137 +b=6356752.3142451802
 * +x_0=543196.83521776402 +y_0=3622588.8619310018`, whose origin is the grid's north-west corner.
 */

import { MINUTE_MS } from '../../../common/time.ts';
import { mmhToDbz } from '../../../common/catalogue/metrics.ts';
import { gunzipIfNeeded } from './mrms.ts';
import { RadarFormatError, type ProjectedGrid, type RadarField } from './field.ts';
import { ellipsoidFromAxes, polarStereographic, type Projection } from './projection.ts';

export class RadolanError extends RadarFormatError {
  override name = 'RadolanError';
}

export interface RadolanHeader {
  product: string;
  /** Observation time (ms UTC); for nowcasts the analysis time. */
  time: number;
  /** Length of the whole product in bytes (BY), header included. */
  bytes: number;
  formatVersion: number;
  software: string;
  /** Multiplier of the stored integers (PR E-01 -> 0.1). */
  precision: number;
  intervalMinutes: number;
  rows: number;
  cols: number;
  /** Forecast lead (VV) in minutes; 0 for observations. */
  leadMinutes: number;
  /** Radar sites (MS). */
  sites: string[];
  /** Byte offset of the first grid value (just after ETX). */
  dataOffset: number;
}

const ETX = 0x03;
const MAX_HEADER = 2048;

/** RADOLAN sphere radius (km -> m). */
export const RADOLAN_SPHERE_RADIUS_M = 6370040;

export function parseRadolanHeader(bytes: Uint8Array): RadolanHeader {
  const end = bytes.subarray(0, MAX_HEADER).indexOf(ETX);
  if (end < 0) throw new RadolanError(`no end of header (ETX) in the first ${Math.min(MAX_HEADER, bytes.length)} bytes: not a RADOLAN binary product`);
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, end));
  const head = /^([A-Z0-9]{2})(\d{2})(\d{2})(\d{2})(\d{5})(\d{2})(\d{2})/.exec(text);
  if (!head) throw new RadolanError(`header does not start with product, DDhhmm, WMO number and MMYY: "${text.slice(0, 24)}"`);
  const [, product, dd, hh, mi, , mm, yy] = head;
  const time = Date.UTC(2000 + Number(yy), Number(mm) - 1, Number(dd), Number(hh), Number(mi));
  if (!Number.isFinite(time) || Number(mm) < 1 || Number(mm) > 12) throw new RadolanError(`header time ${dd}${hh}${mi} ${mm}/${yy} is invalid`);
  const token = (name: string, pattern: string): string | null => new RegExp(`${name}(${pattern})`).exec(text.slice(head[0].length))?.[1] ?? null;
  const by = token('BY', '\\s*\\d+');
  const vs = token('VS', '\\s*\\d+');
  const pr = token('PR', '\\s*E[+-]\\d+');
  const int = token('INT', '\\s*\\d+');
  const gp = token('GP', '\\s*\\d+x\\s*\\d+');
  if (!by || !pr || !gp) throw new RadolanError(`header lacks ${[!by && 'BY', !pr && 'PR', !gp && 'GP'].filter(Boolean).join(', ')}: "${text.slice(0, 80)}"`);
  const [rows, cols] = gp.split('x').map((s) => Number(s.trim()));
  const ms = /MS\s*(\d+)<([^>]*)>/.exec(text);
  return {
    product,
    time,
    bytes: Number(by.trim()),
    formatVersion: vs ? Number(vs.trim()) : 0,
    software: token('SW', '\\s*[^A-Z]+')?.trim() ?? '',
    precision: 10 ** Number(pr.trim().slice(1)),
    intervalMinutes: int ? Number(int.trim()) : 0,
    rows,
    cols,
    leadMinutes: Number(token('VV', '\\s*\\d+')?.trim() ?? 0),
    sites: ms ? ms[2].split(',').map((s) => s.trim()).filter(Boolean) : [],
    dataOffset: end + 1,
  };
}

/** Projection and placement of a RADOLAN grid, per the Kompositformat's grid chapter. */
export function radolanGrid(header: Pick<RadolanHeader, 'rows' | 'cols' | 'formatVersion'>): ProjectedGrid {
  const { rows, cols, formatVersion } = header;
  if (formatVersion >= 5) {
    if (rows !== 1200 || cols !== 1100) throw new RadolanError(`format version ${formatVersion} grid ${rows}x${cols} is not the DE1200 grid (1200x1100)`);
    const projection = polarStereographic({
      ellipsoid: ellipsoidFromAxes(6378137, 6356752.3142451802), latTs: 60, lon0: 10, x0: 543196.83521776402, y0: 3622588.8619310018,
    });
    return { kind: 'projected', width: cols, height: rows, projection, x0: 0, y0: 0, dx: 1000, dy: 1000 };
  }
  if (rows !== 900 || cols !== 900) throw new RadolanError(`RADOLAN grid ${rows}x${cols} (format version ${formatVersion}) is not supported: 900x900 and DE1200 are`);
  const projection: Projection = polarStereographic({ ellipsoid: { a: RADOLAN_SPHERE_RADIUS_M, e: 0 }, latTs: 60, lon0: 10 });
  // The 900 x 900 grid is centred on the reference point 9° E 51° N.
  const ref = new Float64Array(2);
  projection.forward(9, 51, ref);
  const size = 1000;
  const west = ref[0] - (cols / 2) * size;
  const south = ref[1] - (rows / 2) * size;
  return { kind: 'projected', width: cols, height: rows, projection, x0: west, y0: south + rows * size, dx: size, dy: size };
}

export interface RadolanProduct {
  header: RadolanHeader;
  grid: ProjectedGrid;
  /** Physical values, row 0 north: dBZ for RX, mm/h for precipitation products; NaN no data / clutter. */
  values: Float32Array;
  /** 1 where the composite has a value (no-data and clutter are 0). */
  coverage: Uint8Array;
  unit: 'dBZ' | 'mm/h';
}

/** RX: RVP6 -> dBZ (Kompositformat: dBZ = RVP6 / 2 - 32.5). */
export const RX_CLUTTER = 249;
export const RX_NO_DATA = 250;

/** Reads a RADOLAN binary product (gzip or not). RX gives dBZ; precipitation products mm/h. */
export function readRadolanProduct(input: Uint8Array): RadolanProduct {
  const bytes = gunzipIfNeeded(input, RadolanError);
  const header = parseRadolanHeader(bytes);
  const { rows, cols, dataOffset } = header;
  const oneByte = header.product === 'RX' || header.product === 'EX';
  const need = dataOffset + rows * cols * (oneByte ? 1 : 2);
  if (bytes.length < need) throw new RadolanError(`${header.product} product is truncated: ${bytes.length} bytes, the header announces ${need}`);
  const grid = radolanGrid(header);
  const n = rows * cols;
  const values = new Float32Array(n);
  const coverage = new Uint8Array(n);
  if (oneByte) {
    for (let r = 0; r < rows; r++) {
      const src = dataOffset + (rows - 1 - r) * cols;
      for (let c = 0; c < cols; c++) {
        const v = bytes[src + c];
        const k = r * cols + c;
        if (v === RX_NO_DATA || v === RX_CLUTTER) {
          values[k] = Number.NaN;
        } else {
          values[k] = v / 2 - 32.5;
          coverage[k] = 1;
        }
      }
    }
    return { header, grid, values, coverage, unit: 'dBZ' };
  }
  if (header.intervalMinutes <= 0) throw new RadolanError(`${header.product} product has no accumulation interval (INT)`);
  const perHour = (60 / header.intervalMinutes) * header.precision;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let r = 0; r < rows; r++) {
    const src = dataOffset + (rows - 1 - r) * cols * 2;
    for (let c = 0; c < cols; c++) {
      const v = view.getUint16(src + 2 * c, true);
      const k = r * cols + c;
      if (v & 0xa000) {
        values[k] = Number.NaN; // 0x2000 no data, 0x8000 clutter
      } else {
        values[k] = (v & 0x4000 ? -1 : 1) * (v & 0x0fff) * perHour;
        coverage[k] = 1;
      }
    }
  }
  return { header, grid, values, coverage, unit: 'mm/h' };
}

/**
 * A RADOLAN product as a radar frame in dBZ: RX as is; rain rates through the Z-R relation of
 * SPEC §9 (common/catalogue/metrics.ts mmhToDbz, Marshall–Palmer b = 1.6); 0 mm/h is no echo.
 */
export function radolanToField(product: RadolanProduct): RadarField {
  const { header, values, coverage, grid } = product;
  const dbz = new Float32Array(values.length);
  if (product.unit === 'dBZ') dbz.set(values);
  else for (let i = 0; i < values.length; i++) dbz[i] = values[i] > 0 ? mmhToDbz(values[i]) : Number.NaN;
  return {
    product: `DWD RADOLAN ${header.product}`,
    time: header.time + header.leadMinutes * MINUTE_MS,
    grid,
    dbz,
    coverage,
  };
}

export function readRadolan(input: Uint8Array): RadarField {
  return radolanToField(readRadolanProduct(input));
}
