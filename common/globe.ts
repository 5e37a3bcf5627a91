/**
 * The globe view (SPEC §2 window "globe", setting mapLibrary = globe): an orthographic projection
 * of the sphere, shared by the camera and the city labels on the main thread and by the render
 * worker (whose shaders do the same arithmetic per vertex and per pixel).
 *
 * Orthographic projection (Snyder, "Map Projections: A Working Manual", USGS Professional Paper
 * 1395, 1987, §20, equations 20-3, 20-4 and 5-3 forward; 20-14, 20-15 and 20-16 inverse): with the
 * centre (λ0, φ0) and the sphere's radius R,
 *   x = R cos φ sin(λ - λ0)
 *   y = R (cos φ0 sin φ - sin φ0 cos φ cos(λ - λ0))
 *   cos c = sin φ0 sin φ + cos φ0 cos φ cos(λ - λ0)       (c: angular distance from the centre)
 * and a point is on the visible hemisphere when cos c >= 0. Inverse, with ρ = sqrt(x² + y²) / R
 * <= 1 and sin c = ρ:
 *   φ = asin(cos c sin φ0 + (y / R) cos φ0)
 *   λ = λ0 + atan2(x / R, cos c cos φ0 - (y / R) sin φ0)
 * (Snyder's 20-15 with sin c / ρ = 1, as x sin c / ρ = x here).
 *
 * Scale: the globe's radius follows the zoom as the flat map's world does, R = 256 · 2^zoom / 2π
 * CSS pixels, so the globe's centre has the scale of the flat map's equator at the same zoom.
 * Screen coordinates are CSS pixels from the top-left corner, y downwards.
 */

import { worldSize } from './map.ts';

const DEG = Math.PI / 180;

/** The globe's zoom range: from a whole globe on a small window to where the flat map serves better. */
export const GLOBE_MIN_ZOOM = 1;
export const GLOBE_MAX_ZOOM = 9;
/** The centre latitude stops short of the poles, where the direction of a drag has no meaning. */
export const GLOBE_MAX_LAT = 89;

export interface GlobeView {
  /** Centre longitude in [-180, 180) and latitude, degrees; zoom (radius, above). */
  lon: number;
  lat: number;
  zoom: number;
  /** Viewport in CSS pixels. */
  width: number;
  height: number;
}

export interface GlobePoint {
  /** Screen position, CSS px from the top-left, y downwards. */
  x: number;
  y: number;
  /** cos c: 1 at the centre, 0 on the limb, negative on the far side. */
  z: number;
}

export function clampGlobeZoom(zoom: number): number {
  return Math.min(GLOBE_MAX_ZOOM, Math.max(GLOBE_MIN_ZOOM, zoom));
}

export function wrapLon(lon: number): number {
  return lon - 360 * Math.floor((lon + 180) / 360);
}

/** The globe's radius in CSS pixels at a zoom. */
export function globeRadius(zoom: number): number {
  return worldSize(zoom) / (2 * Math.PI);
}

/** The zoom whose globe fills `share` of the smaller side of a viewport. */
export function globeZoomToFit(width: number, height: number, share = 0.8): number {
  return clampGlobeZoom(Math.log2((share * Math.min(width, height) * Math.PI) / 256));
}

/** The view kept within the globe's ranges: longitude wrapped, latitude short of the poles, zoom clamped. */
export function constrainGlobeView<V extends GlobeView>(view: V): V {
  return { ...view, lon: wrapLon(view.lon), lat: Math.max(-GLOBE_MAX_LAT, Math.min(GLOBE_MAX_LAT, view.lat)), zoom: clampGlobeZoom(view.zoom) };
}

/** Forward projection (Snyder 20-3, 20-4, 5-3). */
export function globeProject(view: GlobeView, lon: number, lat: number): GlobePoint {
  const r = globeRadius(view.zoom);
  const phi0 = view.lat * DEG;
  const phi = lat * DEG;
  const dl = (lon - view.lon) * DEG;
  const cosPhi = Math.cos(phi);
  const x = r * cosPhi * Math.sin(dl);
  const y = r * (Math.cos(phi0) * Math.sin(phi) - Math.sin(phi0) * cosPhi * Math.cos(dl));
  const z = Math.sin(phi0) * Math.sin(phi) + Math.cos(phi0) * cosPhi * Math.cos(dl);
  return { x: view.width / 2 + x, y: view.height / 2 - y, z };
}

/** Inverse projection (Snyder 20-14 to 20-16): the point under a screen position, or null off the disc. */
export function globeUnproject(view: GlobeView, sx: number, sy: number): { lon: number; lat: number } | null {
  const r = globeRadius(view.zoom);
  const x = (sx - view.width / 2) / r;
  const y = (view.height / 2 - sy) / r;
  const rho2 = x * x + y * y;
  if (rho2 > 1) return null;
  const cosC = Math.sqrt(1 - rho2);
  const phi0 = view.lat * DEG;
  const lat = Math.asin(Math.max(-1, Math.min(1, cosC * Math.sin(phi0) + y * Math.cos(phi0)))) / DEG;
  const lon = view.lon + Math.atan2(x, cosC * Math.cos(phi0) - y * Math.sin(phi0)) / DEG;
  return { lon: wrapLon(lon), lat };
}

/**
 * Angular radius (degrees) of the part of the sphere in view: the whole visible hemisphere (90°)
 * when the disc fits the viewport, else the angle out to the viewport's farthest corner.
 */
export function visibleCapRadius(view: GlobeView): number {
  const r = globeRadius(view.zoom);
  const corner = Math.hypot(view.width / 2, view.height / 2) / r;
  return corner >= 1 ? 90 : Math.asin(corner) / DEG;
}

export interface CapBounds {
  /** Unwrapped around the centre: west <= centre <= east; the full circle when `fullLon`. */
  west: number;
  east: number;
  north: number;
  south: number;
  fullLon: boolean;
}

/**
 * The longitude/latitude box around a spherical cap of angular radius `radius` about (lon, lat):
 * a pole within the cap takes every longitude; otherwise the cap's widest longitude is
 * asin(sin radius / cos lat) either side (the meridians tangent to the cap's circle).
 */
export function capBounds(lon: number, lat: number, radius: number): CapBounds {
  const north = lat + radius;
  const south = lat - radius;
  const sinR = Math.sin(radius * DEG);
  const cosLat = Math.cos(lat * DEG);
  if (north >= 90 || south <= -90 || sinR >= cosLat) {
    return { west: lon - 180, east: lon + 180, north: Math.min(90, north), south: Math.max(-90, south), fullLon: true };
  }
  const dl = Math.asin(sinR / cosLat) / DEG;
  return { west: lon - dl, east: lon + dl, north, south, fullLon: false };
}

/** Angular distance between two points, degrees (haversine formula: well conditioned for small distances). */
export function angularDistance(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const sLat = Math.sin(((lat2 - lat1) * DEG) / 2);
  const sLon = Math.sin(((lon2 - lon1) * DEG) / 2);
  const h = sLat * sLat + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * sLon * sLon;
  return (2 * Math.asin(Math.min(1, Math.sqrt(h)))) / DEG;
}

/**
 * A particle's step on the globe, as the particle shaders draw it (workers/layers/globe): both
 * ends are given relative to the centre as the engine writes them (longitude difference wrapped
 * into ±180°, latitude difference), each end is projected on its own, and the segment is drawn
 * only when both ends are on the visible side. A step across the antimeridian is short in these
 * relative coordinates (the engine takes the difference before wrapping), and a particle that
 * crosses a pole leaves the view box and respawns (a degenerate segment), so neither tears.
 * Returns the two screen points, or null when the segment is hidden.
 */
export function particleSegment(view: GlobeView, from: [number, number], to: [number, number]): [GlobePoint, GlobePoint] | null {
  const a = globeProject(view, view.lon + from[0], view.lat + from[1]);
  const b = globeProject(view, view.lon + to[0], view.lat + to[1]);
  if (a.z < 0 || b.z < 0) return null;
  if (Math.hypot(b.x - a.x, b.y - a.y) < 1e-3) return null;
  return [a, b];
}

/**
 * The view turned by a drag of (dx, dy) CSS pixels: by the drag's length over the radius in
 * longitude and in latitude, so the globe turns at the same rate wherever it is held (on the
 * equator, the point under the centre follows the pointer).
 */
export function rotateGlobe<V extends GlobeView>(view: V, dx: number, dy: number): V {
  const r = globeRadius(view.zoom);
  return constrainGlobeView({ ...view, lon: view.lon - dx / r / DEG, lat: view.lat + dy / r / DEG });
}

/**
 * The view zoomed to `zoom` about the screen point (sx, sy) (CSS px): the point of the sphere under
 * it stays under it. With that point (λ, φ) and its place on the new globe in radii, (x, y) from the
 * centre and z = sqrt(1 - x² - y²) towards the viewer, the inverse projection above gives
 *   sin φ = y cos φ0 + z sin φ0 = R sin(φ0 + α),   R = sqrt(y² + z²), α = atan2(y, z)
 *   λ0 = λ - atan2(x, z cos φ0 - y sin φ0)
 * so φ0 = asin(sin φ / R) - α (or π minus the asin: the root nearer the present centre is taken).
 * Zooming out, a point that would fall off the smaller disc is put on its limb in the same direction;
 * a pointer off the disc zooms about the centre.
 */
export function zoomGlobeAbout<V extends GlobeView>(view: V, zoom: number, sx: number, sy: number): V {
  const z1 = clampGlobeZoom(zoom);
  const p = globeUnproject(view, sx, sy);
  if (!p) return constrainGlobeView({ ...view, zoom: z1 });
  const r = globeRadius(z1);
  let x = (sx - view.width / 2) / r;
  let y = (view.height / 2 - sy) / r;
  const rho = Math.hypot(x, y);
  if (rho > 1) {
    x /= rho;
    y /= rho;
  }
  const z = Math.sqrt(Math.max(0, 1 - x * x - y * y));
  const big = Math.hypot(y, z);
  const alpha = Math.atan2(y, z);
  const phi = p.lat * DEG;
  const s = big > 0 ? Math.asin(Math.max(-1, Math.min(1, Math.sin(phi) / big))) : 0;
  const wrap = (a: number) => a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
  const roots = [wrap(s - alpha), wrap(Math.PI - s - alpha)].filter((a) => Math.abs(a) <= Math.PI / 2);
  const phi0Now = view.lat * DEG;
  const phi0 = roots.length ? roots.reduce((a, b) => (Math.abs(b - phi0Now) < Math.abs(a - phi0Now) ? b : a)) : phi0Now;
  const lon0 = p.lon - Math.atan2(x, z * Math.cos(phi0) - y * Math.sin(phi0)) / DEG;
  return constrainGlobeView({ ...view, zoom: z1, lon: lon0, lat: phi0 / DEG });
}
