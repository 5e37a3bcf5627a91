/**
 * Map projections of the radar composites, forward only (longitude/latitude in degrees -> metres
 * on the projection plane): the reprojection into data tiles asks, for every tile node, which
 * composite cell holds it. Formulas of Snyder, "Map Projections — A Working Manual" (USGS
 * Professional Paper 1395, 1987): polar stereographic with a true-scale latitude (eqs. 21-33,
 * 21-34, 15-9, 14-15) and Lambert conformal conic with two standard parallels (eqs. 15-1 to 15-10),
 * on an ellipsoid (a sphere is e = 0). A PROJ string (ODIM `projdef`) is read by `fromProjDef`.
 */

export class ProjectionError extends Error {
  override name = 'ProjectionError';
}

export interface Projection {
  /** Writes x, y in metres of the lon/lat point (degrees) into out[0], out[1]. */
  forward(lon: number, lat: number, out: Float64Array): void;
  /** Its PROJ form, as published next to the frames. */
  readonly projDef: string;
}

const DEG = Math.PI / 180;

/** Snyder eq. 15-9: t = tan(π/4 - φ/2) / ((1 - e sin φ) / (1 + e sin φ))^(e/2). */
function tFn(phi: number, e: number): number {
  const s = e * Math.sin(phi);
  return Math.tan(Math.PI / 4 - phi / 2) / ((1 - s) / (1 + s)) ** (e / 2);
}

/** Snyder eq. 14-15: m = cos φ / sqrt(1 - e² sin² φ). */
function mFn(phi: number, e: number): number {
  const s = Math.sin(phi);
  return Math.cos(phi) / Math.sqrt(1 - e * e * s * s);
}

export interface Ellipsoid {
  a: number;
  /** First eccentricity; 0 for a sphere of radius a. */
  e: number;
}

export function ellipsoidFromAxes(a: number, b: number): Ellipsoid {
  return { a, e: Math.sqrt(Math.max(0, 1 - (b * b) / (a * a))) };
}

/** GRS80 (a = 6 378 137 m, 1/f = 298.257222101) and WGS84 (1/f = 298.257223563). */
export const GRS80: Ellipsoid = ellipsoidFromAxes(6378137, 6378137 * (1 - 1 / 298.257222101));
export const WGS84: Ellipsoid = ellipsoidFromAxes(6378137, 6378137 * (1 - 1 / 298.257223563));

export interface StereoParams {
  ellipsoid: Ellipsoid;
  /** Latitude of true scale (degrees north); the projection is centred on the north pole. */
  latTs: number;
  lon0: number;
  /** Scale factor at the pole, used only when latTs is 90. */
  k0?: number;
  x0?: number;
  y0?: number;
}

/** North polar stereographic (Snyder eqs. 21-33, 21-34 with ρ of 21-34 / 21-33). */
export function polarStereographic(p: StereoParams): Projection {
  const { a, e } = p.ellipsoid;
  const x0 = p.x0 ?? 0;
  const y0 = p.y0 ?? 0;
  const lon0 = p.lon0 * DEG;
  const phiC = p.latTs * DEG;
  let scale: number;
  if (Math.abs(p.latTs - 90) < 1e-12) {
    const k0 = p.k0 ?? 1;
    scale = (2 * a * k0) / Math.sqrt((1 + e) ** (1 + e) * (1 - e) ** (1 - e));
  } else {
    scale = (a * mFn(phiC, e)) / tFn(phiC, e);
  }
  return {
    projDef: `+proj=stere +lat_0=90 +lat_ts=${p.latTs} +lon_0=${p.lon0} +a=${a} +e=${e} +x_0=${x0} +y_0=${y0}`,
    forward(lon, lat, out) {
      const rho = scale * tFn(lat * DEG, e);
      const dl = lon * DEG - lon0;
      out[0] = x0 + rho * Math.sin(dl);
      out[1] = y0 - rho * Math.cos(dl);
    },
  };
}

export interface LccParams {
  ellipsoid: Ellipsoid;
  lat1: number;
  lat2: number;
  lat0: number;
  lon0: number;
  x0?: number;
  y0?: number;
}

/** Lambert conformal conic, two standard parallels (Snyder eqs. 15-1 to 15-10). */
export function lambertConformal(p: LccParams): Projection {
  const { a, e } = p.ellipsoid;
  const phi1 = p.lat1 * DEG;
  const phi2 = p.lat2 * DEG;
  const m1 = mFn(phi1, e);
  const m2 = mFn(phi2, e);
  const t1 = tFn(phi1, e);
  const t2 = tFn(phi2, e);
  const n = Math.abs(phi1 - phi2) < 1e-12 ? Math.sin(phi1) : (Math.log(m1) - Math.log(m2)) / (Math.log(t1) - Math.log(t2));
  const F = m1 / (n * t1 ** n);
  const rho0 = a * F * tFn(p.lat0 * DEG, e) ** n;
  const lon0 = p.lon0 * DEG;
  const x0 = p.x0 ?? 0;
  const y0 = p.y0 ?? 0;
  return {
    projDef: `+proj=lcc +lat_1=${p.lat1} +lat_2=${p.lat2} +lat_0=${p.lat0} +lon_0=${p.lon0} +a=${a} +e=${e} +x_0=${x0} +y_0=${y0}`,
    forward(lon, lat, out) {
      const rho = a * F * tFn(lat * DEG, e) ** n;
      const theta = n * (lon * DEG - lon0);
      out[0] = x0 + rho * Math.sin(theta);
      out[1] = y0 + rho0 - rho * Math.cos(theta);
    },
  };
}

function ellipsoidOf(params: Map<string, string>): Ellipsoid {
  const num = (key: string): number | undefined => (params.has(key) ? Number(params.get(key)) : undefined);
  const a = num('a');
  const b = num('b');
  const rf = num('rf');
  const ellps = params.get('ellps') ?? params.get('datum');
  if (a !== undefined && b !== undefined) return ellipsoidFromAxes(a, b);
  if (a !== undefined && rf !== undefined) return ellipsoidFromAxes(a, a * (1 - 1 / rf));
  if (params.has('R')) return { a: Number(params.get('R')), e: 0 };
  if (a !== undefined) return { a, e: 0 };
  if (ellps === 'GRS80') return GRS80;
  if (ellps === 'WGS84' || ellps === undefined) return WGS84;
  throw new ProjectionError(`unsupported ellipsoid "${ellps}" in the projection definition`);
}

/**
 * Reads the PROJ definitions radar composites carry (ODIM_H5 `/where/projdef`): stere (north
 * polar) and lcc; anything else is a ProjectionError naming it. Units must be metres.
 */
export function fromProjDef(def: string): Projection {
  const params = new Map<string, string>();
  for (const token of def.trim().split(/\s+/)) {
    const m = /^\+([A-Za-z_0-9]+)(?:=(.*))?$/.exec(token);
    if (m) params.set(m[1], m[2] ?? '');
  }
  const num = (key: string, fallback?: number): number => {
    const text = params.get(key);
    if (text === undefined) {
      if (fallback === undefined) throw new ProjectionError(`projection definition lacks +${key}: ${def}`);
      return fallback;
    }
    const value = Number(text);
    if (!Number.isFinite(value)) throw new ProjectionError(`projection definition has a bad +${key}=${text}`);
    return value;
  };
  const units = params.get('units') ?? 'm';
  if (units !== 'm') throw new ProjectionError(`projection units "${units}" are not supported (metres only)`);
  const ellipsoid = ellipsoidOf(params);
  switch (params.get('proj')) {
    case 'stere': {
      if (num('lat_0') !== 90) throw new ProjectionError(`only north polar stereographic (+lat_0=90) is supported: ${def}`);
      return polarStereographic({ ellipsoid, latTs: num('lat_ts', 90), lon0: num('lon_0', 0), k0: num('k', num('k_0', 1)), x0: num('x_0', 0), y0: num('y_0', 0) });
    }
    case 'lcc':
      return lambertConformal({ ellipsoid, lat1: num('lat_1'), lat2: num('lat_2', num('lat_1')), lat0: num('lat_0', num('lat_1')), lon0: num('lon_0', 0), x0: num('x_0', 0), y0: num('y_0', 0) });
    default:
      throw new ProjectionError(`unsupported projection "${params.get('proj') ?? '(none)'}" in ${def}`);
  }
}
