/**
 * NHC's track forecast cone (SPEC §3 overlay hurricanes; https://www.nhc.noaa.gov/aboutcone.shtml):
 * "the area swept out by a set of circles along the forecast track (at 12, 24, 36 hours, etc)",
 * each circle's radius set so that two thirds of the official track forecast errors of the
 * previous five years fall within it. The radii change every season; these are NHC's and CPHC's
 * for the 2023 season (error statistics 2018-2022), the latest whose table we could read. Update
 * CONE_SEASON and CONE_RADII_NM from that page each season.
 *
 * The cone is returned as convex parts whose union is the swept area: the convex hull of each
 * pair of consecutive circles (a circle swept along a straight segment while its radius grows
 * linearly is exactly that hull). Circles are drawn on the sphere (great-circle destination
 * points); the hull is taken in longitude/latitude, which is close enough over one 12-24 h leg.
 */

import type { Basin } from './category.ts';

export const CONE_SEASON = 2023;

/** Forecast hour -> 2/3-probability circle radius (nautical miles), NHC/CPHC 2023 (see above). */
export const CONE_RADII_NM: Readonly<Partial<Record<Basin, readonly (readonly [number, number])[]>>> = {
  AL: [[12, 26], [24, 39], [36, 53], [48, 67], [60, 81], [72, 99], [96, 145], [120, 205]],
  EP: [[12, 25], [24, 38], [36, 51], [48, 63], [60, 78], [72, 86], [96, 110], [120, 137]],
  CP: [[12, 34], [24, 49], [36, 66], [48, 81], [60, 95], [72, 120], [96, 137], [120, 156]],
};

/** Metres per nautical mile (SPEC §9: NM 1852 m). */
export const NM_M = 1852;
/** Mean Earth radius, metres (IUGG mean radius R1). */
export const EARTH_RADIUS_M = 6_371_008.8;

/**
 * The cone radius at a forecast hour: NHC's table, linear in between; 0 at the analysis (hour 0:
 * the storm's position is known); null beyond the table's last hour or where NHC publishes no
 * radii (JTWC's basins).
 */
export function coneRadiusNm(basin: Basin, hour: number): number | null {
  const table = CONE_RADII_NM[basin];
  if (!table || !(hour >= 0)) return null;
  let prev: readonly [number, number] = [0, 0];
  for (const row of table) {
    if (hour <= row[0]) return prev[1] + ((row[1] - prev[1]) * (hour - prev[0])) / (row[0] - prev[0]);
    prev = row;
  }
  return null;
}

/**
 * The point at `distanceNm` from (lat, lon) along the initial bearing `bearingDeg` on a sphere
 * (great-circle destination; Williams, Aviation Formulary, "Lat/lon given radial and distance").
 * Returns [lon, lat] with lon kept near the start's.
 */
export function destination(lat: number, lon: number, bearingDeg: number, distanceNm: number): [number, number] {
  const d = (distanceNm * NM_M) / EARTH_RADIUS_M;
  const p1 = (lat * Math.PI) / 180;
  const b = (bearingDeg * Math.PI) / 180;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const dl = Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [lon + (dl * 180) / Math.PI, (p2 * 180) / Math.PI];
}

/** Great-circle distance in nautical miles (haversine). */
export function distanceNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return (2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)))) / NM_M;
}

export interface ConeTrackPoint {
  /** Hours after the advisory's analysis time (0: the current position). */
  hour: number;
  lat: number;
  lon: number;
}

/** A ring [lon, lat, lon, lat, ...], counter-clockwise, not closed (last point != first). */
export type Ring = number[];

/** Points on each circle. */
const CIRCLE_POINTS = 36;

/** Andrew's monotone chain convex hull of [x, y] points, counter-clockwise. */
function convexHull(points: [number, number][]): [number, number][] {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: [number, number], a: [number, number], b: [number, number]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: [number, number][] = [];
  for (const q of p) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: [number, number][] = [];
  for (let i = p.length - 1; i >= 0; i--) {
    const q = p[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

function circle(lat: number, lon: number, radiusNm: number): [number, number][] {
  if (radiusNm <= 0) return [[lon, lat]];
  return Array.from({ length: CIRCLE_POINTS }, (_, i) => destination(lat, lon, (360 * i) / CIRCLE_POINTS, radiusNm));
}

/**
 * The forecast cone of a track (points in time order, the first the analysis at hour 0 or later)
 * with circles at its points and at the table's hours between them (withTableHours), as convex rings whose union is the cone; null where NHC publishes no radii for the basin or the
 * track has fewer than two points. Longitudes are unwrapped along the track (no jump at 180°).
 */
export function forecastCone(basin: Basin, track: readonly ConeTrackPoint[]): Ring[] | null {
  if (!CONE_RADII_NM[basin] || track.length < 2) return null;
  const circles: [number, number][][] = [];
  let lonPrev = track[0].lon;
  for (const p of withTableHours(basin, track)) {
    const radius = coneRadiusNm(basin, p.hour);
    if (radius === null) break;
    const lon = lonPrev + ((((p.lon - lonPrev) % 360) + 540) % 360) - 180;
    lonPrev = lon;
    circles.push(circle(p.lat, lon, radius));
  }
  if (circles.length < 2) return null;
  const rings: Ring[] = [];
  for (let i = 1; i < circles.length; i++) rings.push(convexHull([...circles[i - 1], ...circles[i]]).flat());
  return rings;
}

/**
 * The track with a position at each of the table's hours that falls between two of its points
 * (linear in time, longitude taken the short way): NHC places its circles at those hours, so a
 * track with other hours (an a-deck's) gets the same cone.
 */
function withTableHours(basin: Basin, track: readonly ConeTrackPoint[]): ConeTrackPoint[] {
  const hours = (CONE_RADII_NM[basin] ?? []).map((row) => row[0]);
  const out: ConeTrackPoint[] = [track[0]];
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1];
    const b = track[i];
    const dLon = ((((b.lon - a.lon) % 360) + 540) % 360) - 180;
    for (const h of hours) {
      if (h <= a.hour || h >= b.hour) continue;
      const f = (h - a.hour) / (b.hour - a.hour);
      out.push({ hour: h, lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + dLon * f });
    }
    out.push(b);
  }
  return out;
}

/** Whether (lon, lat) lies in a convex counter-clockwise ring (boundary included). */
export function inConvexRing(ring: Ring, lon: number, lat: number): boolean {
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const cross = (ring[2 * j] - ring[2 * i]) * (lat - ring[2 * i + 1]) - (ring[2 * j + 1] - ring[2 * i + 1]) * (lon - ring[2 * i]);
    if (cross < -1e-12) return false;
  }
  return true;
}
