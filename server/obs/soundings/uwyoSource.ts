/**
 * Radiosonde soundings from the University of Wyoming (SPEC §2 /radiosonde/{id}), an ObsSource of
 * kind `soundings` (server/obs/core): for each station of a configurable list, its latest synoptic
 * sounding, published as `{dataDir}/obs/soundings/{id}.json` (a `Sounding`), then `stations.json`
 * listing the stations with their latest time (common/api/soundings.ts).
 *
 * Two URL layouts (ISOBAR_UWYO_LAYOUT):
 *
 *   wsgi     (default) weather.uwyo.edu's current service, one launch of one station as comma
 *            separated values, read by uwyoCsv.ts; no sounding at that time answers 400 (or 404):
 *              {url}/wsgi/sounding?datetime=2018-12-22%2012%3A00%3A00&id=72357&type=TEXT:CSV
 *   cgi-bin  the legacy TEXT:LIST pages (FROM and TO are DDHH of the launch), read by uwyo.ts, which
 *            weather.uwyo.edu retired in 2026 (it answers 403 or 404); for a mirror of that layout:
 *              {url}/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72357
 *
 * Radiosondes go up at 00 and 12 UTC and reach the service an hour or two later: each poll asks for
 * the newest synoptic time at least SOUNDING_DELAY_MS old and, when there is none yet, the one
 * before, skipping a station whose published sounding is that recent already. An answer that cannot
 * be read is logged with its text and skipped: the station's last sounding keeps serving, the other
 * stations go on. The CSV answer names no station: the default stations are named from
 * SOUNDING_STATION_NAMES, others by their number.
 */

import type { SoundingStation, SoundingStations } from '../../../common/api/soundings.ts';
import type { Sounding } from '../../../common/sounding/types.ts';
import { HOUR_MS, MINUTE_MS } from '../../../common/time.ts';
import type { ObsFactory } from '../core/config.ts';
import type { ObsContext, ObsSource } from '../core/source.ts';
import { HttpStatusError } from '../../live/http.ts';
import { SoundingFormatError } from './format.ts';
import { parseUwyoTextList } from './uwyo.ts';
import { parseUwyoCsv } from './uwyoCsv.ts';

export const UWYO_URL = 'https://weather.uwyo.edu';
const ATTRIBUTION = 'University of Wyoming, Department of Atmospheric Science (weather.uwyo.edu)';
/** Radiosondes are launched every 12 hours; an hourly poll catches each within the hour it appears. */
export const UWYO_INTERVAL_MINUTES = 60;
/** How long after the nominal launch time a sounding is looked for (the flight takes about 90 minutes). */
export const SOUNDING_DELAY_MS = 100 * MINUTE_MS;
const SYNOPTIC_STEP_MS = 12 * HOUR_MS;
/** Raw text kept in the log of an answer that cannot be read. */
const LOGGED_TEXT_CHARS = 2000;

/**
 * Stations followed when ISOBAR_SOUNDING_STATIONS is unset: WMO numbers of a few long-running
 * upper-air stations on several continents (Norman, Omaha, Lindenberg, Praha-Libus, Payerne,
 * Herstmonceux, Sapporo, Alice Springs).
 */
export const DEFAULT_SOUNDING_STATIONS = ['72357', '72558', '10393', '11520', '06610', '03882', '47412', '94326'] as const;

/** The default stations' names (WMO station list), for the CSV answers, which carry none. */
export const SOUNDING_STATION_NAMES: Readonly<Record<string, string>> = {
  72357: 'Norman', 72558: 'Omaha/Valley', 10393: 'Lindenberg', 11520: 'Praha-Libus', '06610': 'Payerne', '03882': 'Herstmonceux',
  47412: 'Sapporo', 94326: 'Alice Springs',
};

const STATION_ID = /^\d{5}$/;

/** The synoptic launch times (00 and 12 UTC) to look for at `now`, newest first. */
export function synopticCandidates(now: number, count = 2): number[] {
  const newest = Math.floor((now - SOUNDING_DELAY_MS) / SYNOPTIC_STEP_MS) * SYNOPTIC_STEP_MS;
  return Array.from({ length: count }, (_, i) => newest - i * SYNOPTIC_STEP_MS);
}

/** The TEXT:CSV answer of one station and launch time, in the URL layout of UWyo's current service. */
export function uwyoCsvUrl(base: string, station: string, time: number): string {
  const iso = new Date(time).toISOString();
  const datetime = encodeURIComponent(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`);
  return `${base.replace(/\/$/, '')}/wsgi/sounding?datetime=${datetime}&id=${station}&type=TEXT:CSV`;
}

/** The TEXT:LIST page of one station and launch time, in UWyo's legacy URL layout. */
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

/** What tells the two URL layouts apart: where a launch is asked for, and how its answer reads. */
interface Layout {
  url(base: string, station: string, time: number): string;
  /** The answer's text, or null when it has no sounding at that time (yet). */
  fetch(ctx: ObsContext, url: string): Promise<string | null>;
  /** One station's sounding of one launch; throws SoundingFormatError. */
  read(text: string, station: string, time: number): Sounding;
}

const LAYOUTS = {
  wsgi: {
    url: uwyoCsvUrl,
    async fetch(ctx, url) {
      try {
        return await ctx.http.text(url, ctx.signal);
      } catch (error) {
        // The current service answers a launch it has no sounding of with 400 and a line of text.
        if (error instanceof HttpStatusError && error.status === 400) return null;
        throw error;
      }
    },
    read: (text, station, time) => parseUwyoCsv(text, { station, time, name: SOUNDING_STATION_NAMES[station] }).sounding,
  },
  'cgi-bin': {
    url: uwyoPageUrl,
    async fetch(ctx, url) {
      const text = await ctx.http.text(url, ctx.signal);
      return text !== null && /Can't get/i.test(text) ? null : text;
    },
    read(text, station) {
      const found = parseUwyoTextList(text).map((r) => r.sounding).filter((s) => s.id === station);
      if (found.length === 0) throw new SoundingFormatError('UWyo TEXT:LIST', `no sounding of station ${station} on the page`);
      return found.reduce((a, b) => (b.time > a.time ? b : a));
    },
  },
} satisfies Record<string, Layout>;

export type UwyoLayout = keyof typeof LAYOUTS;

export function parseLayout(raw: string | undefined): UwyoLayout {
  const layout = raw?.trim() || 'wsgi';
  if (!Object.hasOwn(LAYOUTS, layout)) throw new Error(`ISOBAR_UWYO_LAYOUT: ${JSON.stringify(layout)} is not one of ${Object.keys(LAYOUTS).join(', ')}`);
  return layout as UwyoLayout;
}

const stationOf = (s: Sounding): SoundingStation => ({ id: s.id, name: s.name ?? '', lat: s.lat, lon: s.lon, time: s.time });

export function uwyoSoundingSource(options: { url?: string; stations?: readonly string[]; layout?: UwyoLayout } = {}): ObsSource {
  const base = options.url ?? UWYO_URL;
  const stations = options.stations ?? DEFAULT_SOUNDING_STATIONS;
  const layout: Layout = LAYOUTS[options.layout ?? 'wsgi'];
  return {
    id: 'uwyo', kind: 'soundings', label: 'University of Wyoming', attribution: ATTRIBUTION, intervalMinutes: UWYO_INTERVAL_MINUTES,
    async poll(ctx: ObsContext) {
      const listed = await ctx.store.readJson<SoundingStations>('soundings', 'stations.json');
      const known = new Map((listed?.stations ?? []).map((s) => [s.id, s]));
      for (const station of stations) {
        for (const time of synopticCandidates(ctx.now())) {
          if ((known.get(station)?.time ?? -Infinity) >= time) break;
          const url = layout.url(base, station, time);
          const text = await layout.fetch(ctx, url);
          if (text === null) continue;
          let sounding: Sounding;
          try {
            sounding = layout.read(text, station, time);
          } catch (e) {
            if (!(e instanceof SoundingFormatError)) throw e;
            ctx.log.warn({ source: 'uwyo', url, error: e.message, text: text.slice(0, LOGGED_TEXT_CHARS) }, 'radiosonde sounding skipped: it cannot be read');
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

/**
 * ISOBAR_UWYO_URL (a mirror), ISOBAR_UWYO_LAYOUT (wsgi or cgi-bin), ISOBAR_SOUNDING_STATIONS (comma
 * list of WMO station numbers).
 */
export const SOUNDING_FACTORIES: Record<string, ObsFactory> = {
  uwyo: {
    default: true,
    create: (env) => uwyoSoundingSource({
      url: env.ISOBAR_UWYO_URL?.trim() || undefined, layout: parseLayout(env.ISOBAR_UWYO_LAYOUT), stations: parseStationList(env.ISOBAR_SOUNDING_STATIONS),
    }),
  },
};

