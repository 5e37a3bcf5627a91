/**
 * Map constants (SPEC §2 "Map", SPEC §9) and Web Mercator math shared by the camera on the main
 * thread and the render worker. Mercator coordinates are normalised: x 0..1 from 180° W eastwards,
 * y 0..1 from 85.05° N southwards; a world is `256 * 2^zoom` CSS pixels wide.
 */

// SPEC §9: map zoom 3 to 16.
export const MIN_ZOOM = 3;
export const MAX_ZOOM = 16;

/** A zoom within the map's range (SPEC §9). */
export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

// SPEC §9: tile edge 256 px (512 high density); canvas pixel ratio capped at 2.
const TILE_PX = 256;
export const MAX_PIXEL_RATIO = 2;
// SPEC §9: particle cap 15000 per frame, max age 100.
export const PARTICLE_CAP = 15000;
export const PARTICLE_MAX_AGE = 100;
// SPEC §9: overlay and label layers max zoom 11.
export const OVERLAY_MAX_ZOOM = 11;

const MAX_MERCATOR_LAT = 85.0511287798066;
const DEG = Math.PI / 180;

export interface View {
  /** Centre longitude, any value (wraps). */
  lon: number;
  lat: number;
  zoom: number;
  /** Viewport size in CSS pixels. */
  width: number;
  height: number;
}

export function clampLat(lat: number): number {
  return Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, lat));
}

export function worldSize(zoom: number): number {
  return TILE_PX * 2 ** zoom;
}

export function mercX(lon: number): number {
  return (lon + 180) / 360;
}

export function mercY(lat: number): number {
  const s = Math.sin(clampLat(lat) * DEG);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
}

export function lonFromMercX(x: number): number {
  return x * 360 - 180;
}

export function latFromMercY(y: number): number {
  return Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) / DEG;
}

/** Screen point (CSS px from the top-left) to lon/lat; lon is not wrapped. */
export function screenToLonLat(view: View, x: number, y: number): { lon: number; lat: number } {
  const size = worldSize(view.zoom);
  const mx = mercX(view.lon) + (x - view.width / 2) / size;
  const my = Math.min(1, Math.max(0, mercY(view.lat) + (y - view.height / 2) / size));
  return { lon: lonFromMercX(mx), lat: latFromMercY(my) };
}

/** lon/lat to screen CSS px, taking the copy of the world nearest the view centre. */
export function lonLatToScreen(view: View, lon: number, lat: number): { x: number; y: number } {
  const size = worldSize(view.zoom);
  let dx = mercX(lon) - mercX(view.lon);
  dx -= Math.round(dx);
  return { x: view.width / 2 + dx * size, y: view.height / 2 + (mercY(lat) - mercY(view.lat)) * size };
}

export interface LonLatBounds {
  /** west may be below -180 and east above 180: the view is not wrapped. */
  west: number;
  east: number;
  north: number;
  south: number;
}

export function viewBounds(view: View): LonLatBounds {
  const nw = screenToLonLat(view, 0, 0);
  const se = screenToLonLat(view, view.width, view.height);
  return { west: nw.lon, east: se.lon, north: nw.lat, south: se.lat };
}

/** Keeps the centre latitude where the world still fills the view vertically, if it can. */
export function constrainView(view: View): View {
  const size = worldSize(view.zoom);
  const half = view.height / 2 / size;
  let y = mercY(view.lat);
  if (half * 2 >= 1) y = 0.5;
  else y = Math.min(1 - half, Math.max(half, y));
  const lon = ((((view.lon + 180) % 360) + 360) % 360) - 180;
  return { ...view, lon, lat: latFromMercY(y) };
}
