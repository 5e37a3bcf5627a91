/**
 * Who may read which satellite file (the observation route's `access`, server/obs/core/routes.ts):
 * a frame's tiles follow satelliteTileAllowed (common/entitlements.ts: zoom and history per tier);
 * tiles only Premium may have are sent private. A free caller's info.json and archive/info.json
 * list only the frames they may read (as the radar's manifests, server/obs/radar/access.ts).
 */

import type { FastifyRequest } from 'fastify';
import { satelliteTileAllowed } from '../../../common/entitlements.ts';
import { isPremiumRequest } from '../../auth/tier.ts';
import { HttpError } from '../../http/httpError.ts';
import type { SatelliteInfo } from '../../../common/satellite.ts';
import type { ObsAccessAnswer } from '../core/routes.ts';
import type { ObsStore } from '../core/store.ts';
import { ARCHIVE_INFO, INFO } from './publish.ts';

const FRAME_TILE = /^frames\/(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})Z-[A-Za-z0-9]+\/(\d+)\/\d+\/\d+\.tile$/;

export async function satelliteAccess(path: string, request: FastifyRequest, store: ObsStore, now: () => number): Promise<ObsAccessAnswer> {
  if (path === INFO || path === ARCHIVE_INFO) {
    const info = await store.readJson<SatelliteInfo>('satellite', path);
    if (!info) return;
    const at = now();
    const frames = info.frames.filter((f) => satelliteTileAllowed(0, f.time, at, false));
    if (frames.length === info.frames.length || await isPremiumRequest(request, now)) return;
    return { json: { ...info, frames } satisfies SatelliteInfo };
  }
  const m = FRAME_TILE.exec(path);
  if (!m) return;
  const [year, month, day, hour, minute, z] = m.slice(1).map(Number);
  const frameTime = Date.UTC(year, month - 1, day, hour, minute);
  const at = now();
  if (satelliteTileAllowed(z, frameTime, at, false)) return;
  if (!satelliteTileAllowed(z, frameTime, at, await isPremiumRequest(request, now))) {
    throw new HttpError(403, 'This satellite frame needs Premium (older than the free history, or beyond the free zoom)');
  }
  return { private: true };
}
