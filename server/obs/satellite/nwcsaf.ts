/**
 * EUMETSAT NWC SAF products for Meteosat (SAFNWC/MSG, HDF5), as the cloud type (CT) product of the
 * fixture: a regional window of the SEVIRI fixed grid. Used from the file:
 *   root attributes PROJECTION (PROJ `+proj=geos`, sweep y), CFAC/LFAC/COFF/LOFF (CGMS LRIT/HRIT
 *   Global Spec §4.4.3.2 scaling: angle = (column - COFF) 2^16 / CFAC degrees), XGEO_UP_LEFT /
 *   YGEO_UP_LEFT / XGEO_LOW_RIGHT / YGEO_LOW_RIGHT (centres of the corner cells, metres on the
 *   projection plane), NC / NL (columns / lines), IMAGE_ACQUISITION_TIME (yyyymmddhhmm),
 *   GP_SC_ID (323 = MSG3, Meteosat-10), PRODUCT_NAME;
 *   the product dataset (`/CT`: class index per cell, SCALING_FACTOR / OFFSET attributes) and its
 *   palette `/01-PALETTE` (RGB per class, HDF5 image palette of PAL_TYPE DIRECTINDEX).
 */

import { SatelliteFormatError, type GeosGrid } from './field.ts';
import { geosFromProjDef, GeosError } from './geos.ts';
import { attrsOf, getNode, num, withHdf5 } from '../hdf5.ts';

export class NwcsafError extends SatelliteFormatError {
  override name = 'NwcsafError';
}

/** MSG spacecraft ids of GP_SC_ID (EUMETSAT MSG Level 1.5 Image Data Format Description). */
const MSG_SPACECRAFT: Record<number, string> = { 321: 'MSG1', 322: 'MSG2', 323: 'MSG3', 324: 'MSG4' };

export interface NwcsafProduct {
  product: string;
  platform: string;
  region: string;
  /** Image acquisition (scan start), ms UTC. */
  time: number;
  grid: GeosGrid;
  /** Stored values, row 0 north. */
  raw: Uint8Array | Uint16Array;
  scale: number;
  offset: number;
  /** RGB of each class index (the product's palette). */
  palette: [number, number, number][];
}

function parseTime(text: unknown): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(String(text ?? '').trim());
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) : null;
}

/** Reads dataset `name` (default: the product's own, e.g. CT) of an NWC SAF HDF5 file. */
export async function readNwcsaf(bytes: Uint8Array, name?: string): Promise<NwcsafProduct> {
  return withHdf5(bytes, (m) => new NwcsafError(m), (file) => {
    const root = attrsOf(file);
    if (!String(root.PACKAGE ?? '').startsWith('SAFNWC')) throw new NwcsafError('root attribute PACKAGE is not SAFNWC/...: not an NWC SAF product (or the HDF5 file is truncated)');
    const product = String(root.PRODUCT_NAME ?? '').replace(/_+$/, '');
    const datasetName = name ?? product;
    const dataset = getNode(file, `/${datasetName}`) as { shape?: number[]; value?: unknown } | null;
    if (!dataset?.shape) throw new NwcsafError(`no /${datasetName} dataset`);
    const [nl, nc] = dataset.shape;
    if (num(root.NC) !== nc || num(root.NL) !== nl) throw new NwcsafError(`/${datasetName} is ${nc}x${nl} but NC/NL say ${String(root.NC)}x${String(root.NL)}`);
    let projection;
    try {
      projection = geosFromProjDef(String(root.PROJECTION ?? ''));
    } catch (cause) {
      if (cause instanceof GeosError) throw new NwcsafError(`PROJECTION: ${cause.message}`);
      throw cause;
    }
    const corners = ['XGEO_UP_LEFT', 'YGEO_UP_LEFT', 'XGEO_LOW_RIGHT', 'YGEO_LOW_RIGHT'].map((k) => num(root[k]));
    if (corners.some((c) => c === null)) throw new NwcsafError('corner attributes XGEO_/YGEO_UP_LEFT / LOW_RIGHT missing');
    const [xul, yul, xlr, ylr] = corners as number[];
    const dx = (xlr - xul) / (nc - 1);
    const dy = (yul - ylr) / (nl - 1);
    // The corner spacing must be the CGMS column step (2^16 / CFAC degrees times the height).
    const cfac = num(root.CFAC);
    if (cfac) {
      const step = ((2 ** 16 / cfac) * Math.PI / 180) * projection.params.h;
      if (Math.abs(step - dx) > 1e-3 * step) throw new NwcsafError(`corner spacing ${dx.toFixed(2)} m disagrees with CFAC (${step.toFixed(2)} m)`);
    }
    const time = parseTime(root.IMAGE_ACQUISITION_TIME);
    if (time === null) throw new NwcsafError(`IMAGE_ACQUISITION_TIME ${JSON.stringify(root.IMAGE_ACQUISITION_TIME)} is not yyyymmddhhmm`);
    const dsAttrs = attrsOf(dataset);
    const raw = dataset.value as Uint8Array | Uint16Array;
    if (!raw || raw.length !== nc * nl) throw new NwcsafError(`/${datasetName} holds ${raw?.length ?? 0} values, expected ${nc * nl}`);
    const paletteNode = getNode(file, '/01-PALETTE') as { shape?: number[]; value?: unknown } | null;
    const palette: [number, number, number][] = [];
    if (paletteNode?.shape) {
      const p = paletteNode.value as Uint8Array;
      for (let i = 0; i + 2 < p.length; i += 3) palette.push([p[i], p[i + 1], p[i + 2]]);
    }
    const sc = num(root.GP_SC_ID);
    return {
      product,
      platform: (sc !== null && MSG_SPACECRAFT[sc]) || `GP_SC_ID ${String(root.GP_SC_ID)}`,
      region: String(root.REGION_NAME ?? ''),
      time,
      grid: { kind: 'projected', width: nc, height: nl, projection, x0: xul - dx / 2, y0: yul + dy / 2, dx, dy },
      raw,
      scale: num(dsAttrs.SCALING_FACTOR) ?? 1,
      offset: num(dsAttrs.OFFSET) ?? 0,
      palette,
    };
  });
}
