/**
 * Clear-air turbulence index TI1 of Ellrod, G.P. and Knapp, D.I. (1992), "An objective clear-air
 * turbulence forecasting technique: verification and operational use", Weather and Forecasting 7,
 * 150-165, eq. 4: TI1 = VWS x DEF, the vertical wind shear of a layer times the total deformation
 * of its mean wind,
 *
 *   VWS = |V_top − V_bottom| / Δz,   DEF = (DST² + DSH²)^½,
 *   DST = ∂u/∂x − ∂v/∂y (stretching),   DSH = ∂v/∂x + ∂u/∂y (shearing).
 *
 * Shown in units of 10⁻⁷ s⁻² (the paper's: light to moderate turbulence from about 4, moderate
 * or greater from about 8-12 in its verification). The layer is a catalogue pressure level and the
 * next level above; the derivatives are centred differences on the model grid (one-sided at its
 * edges, across the date line on a global grid).
 */

const EARTH_RADIUS_M = 6_371_000;
const DEG = Math.PI / 180;
const TI1_UNIT = 1e-7;

export interface GridGeometry {
  ni: number;
  nj: number;
  dLon: number;
  /** Row latitudes, degrees, row 0 first. */
  latitude: (row: number) => number;
  global: boolean;
}

/** Total deformation (s⁻¹) of a wind field on a lat/lon grid, rows north to south. */
export function deformation(u: Float32Array, v: Float32Array, g: GridGeometry): Float32Array {
  const out = new Float32Array(u.length);
  const { ni, nj } = g;
  for (let j = 0; j < nj; j++) {
    const jn = Math.max(0, j - 1);
    const js = Math.min(nj - 1, j + 1);
    // Northward distance from row js to row jn.
    const dy = (g.latitude(jn) - g.latitude(js)) * DEG * EARTH_RADIUS_M;
    const cosLat = Math.max(1e-6, Math.cos(g.latitude(j) * DEG));
    for (let i = 0; i < ni; i++) {
      let iw = i - 1;
      let ie = i + 1;
      if (g.global) {
        iw = (iw + ni) % ni;
        ie %= ni;
      } else {
        iw = Math.max(0, iw);
        ie = Math.min(ni - 1, ie);
      }
      const dx = (ie - iw + (ie < iw ? ni : 0)) * g.dLon * DEG * EARTH_RADIUS_M * cosLat;
      const k = j * ni + i;
      const dudx = (u[j * ni + ie] - u[j * ni + iw]) / dx;
      const dvdx = (v[j * ni + ie] - v[j * ni + iw]) / dx;
      const dudy = (u[jn * ni + i] - u[js * ni + i]) / dy;
      const dvdy = (v[jn * ni + i] - v[js * ni + i]) / dy;
      out[k] = Math.hypot(dudx - dvdy, dvdx + dudy);
    }
  }
  return out;
}

/**
 * TI1 (10⁻⁷ s⁻²) of the layer between two pressure levels: winds (m/s) and geopotential heights
 * (m) at its bottom and top.
 */
export function ti1From(
  uBottom: Float32Array, vBottom: Float32Array, zBottom: Float32Array,
  uTop: Float32Array, vTop: Float32Array, zTop: Float32Array, g: GridGeometry,
): Float32Array {
  const n = uBottom.length;
  const uMean = new Float32Array(n);
  const vMean = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    uMean[k] = (uBottom[k] + uTop[k]) / 2;
    vMean[k] = (vBottom[k] + vTop[k]) / 2;
  }
  const def = deformation(uMean, vMean, g);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const dz = zTop[k] - zBottom[k];
    const vws = dz > 0 ? Math.hypot(uTop[k] - uBottom[k], vTop[k] - vBottom[k]) / dz : NaN;
    out[k] = (vws * def[k]) / TI1_UNIT;
  }
  return out;
}
