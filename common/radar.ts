/**
 * Radar composites (SPEC §1 radar, §3 overlays radar / radarPlus, §7 radar hosts, §9): the
 * constants and the published documents shared by the ingest, the server and the UI.
 */

import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.ts';

/** SPEC §9: radar update interval, minutes. */
export const RADAR_UPDATE_MINUTES = 3;

/**
 * Quantization of the radar data tiles: one channel in dBZ, value = offset + scale * q, the 0.5 dBZ
 * step of the RADOLAN RVP6 scale (dBZ = RVP6 / 2 - 32.5), enough for every composite here.
 */
export const RADAR_DBZ_QUANTIZATION = { offset: -32.5, scale: 0.5 } as const;

/** Data zooms the radar frames are published at (common/tiling.ts; 6 is about 1.2 km at 0°, the MRMS 0.01° grid). */
export const RADAR_MIN_ZOOM = 0;
export const RADAR_MAX_ZOOM = 6;

/** File name of a radar data tile in a frame's folder: `{z}/{x}/{y}.tile` (gzip on disk). */
export function radarTilePath(z: number, x: number, y: number): string {
  return `${z}/${x}/${y}.tile`;
}

/** SPEC §3 setting radarPlusSegmentRange: how far back the radar-plus timeline reaches. */
export const RADAR_SEGMENTS = ['short', 'medium', 'long', 'archive'] as const;
export type RadarSegment = (typeof RADAR_SEGMENTS)[number];

/**
 * Length of each segment of the radar-plus timeline back from now. Chosen here (the SPEC names
 * the segments, not their lengths): short the last 2 hours, medium 12 hours, long 48 hours;
 * archive reaches the whole history a Premium user may see (SPEC §1: a full year).
 */
export const RADAR_SEGMENT_MS: Record<RadarSegment, number> = {
  short: 2 * HOUR_MS,
  medium: 12 * HOUR_MS,
  long: 48 * HOUR_MS,
  archive: 365 * DAY_MS,
};

/** How long the server keeps observed frames (SPEC §1: full-year radar history for Premium). */
export const RADAR_RETENTION_MS = 365 * DAY_MS;
/** Frames newer than this are listed in the live minifest; older ones in the archive minifest. */
export const RADAR_LIVE_WINDOW_MS = 2 * HOUR_MS;
/** Age at which a frame is shown as stale in the UI (three missed updates). */
export const RADAR_STALE_MS = 3 * RADAR_UPDATE_MINUTES * MINUTE_MS;

/** One frame of the composite: a folder of data tiles (`frames/{id}/{z}/{x}/{y}.tile`). */
export interface RadarFrame {
  /** Valid time, ms UTC. */
  time: number;
  /** Folder name under `frames/` (or `nowcast/`). */
  id: string;
  /** Providers that contributed (source ids). */
  sources: string[];
  /** Tile addresses present at each zoom, as `z/x/y`; tiles without echo are absent (no rain). */
  tiles: string[];
  /** A nowcast frame: the forecast lead in minutes; absent for observations. */
  leadMinutes?: number;
}

export interface RadarSourceInfo {
  id: string;
  label: string;
  attribution: string;
  /** Time of this source's newest frame, ms UTC. */
  latest: number | null;
}

/** GeoJSON-like coverage outline per provider: rings of [lon, lat] (coverage.json). */
export interface RadarCoverage {
  sources: { id: string; rings: [number, number][][] }[];
}

/** The radar composite's minifest2.json (SPEC §7), and the archive's with older frames. */
export interface RadarMinifest {
  version: 2;
  /** When this manifest was written, ms UTC. */
  updated: number;
  minZoom: number;
  maxZoom: number;
  quantization: { offset: number; scale: number; unit: 'dBZ' };
  frames: RadarFrame[];
  nowcast: RadarFrame[];
  sources: RadarSourceInfo[];
}
