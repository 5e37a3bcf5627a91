/**
 * Section 3, the grid definition: templates 3.0 (regular lat/lon), 3.1 (rotated lat/lon),
 * 3.40 (regular Gaussian), 3.10 (Mercator), 3.20 (polar stereographic), 3.30 (Lambert conformal)
 * and 3.101 (unstructured, e.g. ICON's icosahedral grid). Only the lat/lon and Gaussian grids can
 * be turned north-up (north-up.ts); the others are reported so callers can say why not.
 *
 * Octet numbers: WMO Manual on Codes, FM 92 GRIB2, Section 3 and its templates.
 */

import { GribError, type SectionReader } from './reader.ts';

/** Grid templates this decoder knows by name. */
export type GridType =
  | 'regular_ll' | 'rotated_ll' | 'regular_gg' | 'reduced_ll' | 'reduced_gg' | 'mercator'
  | 'polar_stereographic' | 'lambert' | 'unstructured_grid' | 'unknown';

export interface GribGrid {
  /** Grid definition template number (Code Table 3.1). */
  template: number;
  /** ecCodes' gridType; 'unknown' for templates not parsed here (values still decode). */
  type: GridType;
  /** Points along a parallel (x) and along a meridian (y); 0 where the grid has none (unstructured, reduced). */
  Ni: number;
  Nj: number;
  /** Section 3 number of data points: the length of the decoded values. */
  numberOfPoints: number;
  /** Flag Table 3.4 (0x80 -i, 0x40 +j, 0x20 j consecutive, 0x10 alternate rows reversed); -1 where the grid has none. */
  scanningMode: number;
  /** Code Table 3.2 shape of the earth. */
  shapeOfEarth: number;
  /** True when toNorthUp can lay this grid out north-up on lat/lon rows (regular_ll, regular_gg). */
  mappable: boolean;
  /** Why it cannot, when it cannot. */
  unsupportedReason?: string;
  /**
   * First and last grid point in degrees, as in the file (lat/lon and Gaussian grids; Mercator
   * gives both corners, Lambert and polar stereographic only the first).
   */
  lat1?: number;
  lon1?: number;
  lat2?: number;
  lon2?: number;
  /** Increments in degrees (lat/lon: both; Gaussian: dLon only). */
  dLon?: number;
  dLat?: number;
  /** Gaussian: number of parallels between a pole and the equator. */
  gaussianN?: number;
  /** Gaussian: latitude of each of the Nj rows in scanning order (degrees). */
  latitudes?: Float64Array;
  /** Normalised bounds of lat/lon and Gaussian grids: south < north, west < east (east may pass 180 or 360). */
  south?: number;
  north?: number;
  west?: number;
  east?: number;
  /** True when the grid covers every longitude (Ni * dLon = 360). */
  global?: boolean;
  /** Projections (3.10, 3.20, 3.30): x and y grid lengths in metres, LaD (Mercator, Lambert), LoV (orientation). */
  dx?: number;
  dy?: number;
  latD?: number;
  lonV?: number;
  latin1?: number;
  latin2?: number;
  /** Rotated lat/lon: the rotated south pole and rotation angle, degrees. */
  southPoleLat?: number;
  southPoleLon?: number;
  rotationAngle?: number;
  /** Unstructured: numberOfGridUsed and the grid's UUID (hex). */
  gridNumber?: number;
  uuid?: string;
}

const MISSING_U32 = 0xffffffff;
/** Lat/lon values are in micro-degrees unless the basic angle says otherwise (92.1.6). */
const MICRO = 1e-6;

const gaussianCache = new Map<number, Float64Array>();

/**
 * The 2N Gaussian latitudes, north to south, in degrees: the zeros of the Legendre polynomial
 * P_2N(sin φ), found by Newton's method from the asymptotic first guess cos(π (k - 1/4) / (2N + 1/2))
 * (Abramowitz & Stegun 22.16.6), as ecCodes' grib_get_gaussian_latitudes does.
 */
export function gaussianLatitudes(N: number): Float64Array {
  if (!Number.isInteger(N) || N < 1 || N > 8000) throw new GribError(`Gaussian grid number N = ${N} must be 1..8000`);
  const cached = gaussianCache.get(N);
  if (cached) return cached;
  const n = 2 * N;
  const lats = new Float64Array(n);
  for (let k = 1; k <= N; k++) {
    let x = Math.cos((Math.PI * (k - 0.25)) / (n + 0.5));
    for (let iter = 0; iter < 100; iter++) {
      // P_n(x) by the three-term recurrence, and its derivative from P_n and P_{n-1}.
      let p0 = 1;
      let p1 = x;
      for (let l = 2; l <= n; l++) {
        const p2 = ((2 * l - 1) * x * p1 - (l - 1) * p0) / l;
        p0 = p1;
        p1 = p2;
      }
      const dp = (n * (p0 - x * p1)) / (1 - x * x);
      const dx = p1 / dp;
      x -= dx;
      if (Math.abs(dx) < 1e-15) break;
    }
    const lat = (Math.asin(x) * 180) / Math.PI;
    lats[k - 1] = lat;
    lats[n - k] = -lat;
  }
  gaussianCache.set(N, lats);
  return lats;
}

function angleUnit(s: SectionReader, basicAngleOctet: number): number {
  const basic = s.u32(basicAngleOctet);
  const subdivisions = s.u32(basicAngleOctet + 4);
  if (basic === 0 || basic === MISSING_U32 || subdivisions === 0 || subdivisions === MISSING_U32) return MICRO;
  return basic / subdivisions;
}

/** Rounds away float noise of the micro-degree arithmetic (1e-6 * 45000000 -> 45.000000000000004). */
function degrees(raw: number, unit: number): number {
  return Math.round(raw * unit * 1e9) / 1e9;
}

function dropUnmappable(grid: GribGrid, reason: string): GribGrid {
  return { ...grid, mappable: false, unsupportedReason: reason };
}

/**
 * Reads section 3 (`s` is positioned on it). Throws a GribError for a malformed section; a
 * template it does not know gives `type: 'unknown'` (the values can still be decoded).
 */
export function parseGrid(s: SectionReader): GribGrid {
  s.need(14, 'the grid definition header');
  const source = s.u8(6);
  const numberOfPoints = s.u32(7);
  const listOctets = s.u8(11);
  const template = s.u16(13);
  if (source !== 0) {
    // 1 = predetermined grid by originating centre: the template is not in the section.
    return {
      template, type: 'unknown', Ni: 0, Nj: 0, numberOfPoints, scanningMode: -1, shapeOfEarth: 255, mappable: false,
      unsupportedReason: `grid definition source ${source} (a predetermined grid) is not supported`,
    };
  }
  const base = { template, numberOfPoints, shapeOfEarth: 255, mappable: false } as const;
  switch (template) {
    case 0:
    case 1:
    case 40:
      return latLonOrGaussian(s, template, numberOfPoints, listOctets);
    case 10: {
      s.need(72, 'grid definition template 3.10 (Mercator)');
      return {
        ...base, type: 'mercator', shapeOfEarth: s.u8(15), Ni: s.u32(31), Nj: s.u32(35),
        lat1: s.s32(39) * MICRO, lon1: s.s32(43) * MICRO, latD: s.s32(48) * MICRO, lat2: s.s32(52) * MICRO,
        lon2: s.s32(56) * MICRO, scanningMode: s.u8(60), dx: s.u32(65) / 1000, dy: s.u32(69) / 1000,
        unsupportedReason: 'Mercator grids (template 3.10) are decoded but not regridded to lat/lon',
      };
    }
    case 20: {
      s.need(65, 'grid definition template 3.20 (polar stereographic)');
      return {
        ...base, type: 'polar_stereographic', shapeOfEarth: s.u8(15), Ni: s.u32(31), Nj: s.u32(35),
        lat1: s.s32(39) * MICRO, lon1: s.s32(43) * MICRO, latD: s.s32(48) * MICRO, lonV: s.s32(52) * MICRO,
        dx: s.u32(56) / 1000, dy: s.u32(60) / 1000, scanningMode: s.u8(65),
        unsupportedReason: 'polar stereographic grids (template 3.20) are decoded but not regridded to lat/lon',
      };
    }
    case 30: {
      s.need(81, 'grid definition template 3.30 (Lambert conformal)');
      return {
        ...base, type: 'lambert', shapeOfEarth: s.u8(15), Ni: s.u32(31), Nj: s.u32(35),
        lat1: s.s32(39) * MICRO, lon1: s.s32(43) * MICRO, latD: s.s32(48) * MICRO, lonV: s.s32(52) * MICRO,
        dx: s.u32(56) / 1000, dy: s.u32(60) / 1000, scanningMode: s.u8(65), latin1: s.s32(66) * MICRO,
        latin2: s.s32(70) * MICRO,
        unsupportedReason: 'Lambert conformal grids (template 3.30) are decoded but not regridded to lat/lon',
      };
    }
    case 101: {
      s.need(35, 'grid definition template 3.101 (unstructured grid)');
      let uuid = '';
      for (let o = 20; o <= 35; o++) uuid += s.u8(o).toString(16).padStart(2, '0');
      return {
        ...base, type: 'unstructured_grid', shapeOfEarth: s.u8(15), Ni: 0, Nj: 0, scanningMode: -1,
        gridNumber: (s.u16(16) << 8) | s.u8(18), uuid,
        unsupportedReason: 'unstructured grids (template 3.101, e.g. ICON icosahedral) need the grid\'s coordinates file to be mapped',
      };
    }
    default:
      return {
        ...base, type: 'unknown', Ni: 0, Nj: 0, scanningMode: -1,
        unsupportedReason: `grid definition template 3.${template} is not supported`,
      };
  }
}

function latLonOrGaussian(s: SectionReader, template: number, numberOfPoints: number, listOctets: number): GribGrid {
  const name = template === 40 ? 'regular Gaussian' : template === 1 ? 'rotated lat/lon' : 'regular lat/lon';
  s.need(template === 1 ? 84 : 72, `grid definition template 3.${template} (${name})`);
  const unit = angleUnit(s, 39);
  const Ni = s.u32(31);
  const Nj = s.u32(35);
  const resolutionFlags = s.u8(55);
  const scanningMode = s.u8(72);
  const lat1 = degrees(s.s32(47), unit);
  const lon1 = degrees(s.s32(51), unit);
  const lat2 = degrees(s.s32(56), unit);
  const lon2 = degrees(s.s32(60), unit);
  const rawDi = s.u32(64);
  const rawDj = s.u32(68);
  // Flag Table 3.3: bit 3 (0x20) i direction increments given, bit 4 (0x10) j direction increments given.
  const diGiven = (resolutionFlags & 0x20) !== 0 && rawDi !== MISSING_U32;
  const djGiven = (resolutionFlags & 0x10) !== 0 && rawDj !== MISSING_U32;
  const grid: GribGrid = {
    template, type: template === 40 ? 'regular_gg' : template === 1 ? 'rotated_ll' : 'regular_ll', Ni, Nj,
    numberOfPoints, scanningMode, shapeOfEarth: s.u8(15), mappable: true, lat1, lon1, lat2, lon2,
  };
  if (template === 1) {
    grid.southPoleLat = degrees(s.s32(73), unit);
    grid.southPoleLon = degrees(s.s32(77), unit);
    grid.rotationAngle = s.f32(81);
  }
  if (listOctets !== 0 || Ni === MISSING_U32 || Nj === MISSING_U32) {
    // A list of points per row follows the template: a quasi-regular ("reduced") grid.
    const reduced = { ...grid, type: template === 40 ? 'reduced_gg' : 'reduced_ll', Ni: 0, Nj: Nj === MISSING_U32 ? 0 : Nj } as GribGrid;
    if (template === 40) reduced.gaussianN = rawDj;
    return dropUnmappable(reduced, `quasi-regular (reduced) grids of template 3.${template} are decoded but not regridded`);
  }
  if (Ni === 0 || Nj === 0 || Ni * Nj !== numberOfPoints) {
    throw new GribError(`grid definition template 3.${template}: Ni x Nj = ${Ni} x ${Nj} does not match ${numberOfPoints} data points`);
  }
  const iMinus = (scanningMode & 0x80) !== 0;
  const jPlus = (scanningMode & 0x40) !== 0;
  // Longitude span in the scanning direction, in [0, 360].
  let span = iMinus ? lon1 - lon2 : lon2 - lon1;
  span = ((span % 360) + 360) % 360;
  if (span === 0 && Ni > 1) span = 360;
  let dLon = diGiven ? degrees(rawDi, unit) : Ni > 1 ? span / (Ni - 1) : 0;
  if (!diGiven && Ni > 1 && Math.abs(dLon * Ni - 360) < 1e-6 * 360 && span === 360) dLon = 360 / Ni;
  grid.dLon = dLon;
  const west = iMinus ? lon1 - (Ni - 1) * dLon : lon1;
  grid.west = west;
  grid.east = west + (Ni - 1) * dLon;
  grid.global = Ni > 1 && Math.abs(Ni * dLon - 360) < 1e-6 * 360;
  if (template === 40) {
    const N = rawDj;
    grid.gaussianN = N;
    if (N === 0 || N === MISSING_U32 || N > 8000) throw new GribError(`grid definition template 3.40: Gaussian N = ${N} is invalid`);
    if (Nj > 2 * N) throw new GribError(`grid definition template 3.40: Nj = ${Nj} exceeds the 2N = ${2 * N} Gaussian latitudes`);
    const all = gaussianLatitudes(N);
    // The first row is the Gaussian latitude nearest lat1; rows follow in the scanning direction.
    let first = 0;
    for (let k = 1; k < all.length; k++) if (Math.abs(all[k] - lat1) < Math.abs(all[first] - lat1)) first = k;
    const step = jPlus ? -1 : 1; // `all` runs north to south
    const last = first + step * (Nj - 1);
    if (Math.abs(all[first] - lat1) > 0.01 || last < 0 || last >= all.length) {
      throw new GribError(`grid definition template 3.40: rows from ${lat1}° do not fit the N${N} Gaussian latitudes`);
    }
    const latitudes = new Float64Array(Nj);
    for (let r = 0; r < Nj; r++) latitudes[r] = all[first + step * r];
    grid.latitudes = latitudes;
    grid.north = Math.max(latitudes[0], latitudes[Nj - 1]);
    grid.south = Math.min(latitudes[0], latitudes[Nj - 1]);
  } else {
    const dLat = djGiven ? degrees(rawDj, unit) : Nj > 1 ? Math.abs(lat2 - lat1) / (Nj - 1) : 0;
    grid.dLat = dLat;
    const firstRow = lat1;
    const lastRow = jPlus ? lat1 + (Nj - 1) * dLat : lat1 - (Nj - 1) * dLat;
    grid.north = Math.max(firstRow, lastRow);
    grid.south = Math.min(firstRow, lastRow);
  }
  if (template !== 40 && Nj > 1 && (jPlus ? lat2 < lat1 : lat2 > lat1)) {
    return dropUnmappable(grid, `scanning mode ${scanningMode} says rows go ${jPlus ? 'north' : 'south'}, but the last row (${lat2}°) lies ${jPlus ? 'south' : 'north'} of the first (${lat1}°)`);
  }
  if (template === 1) return dropUnmappable(grid, 'rotated lat/lon grids (template 3.1) are decoded but not unrotated');
  if (scanningMode & 0x0f) return dropUnmappable(grid, `scanning mode ${scanningMode} has staggered rows (Flag Table 3.4 bits 5-8)`);
  return grid;
}
