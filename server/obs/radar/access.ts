/**
 * Who may read which radar file (SPEC §1: full-year radar history for Premium): the obs route's
 * `access` check for the radar family (server/obs/core/routes.ts), wired in server/app.ts. The
 * decision is common/entitlements.ts radarFrameAllowed; here only what a path is:
 *
 *   frames/{id}/...            an observed frame: refused (403) to a free user past the free window
 *   minifest2.json,
 *   archive/minifest2.json     a free user gets the manifest listing only the frames they may read
 *   nowcast/..., coverage.json everyone
 *
 * A free caller's answer is decided without looking up a token (most requests have none and the
 * frames of the last two hours are the same for everyone); the tier is asked only when it matters.
 */

import type { FastifyRequest } from 'fastify';
import { RADAR_FREE_HISTORY_MS, radarFrameAllowed } from '../../../common/entitlements.ts';
import { HOUR_MS } from '../../../common/time.ts';
import type { RadarMinifest } from '../../../common/radar.ts';
import { HttpError } from '../../http/httpError.ts';
import { isPremiumRequest } from '../../auth/tier.ts';
import type { ObsAccessAnswer } from '../core/routes.ts';
import type { ObsKind } from '../core/source.ts';
import type { ObsStore } from '../core/store.ts';
import { ARCHIVE_MINIFEST, frameTimeOf, MINIFEST } from './publish.ts';

export type RadarAccess = (kind: ObsKind, path: string, request: FastifyRequest, store: ObsStore) => Promise<ObsAccessAnswer>;

export function radarAccess(now: () => number, premiumOf: (request: FastifyRequest) => Promise<boolean> = isPremiumRequest): RadarAccess {
  return async (kind, path, request, store) => {
    if (kind !== 'radar') return;
    const at = now();
    if (path === MINIFEST || path === ARCHIVE_MINIFEST) {
      const manifest = await store.readJson<RadarMinifest>('radar', path);
      if (!manifest) return;
      const frames = manifest.frames.filter((f) => radarFrameAllowed(f.time, at, false));
      if (frames.length === manifest.frames.length) return;
      // Premium's whole list and a free caller's part of it are each the caller's own: never in a shared cache.
      if (await premiumOf(request)) return { private: true };
      return { json: { ...manifest, frames } satisfies RadarMinifest };
    }
    const frame = /^frames\/([^/]+)\//.exec(path);
    if (!frame) return;
    const time = frameTimeOf(frame[1]);
    if (time === null) return; // not a frame the publication made: the route answers 404
    if (radarFrameAllowed(time, at, false)) return;
    if (await premiumOf(request)) return { private: true };
    throw new HttpError(403, `Radar history beyond the last ${RADAR_FREE_HISTORY_MS / HOUR_MS} hours is a Premium feature`);
  };
}
