/**
 * The geostationary projection (GEOS) of the imagers' fixed grids, forward (longitude/latitude ->
 * scan angles) and inverse, on an ellipsoidal Earth seen from a satellite over the equator.
 *
 * References:
 *   - CGMS, "LRIT/HRIT Global Specification" (CGMS 03, issue 2.6, 1999), §4.4.3.2 "Normalized
 *     Geostationary Projection": the forward and inverse formulas with the scan about the y axis
 *     (Meteosat SEVIRI, Himawari AHI: "sweep y"; column angle x = atan(-r2 / r1), line angle
 *     y = asin(r3 / rn)).
 *   - NOAA/NASA, "GOES-R Series Product Definition and Users' Guide" (PUG) vol. 3, §4.2.8 and its
 *     worked examples §4.2.8.1 / §4.2.8.2 (GOES-16 at 75° W: x = -0.024052 rad, y = 0.095340 rad
 *     <-> 33.846162° N, 84.690932° W): the ABI scans about x ("sweep x": x = asin(-sy / |s|),
 *     y = atan(sz / sx)).
 *
 * Angles are radians, y positive north, x positive east (the PROJ `+proj=geos` convention); in
 * metres (PROJ's x, y) an angle is multiplied by the height above the equator, h = H - r_eq.
 * Geodetic latitude throughout.
 */

import type { Projection } from '../radar/projection.ts';

export type Sweep = 'x' | 'y';

export interface GeosParams {
  /** Longitude of the sub-satellite point, degrees. */
  lon0: number;
  /** Height of the satellite above the equator's surface, metres (PROJ +h; GOES perspective_point_height). */
  h: number;
  /** Equatorial and polar radii, metres. */
  rEq: number;
  rPol: number;
  /** Axis the instrument sweeps about: 'x' for GOES ABI, 'y' for Meteosat SEVIRI and Himawari AHI. */
  sweep: Sweep;
}

export class GeosError extends Error {
  override name = 'GeosError';
}

const DEG = Math.PI / 180;

export interface Geos extends Projection {
  readonly params: GeosParams;
  /**
   * Scan angles (radians) of a lon/lat point into out[0] (x), out[1] (y); NaN in both when the
   * point is not seen from the satellite (beyond the limb).
   */
  toScan(lon: number, lat: number, out: Float64Array): void;
  /** Longitude/latitude (degrees) of scan angles into out[0], out[1]; NaN when the line of sight misses the Earth. */
  fromScan(x: number, y: number, out: Float64Array): void;
}

export function geos(params: GeosParams): Geos {
  const { lon0, h, rEq, rPol, sweep } = params;
  if (!(h > 0 && rEq > 0 && rPol > 0 && rPol <= rEq)) throw new GeosError(`bad geostationary parameters h=${h} r_eq=${rEq} r_pol=${rPol}`);
  if (sweep !== 'x' && sweep !== 'y') throw new GeosError(`sweep must be x or y, not ${String(sweep)}`);
  const H = h + rEq;
  const k = (rEq * rEq) / (rPol * rPol);
  const e2 = (rEq * rEq - rPol * rPol) / (rEq * rEq);
  const toScan = (lon: number, lat: number, out: Float64Array): void => {
    // PUG 4.2.8.2 / CGMS 4.4.3.2: geocentric latitude, radius, then the vector satellite -> point.
    const phiC = Math.atan(Math.tan(lat * DEG) / k);
    const cosC = Math.cos(phiC);
    const rc = rPol / Math.sqrt(1 - e2 * cosC * cosC);
    const dl = (lon - lon0) * DEG;
    const sx = H - rc * cosC * Math.cos(dl);
    const sy = -rc * cosC * Math.sin(dl);
    const sz = rc * Math.sin(phiC);
    // Seen only on the satellite's side of the limb (PUG: H (H - sx) >= sy² + k sz²... with sx as above).
    if (H * (H - sx) < sy * sy + k * sz * sz) {
      out[0] = Number.NaN;
      out[1] = Number.NaN;
      return;
    }
    const norm = Math.sqrt(sx * sx + sy * sy + sz * sz);
    if (sweep === 'x') {
      out[0] = Math.asin(-sy / norm);
      out[1] = Math.atan(sz / sx);
    } else {
      out[0] = Math.atan(-sy / sx);
      out[1] = Math.asin(sz / norm);
    }
  };
  const fromScan = (x: number, y: number, out: Float64Array): void => {
    // Direction of the line of sight (satellite frame), then its nearer intersection with the
    // ellipsoid: PUG 4.2.8.1 (a, b, c, r_s) written for either sweep.
    const cx = Math.cos(x);
    const sxn = Math.sin(x);
    const cy = Math.cos(y);
    const syn = Math.sin(y);
    const dx = cx * cy;
    const dy = sweep === 'x' ? -sxn : -sxn * cy;
    const dz = sweep === 'x' ? cx * syn : syn;
    const a = dx * dx + dy * dy + k * dz * dz;
    const b = -2 * H * dx;
    const c = H * H - rEq * rEq;
    const disc = b * b - 4 * a * c;
    if (disc < 0) {
      out[0] = Number.NaN;
      out[1] = Number.NaN;
      return;
    }
    const rs = (-b - Math.sqrt(disc)) / (2 * a);
    const px = H - rs * dx;
    const py = rs * dy;
    const pz = rs * dz;
    out[1] = Math.atan((k * pz) / Math.sqrt(px * px + py * py)) / DEG;
    let lon = lon0 - Math.atan(py / px) / DEG;
    lon -= 360 * Math.floor((lon + 180) / 360);
    out[0] = lon;
  };
  const xy = new Float64Array(2);
  return {
    params,
    projDef: `+proj=geos +lon_0=${lon0} +h=${h} +a=${rEq} +b=${rPol} +sweep=${sweep} +units=m +no_defs`,
    toScan,
    fromScan,
    forward(lon, lat, out) {
      toScan(lon, lat, xy);
      out[0] = xy[0] * h;
      out[1] = xy[1] * h;
    },
  };
}

/** Reads a PROJ `+proj=geos` definition (as NWC SAF files carry it); sweep defaults to y as in PROJ. */
export function geosFromProjDef(def: string): Geos {
  const params = new Map<string, string>();
  for (const token of def.trim().split(/\s+/)) {
    const m = /^\+([A-Za-z_0-9]+)(?:=(.*))?$/.exec(token);
    if (m) params.set(m[1], m[2] ?? '');
  }
  if (params.get('proj') !== 'geos') throw new GeosError(`not a geostationary projection: ${def}`);
  const num = (key: string, fallback?: number): number => {
    const text = params.get(key);
    if (text === undefined) {
      if (fallback === undefined) throw new GeosError(`projection definition lacks +${key}: ${def}`);
      return fallback;
    }
    const value = Number(text);
    if (!Number.isFinite(value)) throw new GeosError(`projection definition has a bad +${key}=${text}`);
    return value;
  };
  const a = num('a');
  const b = params.has('b') ? num('b') : params.has('rf') ? a * (1 - 1 / num('rf')) : a;
  const sweep = params.get('sweep') ?? 'y';
  if (sweep !== 'x' && sweep !== 'y') throw new GeosError(`bad +sweep=${sweep}`);
  return geos({ lon0: num('lon_0', 0), h: num('h'), rEq: a, rPol: b, sweep });
}
