/**
 * Publication of radar frames through the observation store (server/obs/core): each frame a
 * folder of gzip data tiles `frames/{id}/{z}/{x}/{y}.tile` (nowcasts under `nowcast/`), written
 * whole by publishDir; then `coverage.json`, `archive/minifest2.json` (frames older than the live
 * window, up to the retention) and `minifest2.json` last (SPEC §7 radar hosts).
 */

import { gzipSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  RADAR_DBZ_QUANTIZATION, RADAR_LIVE_WINDOW_MS, RADAR_MAX_ZOOM, RADAR_MIN_ZOOM, RADAR_RETENTION_MS, radarTilePath,
  type RadarCoverage, type RadarFrame, type RadarMinifest, type RadarSourceInfo,
} from '../../../common/radar.ts';
import { REMOVE_GRACE_MS, type ObsStore } from '../core/store.ts';
import type { RadarField } from './field.ts';
import { coverageRings, fieldExtent, packRadarTile, reduceRadarTile, renderRadarTile, tilesOver } from './tiles.ts';

export const MINIFEST = 'minifest2.json';
export const ARCHIVE_MINIFEST = 'archive/minifest2.json';
export const COVERAGE = 'coverage.json';
/** gzip level of the tiles (server/ingest/tiles.ts INGEST_GZIP_LEVEL measured level 1 as the fast choice). */
const GZIP_LEVEL = 1;

function emptyMinifest(now: number): RadarMinifest {
  return {
    version: 2, updated: now, minZoom: RADAR_MIN_ZOOM, maxZoom: RADAR_MAX_ZOOM,
    quantization: { ...RADAR_DBZ_QUANTIZATION, unit: 'dBZ' }, frames: [], nowcast: [], sources: [],
  };
}

export function frameId(sources: readonly string[], time: number): string {
  return `${new Date(time).toISOString().replace(/[-:]/g, '').slice(0, 13)}Z-${sources.join('+')}`;
}

/** The valid time a frame id (frameId) names, to the minute; null for a name frameId does not make. */
export function frameTimeOf(id: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})Z-/.exec(id);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const time = Date.UTC(year, month - 1, day, hour, minute);
  return frameId([], time).slice(0, 14) === id.slice(0, 14) ? time : null;
}

/**
 * Renders the fields (one time, one or more providers merged) into a frame folder; returns the
 * tiles written. The top zoom samples the fields (nearest cell, renderRadarTile); each lower zoom
 * is made from the one above by the maximum over each node's footprint (reduceRadarTile), so small
 * echoes stay visible on the overview.
 */
export async function writeFrameTiles(dir: string, fields: readonly RadarField[], maxZoom = RADAR_MAX_ZOOM): Promise<string[]> {
  const extents = fields.map(fieldExtent);
  const written: string[][] = [];
  let above = new Map<string, Uint16Array>();
  for (let z = maxZoom; z >= RADAR_MIN_ZOOM; z--) {
    const here = new Map<string, Uint16Array>();
    const zoom: string[] = [];
    written.unshift(zoom);
    for (const address of tilesOver(z, extents)) {
      const { x, y } = address;
      const q = z === maxZoom
        ? renderRadarTile(address, fields, extents)
        : reduceRadarTile([[2 * x, 2 * y], [2 * x + 1, 2 * y], [2 * x, 2 * y + 1], [2 * x + 1, 2 * y + 1]].map(([cx, cy]) => above.get(`${cx}/${cy}`) ?? null));
      if (!q) continue;
      here.set(`${x}/${y}`, q);
      const path = radarTilePath(address.z, address.x, address.y);
      await mkdir(join(dir, String(address.z), String(address.x)), { recursive: true });
      await writeFile(join(dir, path), gzipSync(packRadarTile(address, q), { level: GZIP_LEVEL }));
      zoom.push(`${address.z}/${address.x}/${address.y}`);
    }
    above = here;
  }
  return written.flat();
}

export interface PublishInput {
  source: RadarSourceInfo;
  /** Observed frames (usually one) and nowcast frames of this poll. */
  observed: RadarField[];
  nowcast?: RadarField[];
  now: number;
}

/** Publishes a poll's frames, then the coverage and the manifests; returns the new manifest. */
export async function publishRadar(store: ObsStore, input: PublishInput): Promise<RadarMinifest> {
  const { source, now } = input;
  const current = (await store.readJson<RadarMinifest>('radar', MINIFEST)) ?? emptyMinifest(now);
  const archive = (await store.readJson<RadarMinifest>('radar', ARCHIVE_MINIFEST)) ?? emptyMinifest(now);
  const known = new Set([...current.frames, ...archive.frames].map((f) => f.id));
  const added: RadarFrame[] = [];
  for (const field of input.observed) {
    const id = frameId([source.id], field.time);
    if (known.has(id)) continue;
    let tiles: string[] = [];
    await store.publishDir('radar', `frames/${id}`, async (dir) => {
      tiles = await writeFrameTiles(dir, [field]);
    });
    added.push({ time: field.time, id, sources: [source.id], tiles });
  }
  const nowcast: RadarFrame[] = [];
  const analysis = input.nowcast?.[0]?.time;
  for (const field of input.nowcast ?? []) {
    const id = frameId([source.id], field.time) + `-n${analysis === undefined ? 0 : Math.round((field.time - analysis) / 60000)}`;
    let tiles: string[] = [];
    await store.publishDir('radar', `nowcast/${id}`, async (dir) => {
      tiles = await writeFrameTiles(dir, [field]);
    });
    nowcast.push({ time: field.time, id, sources: [source.id], tiles, leadMinutes: Math.round((field.time - (analysis ?? field.time)) / 60000) });
  }
  const all = [...current.frames, ...archive.frames, ...added].sort((a, b) => a.time - b.time);
  const kept = all.filter((f) => f.time >= now - RADAR_RETENTION_MS);
  const dropped = all.filter((f) => f.time < now - RADAR_RETENTION_MS);
  const live = kept.filter((f) => f.time >= now - RADAR_LIVE_WINDOW_MS);
  const old = kept.filter((f) => f.time < now - RADAR_LIVE_WINDOW_MS);
  const latest = [...input.observed, ...(input.nowcast ?? [])].reduce<number | null>((t, f) => (input.observed.includes(f) ? Math.max(t ?? f.time, f.time) : t), source.latest);
  const sources = [...current.sources.filter((s) => s.id !== source.id), { ...source, latest }].sort((a, b) => a.id.localeCompare(b.id));
  const nowcastFrames = input.nowcast ? [...current.nowcast.filter((f) => !f.sources.includes(source.id)), ...nowcast] : current.nowcast;
  const staleNowcast = current.nowcast.filter((f) => !nowcastFrames.includes(f));

  const fields = [...input.observed, ...(input.nowcast ?? [])];
  if (fields.length > 0) {
    const coverage = (await store.readJson<RadarCoverage>('radar', COVERAGE)) ?? { sources: [] };
    const field = fields[0];
    coverage.sources = [...coverage.sources.filter((s) => s.id !== source.id), { id: source.id, rings: coverageRings(field, fieldExtent(field)) }];
    await store.writeJson('radar', COVERAGE, coverage);
  }
  await store.writeJson('radar', ARCHIVE_MINIFEST, { ...emptyMinifest(now), sources, frames: old } satisfies RadarMinifest);
  const manifest: RadarMinifest = { ...emptyMinifest(now), sources, frames: live, nowcast: nowcastFrames.sort((a, b) => a.time - b.time) };
  await store.writeJson('radar', MINIFEST, manifest);
  // Items no manifest lists any more go after readers of the old manifest are done with them.
  const removals = [...dropped.map((f) => `frames/${f.id}`), ...staleNowcast.map((f) => `nowcast/${f.id}`)];
  if (removals.length > 0) {
    setTimeout(() => void Promise.all(removals.map((p) => store.remove('radar', p))).catch(() => undefined), REMOVE_GRACE_MS).unref();
  }
  return manifest;
}
