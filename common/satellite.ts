/**
 * Geostationary satellite imagery (SPEC §1 satellite, §3 overlay satellite, §7 satellite hosts:
 * info.json and archive info.json, §9 update interval and max tile zoom): the constants and the
 * published documents shared by the ingest, the server and the UI.
 */

import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.ts';

/** SPEC §9: satellite update interval, minutes. */
export const SATELLITE_UPDATE_MINUTES = 3;

/**
 * The two channels of a satellite data tile (common/tile.ts, value = offset + scale * q):
 *   0 `ir`: infrared brightness temperature, K (ABI band 13, 10.3 µm), 0.01 K steps from 150 K;
 *   1 `composite`: the day/night image the overlay draws, a brightness 0 (dark) .. 1 (bright):
 *     the visible reflectance by day, the infrared greyscale by night, blended across twilight
 *     (server/obs/satellite/daynight.ts names the formulas).
 */
export const SATELLITE_CHANNELS = [
  { name: 'ir', unit: 'K', offset: 150, scale: 0.01 },
  { name: 'composite', unit: '1', offset: 0, scale: 1 / 10000 },
] as const;

/** Data zooms the frames are published at (common/tiling.ts; 5 is 0.022° between nodes, about the ABI's 2 km infrared cells). */
export const SATELLITE_MIN_ZOOM = 0;
export const SATELLITE_DATA_MAX_ZOOM = 5;

/** File name of a satellite data tile in a frame's folder: `{z}/{x}/{y}.tile` (gzip on disk). */
export function satelliteTilePath(z: number, x: number, y: number): string {
  return `${z}/${x}/${y}.tile`;
}

/** How long the server keeps frames (SPEC §1: full-year satellite history for Premium). */
export const SATELLITE_RETENTION_MS = 365 * DAY_MS;
/** Frames newer than this are listed in info.json; older ones in archive/info.json. */
export const SATELLITE_LIVE_WINDOW_MS = 2 * HOUR_MS;
/** Age at which a frame is shown as stale (three missed full-disk scans of 10 minutes). */
export const SATELLITE_STALE_MS = 30 * MINUTE_MS;

export interface SatelliteFrame {
  /** Scan start, ms UTC. */
  time: number;
  /** Folder name under `frames/`. */
  id: string;
  /** The satellite source (goesEast, goesWest, ...). */
  source: string;
  /** Tile addresses present, as `z/x/y` (tiles off the satellite's disk are absent). */
  tiles: string[];
  /** Longitude/latitude box the frame covers; west > east when it crosses the antimeridian. */
  bounds: { west: number; south: number; east: number; north: number };
}

export interface SatelliteSourceInfo {
  id: string;
  label: string;
  attribution: string;
  /** Sub-satellite longitude, degrees. */
  lon0: number;
  /** Time of this source's newest frame, ms UTC. */
  latest: number | null;
}

/** The satellite host's info.json (SPEC §7), and archive/info.json with the older frames. */
export interface SatelliteInfo {
  version: 1;
  /** When this document was written, ms UTC. */
  updated: number;
  minZoom: number;
  maxZoom: number;
  channels: { name: string; unit: string; offset: number; scale: number }[];
  frames: SatelliteFrame[];
  sources: SatelliteSourceInfo[];
}
