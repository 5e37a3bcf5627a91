import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schemaProblem } from '../../../common/api/schema.ts';
import { SOUNDING, SOUNDING_STATIONS, SOUNDING_STATIONS_PATH, soundingPath, type SoundingStations } from '../../../common/api/soundings.ts';
import type { Sounding } from '../../../common/sounding/types.ts';
import { buildApp } from '../../app.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import type { SourceLogger } from '../../live/source.ts';
import { describeWithFixtures } from '../../live/testing.ts';
import { obsConfigFromEnv } from '../core/config.ts';
import type { ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { OBS_FACTORIES } from '../sources.ts';
import { readSoundingFixture, uwyoCsvText } from './testing.ts';
import { parseUwyoTextList } from './uwyo.ts';
import { DEFAULT_SOUNDING_STATIONS, parseLayout, parseStationList, synopticCandidates, uwyoCsvUrl, uwyoPageUrl, uwyoSoundingSource } from './uwyoSource.ts';

/** Two hours after the fixture's launch (72357 OUN, 12 UTC 22 Dec 2018). */
const NOW = Date.UTC(2018, 11, 22, 14);

/** A poll's context over `store` at `now`, one try per download, its warnings kept in `warnings`. */
function pollContext(store: ObsStore, warnings: Array<Record<string, unknown>>, now: number): ObsContext {
  const log: SourceLogger = { debug() {}, info() {}, warn: (o) => warnings.push(o as Record<string, unknown>), error() {} };
  return { http: new SourceHttp({ retry: { attempts: 1 } }), log, store, now: () => now, signal: new AbortController().signal };
}

describe('UWyo sounding source: times, URLs and configuration', () => {
  it('looks for the newest 00/12 UTC launch at least 100 minutes old, then the one before', () => {
    expect(synopticCandidates(NOW)).toEqual([Date.UTC(2018, 11, 22, 12), Date.UTC(2018, 11, 22, 0)]);
    expect(synopticCandidates(Date.UTC(2018, 11, 22, 13, 30))).toEqual([Date.UTC(2018, 11, 22, 0), Date.UTC(2018, 11, 21, 12)]);
  });
  it('writes the URLs of both layouts as weather.uwyo.edu does', () => {
    expect(uwyoCsvUrl('https://weather.uwyo.edu/', '72357', Date.UTC(2018, 11, 22, 12)))
      .toBe('https://weather.uwyo.edu/wsgi/sounding?datetime=2018-12-22%2012%3A00%3A00&id=72357&type=TEXT:CSV');
    expect(uwyoPageUrl('https://weather.uwyo.edu', '72357', Date.UTC(2018, 11, 22, 12)))
      .toBe('https://weather.uwyo.edu/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72357');
  });
  it('reads the station list, refusing what is not a WMO number', () => {
    expect(parseStationList(undefined)).toEqual([...DEFAULT_SOUNDING_STATIONS]);
    expect(parseStationList(' 72357,10393 ,72357')).toEqual(['72357', '10393']);
    expect(() => parseStationList('72357,OUN')).toThrow(/ISOBAR_SOUNDING_STATIONS: OUN are not WMO station numbers/);
    expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'uwyo', ISOBAR_SOUNDING_STATIONS: '72357' }).sources.map((s) => [s.id, s.kind])).toEqual([['uwyo', 'soundings']]);
    // Keyless and free: followed by default.
    expect(obsConfigFromEnv(OBS_FACTORIES, {}).sources.map((s) => s.id)).toContain('uwyo');
  });
  it('reads the layout setting: the current service unless a mirror of the legacy one is named', () => {
    expect(parseLayout(undefined)).toBe('wsgi');
    expect(parseLayout(' cgi-bin ')).toBe('cgi-bin');
    expect(() => parseLayout('html')).toThrow(/ISOBAR_UWYO_LAYOUT: "html" is not one of wsgi, cgi-bin/);
    expect(() => obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'uwyo', ISOBAR_UWYO_LAYOUT: 'html' })).toThrow(/ISOBAR_UWYO_LAYOUT/);
  });
});

describeWithFixtures('UWyo sounding source, legacy layout, against the fixture server (the real TEXT:LIST page)', () => {
  let server: FixtureServer;
  let dataDir: string;
  let store: ObsStore;
  let page: string;
  const asked: string[] = [];
  const warnings: Array<Record<string, unknown>> = [];
  const context = (now = NOW) => pollContext(store, warnings, now);

  beforeAll(async () => {
    page = await readSoundingFixture('uwyo');
    server = await FixtureServer.start();
    server.put('/cgi-bin/sounding', page);
    server.onRequest = (req) => asked.push(req.url ?? '');
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-soundings-'));
    store = new ObsStore(dataDir);
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes the latest sounding of each station, then the station list; a page of another station is logged and skipped', async () => {
    // The fixture server answers every query with OUN's page: 72558's request gets the wrong station.
    await uwyoSoundingSource({ url: server.url, stations: ['72357', '72558'], layout: 'cgi-bin' }).poll(context());
    expect(asked).toEqual([
      '/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72357',
      '/cgi-bin/sounding?region=naconf&TYPE=TEXT%3ALIST&YEAR=2018&MONTH=12&FROM=2212&TO=2212&STNM=72558',
    ]);
    const sounding = (await store.readJson<Sounding>('soundings', '72357.json'))!;
    expect(schemaProblem(SOUNDING, sounding)).toBeNull();
    expect(sounding).toMatchObject({ source: 'radiosonde', id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, time: Date.UTC(2018, 11, 22, 12) });
    expect(sounding.levels).toHaveLength(104);
    const list = (await store.readJson<SoundingStations>('soundings', 'stations.json'))!;
    expect(schemaProblem(SOUNDING_STATIONS, list)).toBeNull();
    expect(list.stations).toEqual([{ id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, time: Date.UTC(2018, 11, 22, 12) }]);
    expect(list.source).toBe('uwyo');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: 'uwyo', error: expect.stringMatching(/no sounding of station 72558/) as unknown });
    expect(String(warnings[0].text)).toContain('72357 OUN Norman Observations');
  });

  it('asks nothing again for a station it has the newest sounding of', async () => {
    asked.length = 0;
    await uwyoSoundingSource({ url: server.url, stations: ['72357'], layout: 'cgi-bin' }).poll(context());
    expect(asked).toEqual([]);
  });

  it('a cut page is logged with its text and skipped: the last sounding keeps serving', async () => {
    warnings.length = 0;
    server.put('/cgi-bin/sounding', page.slice(0, page.indexOf('Station elevation')));
    // Twelve hours on: a newer launch is looked for, and its page is cut.
    await uwyoSoundingSource({ url: server.url, stations: ['72357'], layout: 'cgi-bin' }).poll(context(NOW + 12 * 3_600_000));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].error).toMatch(/UWyo TEXT:LIST: .*truncated/);
    expect((await store.readJson<Sounding>('soundings', '72357.json'))!.time).toBe(Date.UTC(2018, 11, 22, 12));
    expect((await store.readJson<SoundingStations>('soundings', 'stations.json'))!.stations.map((s) => s.id)).toEqual(['72357']);
    server.put('/cgi-bin/sounding', page);
  });

  it('"Can\'t get" (no sounding yet) tries the launch before, and publishes nothing new', async () => {
    server.put('/cgi-bin/sounding', "<HTML><BODY><H2>Can't get 72357 OUN Norman Observations at 00Z 23 Dec 2018</H2></BODY></HTML>");
    asked.length = 0;
    warnings.length = 0;
    await uwyoSoundingSource({ url: server.url, stations: ['72357'], layout: 'cgi-bin' }).poll(context(NOW + 12 * 3_600_000));
    // 00Z 23 Dec, then 12Z 22 Dec which it has: one request.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('FROM=2300');
    expect(warnings).toEqual([]);
    server.put('/cgi-bin/sounding', page);
  });

  describe('served at /obs/v1.0/soundings/', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await buildApp({ distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [uwyoSoundingSource({ url: server.url, stations: ['72357'], layout: 'cgi-bin' })], pollOnStart: false } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      await vi.waitUntil(() => app.obs !== null, { timeout: 5_000 });
    });
    afterAll(async () => {
      await app.close();
    });
    it('the station list and the sounding answer their contracts; an unknown station is a 404', async () => {
      const list = await app.inject({ method: 'GET', url: SOUNDING_STATIONS_PATH });
      expect(list.statusCode).toBe(200);
      expect(schemaProblem(SOUNDING_STATIONS, list.json())).toBeNull();
      const one = await app.inject({ method: 'GET', url: soundingPath('72357') });
      expect(one.statusCode).toBe(200);
      expect(schemaProblem(SOUNDING, one.json())).toBeNull();
      expect((one.json() as Sounding).levels[0]).toMatchObject({ pressure: 966, temp: 3.6 });
      expect((await app.inject({ method: 'GET', url: soundingPath('99999') })).statusCode).toBe(404);
    });
  });
});

describeWithFixtures('UWyo sounding source, current layout (TEXT:CSV), against the fixture server', () => {
  let server: FixtureServer;
  let dataDir: string;
  let store: ObsStore;
  let page: Sounding;
  const warnings: Array<Record<string, unknown>> = [];
  const context = (now = NOW) => pollContext(store, warnings, now);
  const source = (stations = ['72357']) => uwyoSoundingSource({ url: server.url, stations });
  const launch = (time: number) => ({ datetime: new Date(time).toISOString().slice(0, 19).replace('T', ' '), type: 'TEXT:CSV' });
  const asked = () => server.requests('/wsgi/sounding').length;

  beforeAll(async () => {
    // The real Norman sounding (TEXT:LIST fixture) written as the service's CSV answer.
    [{ sounding: page }] = parseUwyoTextList(await readSoundingFixture('uwyo'));
    server = await FixtureServer.start();
    server.putQuery('/wsgi/sounding', { id: '72357', ...launch(page.time) }, uwyoCsvText(page));
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-soundings-csv-'));
    store = new ObsStore(dataDir);
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes each station that has a sounding, named, with the launch asked for; one without (404) is left out quietly', async () => {
    await source(['72357', '72558']).poll(context());
    // 72357 at 12 UTC; 72558 at 12 UTC then 00 UTC, neither there.
    expect(server.requests('/wsgi/sounding').map((r) => r.status)).toEqual([200, 404, 404]);
    const sounding = (await store.readJson<Sounding>('soundings', '72357.json'))!;
    expect(schemaProblem(SOUNDING, sounding)).toBeNull();
    expect(sounding).toMatchObject({ source: 'radiosonde', id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, elevation: 345, time: Date.UTC(2018, 11, 22, 12) });
    expect(sounding.levels[0]).toEqual({ pressure: 966, height: 345, temp: 3.6, dewpoint: -1.2, windDir: 55, windSpeed: page.levels[0].windSpeed });
    const list = (await store.readJson<SoundingStations>('soundings', 'stations.json'))!;
    expect(schemaProblem(SOUNDING_STATIONS, list)).toBeNull();
    expect(list.stations).toEqual([{ id: '72357', name: 'Norman', lat: 35.18, lon: -97.44, time: Date.UTC(2018, 11, 22, 12) }]);
    expect(warnings).toEqual([]);
  });

  it('no sounding yet (400, as the service answers) tries the launch before; a cut answer is logged with its text and the last sounding keeps serving', async () => {
    const later = NOW + 12 * 3_600_000;
    server.clearLog();
    server.fault({ path: '/wsgi/sounding', fault: { kind: 'status', status: 400 } });
    await source().poll(context(later));
    // 00 UTC 23 Dec: 400; 12 UTC 22 Dec is what it has: one request.
    expect(asked()).toBe(1);
    expect(warnings).toEqual([]);

    const cut = uwyoCsvText({ ...page, time: Date.UTC(2018, 11, 23) });
    server.putQuery('/wsgi/sounding', { id: '72357', ...launch(Date.UTC(2018, 11, 23)) }, cut.slice(0, cut.indexOf('\n', 2000) + 30));
    await source().poll(context(later));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ source: 'uwyo', url: expect.stringContaining('datetime=2018-12-23%2000%3A00%3A00') as unknown });
    expect(warnings[0].error).toMatch(/UWyo TEXT:CSV: row \d+ .*the answer is cut/);
    expect(String(warnings[0].text)).toMatch(/^time,longitude,latitude,pressure_hPa/);
    expect((await store.readJson<Sounding>('soundings', '72357.json'))!.time).toBe(Date.UTC(2018, 11, 22, 12));

    // Whole this time: the newer launch replaces it.
    server.putQuery('/wsgi/sounding', { id: '72357', ...launch(Date.UTC(2018, 11, 23)) }, cut);
    await source().poll(context(later));
    expect((await store.readJson<Sounding>('soundings', '72357.json'))!.time).toBe(Date.UTC(2018, 11, 23));
    expect((await store.readJson<SoundingStations>('soundings', 'stations.json'))!.stations[0].time).toBe(Date.UTC(2018, 11, 23));
  });
});
