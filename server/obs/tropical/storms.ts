/**
 * Storms as the publication carries them (common/api/storms.ts), built from what the readers give:
 * a best track (ATCF b-deck, or IBTrACS rows), optionally a forecast (NHC forecast/advisory, or an
 * a-deck's official aid) and the cone NHC's radii sweep along it (common/tropical/cone.ts).
 */

import type { StormDetail, StormFix, StormSummary } from '../../../common/api/storms.ts';
import { type Basin, isSuperTyphoon, stormCategory } from '../../../common/tropical/category.ts';
import { CONE_SEASON, forecastCone } from '../../../common/tropical/cone.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { type AtcfRecord, stormName, validTime } from './atcf.ts';
import type { IbtracsRow } from './ibtracs.ts';
import type { AdvisoryPoint, ForecastAdvisory } from './nhc.ts';

/** A storm whose latest fix is this recent is active (decks of ended storms stay on the servers). */
export const ACTIVE_WITHIN_MS = 24 * HOUR_MS;

export type StormSource = StormSummary['source'];

export interface StormForecast {
  issued: number;
  points: AdvisoryPoint[];
}

function atcfId(basin: Basin, number: number, year: number): string {
  return `${basin.toLowerCase()}${String(number).padStart(2, '0')}${year}`;
}

function summarise(id: string, basin: Basin, name: string, source: StormSource, track: StormFix[], now: number): StormSummary {
  const winds = track.map((f) => f.windKt).filter((w): w is number => w !== null);
  const pressures = track.map((f) => f.pressureHpa).filter((p): p is number => p !== null);
  const maxWindKt = winds.length ? Math.max(...winds) : null;
  const last = track[track.length - 1];
  return {
    id, basin, name, source,
    active: now - last.time <= ACTIVE_WITHIN_MS && now >= track[0].time,
    category: stormCategory(maxWindKt ?? 0),
    maxWindKt,
    minPressureHpa: pressures.length ? Math.min(...pressures) : null,
    superTyphoon: maxWindKt !== null && isSuperTyphoon(basin, maxWindKt),
    start: track[0].time,
    last,
  };
}

function detail(summary: StormSummary, track: StormFix[], forecast: StormForecast | null, attribution: string): StormDetail {
  const rings = forecast ? forecastCone(summary.basin, forecast.points) : null;
  return {
    storm: summary,
    track,
    forecast: forecast && { issued: forecast.issued, points: forecast.points.map((p) => ({ ...p })) },
    cone: rings && { season: CONE_SEASON, rings },
    attribution,
  };
}

/** One storm from its ATCF best track (b-deck records, BEST lines). */
export function stormFromBestTrack(records: readonly AtcfRecord[], source: StormSource, now: number, forecast: StormForecast | null, attribution: string): StormDetail {
  const best = records.filter((r) => r.tech === 'BEST' && r.tau === 0).sort((a, b) => a.time - b.time);
  if (!best.length) throw new Error('stormFromBestTrack: the deck has no BEST records');
  const first = best[0];
  if (best.some((r) => r.basin !== first.basin || r.number !== first.number)) throw new Error('stormFromBestTrack: the deck mixes storms');
  const track: StormFix[] = best.map((r) => ({ time: r.time, lat: r.lat, lon: r.lon, windKt: r.windKt, pressureHpa: r.pressureHpa, type: r.type, radii: r.radii }));
  const id = atcfId(first.basin, first.number, new Date(first.time).getUTCFullYear());
  return detail(summarise(id, first.basin, stormName(best), source, track, now), track, forecast, attribution);
}

/**
 * The forecast of an a-deck's aid (`OFCL` NHC's official forecast, `JTWC` JTWC's): its latest
 * base time, one point per forecast hour; null when the deck has none.
 */
export function forecastFromAdeck(records: readonly AtcfRecord[], tech: string): StormForecast | null {
  const aid = records.filter((r) => r.tech === tech);
  if (!aid.length) return null;
  const issued = Math.max(...aid.map((r) => r.time));
  const points = aid.filter((r) => r.time === issued).sort((a, b) => a.tau - b.tau)
    .map((r) => ({ time: validTime(r), hour: r.tau, lat: r.lat, lon: r.lon, windKt: r.windKt, gustKt: r.gustKt }));
  return { issued, points };
}

export function forecastFromAdvisory(advisory: ForecastAdvisory): StormForecast {
  return { issued: advisory.issued, points: advisory.points };
}

/** The storms of IBTrACS rows with an ATCF id (the id the list and the routes use), one per id. */
export function stormsFromIbtracs(rows: readonly IbtracsRow[], now: number, attribution: string): StormDetail[] {
  const byId = new Map<string, IbtracsRow[]>();
  for (const r of rows) if (r.atcfId) byId.set(r.atcfId, [...(byId.get(r.atcfId) ?? []), r]);
  return [...byId].map(([id, storm]) => {
    const sorted = [...storm].sort((a, b) => a.time - b.time);
    const track: StormFix[] = sorted.map((r) => ({ time: r.time, lat: r.lat, lon: r.lon, windKt: r.windKt, pressureHpa: r.pressureHpa, type: r.type }));
    const basin = id.slice(0, 2).toUpperCase() as Basin;
    const name = [...sorted].reverse().find((r) => r.name && r.name !== 'NOT_NAMED')?.name ?? '';
    return detail(summarise(id, basin, name, 'ibtracs', track, now), track, null, attribution);
  });
}
