/**
 * Geostationary satellite imagery (SPEC §1 satellite, §3 overlay satellite, §7 satellite hosts:
 * info.json and archive info.json, §9 update interval and max tile zoom): the constants and the
 * published documents shared by the ingest, the server and the UI.
 */

import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.ts';
import type { Product } from './catalogue/products.ts';
import { SATELLITE_MAX_TILE_ZOOM } from './entitlements.ts';

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

/**
 * The infrared greyscale of the composite channel (server/obs/satellite/daynight.ts irBrightness):
 * 0 (dark) at IR_WARM_K, warm ground, to 1 (bright) at IR_COLD_K, the coldest cloud tops: chosen
 * here, the span of the 10.3 µm band over the Earth's surface and the highest anvils. The legend
 * shows the same span.
 */
export const IR_WARM_K = 310;
export const IR_COLD_K = 200;

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

/**
 * A satellite frame stands for its source's picture from its scan time until this long after
 * (a full disk is scanned every 10 minutes; two missed scans and the area shows no data rather
 * than old clouds).
 */
export const SATELLITE_COMPOSITE_WINDOW_MS = 20 * MINUTE_MS;
/**
 * Frames of several satellites whose scans start within this of each other make one step of the
 * animation (GOES-East and GOES-West start their full disks within seconds of each other), so the
 * animation does not show each picture twice.
 */
export const SATELLITE_STEP_MERGE_MS = 5 * MINUTE_MS;

/** One step of the satellite timeline: the newest frame of each source at `time`. */
export interface SatelliteStep {
  time: number;
  /** At most one frame per source, the newest at or before `time` within SATELLITE_COMPOSITE_WINDOW_MS, by source id. */
  frames: SatelliteFrame[];
}

/**
 * The satellite timeline of a set of frames (info.json's, with archive/info.json's for Premium):
 * frame times closer than SATELLITE_STEP_MERGE_MS to the first of a group make one step at the
 * group's last time; each step shows every source's newest frame within the composite window.
 */
export function satelliteSteps(frames: readonly SatelliteFrame[]): SatelliteStep[] {
  const times = [...new Set(frames.map((f) => f.time))].sort((a, b) => a - b);
  const stepTimes: number[] = [];
  let groupStart = -Infinity;
  for (const t of times) {
    if (t - groupStart < SATELLITE_STEP_MERGE_MS) stepTimes[stepTimes.length - 1] = t;
    else {
      groupStart = t;
      stepTimes.push(t);
    }
  }
  return stepTimes.map((time) => {
    const best = new Map<string, SatelliteFrame>();
    for (const f of frames) {
      if (f.time > time || f.time <= time - SATELLITE_COMPOSITE_WINDOW_MS) continue;
      const had = best.get(f.source);
      if (!had || f.time > had.time) best.set(f.source, f);
    }
    return { time, frames: [...best.values()].sort((a, b) => a.source.localeCompare(b.source)) };
  });
}

/**
 * The satellite imagery as the render worker's product (common/catalogue Product): map zoom z
 * shows data zoom z - 2 ('high' quality). SPEC §9 max tile zoom (7 free, 11 Premium:
 * common/entitlements.ts SATELLITE_MAX_TILE_ZOOM) caps it, and the frames are published up to
 * SATELLITE_DATA_MAX_ZOOM only, so both tiers read those and over-zoom them above.
 */
export const SATELLITE_PRODUCT: Product = {
  ident: 'satellite', modelName: 'Satellite', provider: 'Isobar', directory: 'satellite', resolution: 0.02,
  interval: SATELLITE_UPDATE_MINUTES, premiumInterval: SATELLITE_UPDATE_MINUTES, bounds: null, levels: ['surface'],
  overlays: ['satellite'], isolines: [], forecastSize: 0,
  maxTileZoom: {
    free: Math.min(SATELLITE_MAX_TILE_ZOOM.free, SATELLITE_DATA_MAX_ZOOM),
    premium: Math.min(SATELLITE_MAX_TILE_ZOOM.premium, SATELLITE_DATA_MAX_ZOOM),
  },
  dataQuality: 'high', fileSuffix: 'tile', accumulations: false, meteogram: false,
};
