/**
 * Active fire detections as the firespots POI layer (issue 15 §6; SPEC §3 pois "firespots"; SPEC §9:
 * fires every 60 min). Two upstreams:
 *   - NASA FIRMS, area API, with a MAP_KEY (ISOBAR_FIRMS_KEY; free at firms.modaps.eosdis.nasa.gov/api/map_key):
 *     `{base}/api/area/csv/{key}/{product}/world/1` per product (ISOBAR_FIRMS_PRODUCTS, default the
 *     three VIIRS 375 m NRT streams), detections of the last day;
 *   - NOAA HMS fire points without a key: `{base}/pub/FIRE/web/HMS/Fire_Points/Text/{YYYY}/{MM}/hms_fire{YYYYMMDD}.txt`,
 *     today's file (UTC, grown through the day) and yesterday's.
 * Each keeps the detections of the 24 hours before the poll and publishes them as one GeoJSON
 * document `{id}.geojson` (common/obs/fires.ts) with the source's label, credit line and time, written
 * atomically; a malformed answer fails the poll (ObsDataError) and the last document stays.
 */

import { firespotsGeoJson, FIRES_INTERVAL_MINUTES, type FireSpot } from '../../../common/obs/fires.ts';
import { DAY_MS } from '../../../common/time.ts';
import type { SourceLogger } from '../../live/source.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { FiresFormatError, parseFirmsCsv } from './firms.ts';
import { parseHmsText } from './hms.ts';

/** Detections kept: the day before the poll (FIRMS day_range 1). */
const FIRES_WINDOW_MS = DAY_MS;

/** A published firespots document: the GeoJSON collection with who made it and when (foreign members, RFC 7946 §6.1). */
export async function publishFirespots(ctx: ObsContext, source: ObsSource, spots: readonly FireSpot[]): Promise<void> {
  const recent = spots.filter((s) => s.time >= ctx.now() - FIRES_WINDOW_MS && s.time <= ctx.now()).sort((a, b) => a.time - b.time);
  await ctx.store.writeJson('fires', `${source.id}.geojson`, {
    ...firespotsGeoJson(recent), source: source.id, label: source.label, attribution: source.attribution, updated: new Date(ctx.now()).toISOString(),
  });
}

export const FIRMS_DEFAULT_PRODUCTS = ['VIIRS_NOAA20_NRT', 'VIIRS_NOAA21_NRT', 'VIIRS_SNPP_NRT'];

export class FirmsSource implements ObsSource {
  readonly id = 'firms';
  readonly kind = 'fires' as const;
  readonly label = 'NASA FIRMS active fires (VIIRS, MODIS)';
  readonly attribution = 'NASA FIRMS (LANCE), Earth Science Data and Information System';
  readonly intervalMinutes = FIRES_INTERVAL_MINUTES;
  readonly unsupportedReason?: string;

  constructor(private readonly key: string, private readonly baseUrl = 'https://firms.modaps.eosdis.nasa.gov', private readonly products = FIRMS_DEFAULT_PRODUCTS) {
    if (key === '') this.unsupportedReason = 'ISOBAR_FIRMS_KEY is not set (a free MAP_KEY from firms.modaps.eosdis.nasa.gov/api/map_key)';
    else if (!/^[A-Za-z0-9]+$/.test(key)) this.unsupportedReason = 'ISOBAR_FIRMS_KEY is not a FIRMS MAP_KEY (letters and digits)';
  }

  /** The key goes in the URL path (the API's design): never into a log line or an error. */
  private redact(text: string): string {
    return this.key === '' ? text : text.split(this.key).join('<MAP_KEY>');
  }

  async poll(ctx: ObsContext): Promise<void> {
    const log = ctx.log;
    const redacting: SourceLogger = {
      debug: (o, m) => log.debug(JSON.parse(this.redact(JSON.stringify(o))), m),
      info: (o, m) => log.info(JSON.parse(this.redact(JSON.stringify(o))), m),
      warn: (o, m) => log.warn(JSON.parse(this.redact(JSON.stringify(o))), m),
      error: (o, m) => log.error(JSON.parse(this.redact(JSON.stringify(o))), m),
    };
    const http = ctx.http.with({ log: redacting });
    const spots: FireSpot[] = [];
    for (const product of this.products) {
      const what = `area/csv/<MAP_KEY>/${product}/world/1`;
      let text: string | null;
      try {
        text = await http.text(`${this.baseUrl}/api/area/csv/${this.key}/${product}/world/1`, ctx.signal);
      } catch (error) {
        // The cause would carry the key in its message: the redacted message is all that goes on.
        // eslint-disable-next-line preserve-caught-error
        throw new Error(this.redact(String((error as Error).message ?? error)));
      }
      if (text === null) throw new ObsDataError(this.id, what, 'not found (404)');
      try {
        spots.push(...parseFirmsCsv(text));
      } catch (error) {
        if (error instanceof FiresFormatError) throw new ObsDataError(this.id, what, this.redact(error.message));
        throw error;
      }
    }
    await publishFirespots(ctx, this, spots);
  }
}

/** The HMS text file of the UTC day of t. */
export function hmsPath(t: number): string {
  const iso = new Date(t).toISOString();
  return `/pub/FIRE/web/HMS/Fire_Points/Text/${iso.slice(0, 4)}/${iso.slice(5, 7)}/hms_fire${iso.slice(0, 10).replace(/-/g, '')}.txt`;
}

export class HmsSource implements ObsSource {
  readonly id = 'hms';
  readonly kind = 'fires' as const;
  readonly label = 'NOAA Hazard Mapping System fire points';
  readonly attribution = 'NOAA NESDIS Hazard Mapping System (public domain)';
  readonly intervalMinutes = FIRES_INTERVAL_MINUTES;

  constructor(private readonly baseUrl = 'https://satepsanone.nesdis.noaa.gov') {}

  async poll(ctx: ObsContext): Promise<void> {
    const spots: FireSpot[] = [];
    let found = 0;
    for (const day of [ctx.now() - DAY_MS, ctx.now()]) {
      const path = hmsPath(day);
      const text = await ctx.http.text(`${this.baseUrl}${path}`, ctx.signal);
      if (text === null) continue; // today's file appears with the first analysis of the day
      found++;
      try {
        spots.push(...parseHmsText(text));
      } catch (error) {
        if (error instanceof FiresFormatError) throw new ObsDataError(this.id, path, error.message);
        throw error;
      }
    }
    if (found === 0) throw new ObsDataError(this.id, hmsPath(ctx.now()), 'neither today\'s nor yesterday\'s HMS file is there');
    await publishFirespots(ctx, this, spots);
  }
}
