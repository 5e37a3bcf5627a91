/**
 * ODIM_H5 radar composites (EUMETNET OPERA "ODIM_H5 data information model", version 2.x,
 * object COMP) as European services publish them: HDF5 read with h5wasm in the ingest.
 *
 * Used: /what (object, date, time, source), /where (projdef, xsize, ysize, xscale, yscale, UL_x,
 * UL_y or the corner coordinates LL_/UL_/UR_/LR_lon/lat), /datasetN/what (product, start/end date
 * and time), /datasetN/dataM/what (quantity, gain, offset, nodata, undetect; ODIM defaults gain 1,
 * offset 0) and the 2-D data, row 0 north. `where` attributes may sit on the dataset (as some
 * producers write them) or at the root. Quantities: DBZH / TH (dBZ), RATE (mm/h) and ACRR (mm over
 * the dataset's interval), rain converted to dBZ by the Z-R relation of SPEC §9.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mmhToDbz } from '../../../common/catalogue/metrics.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { loadH5wasm, type H5File } from '../hdf5.ts';
import { RadarFormatError, type ProjectedGrid, type RadarField } from './field.ts';
import { fromProjDef, ProjectionError } from './projection.ts';

export class OdimError extends RadarFormatError {
  override name = 'OdimError';
}

type Attrs = Record<string, unknown>;

export interface OdimComposite {
  object: string;
  source: string;
  product: string;
  quantity: string;
  /** End of the dataset's interval (or /what date+time), ms UTC. */
  time: number;
  /** Length of the accumulation interval in ms (0 when the dataset gives none). */
  intervalMs: number;
  gain: number;
  offset: number;
  nodata: number | null;
  undetect: number | null;
  projDef: string;
  grid: ProjectedGrid;
  /** Raw stored values, row 0 north. */
  raw: Float64Array | Float32Array | Uint8Array | Uint16Array | Int16Array | Int32Array;
}

function attrsOf(node: unknown): Attrs {
  const attrs = (node as { attrs?: Record<string, { value: unknown }> } | null)?.attrs;
  if (!attrs) return {};
  return Object.fromEntries(Object.entries(attrs).map(([k, a]) => [k, a.value]));
}

function num(value: unknown): number | null {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (ArrayBuffer.isView(value) && (value as unknown as ArrayLike<number>).length === 1) return Number((value as unknown as ArrayLike<number>)[0]);
  return null;
}

function odimTime(date: unknown, time: unknown): number | null {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(String(date ?? ''));
  const t = /^(\d{2})(\d{2})(\d{2})$/.exec(String(time ?? ''));
  if (!d || !t) return null;
  return Date.UTC(+d[1], +d[2] - 1, +d[3], +t[1], +t[2], +t[3]);
}

/** Reads the first dataset of an ODIM_H5 COMP file at `path`. Anything missing or unreadable is an OdimError. */
export async function readOdimCompositeFile(path: string): Promise<OdimComposite> {
  const h5wasm = await loadH5wasm();
  let file: H5File;
  try {
    file = new h5wasm.File(path, 'r');
  } catch (cause) {
    throw new OdimError(`not a readable HDF5 file: ${(cause as Error).message}`, { cause });
  }
  try {
    const get = (p: string): unknown => {
      try {
        return file.get(p);
      } catch {
        return null;
      }
    };
    if (!get('/what')) throw new OdimError('no /what group: not an ODIM_H5 file (or the HDF5 file is truncated)');
    const what = attrsOf(get('/what'));
    const object = String(what.object ?? '');
    if (object !== 'COMP' && object !== 'IMAGE') throw new OdimError(`ODIM object is "${object}", expected COMP (a composite)`);
    const dsWhat = attrsOf(get('/dataset1/what'));
    const dataWhat = attrsOf(get('/dataset1/data1/what'));
    const where = { ...attrsOf(get('/where')), ...attrsOf(get('/dataset1/where')) };
    const dataset = get('/dataset1/data1/data') as { shape?: number[]; value?: unknown } | null;
    if (!dataset?.shape) throw new OdimError('no /dataset1/data1/data dataset');
    const [ysize, xsize] = dataset.shape;
    const xs = num(where.xsize);
    const ys = num(where.ysize);
    if (xs !== null && ys !== null && (xs !== xsize || ys !== ysize)) {
      throw new OdimError(`data is ${xsize}x${ysize} but /where says ${xs}x${ys}`);
    }
    const xscale = num(where.xscale);
    const yscale = num(where.yscale);
    if (!xscale || !yscale) throw new OdimError('/where lacks xscale / yscale');
    const projDef = String(where.projdef ?? '');
    if (!projDef) throw new OdimError('/where lacks projdef');
    let projection;
    try {
      projection = fromProjDef(projDef);
    } catch (cause) {
      if (cause instanceof ProjectionError) throw new OdimError(`projdef: ${cause.message}`, { cause });
      throw cause;
    }
    let ulX = num(where.UL_x);
    let ulY = num(where.UL_y);
    if (ulX === null || ulY === null) {
      const lon = num(where.UL_lon);
      const lat = num(where.UL_lat);
      if (lon === null || lat === null) throw new OdimError('/where gives neither UL_x/UL_y nor UL_lon/UL_lat');
      const xy = new Float64Array(2);
      projection.forward(lon, lat, xy);
      [ulX, ulY] = [xy[0], xy[1]];
    }
    const end = odimTime(dsWhat.enddate, dsWhat.endtime) ?? odimTime(what.date, what.time);
    if (end === null) throw new OdimError('no valid time: /dataset1/what enddate/endtime and /what date/time are missing or malformed');
    const start = odimTime(dsWhat.startdate, dsWhat.starttime);
    let raw;
    try {
      raw = dataset.value as OdimComposite['raw'];
    } catch (cause) {
      throw new OdimError(`data does not read (truncated or corrupt HDF5): ${(cause as Error).message}`, { cause });
    }
    if (!raw || (raw as ArrayLike<number>).length !== xsize * ysize) throw new OdimError(`data holds ${(raw as ArrayLike<number> | null)?.length ?? 0} values, expected ${xsize * ysize}`);
    return {
      object,
      source: String(what.source ?? ''),
      product: String(dsWhat.product ?? ''),
      quantity: String(dataWhat.quantity ?? ''),
      time: end,
      intervalMs: start !== null && end > start ? end - start : 0,
      gain: num(dataWhat.gain) ?? 1,
      offset: num(dataWhat.offset) ?? 0,
      nodata: num(dataWhat.nodata),
      undetect: num(dataWhat.undetect),
      projDef,
      grid: { kind: 'projected', width: xsize, height: ysize, projection, x0: ulX, y0: ulY, dx: xscale, dy: yscale },
      raw,
    };
  } catch (error) {
    if (error instanceof OdimError) throw error;
    throw new OdimError(`HDF5 content does not read (truncated or corrupt file): ${(error as Error).message}`, { cause: error });
  } finally {
    file.close();
  }
}

/** The composite as a radar frame in dBZ (rain rates and accumulations through the Z-R relation). */
export function odimToField(comp: OdimComposite): RadarField {
  const n = comp.grid.width * comp.grid.height;
  const dbz = new Float32Array(n);
  const coverage = new Uint8Array(n);
  const { gain, offset, nodata, undetect, quantity } = comp;
  let toDbz: (v: number) => number;
  if (quantity === 'DBZH' || quantity === 'TH' || quantity === 'DBZ') toDbz = (v) => v;
  else if (quantity === 'RATE') toDbz = (v) => (v > 0 ? mmhToDbz(v) : Number.NaN);
  else if (quantity === 'ACRR') {
    if (!comp.intervalMs) throw new OdimError('ACRR dataset has no start/end time, so no rain rate');
    const hours = comp.intervalMs / HOUR_MS;
    toDbz = (v) => (v > 0 ? mmhToDbz(v / hours) : Number.NaN);
  } else throw new OdimError(`quantity ${quantity || '(none)'} is not a reflectivity or rain quantity (DBZH, TH, RATE, ACRR)`);
  for (let i = 0; i < n; i++) {
    const q = comp.raw[i];
    if (q === nodata || Number.isNaN(q)) {
      dbz[i] = Number.NaN;
    } else if (q === undetect) {
      dbz[i] = Number.NaN;
      coverage[i] = 1;
    } else {
      dbz[i] = toDbz(offset + gain * q);
      coverage[i] = 1;
    }
  }
  return { product: `ODIM ${comp.object} ${comp.product} ${comp.quantity}`.trim(), time: comp.time, grid: comp.grid, dbz, coverage };
}

/** The same from bytes in memory (a download): h5wasm reads files, so they pass through a temporary one. */
export async function readOdimCompositeBytes(bytes: Uint8Array): Promise<OdimComposite> {
  const dir = await mkdtemp(join(tmpdir(), 'isobar-odim-'));
  try {
    const path = join(dir, 'composite.h5');
    await writeFile(path, bytes);
    return await readOdimCompositeFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
