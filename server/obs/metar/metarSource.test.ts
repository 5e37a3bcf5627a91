// The fixture server serves the AWC cache files built from the real reports (testing.ts: there is
// no real cache file among the fixtures) and verbatim OurAirports runway rows, at the upstreams' URL layouts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { nearestAirportsPath, type AirportAnswer, type MetarsLatestDocument, type MetarStationsDocument, type NearestAirportsAnswer } from '../../../common/api/airports.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { buildApp } from '../../app.ts';
import { obsConfigFromEnv } from '../core/config.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { stationHistoryFor } from '../stations/history.ts';
import { OBS_FACTORIES } from '../sources.ts';
import { AWC_METARS_PATH, AWC_TAFS_PATH, AwcMetarSource } from './metarSource.ts';
import { OurAirportsRunwaysSource } from './runwaysSource.ts';
import {
  airportPositions, awcMetarCacheCsvBuilt, awcTafCacheXmlBuilt, FIXTURE_STATIONS, OURAIRPORTS_RUNWAYS_EXCERPT, readAvwxMetar, readAvwxTaf,
} from './testing.ts';

let server: FixtureServer;
let dataDir: string;
/** The fixture METARs are of 2023-10-17 05:50-05:53Z, the TAFs of 2024-05-09 02:50-03:15Z. */
const METAR_NOW = Date.UTC(2023, 9, 17, 6);
const TAF_NOW = Date.UTC(2024, 4, 9, 4);

function context(now: number, warnings: object[] = []): ObsContext {
  return {
    http: new SourceHttp({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
    store: new ObsStore(dataDir),
    log: { debug() {}, info() {}, warn: (obj) => void warnings.push(obj), error() {} },
    now: () => now,
    signal: new AbortController().signal,
  };
}

/** Each fixture's first report and the one glued after it (an hour older), a malformed real report, and the TAFs. */
async function putCacheFiles(): Promise<void> {
  const positions = await airportPositions();
  const rows = [];
  for (const station of FIXTURE_STATIONS) {
    const { raw, time } = await readAvwxMetar(station);
    const cut = raw.indexOf(` ${station} `, 5);
    const p = positions.get(station)!;
    rows.push({ raw: raw.slice(0, cut), station, time: time.dt, lat: p.lat, lon: p.lon });
    rows.push({ raw: raw.slice(cut + 1), station, time: time.dt, lat: p.lat, lon: p.lon });
  }
  // metar_sanitize_cases.json: a real report without a day-time group, as a feed might carry it.
  rows.push({ raw: 'MPSM VRB10G19MPSM Q1001', station: 'MPSM', time: '', lat: Number.NaN, lon: Number.NaN });
  server.put(AWC_METARS_PATH, gzipSync(awcMetarCacheCsvBuilt(rows)));
  const tafs = [];
  for (const station of FIXTURE_STATIONS) tafs.push({ raw: (await readAvwxTaf(station)).raw, station });
  tafs.push({ raw: 'TAF KXYZ NIL', station: 'KXYZ' });
  server.put(AWC_TAFS_PATH, gzipSync(awcTafCacheXmlBuilt(tafs)));
}

beforeAll(async () => {
  server = await FixtureServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-metars-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
  server.files.clear();
  server.clearFaults();
  server.clearLog();
});

describeWithFixtures('AWC METAR source', () => {
  it('publishes the latest METAR per station and the station list with flight categories; a malformed report is logged with its raw text and skipped', async () => {
    await putCacheFiles();
    const warnings: object[] = [];
    await new AwcMetarSource(server.url).poll(context(METAR_NOW, warnings));
    const store = new ObsStore(dataDir);
    const latest = (await store.readJson<MetarsLatestDocument>('metars', 'latest.json'))!;
    expect(Object.keys(latest.metars).sort()).toEqual([...FIXTURE_STATIONS]);
    // The newer of each station's two reports.
    expect(latest.metars.KJFK.raw).toMatch(/^KJFK 170551Z /);
    expect(latest.metars.KJFK.time).toBe(Date.UTC(2023, 9, 17, 5, 51));
    // At the METAR poll's time the TAFs (of May 2024) are long expired... as dated in October 2023.
    expect(latest.tafs).toEqual({});
    expect(warnings).toEqual([
      expect.objectContaining({ kind: 'METAR', station: 'MPSM', raw: 'MPSM VRB10G19MPSM Q1001' }),
      expect.objectContaining({ kind: 'TAF', station: 'KXYZ', raw: 'TAF KXYZ NIL' }),
    ]);
    const stations = (await store.readJson<MetarStationsDocument>('metars', 'stations.json'))!;
    expect(stations.icao).toEqual([...FIXTURE_STATIONS]);
    expect(stations.category).toEqual([0, 0, 0, 0]); // VFR everywhere, as avwx's flight_rules say
    expect(stations.lat[1]).toBeCloseTo(40.64, 2);

    // Both of KJFK's reports are in the weather stations' history, in base units.
    const history = stationHistoryFor(store).history('KJFK')!;
    expect(history.station).toMatchObject({ id: 'KJFK', source: 'awc', name: expect.stringMatching(/Kennedy/) as unknown });
    expect(history.observations.map((o) => o.time)).toEqual([Date.UTC(2023, 9, 17, 4, 51), Date.UTC(2023, 9, 17, 5, 51)]);
    // KJFK 170551Z 36007KT 10SM FEW085 SCT250 11/07 A2979
    const last = history.observations[1];
    expect(last.temp).toBeCloseTo(284.15, 6);
    expect(last.dewpoint).toBeCloseTo(280.15, 6);
    expect(last.windDir).toBe(360);
    expect(last.wind).toBeCloseTo(7 * 1852 / 3600, 6);
    expect(last.pressure! / 100).toBeCloseTo(29.79 * 33.8639, 1);
    expect(last.rh).toBeCloseTo(76.5, 0);
    const published = (await store.readJson<{ stations: { id: string }[] }>('stations', 'stations.json'))!;
    expect(published.stations.map((s) => s.id)).toEqual([...FIXTURE_STATIONS]);
  });

  it('publishes the current TAFs; a NIL TAF is logged and skipped', async () => {
    await putCacheFiles();
    const warnings: object[] = [];
    await new AwcMetarSource(server.url).poll(context(TAF_NOW, warnings));
    const latest = (await new ObsStore(dataDir).readJson<MetarsLatestDocument>('metars', 'latest.json'))!;
    expect(Object.keys(latest.tafs).sort()).toEqual([...FIXTURE_STATIONS]);
    expect(latest.tafs.KJFK.issued).toBe(Date.UTC(2024, 4, 9, 3, 15));
    // The METARs of October 2023 are too old to be current in May 2024.
    expect(latest.metars).toEqual({});
    expect(warnings).toContainEqual(expect.objectContaining({ kind: 'TAF', station: 'KXYZ', raw: 'TAF KXYZ NIL' }));
  });

  it('fails the poll on a missing or unreadable cache file and keeps the last publication', async () => {
    await putCacheFiles();
    const source = new AwcMetarSource(server.url);
    await source.poll(context(METAR_NOW));
    const before = await new ObsStore(dataDir).readJson<MetarsLatestDocument>('metars', 'latest.json');
    server.put(AWC_METARS_PATH, gzipSync('No errors\nNo warnings\n'));
    await expect(source.poll(context(METAR_NOW + 60_000))).rejects.toThrow(ObsDataError);
    server.put(AWC_METARS_PATH, new Uint8Array([0x1f, 0x8b, 1, 2, 3]));
    await expect(source.poll(context(METAR_NOW + 60_000))).rejects.toThrow(/corrupt gzip/);
    server.remove(AWC_TAFS_PATH);
    await putCacheFiles();
    server.remove(AWC_TAFS_PATH);
    await expect(source.poll(context(METAR_NOW + 60_000))).rejects.toThrow(/not found/);
    expect(await new ObsStore(dataDir).readJson<MetarsLatestDocument>('metars', 'latest.json')).toEqual(before);
  });

  it('is followed by default and off with ISOBAR_OBS=none', () => {
    expect(obsConfigFromEnv(OBS_FACTORIES, {}).sources.map((s) => s.id)).toEqual(expect.arrayContaining(['awc', 'ourairports']));
    expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_SOURCES: 'none' }).sources).toEqual([]);
  });
});

describeWithFixtures('the airport route', () => {
  it('answers an airport with its METAR, TAF and OurAirports runways; 404 for a code nobody knows; 400 for a malformed one', async () => {
    await putCacheFiles();
    server.put('/runways.csv', OURAIRPORTS_RUNWAYS_EXCERPT);
    await new OurAirportsRunwaysSource(server.url).poll(context(METAR_NOW));
    await new AwcMetarSource(server.url).poll(context(METAR_NOW));
    const app = await buildApp({ dataDir, obs: { sources: [] } });
    try {
      const kjfk = await app.inject({ method: 'GET', url: '/airports/v1.0/kjfk' });
      expect(kjfk.statusCode).toBe(200);
      const answer = kjfk.json() as AirportAnswer;
      expect(answer).toMatchObject({ icao: 'KJFK', iata: 'JFK', name: 'John F Kennedy International Airport', elevationFt: 13, taf: null });
      expect(answer.metar?.raw).toMatch(/^KJFK 170551Z/);
      expect(answer.metarsUpdated).toBe(METAR_NOW);
      expect(answer.runways?.map((r) => r.ends.map((e) => `${e.ident} ${e.headingDegT}`))).toEqual([
        ['04L 31', '22R 211'], ['04R 30.6', '22L 210.6'], ['13L 121', '31R 301'], ['13R 121', '31L 301'],
      ]);
      expect(answer.attribution).toHaveLength(2);
      // EGLL: in OurAirports, no runway rows in the excerpt: an empty list, not "no data".
      expect((await app.inject({ method: 'GET', url: '/airports/v1.0/EGLL' })).json()).toMatchObject({ icao: 'EGLL', runways: [] });
      // No METAR from KLGA in the feed, though the feed has published.
      expect((await app.inject({ method: 'GET', url: '/airports/v1.0/KLGA' })).json()).toMatchObject({ icao: 'KLGA', metar: null, metarsUpdated: METAR_NOW });
      expect((await app.inject({ method: 'GET', url: '/airports/v1.0/ZZZZ' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/airports/v1.0/KJ%2FK' })).statusCode).toBe(400);

      // The airports nearest a point in Queens: JFK first, with its METAR's category, then LaGuardia.
      const near = (await app.inject({ method: 'GET', url: nearestAirportsPath(40.66, -73.8, 3) })).json() as NearestAirportsAnswer;
      expect(near.airports.map((a) => a.icao).slice(0, 2)).toEqual(['KJFK', 'KLGA']);
      expect(near.airports[0]).toMatchObject({ iata: 'JFK', category: 'VFR' });
      expect(near.airports[0].distanceKm).toBeLessThan(3);
      expect(near.airports[1].category).toBeNull();
      expect(near.airports).toHaveLength(3);
      expect(near.attribution).toHaveLength(2);
      // Mid-Pacific: none within 300 km. Bad coordinates and limits: 400.
      expect((await app.inject({ method: 'GET', url: nearestAirportsPath(-30, -140) })).json()).toMatchObject({ airports: [] });
      expect((await app.inject({ method: 'GET', url: nearestAirportsPath(95, 0) })).statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: nearestAirportsPath(40, 0, 99) })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('refuses a runways.csv without its columns and keeps the last one', async () => {
    server.put('/runways.csv', OURAIRPORTS_RUNWAYS_EXCERPT);
    const source = new OurAirportsRunwaysSource(server.url);
    await source.poll(context(METAR_NOW));
    server.put('/runways.csv', 'id,airport_ident\n1,KJFK\n');
    await expect(source.poll(context(METAR_NOW))).rejects.toThrow(/no column length_ft/);
    const app = await buildApp({ dataDir, obs: { sources: [] } });
    try {
      const kjfk = (await app.inject({ method: 'GET', url: '/airports/v1.0/KJFK' })).json() as AirportAnswer;
      expect(kjfk.runways).toHaveLength(4);
      // No METAR feed has published here.
      expect(kjfk).toMatchObject({ metar: null, metarsUpdated: null });
    } finally {
      await app.close();
    }
  });
});
