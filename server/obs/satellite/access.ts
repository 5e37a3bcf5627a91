/**
 * Who may read which satellite file (the observation route's `access`, server/obs/core/routes.ts):
 * a frame's tiles follow satelliteTileAllowed (common/entitlements.ts: zoom and history per tier);
 * tiles only Premium may have are sent private. Documents (info.json, archive/info.json) are for all.
 */

import type { FastifyRequest } from 'fastify';
import { satelliteTileAllowed } from '../../../common/entitlements.ts';
import { isPremiumRequest } from '../../auth/tier.ts';
import { HttpError } from '../../http/httpError.ts';
import type { ObsAccessAnswer } from '../core/routes.ts';

const FRAME_TILE = /^frames\/(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})Z-[A-Za-z0-9]+\/(\d+)\/\d+\/\d+\.tile$/;

export async function satelliteAccess(path: string, request: FastifyRequest, now: () => number): Promise<ObsAccessAnswer> {
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
