/**
 * The station source end to end on the server: the fixture server answers the NWS API's
 * /stations/{id}/observations/latest with the real KFLL observation of
 * ../shared/data/obs/observations, the poller publishes the history, the station routes answer.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaProblem } from '../../../common/api/schema.ts';
import { searchPath, type SearchResult } from '../../../common/api/search.ts';
import { STATION_HISTORY_ANSWER, stationPath, STATIONS_LIST_ANSWER, stationsListPath, type StationObservation } from '../../../common/api/stations.ts';
import { DAY_MS, HOUR_MS } from '../../../common/time.ts';
import { buildApp } from '../../app.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { describeWithFixtures, FIXTURES_DIR } from '../../live/testing.ts';
import { startObsPoller } from '../core/poller.ts';
import { ObsStore } from '../core/store.ts';
import { StationHistoryStore } from './history.ts';
import { parseNwsObservation, parseNwsObservations, StationFormatError } from './nws.ts';
import { nwsStationsSource } from './sources.ts';

const LATEST = 'obs/observations/nws-api_stations-observations-latest.json';
const readLatest = () => readFile(`${FIXTURES_DIR}${LATEST}`, 'utf8');
/** The fixture's observation time, 2022-03-02 23:53Z. */
const OBSERVED = Date.UTC(2022, 2, 2, 23, 53);

function logger() {
  const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describeWithFixtures('the NWS observation reader', () => {
  it('reads the real KFLL observation into base units', async () => {
    const read = parseNwsObservation(JSON.parse(await readLatest()));
    expect(read).toMatchObject({ stationId: 'KFLL', lat: 26.07, elevation: 3 });
    expect(read.lon).toBeCloseTo(-80.15, 6);
    const o = read.observation;
    expect(o.time).toBe(OBSERVED);
    // The METAR's T02280183: 22.8 °C and 18.3 °C.
    expect(o.temp).toBeCloseTo(22.8 + 273.15, 6);
    expect(o.dewpoint).toBeCloseTo(18.3 + 273.15, 6);
    // 7.56 km/h from 020°, no gust reported (value null).
    expect(o.wind).toBeCloseTo(7.56 / 3.6, 6);
    expect(o.windDir).toBe(20);
    expect(o.gust).toBeNull();
    // Sea-level pressure (SLP187: 1018.7 hPa) before the station's own.
    expect(o.pressure).toBe(101870);
    expect(o.rh).toBeCloseTo(75.77, 2);
    expect(o.weather).toBe('Mostly Cloudy');
    expect(o.raw).toMatch(/^KFLL 022353Z 02004KT/);
  });

  it('refuses an observation whole when a value is not readable, and keeps the others of a collection', async () => {
    const good = JSON.parse(await readLatest());
    const badUnit = structuredClone(good);
    badUnit.properties.temperature.unitCode = 'wmoUnit:furlong';
    expect(() => parseNwsObservation(badUnit)).toThrow(StationFormatError);
    expect(() => parseNwsObservation(badUnit)).toThrow(/temperature has unit "wmoUnit:furlong"/);
    const noTime = structuredClone(good);
    noTime.properties.timestamp = 'yesterday';
    expect(() => parseNwsObservation(noTime)).toThrow(/timestamp "yesterday" is not a time/);
    // A value that failed quality control (X) is null, the rest stands.
    const rejected = structuredClone(good);
    rejected.properties.temperature.qualityControl = 'X';
    expect(parseNwsObservation(rejected).observation.temp).toBeNull();
    const { observations, refused } = parseNwsObservations({ type: 'FeatureCollection', features: [good, badUnit, noTime] });
    expect(observations).toHaveLength(1);
    expect(refused.map((r) => r.reason)).toEqual([expect.stringMatching(/furlong/), expect.stringMatching(/yesterday/)]);
    expect(refused[0].raw).toContain('"rawMessage":"KFLL 022353Z');
  });
});

describe('the station history', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'isobar-station-history-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const obs = (time: number, temp: number): StationObservation => ({ time, temp, dewpoint: null, wind: null, gust: null, windDir: null, pressure: null, rh: null, weather: null });
  const station = { id: 'TEST1', name: 'Test', lat: 50, lon: 14, elevation: 300, source: 'metar' };

  it('merges observations by time, prunes past the retention, drops a station left without any, and reads back after a restart', async () => {
    const store = new ObsStore(dir);
    const history = new StationHistoryStore(store, 2 * DAY_MS);
    const t0 = Date.UTC(2025, 0, 1);
    expect(await history.addObservations(station, [obs(t0, 270), obs(t0 + HOUR_MS, 271)])).toBe(2);
    // The same report again adds nothing; a corrected one replaces it.
    expect(await history.addObservations(station, [obs(t0 + HOUR_MS, 271)])).toBe(0);
    expect(await history.addObservations(station, [obs(t0 + HOUR_MS, 272)])).toBe(1);
    await history.publish(t0 + 2 * HOUR_MS);
    const again = new StationHistoryStore(store, 2 * DAY_MS);
    await again.load();
    expect(again.history('TEST1')?.observations.map((o) => o.temp)).toEqual([270, 272]);
    // Two days and a half later the first is gone, and at three the station.
    await again.publish(t0 + 2 * DAY_MS + 30 * 60_000);
    expect(again.history('TEST1')?.observations.map((o) => o.time)).toEqual([t0 + HOUR_MS]);
    await again.publish(t0 + 3 * DAY_MS);
    expect(again.history('TEST1')).toBeNull();
    expect(await store.readJson('stations', 'stations.json')).toMatchObject({ stations: [] });
  });
});

describeWithFixtures('the NWS station source against the fixture server', () => {
  let upstream: FixtureServer;
  let dataDir: string;
  let app: FastifyInstance;
  const http = new SourceHttp({ retry: { attempts: 1 } });

  beforeAll(async () => {
    upstream = await FixtureServer.start();
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-stations-'));
    // api.weather.gov/stations/{id}/observations/latest
    upstream.files.set('/stations/KFLL/observations/latest', new TextEncoder().encode(await readLatest()));
    app = await buildApp({ now: () => OBSERVED, distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [] } });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes the latest observation, names the station, and answers the list and history routes', async () => {
    const { lines, log } = logger();
    const source = nwsStationsSource({ ISOBAR_NWS_API_URL: upstream.url, ISOBAR_NWS_STATIONS: 'KFLL,KXXX' });
    let now = OBSERVED + 10 * 60_000;
    const poller = startObsPoller({ sources: [source], dataDir, logger: log, http, pollOnStart: false, now: () => now });
    try {
      expect(await poller.pollNow('nwsStations')).toEqual({ ok: true });
      // The station's history starts from /observations (not served here: its latest instead), then /latest.
      expect(upstream.log.map((r) => r.path)).toEqual(expect.arrayContaining(['/stations/KFLL/observations', '/stations/KFLL/observations/latest', '/stations/KFLL']));

      const list = await app.inject({ url: stationsListPath() });
      expect(list.statusCode).toBe(200);
      expect(schemaProblem(STATIONS_LIST_ANSWER, list.json(), 'answer')).toBeNull();
      expect(list.json().stations).toMatchObject([{
        id: 'KFLL', name: 'Fort Lauderdale Hollywood International Airport', lat: 26.07, elevation: 3, source: 'nwsStations',
        latest: { time: OBSERVED, weather: 'Mostly Cloudy', windDir: 20 },
      }]);

      // Miami (25.76 N, 80.19 W) to the airport: about 35 km.
      const near = (await app.inject({ url: stationsListPath({ lat: 25.7617, lon: -80.1918, limit: 3 }) })).json();
      expect(near.stations[0].id).toBe('KFLL');
      expect(near.stations[0].distanceKm).toBeGreaterThan(30);
      expect(near.stations[0].distanceKm).toBeLessThan(40);

      // The search finds the station by its id and its name, with the country of the town near it.
      for (const query of ['KFLL', 'Fort Lauderdale Hollywood']) {
        const found = (await app.inject({ url: searchPath(query) })).json().results as SearchResult[];
        expect(found.find((r) => r.type === 'station'), query).toMatchObject({ stationId: 'KFLL', name: 'Fort Lauderdale Hollywood International Airport', cc: 'US' });
      }

      const one = await app.inject({ url: stationPath('kfll') });
      expect(one.statusCode).toBe(200);
      expect(schemaProblem(STATION_HISTORY_ANSWER, one.json(), 'answer')).toBeNull();
      expect(one.json().observations).toHaveLength(1);

      // A malformed report upstream: logged with its raw text, skipped; what was published stays.
      const broken = JSON.parse(await readLatest());
      broken.properties.timestamp = '2022-03-03T00:53:00+00:00';
      broken.properties.windSpeed = { unitCode: 'wmoUnit:km_h-1', value: 'calm' };
      upstream.files.set('/stations/KFLL/observations/latest', new TextEncoder().encode(JSON.stringify(broken)));
      now += HOUR_MS;
      expect(await poller.pollNow('nwsStations')).toEqual({ ok: true });
      const refused = lines.find((l) => l.msg === 'station observation refused');
      expect(refused?.obj).toMatchObject({ source: 'nwsStations', station: 'KFLL', err: 'windSpeed value "calm" is not a number' });
      expect(refused?.obj.raw).toContain('"value":"calm"');
      expect((await app.inject({ url: stationPath('KFLL') })).json().observations).toHaveLength(1);
      // The station that never answered is logged, not fatal.
      expect(lines.find((l) => l.msg === 'station not found upstream')?.obj).toMatchObject({ station: 'KXXX' });
    } finally {
      await poller.stop();
    }
  });

  it('answers an unknown station with a 404 that names it, and bad coordinates with a 400', async () => {
    for (const id of ['ZZZZ', 'no such station', '../etc']) {
      const response = await app.inject({ url: stationPath(id) });
      expect(response.statusCode, id).toBe(404);
      expect(response.json().message, id).toMatch(/^Unknown station/);
    }
    for (const [url, message] of [
      ['/stations/v1.0/list?lat=95&lon=10', /latitude/],
      ['/stations/v1.0/list?lat=45', /both or neither/],
      ['/stations/v1.0/list?lat=45&lon=10&limit=500', /limit/],
    ] as const) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(message);
    }
  });
});
