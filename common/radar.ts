/**
 * Radar composites (SPEC §1 radar, §3 overlays radar / radarPlus, §7 radar hosts, §9): the
 * constants and the published documents shared by the ingest, the server and the UI.
 */

import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.ts';
import type { Product } from './catalogue/products.ts';

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

/**
 * A composite frame is drawn by the client from each provider's own frame: providers publish on
 * their own clocks (MRMS every 2 minutes, RADOLAN every 5), so the server never has a complete
 * set of one time to merge. A provider's frame stands for the composite from its time until this
 * long after it (twice RADOLAN's interval; then its area shows no data rather than old rain).
 */
export const RADAR_COMPOSITE_WINDOW_MS = 10 * MINUTE_MS;

/** One step of the radar timeline: the frames of each provider merged (max dBZ) at `time`. */
export interface RadarStep {
  time: number;
  /** At most one frame per provider: the newest at or before `time` within RADAR_COMPOSITE_WINDOW_MS. */
  frames: RadarFrame[];
  /** A nowcast step (forecast from the last observation), shown marked as such. */
  nowcast: boolean;
}

function newestPerSource(frames: readonly RadarFrame[], time: number): RadarFrame[] {
  const best = new Map<string, RadarFrame>();
  for (const f of frames) {
    if (f.time > time || f.time <= time - RADAR_COMPOSITE_WINDOW_MS) continue;
    const key = f.sources.join('+');
    const had = best.get(key);
    if (!had || f.time > had.time) best.set(key, f);
  }
  return [...best.values()].sort((a, b) => a.sources.join().localeCompare(b.sources.join()));
}

/**
 * The radar timeline of a manifest (or of the archive's and the live one's frames together): a
 * step at each observed frame's time, then a step at each nowcast time after the last observation.
 */
export function radarSteps(frames: readonly RadarFrame[], nowcast: readonly RadarFrame[] = []): RadarStep[] {
  const times = [...new Set(frames.map((f) => f.time))].sort((a, b) => a - b);
  const steps: RadarStep[] = times.map((time) => ({ time, frames: newestPerSource(frames, time), nowcast: false }));
  const lastObserved = times.length ? times[times.length - 1] : -Infinity;
  const future = [...new Set(nowcast.filter((f) => f.time > lastObserved).map((f) => f.time))].sort((a, b) => a - b);
  for (const time of future) steps.push({ time, frames: nowcast.filter((f) => f.time === time), nowcast: true });
  return steps;
}

/**
 * The radar composite as the render worker's product (common/catalogue Product): one level, the
 * data zooms the frames are published at; map zoom z shows data zoom z - 2 ('high' quality), so a
 * 12-frame animation of a country at 1280x720 needs a few tiles a frame and fits the tile cache
 * (SPEC §9: 50 entries).
 */
export const RADAR_PRODUCT: Product = {
  ident: 'radar', modelName: 'Radar', provider: 'Isobar', directory: 'radar', resolution: 0.01,
  interval: RADAR_UPDATE_MINUTES, premiumInterval: RADAR_UPDATE_MINUTES, bounds: null, levels: ['surface'],
  overlays: ['radar', 'radarPlus'], isolines: [], forecastSize: 0,
  maxTileZoom: { free: RADAR_MAX_ZOOM, premium: RADAR_MAX_ZOOM }, dataQuality: 'high', fileSuffix: 'tile',
  accumulations: false, meteogram: false,
};
