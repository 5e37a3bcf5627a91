/**
 * Publication of satellite frames through the observation store (server/obs/core): each frame a
 * folder of gzip data tiles `frames/{id}/{z}/{x}/{y}.tile` written whole by publishDir, then
 * `archive/info.json` (frames older than the live window, up to the retention) and `info.json`
 * last (SPEC §7 satellite hosts). Frames a document stops listing are removed REMOVE_GRACE_MS later.
 */

import { gzipSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  SATELLITE_CHANNELS, SATELLITE_DATA_MAX_ZOOM, SATELLITE_LIVE_WINDOW_MS, SATELLITE_MIN_ZOOM, SATELLITE_RETENTION_MS, satelliteTilePath,
  type SatelliteFrame, type SatelliteInfo, type SatelliteSourceInfo,
} from '../../../common/satellite.ts';
import { REMOVE_GRACE_MS, type ObsStore } from '../core/store.ts';
import { tilesOver } from '../radar/tiles.ts';
import { packSatelliteTile, renderSatelliteTile, sceneBounds, sceneExtents, type SatelliteScene } from './tiles.ts';

export const INFO = 'info.json';
export const ARCHIVE_INFO = 'archive/info.json';
/** gzip level of the tiles (as the radar's: server/ingest/tiles.ts measured level 1 as the fast choice). */
const GZIP_LEVEL = 1;

function emptyInfo(now: number, maxZoom: number): SatelliteInfo {
  return { version: 1, updated: now, minZoom: SATELLITE_MIN_ZOOM, maxZoom, channels: SATELLITE_CHANNELS.map((c) => ({ ...c })), frames: [], sources: [] };
}

export function satelliteFrameId(source: string, time: number): string {
  return `${new Date(time).toISOString().replace(/[-:]/g, '').slice(0, 13)}Z-${source}`;
}

/** Renders a scene into a frame folder; returns the tiles written as `z/x/y`. */
export async function writeSceneTiles(dir: string, scene: SatelliteScene, maxZoom: number): Promise<string[]> {
  const extents = sceneExtents(scene.ir.grid);
  const written: string[] = [];
  for (let z = SATELLITE_MIN_ZOOM; z <= maxZoom; z++) {
    for (const address of tilesOver(z, extents)) {
      const channels = renderSatelliteTile(address, scene);
      if (!channels) continue;
      await mkdir(join(dir, String(address.z), String(address.x)), { recursive: true });
      await writeFile(join(dir, satelliteTilePath(address.z, address.x, address.y)), gzipSync(packSatelliteTile(address, channels), { level: GZIP_LEVEL }));
      written.push(`${address.z}/${address.x}/${address.y}`);
    }
  }
  return written;
}

export interface SatellitePublishInput {
  source: Omit<SatelliteSourceInfo, 'latest'>;
  scene: SatelliteScene;
  now: number;
  /** Highest data zoom rendered (default SATELLITE_DATA_MAX_ZOOM). */
  maxZoom?: number;
}

/** Publishes one scene as a frame, then the archive and live documents; returns info.json. */
export async function publishSatellite(store: ObsStore, input: SatellitePublishInput): Promise<SatelliteInfo> {
  const { source, scene, now } = input;
  const maxZoom = Math.min(input.maxZoom ?? SATELLITE_DATA_MAX_ZOOM, SATELLITE_DATA_MAX_ZOOM);
  const current = (await store.readJson<SatelliteInfo>('satellite', INFO)) ?? emptyInfo(now, maxZoom);
  const archive = (await store.readJson<SatelliteInfo>('satellite', ARCHIVE_INFO)) ?? emptyInfo(now, maxZoom);
  const id = satelliteFrameId(source.id, scene.time);
  const known = [...current.frames, ...archive.frames];
  const added: SatelliteFrame[] = [];
  if (!known.some((f) => f.id === id)) {
    let tiles: string[] = [];
    await store.publishDir('satellite', `frames/${id}`, async (dir) => {
      tiles = await writeSceneTiles(dir, scene, maxZoom);
    });
    const e = sceneBounds(scene.ir.grid);
    added.push({ time: scene.time, id, source: source.id, tiles, bounds: { west: e.west, south: e.south, east: e.east, north: e.north } });
  }
  const all = [...known, ...added].sort((a, b) => a.time - b.time || a.source.localeCompare(b.source));
  const kept = all.filter((f) => f.time >= now - SATELLITE_RETENTION_MS);
  const dropped = all.filter((f) => f.time < now - SATELLITE_RETENTION_MS);
  const live = kept.filter((f) => f.time >= now - SATELLITE_LIVE_WINDOW_MS);
  const old = kept.filter((f) => f.time < now - SATELLITE_LIVE_WINDOW_MS);
  const previous = current.sources.find((s) => s.id === source.id)?.latest ?? null;
  const latest = previous === null ? scene.time : Math.max(previous, scene.time);
  const sources = [...current.sources.filter((s) => s.id !== source.id), { ...source, latest }].sort((a, b) => a.id.localeCompare(b.id));
  const topZoom = Math.max(maxZoom, current.maxZoom);
  await store.writeJson('satellite', ARCHIVE_INFO, { ...emptyInfo(now, topZoom), sources, frames: old } satisfies SatelliteInfo);
  const info: SatelliteInfo = { ...emptyInfo(now, topZoom), sources, frames: live };
  await store.writeJson('satellite', INFO, info);
  if (dropped.length > 0) {
    setTimeout(() => void Promise.all(dropped.map((f) => store.remove('satellite', `frames/${f.id}`))).catch(() => undefined), REMOVE_GRACE_MS).unref();
  }
  return info;
}
