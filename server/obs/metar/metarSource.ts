/**
 * The latest METAR and TAF of every station (SPEC §2 airport window, §3 pois "metars") from the
 * Aviation Weather Center's cache files (awcCache.ts):
 *   {base}/data/cache/metars.cache.csv.gz   every current METAR (gzip)
 *   {base}/data/cache/tafs.cache.xml.gz     every current TAF (gzip)
 * base https://aviationweather.gov (ISOBAR_AWC_URL). Each report is decoded
 * (common/aviation/metar.ts); a malformed one is logged with its raw text and skipped, never
 * published half-read. Published under obs/metars/: latest.json (the reports as received, latest
 * per station) then stations.json (position and flight category per station, for the map layer).
 * Every decoded report also goes into the weather stations' history (server/obs/stations/history.ts,
 * the /station windows and "nearest stations"): temperature, dew point, wind, QNH as the pressure.
 */

import { gunzipSync } from 'node:zlib';
import { FLIGHT_CATEGORIES } from '../../../common/aviation/flightCategory.ts';
import { decodeMetar, decodeTaf, MetarFormatError, type DecodedMetar } from '../../../common/aviation/metar.ts';
import {
  METARS_LATEST, METARS_STATIONS, type MetarsLatestDocument, type MetarStationsDocument,
} from '../../../common/api/airports.ts';
import type { StationInfo, StationObservation } from '../../../common/api/stations.ts';
import { relativeHumidity } from '../../../common/sounding/thermo.ts';
import { HOUR_MS } from '../../../common/time.ts';
import { stationHistoryFor } from '../stations/history.ts';
import { airportName } from '../stations/sources.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { AwcFormatError, parseMetarCacheCsv, parseTafCacheXml } from './awcCache.ts';

/** The cache files are rewritten each minute; METARs come hourly or half-hourly, SPECIs between. */
export const METAR_INTERVAL_MINUTES = 10;
/** A METAR older than this is not "current" (the cache holds the last few hours). */
const METAR_MAX_AGE_MS = 3 * HOUR_MS;
export const AWC_METARS_PATH = '/data/cache/metars.cache.csv.gz';
export const AWC_TAFS_PATH = '/data/cache/tafs.cache.xml.gz';

function gunzipIfGzip(bytes: Uint8Array, source: string, what: string): string {
  try {
    const plain = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
    return new TextDecoder().decode(plain);
  } catch (error) {
    throw new ObsDataError(source, what, `corrupt gzip (${(error as Error).message})`);
  }
}

export class AwcMetarSource implements ObsSource {
  readonly id = 'awc';
  readonly kind = 'metars' as const;
  readonly label = 'Aviation Weather Center METAR and TAF';
  readonly attribution = 'NOAA/NWS Aviation Weather Center, aviationweather.gov (public domain)';
  readonly intervalMinutes = METAR_INTERVAL_MINUTES;

  constructor(private readonly baseUrl = 'https://aviationweather.gov') {}

  private async fetchText(ctx: ObsContext, path: string): Promise<string> {
    const bytes = await ctx.http.bytes(`${this.baseUrl}${path}`, ctx.signal);
    if (bytes === null) throw new ObsDataError(this.id, path, 'not found (404)');
    return gunzipIfGzip(bytes, this.id, path);
  }

  async poll(ctx: ObsContext): Promise<void> {
    const now = ctx.now();
    let metarRows;
    let tafRows;
    try {
      metarRows = parseMetarCacheCsv(await this.fetchText(ctx, AWC_METARS_PATH));
      tafRows = parseTafCacheXml(await this.fetchText(ctx, AWC_TAFS_PATH));
    } catch (error) {
      if (error instanceof AwcFormatError || error instanceof SyntaxError) throw new ObsDataError(this.id, 'cache file', error.message);
      throw error;
    }
    const skip = (kind: string, station: string, raw: string, reason: string) =>
      ctx.log.warn({ source: this.id, kind, station, raw }, `malformed ${kind} skipped: ${reason}`);

    const metars: MetarsLatestDocument['metars'] = {};
    const categories = new Map<string, number>();
    const observed = new Map<string, { station: StationInfo; observations: StationObservation[] }>();
    for (const row of metarRows) {
      let decoded;
      try {
        decoded = decodeMetar(row.raw, now);
      } catch (error) {
        if (!(error instanceof MetarFormatError)) throw error;
        skip('METAR', row.station, row.raw, error.message);
        continue;
      }
      if (decoded.station !== row.station) {
        skip('METAR', row.station, row.raw, `the report is of ${decoded.station}`);
        continue;
      }
      if (!Number.isFinite(row.lat) || !Number.isFinite(row.lon) || Math.abs(row.lat) > 90 || Math.abs(row.lon) > 180) {
        skip('METAR', row.station, row.raw, `no position (${row.lat}, ${row.lon})`);
        continue;
      }
      if (decoded.time < now - METAR_MAX_AGE_MS || decoded.time > now + HOUR_MS) continue;
      const entry = observed.get(row.station) ?? { station: this.stationInfo(row.station, row.lat, row.lon), observations: [] };
      entry.observations.push(metarObservation(decoded, row.raw));
      observed.set(row.station, entry);
      const held = metars[row.station];
      if (held && held.time >= decoded.time) continue;
      metars[row.station] = { raw: row.raw, time: decoded.time, lat: row.lat, lon: row.lon };
      categories.set(row.station, decoded.flightCategory === null ? -1 : FLIGHT_CATEGORIES.indexOf(decoded.flightCategory));
    }

    const tafs: MetarsLatestDocument['tafs'] = {};
    for (const row of tafRows) {
      let decoded;
      try {
        decoded = decodeTaf(row.raw, now);
      } catch (error) {
        if (!(error instanceof MetarFormatError)) throw error;
        skip('TAF', row.station, row.raw, error.message);
        continue;
      }
      if (decoded.station !== row.station) {
        skip('TAF', row.station, row.raw, `the report is of ${decoded.station}`);
        continue;
      }
      if (decoded.validTo <= now) continue;
      const held = tafs[row.station];
      if (held && held.issued >= decoded.issued) continue;
      tafs[row.station] = { raw: row.raw, issued: decoded.issued };
    }

    await ctx.store.writeJson('metars', METARS_LATEST, {
      updated: now, source: this.id, label: this.label, attribution: this.attribution, metars, tafs,
    } satisfies MetarsLatestDocument);
    const icaos = Object.keys(metars).sort();
    await ctx.store.writeJson('metars', METARS_STATIONS, {
      updated: now,
      attribution: this.attribution,
      icao: icaos,
      lon: icaos.map((i) => metars[i].lon),
      lat: icaos.map((i) => metars[i].lat),
      category: icaos.map((i) => categories.get(i)!),
    } satisfies MetarStationsDocument);
    const history = stationHistoryFor(ctx.store);
    for (const { station, observations } of observed.values()) await history.addObservations(station, observations);
    await history.publish(now);
  }

  private stationInfo(icao: string, lat: number, lon: number): StationInfo {
    return { id: icao, name: airportName(icao) ?? icao, lat, lon, elevation: null, source: this.id, attribution: this.attribution };
  }
}

const KELVIN = 273.15;

/** A decoded METAR as a station observation in base units (common/api/stations.ts); QNH stands for the pressure. */
export function metarObservation(m: DecodedMetar, raw: string): StationObservation {
  return {
    time: m.time,
    temp: m.temperatureC === null ? null : m.temperatureC + KELVIN,
    dewpoint: m.dewPointC === null ? null : m.dewPointC + KELVIN,
    wind: m.wind?.speedMs ?? null,
    gust: m.wind?.gustMs ?? null,
    windDir: m.wind?.directionDeg ?? null,
    pressure: m.qnhHpa === null ? null : m.qnhHpa * 100,
    rh: m.temperatureC !== null && m.dewPointC !== null ? relativeHumidity(m.temperatureC, m.dewPointC) : null,
    weather: m.weather.length ? m.weather.join(' ') : null,
    raw,
  };
}
