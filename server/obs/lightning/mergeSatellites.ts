/**
 * One flash seen by two Geostationary Lightning Mappers is published once (issue 15 §3). GOES-East
 * (75.2° W) and GOES-West (137.2° W) both see the eastern Pacific and the Americas between them; with
 * both buckets configured (glmSource.ts), each flash there comes in twice, once from each satellite's
 * own Lightning Cluster Filter Algorithm (LCFA), a few km and a few ms apart.
 *
 * Two flashes are the same when they come from different satellites, lie inside the field of view
 * of both, their first events are at most SAME_FLASH_MS apart and their centroids at most
 * SAME_FLASH_KM apart. Those are the LCFA's own flash-clustering thresholds (GOES-R GLM Lightning
 * Cluster-Filter Algorithm ATBD, Goodman et al. 2010; Goodman et al. 2013, Atmos. Res. 125-126, 34-49:
 * groups within 330 ms and 16.5 km of a flash's groups join it, as for TRMM LIS, Mach et al. 2007): had one satellite seen both, its LCFA would have
 * made them one flash. They cover the differences between the two fixes: a GLM pixel is 8 km at nadir
 * (the files' spatial_resolution, "8km at nadir") to about 14 km at the edge of the view, the two
 * satellites' lightning-ellipsoid parallax is a few km, and both time-stamp events to the 2 ms frame.
 * The files' own thresholds are not these: flash_time_threshold (3.33 s in the fixtures, "lightning
 * flash maximum time difference among lightning events in a flash") is the longest a flash may last,
 * and group_time_threshold is 0 s (a group is one 2 ms frame); no file attribute states a distance.
 *
 * Of a pair, the flash kept is the one with the good quality flag (flash_quality_flag 0) when the
 * other is degraded, else the one nearer its satellite's nadir (the smaller pixel and parallax).
 * Pairs are made one to one, closest first, so each flash is merged at most once; a flash only one
 * satellite saw is never dropped.
 *
 * Cost: the candidates (flashes inside two satellites' views) are sorted by time and swept with a
 * window of SAME_FLASH_MS, so each is compared only with the few flashes of the same 0.66 s:
 * O(n log n + n w) for w flashes per window, not O(n²).
 */

import { greatCircleKm } from '../../../common/capAlerts.ts';
import type { GlmView } from './glm.ts';

/** LCFA flash clustering time: first events at most this far apart (ms). */
export const SAME_FLASH_MS = 330;
/** LCFA flash clustering distance: centroids at most this far apart (km). */
export const SAME_FLASH_KM = 16.5;
/** flash_quality_flag of a good flash (the files' flag_meanings: good_quality_qf). */
const GOOD_QUALITY = 0;
/** km per degree of latitude on the sphere greatCircleKm uses: a cheap first test of distance. */
const KM_PER_DEGREE = 111.195;

/** A flash as the merge needs it: where, when, how good, and from which satellite. */
export interface SatelliteFlash {
  lon: number;
  lat: number;
  /** First optical event, ms since the epoch. */
  time: number;
  quality: number;
  /** platform_ID of the file (G16, G17, ...). */
  platform: string;
  view: GlmView;
}

export interface MergedFlashes<T> {
  /** The flashes published, in their input order. */
  kept: T[];
  /** Flashes left out because another satellite's copy of the same flash was kept. */
  merged: number;
}

const degrees360 = (x: number): number => ((x % 360) + 360) % 360;

/** Whether (lon, lat) is inside a satellite's stated field of view (a lon/lat box, maybe across the antimeridian). */
export function inView(view: GlmView, lon: number, lat: number): boolean {
  if (lat < view.south || lat > view.north) return false;
  return degrees360(lon - view.west) <= degrees360(view.east - view.west);
}

/** Whether a is the copy to keep over b (header comment). */
function keepFirst(a: SatelliteFlash, b: SatelliteFlash): boolean {
  if ((a.quality === GOOD_QUALITY) !== (b.quality === GOOD_QUALITY)) return a.quality === GOOD_QUALITY;
  const nadirKm = (f: SatelliteFlash) => greatCircleKm(f.lon, f.lat, f.view.subpointLon, f.view.subpointLat);
  return nadirKm(a) <= nadirKm(b);
}

/** Indices of the flashes inside the view of a satellite other than their own, oldest first. */
function candidates(flashes: readonly SatelliteFlash[]): number[] {
  const byPlatform = new Map<string, GlmView>();
  for (const f of flashes) if (!byPlatform.has(f.platform)) byPlatform.set(f.platform, f.view);
  if (byPlatform.size < 2) return [];
  const views = [...byPlatform];
  const seenTwice = (f: SatelliteFlash) => views.some(([platform, view]) => platform !== f.platform && inView(view, f.lon, f.lat));
  const out: number[] = [];
  for (let i = 0; i < flashes.length; i++) if (seenTwice(flashes[i])) out.push(i);
  return out.sort((i, j) => flashes[i].time - flashes[j].time);
}

/** Leaves out the second copy of each flash two satellites saw (header comment). */
export function mergeSatellites<T extends SatelliteFlash>(flashes: readonly T[]): MergedFlashes<T> {
  const order = candidates(flashes);
  const pairs: { a: number; b: number; score: number }[] = [];
  for (let x = 0; x < order.length; x++) {
    const a = flashes[order[x]];
    for (let y = x + 1; y < order.length && flashes[order[y]].time - a.time <= SAME_FLASH_MS; y++) {
      const b = flashes[order[y]];
      if (b.platform === a.platform || Math.abs(b.lat - a.lat) * KM_PER_DEGREE > SAME_FLASH_KM) continue;
      const km = greatCircleKm(a.lon, a.lat, b.lon, b.lat);
      if (km > SAME_FLASH_KM) continue;
      const score = (km / SAME_FLASH_KM) ** 2 + ((b.time - a.time) / SAME_FLASH_MS) ** 2;
      pairs.push({ a: order[x], b: order[y], score });
    }
  }
  pairs.sort((p, q) => p.score - q.score);
  const paired = new Uint8Array(flashes.length);
  const dropped = new Uint8Array(flashes.length);
  let merged = 0;
  for (const { a, b } of pairs) {
    if (paired[a] || paired[b]) continue;
    paired[a] = paired[b] = 1;
    dropped[keepFirst(flashes[a], flashes[b]) ? b : a] = 1;
    merged++;
  }
  return { kept: merged === 0 ? [...flashes] : flashes.filter((_, i) => !dropped[i]), merged };
}
