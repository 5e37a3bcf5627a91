/**
 * The warning sources (issue 15 §5), each an ObsSource of kind "warnings" (server/obs/core):
 *
 *   nwsAlerts   NWS, api.weather.gov/alerts/active (GeoJSON-LD; zone-only alerts outlined from
 *               /zones/{type}/{id}, fetched once per zone and kept in memory)
 *   ecccAlerts  ECCC, dd.weather.gc.ca/alerts/cap/{YYYYMMDD}/{office}/{HH}/*.cap (CAP 1.2, en/fr;
 *               today's and yesterday's folders, UTC; each file read once: files never change)
 *   meteoalarm  MeteoAlarm, feeds.meteoalarm.org Atom feed per country (ISOBAR_METEOALARM_COUNTRIES),
 *               each entry's CAP message read once
 *
 * Which run is ISOBAR_OBS (server/obs/core/config.ts); base URLs can be pointed elsewhere
 * (ISOBAR_NWS_API_URL, ISOBAR_ECCC_DD_URL, ISOBAR_METEOALARM_URL: a mirror, the tests' fixture
 * server). Every poll reads the current set, applies Updates and Cancels and drops invalid or expired
 * alerts with a logged reason (alertSet.ts), then publishes (publication.ts). A file that cannot be
 * read is logged by name and left out; the listing or feed itself failing fails the poll, and the
 * last publication keeps serving.
 */

import type { CapAlert } from '../../../common/capAlerts.ts';
import { DAY_MS } from '../../../common/time.ts';
import type { SourceLogger } from '../../live/source.ts';
import type { ObsFactory } from '../core/config.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { activeAlerts } from './alertSet.ts';
import { CapFormatError, parseCap, type CapMessage } from './cap.ts';
import { parseMeteoAlarmAtom } from './meteoalarm.ts';
import { parseNwsAlerts, readZoneGeometry, type NwsArea } from './nws.ts';
import { publishSourceAlerts } from './publication.ts';

type Env = Record<string, string | undefined>;

/** Minutes between polls: not in SPEC §9; NWS asks clients of /alerts/active to poll no more than every 30 s, we take 5 min. */
const WARNINGS_INTERVAL_MINUTES = 5;

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

/** Links of an HTML directory listing (autoindex), relative names. */
export function listingLinks(html: string): string[] {
  return [...html.matchAll(/href="([^"?#]+)"/g)].map((m) => decodeURI(m[1])).filter((name) => !name.startsWith('/') && !name.startsWith('..') && !name.includes('://'));
}

function logDropped(log: SourceLogger, source: string, dropped: { id: string; reason: string }[]): void {
  for (const { id, reason } of dropped) log.info({ source, alert: id, reason }, 'warning dropped');
}

async function publish(ctx: ObsContext, source: ObsSource, messages: CapMessage[]): Promise<CapAlert[]> {
  const { alerts, dropped } = activeAlerts(messages, ctx.now());
  logDropped(ctx.log, source.id, dropped);
  await publishSourceAlerts(ctx.store, { id: source.id, label: source.label, attribution: source.attribution, updated: ctx.now(), alerts }, ctx.now());
  return alerts;
}

/** Reads files once: a cache of what each URL held (a message, or the reason it was refused). */
class MessageCache {
  private readonly entries = new Map<string, CapMessage | string>();

  async get(ctx: ObsContext, source: string, url: string, provider: string): Promise<CapMessage | null> {
    let entry = this.entries.get(url);
    if (entry === undefined) {
      const xml = await ctx.http.text(url, ctx.signal);
      if (xml === null) return null;
      try {
        entry = parseCap(xml, provider);
      } catch (error) {
        if (!(error instanceof CapFormatError)) throw error;
        entry = error.message;
        ctx.log.warn({ source, file: url, err: error.message }, 'warning file refused');
      }
      this.entries.set(url, entry);
    }
    return typeof entry === 'string' ? null : entry;
  }

  /** Forgets files no longer listed upstream. */
  keepOnly(urls: ReadonlySet<string>): void {
    for (const url of this.entries.keys()) if (!urls.has(url)) this.entries.delete(url);
  }
}

export function ecccAlertsSource(env: Env = {}): ObsSource & { readonly baseUrl: string } {
  const baseUrl = withSlash(env.ISOBAR_ECCC_DD_URL ?? 'https://dd.weather.gc.ca/');
  const cache = new MessageCache();
  const source = {
    id: 'ecccAlerts', kind: 'warnings' as const, baseUrl,
    label: 'Environment and Climate Change Canada',
    attribution: 'Contains information licensed under the Data Server End-use Licence of Environment and Climate Change Canada',
    intervalMinutes: WARNINGS_INTERVAL_MINUTES,
    async poll(ctx: ObsContext): Promise<void> {
      const now = ctx.now();
      const dates = [now - DAY_MS, now].map((t) => new Date(t).toISOString().slice(0, 10).replaceAll('-', ''));
      const files: string[] = [];
      let listed = 0;
      for (const date of dates) {
        const dayUrl = `${baseUrl}alerts/cap/${date}/`;
        const day = await ctx.http.text(dayUrl, ctx.signal);
        if (day === null) continue; // a day with no alerts yet has no folder
        listed++;
        for (const office of listingLinks(day).filter((n) => /^[A-Z0-9]{4}\/$/.test(n))) {
          const officeUrl = `${dayUrl}${office}`;
          for (const hour of listingLinks(await ctx.http.text(officeUrl, ctx.signal) ?? '').filter((n) => /^\d\d\/$/.test(n))) {
            const hourUrl = `${officeUrl}${hour}`;
            for (const name of listingLinks(await ctx.http.text(hourUrl, ctx.signal) ?? '').filter((n) => n.endsWith('.cap'))) files.push(`${hourUrl}${name}`);
          }
        }
      }
      if (listed === 0) throw new ObsDataError(source.id, `${baseUrl}alerts/cap/`, `no folder for ${dates.join(' or ')}`);
      const messages: CapMessage[] = [];
      for (const url of files) {
        const message = await cache.get(ctx, source.id, url, 'eccc');
        if (message) messages.push(message);
      }
      cache.keepOnly(new Set(files));
      await publish(ctx, source, messages);
    },
  };
  return source;
}

export function nwsAlertsSource(env: Env = {}): ObsSource & { readonly baseUrl: string } {
  const baseUrl = withSlash(env.ISOBAR_NWS_API_URL ?? 'https://api.weather.gov/');
  /** Zone outlines by "forecast/ORZ004"; a zone's outline changes with NWS's yearly zone updates, never within a run of the server worth caring. */
  const zones = new Map<string, number[][]>();
  const source = {
    id: 'nwsAlerts', kind: 'warnings' as const, baseUrl,
    label: 'NOAA National Weather Service',
    attribution: 'NOAA National Weather Service (public domain)',
    intervalMinutes: WARNINGS_INTERVAL_MINUTES,
    async poll(ctx: ObsContext): Promise<void> {
      const url = `${baseUrl}alerts/active`;
      const body = await ctx.http.text(url, ctx.signal);
      if (body === null) throw new ObsDataError(source.id, url, 'not found');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch (error) {
        throw new ObsDataError(source.id, url, `not JSON: ${(error as Error).message}`);
      }
      let parsed;
      try {
        parsed = parseNwsAlerts(json);
      } catch (error) {
        if (error instanceof CapFormatError) throw new ObsDataError(source.id, url, error.message);
        throw error;
      }
      logDropped(ctx.log, source.id, parsed.errors);
      for (const message of parsed.messages) {
        for (const area of message.segments.flatMap((s) => s.alert.areas) as NwsArea[]) {
          if (!area.nwsZone) continue;
          area.polygons = await zoneRings(ctx, area.nwsZone);
          delete area.nwsZone;
        }
      }
      await publish(ctx, source, parsed.messages);
    },
  };
  async function zoneRings(ctx: ObsContext, zone: string): Promise<number[][]> {
    const known = zones.get(zone);
    if (known) return known;
    const url = `${baseUrl}zones/${zone}`;
    const body = await ctx.http.text(url, ctx.signal);
    let rings: number[][] = [];
    try {
      if (body === null) throw new CapFormatError(`zone ${zone}: not found`);
      rings = readZoneGeometry(JSON.parse(body), zone);
      zones.set(zone, rings);
    } catch (error) {
      // A zone without an outline leaves its area without geometry (dropped with a reason if the alert has no other).
      ctx.log.warn({ source: source.id, file: url, err: (error as Error).message }, 'zone outline unavailable');
    }
    return rings;
  }
  return source;
}

/** Countries MeteoAlarm publishes feeds for, by the feed's name (feeds.meteoalarm.org). */
const METEOALARM_DEFAULT_COUNTRIES = 'austria,belgium,bosnia-herzegovina,bulgaria,croatia,cyprus,czechia,denmark,estonia,finland,france,germany,greece,hungary,iceland,ireland,israel,italy,latvia,lithuania,luxembourg,malta,moldova,montenegro,netherlands,north-macedonia,norway,poland,portugal,romania,serbia,slovakia,slovenia,spain,sweden,switzerland,ukraine,united-kingdom';

export function meteoAlarmSource(env: Env = {}): ObsSource & { readonly baseUrl: string; readonly countries: string[] } {
  const baseUrl = withSlash(env.ISOBAR_METEOALARM_URL ?? 'https://feeds.meteoalarm.org/');
  const countries = (env.ISOBAR_METEOALARM_COUNTRIES ?? METEOALARM_DEFAULT_COUNTRIES).split(',').map((c) => c.trim()).filter((c) => /^[a-z-]+$/.test(c));
  const cache = new MessageCache();
  const source = {
    id: 'meteoalarm', kind: 'warnings' as const, baseUrl, countries,
    label: 'MeteoAlarm (EUMETNET)',
    attribution: 'MeteoAlarm, EUMETNET, and the national meteorological services',
    intervalMinutes: WARNINGS_INTERVAL_MINUTES,
    async poll(ctx: ObsContext): Promise<void> {
      const messages: CapMessage[] = [];
      const urls = new Set<string>();
      for (const country of countries) {
        const feedUrl = `${baseUrl}feeds/meteoalarm-legacy-atom-${country}`;
        const xml = await ctx.http.text(feedUrl, ctx.signal);
        if (xml === null) throw new ObsDataError(source.id, feedUrl, 'not found');
        let feed;
        try {
          feed = parseMeteoAlarmAtom(xml, feedUrl);
        } catch (error) {
          if (error instanceof CapFormatError) throw new ObsDataError(source.id, feedUrl, error.message);
          throw error;
        }
        logDropped(ctx.log, source.id, feed.errors);
        for (const entry of feed.entries) {
          urls.add(entry.capUrl);
          const message = await cache.get(ctx, source.id, entry.capUrl, 'meteoalarm');
          if (message) messages.push(message);
        }
      }
      cache.keepOnly(urls);
      await publish(ctx, source, messages);
    },
  };
  return source;
}

/** The warning sources (ISOBAR_OBS ids, listed in server/obs/sources.ts): all three need no key. */
export const WARNING_FACTORIES: Record<string, ObsFactory> = {
  nwsAlerts: { default: true, create: nwsAlertsSource },
  ecccAlerts: { default: true, create: ecccAlertsSource },
  meteoalarm: { default: true, create: meteoAlarmSource },
};
