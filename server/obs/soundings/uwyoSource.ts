/**
 * Radiosonde soundings from the University of Wyoming's sounding pages (SPEC §2 /radiosonde/{id}),
 * an ObsSource of kind `soundings` (server/obs/core): for each station of a configurable list, the
 * TEXT:LIST page of its latest synoptic sounding,
 *
 *   {url}/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72357
 *
 * (FROM and TO are DDHH of the launch), read by uwyo.ts and published as
 * `{dataDir}/obs/soundings/{id}.json` (a `Sounding`), then `stations.json` listing the stations
 * with their latest time (common/api/soundings.ts).
 *
 * Radiosondes go up at 00 and 12 UTC and reach the page an hour or two later: each poll asks for
 * the newest synoptic time at least SOUNDING_DELAY_MS old and, when the page has none yet ("Can't
 * get"), the one before, skipping a station whose published sounding is that recent already. A page
 * that cannot be read is logged with its text and skipped: the station's last sounding keeps
 * serving, the other stations go on.
 *
 * Not followed by default: weather.uwyo.edu has moved its pages to a new service
 * (/wsgi/sounding?datetime=...&id=...&type=TEXT:LIST, winds in m/s) and reportedly answers the
 * legacy cgi-bin layout with 403 since mid-2026; this source reads the legacy layout, the one of the
 * fixture page it is tested with. Name it in ISOBAR_OBS with ISOBAR_UWYO_URL pointing to a server
 * of that layout; the new service needs a reader tested on a real page of it.
 */

import type { SoundingStation, SoundingStations } from '../../../common/api/soundings.ts';
import type { Sounding } from '../../../common/sounding/types.ts';
import { HOUR_MS, MINUTE_MS } from '../../../common/time.ts';
import type { ObsFactory } from '../core/config.ts';
import type { ObsContext, ObsSource } from '../core/source.ts';
import { SoundingFormatError } from './format.ts';
import { parseUwyoTextList } from './uwyo.ts';

export const UWYO_URL = 'https://weather.uwyo.edu';
const ATTRIBUTION = 'University of Wyoming, Department of Atmospheric Science (weather.uwyo.edu)';
/** Radiosondes are launched every 12 hours; an hourly poll catches each within the hour it appears. */
export const UWYO_INTERVAL_MINUTES = 60;
/** How long after the nominal launch time a sounding is looked for (the flight takes about 90 minutes). */
export const SOUNDING_DELAY_MS = 100 * MINUTE_MS;
const SYNOPTIC_STEP_MS = 12 * HOUR_MS;
/** Raw text kept in the log of a page that cannot be read. */
const LOGGED_TEXT_CHARS = 2000;

/**
 * Stations followed when ISOBAR_SOUNDING_STATIONS is unset: WMO numbers of a few long-running
 * upper-air stations on several continents (Norman, Omaha, Lindenberg, Praha-Libus, Payerne,
 * Herstmonceux, Sapporo, Alice Springs).
 */
export const DEFAULT_SOUNDING_STATIONS = ['72357', '72558', '10393', '11520', '06610', '03882', '47412', '94326'] as const;

const STATION_ID = /^\d{5}$/;

/** The synoptic launch times (00 and 12 UTC) to look for at `now`, newest first. */
export function synopticCandidates(now: number, count = 2): number[] {
  const newest = Math.floor((now - SOUNDING_DELAY_MS) / SYNOPTIC_STEP_MS) * SYNOPTIC_STEP_MS;
  return Array.from({ length: count }, (_, i) => newest - i * SYNOPTIC_STEP_MS);
}

/** The TEXT:LIST page of one station and launch time, in UWyo's URL layout. */
export function uwyoPageUrl(base: string, station: string, time: number): string {
  const d = new Date(time);
  const ddhh = `${String(d.getUTCDate()).padStart(2, '0')}${String(d.getUTCHours()).padStart(2, '0')}`;
  const query = new URLSearchParams({
    region: 'naconf', TYPE: 'TEXT:LIST', YEAR: String(d.getUTCFullYear()), MONTH: String(d.getUTCMonth() + 1).padStart(2, '0'), FROM: ddhh, TO: ddhh, STNM: station,
  });
  return `${base.replace(/\/$/, '')}/cgi-bin/sounding?${query.toString()}`;
}

export function parseStationList(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_SOUNDING_STATIONS];
  const ids = [...new Set(raw.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  const bad = ids.filter((id) => !STATION_ID.test(id));
  if (bad.length > 0) throw new Error(`ISOBAR_SOUNDING_STATIONS: ${bad.join(', ')} are not WMO station numbers (five digits)`);
  return ids;
}

const stationOf = (s: Sounding): SoundingStation => ({ id: s.id, name: s.name ?? '', lat: s.lat, lon: s.lon, time: s.time });

export function uwyoSoundingSource(options: { url?: string; stations?: readonly string[] } = {}): ObsSource {
  const base = options.url ?? UWYO_URL;
  const stations = options.stations ?? DEFAULT_SOUNDING_STATIONS;
  return {
    id: 'uwyo', kind: 'soundings', label: 'University of Wyoming', attribution: ATTRIBUTION, intervalMinutes: UWYO_INTERVAL_MINUTES,
    async poll(ctx: ObsContext) {
      const listed = await ctx.store.readJson<SoundingStations>('soundings', 'stations.json');
      const known = new Map((listed?.stations ?? []).map((s) => [s.id, s]));
      for (const station of stations) {
        for (const time of synopticCandidates(ctx.now())) {
          if ((known.get(station)?.time ?? -Infinity) >= time) break;
          const url = uwyoPageUrl(base, station, time);
          const page = await ctx.http.text(url, ctx.signal);
          if (page === null || /Can't get/i.test(page)) continue;
          let sounding: Sounding;
          try {
            const found = parseUwyoTextList(page).map((r) => r.sounding).filter((s) => s.id === station);
            if (found.length === 0) throw new SoundingFormatError('UWyo TEXT:LIST', `no sounding of station ${station} on the page`);
            sounding = found.reduce((a, b) => (b.time > a.time ? b : a));
          } catch (e) {
            if (!(e instanceof SoundingFormatError)) throw e;
            ctx.log.warn({ source: 'uwyo', url, error: e.message, text: page.slice(0, LOGGED_TEXT_CHARS) }, 'radiosonde page skipped: it cannot be read');
            break;
          }
          await ctx.store.writeJson('soundings', `${station}.json`, sounding);
          known.set(station, stationOf(sounding));
          break;
        }
      }
      // The list last, once the soundings it names are in place; only the followed stations.
      const list: SoundingStations = {
        source: 'uwyo', attribution: ATTRIBUTION, updated: ctx.now(),
        stations: stations.flatMap((id) => known.get(id) ?? []),
      };
      await ctx.store.writeJson('soundings', 'stations.json', list);
    },
  };
}

/** ISOBAR_UWYO_URL (a mirror), ISOBAR_SOUNDING_STATIONS (comma list of WMO station numbers). */
export const SOUNDING_FACTORIES: Record<string, ObsFactory> = {
  uwyo: {
    default: false,
    create: (env) => uwyoSoundingSource({ url: env.ISOBAR_UWYO_URL?.trim() || undefined, stations: parseStationList(env.ISOBAR_SOUNDING_STATIONS) }),
  },
};

