import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STORM_DETAIL, STORM_LIST, TC_ACTIVE_COUNT_PATH, TC_STORMS_PATH, type StormDetail, type StormList } from '../../../common/api/storms.ts';
import { schemaProblem } from '../../../common/api/schema.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { SILENT_LOGGER } from '../../live/source.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { obsConfigFromEnv } from '../core/config.ts';
import { OBS_FACTORIES } from '../sources.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { atcfFolderSource, deckNames, ibtracsSource, jtwcSource, nhcSource, productText } from './sources.ts';
import { TROPICAL_FIXTURE } from './testing.ts';

const NOW = Date.UTC(2014, 9, 14, 0);

describeWithFixtures('storm sources against the fixture server (JTWC b-decks in the ATCF btk layout)', () => {
  let server: FixtureServer;
  let dataDir: string;
  let store: ObsStore;
  const context = (): ObsContext => ({
    http: new SourceHttp({ retry: { attempts: 1 } }), log: SILENT_LOGGER, store, now: () => NOW, signal: new AbortController().signal,
  });

  beforeAll(async () => {
    server = await FixtureServer.start();
    server.put('/atcf/btk/bwp192014.dat', await readFixture(TROPICAL_FIXTURE.vongfong));
    server.put('/atcf/btk/bwp082014.dat', await readFixture(TROPICAL_FIXTURE.neoguri));
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-storms-'));
    store = new ObsStore(dataDir);
  });
  afterAll(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes each b-deck of the listing as a storm with its category, then the list', async () => {
    const source = jtwcSource({ url: `${server.url}/atcf/btk/` });
    await source.poll(context());
    const list = (await store.readJson<StormList>('storms', 'storms.json'))!;
    expect(schemaProblem(STORM_LIST, list)).toBeNull();
    expect(list.storms.map((s) => [s.id, s.name, s.category, s.maxWindKt, s.superTyphoon, s.active])).toEqual([
      // Vongfong's last fix is 10-13 18Z, six hours before NOW: active; Neoguri ended in July.
      ['wp192014', 'VONGFONG', 'H5', 155, true, true],
      ['wp082014', 'NEOGURI', 'H5', 140, true, false],
    ]);
    const vongfong = (await store.readJson<StormDetail>('storms', 'jtwc/wp192014.json'))!;
    expect(schemaProblem(STORM_DETAIL, vongfong)).toBeNull();
    expect(vongfong.track).toHaveLength(52);
    // The deck's lowest MSLP: 907 hPa.
    expect(vongfong.storm.minPressureHpa).toBe(907);
    expect(vongfong.forecast).toBeNull();
    expect(vongfong.cone).toBeNull();
  });

  it('refuses a cut deck with an ObsDataError naming the file and line; the last publication stays', async () => {
    const whole = new TextDecoder().decode(await readFixture(TROPICAL_FIXTURE.vongfong));
    server.put('/atcf/btk/bwp192014.dat', whole.slice(0, 4000));
    const source = jtwcSource({ url: `${server.url}/atcf/btk/` });
    const failure = await source.poll(context()).then(() => null, (e: unknown) => e);
    expect(failure).toBeInstanceOf(ObsDataError);
    expect((failure as Error).message).toMatch(/bwp192014\.dat: ATCF truncated, line \d+/);
    expect((await store.readJson<StormList>('storms', 'storms.json'))!.storms).toHaveLength(2);
    server.put('/atcf/btk/bwp192014.dat', whole);
  });

  it('answers SPEC §7 /tc/v2/storms/active/count and /tc/v2/storms from the publication', async () => {
    const { buildApp } = await import('../../app.ts');
    const app = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir, liveSources: null, obs: { sources: [] } });
    try {
      // Vongfong is active at NOW, Neoguri is not.
      expect((await app.inject({ url: TC_ACTIVE_COUNT_PATH })).json()).toEqual({ count: 1, updated: NOW });
      const list = (await app.inject({ url: TC_STORMS_PATH })).json() as StormList;
      expect(list.storms.map((s) => s.id)).toEqual(['wp192014', 'wp082014']);
    } finally {
      await app.close();
    }
    const empty = await mkdtemp(join(tmpdir(), 'isobar-storms-none-'));
    const bare = await buildApp({ now: () => NOW, distDir: null, prewarm: false, dataDir: empty, liveSources: null, obs: { sources: [] } });
    try {
      expect((await bare.inject({ url: TC_ACTIVE_COUNT_PATH })).json()).toEqual({ count: 0, updated: null });
      expect((await bare.inject({ url: TC_STORMS_PATH })).json()).toEqual({ updated: 0, storms: [] });
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('keeps other sources\' storms in the merged list, the live source first', async () => {
    // No active NHC storm: NHC's documented answer then is an empty activeStorms list.
    server.put('/CurrentStorms.json', JSON.stringify({ activeStorms: [] }));
    await nhcSource({ url: server.url, ftpUrl: server.url }).poll(context());
    const list = (await store.readJson<StormList>('storms', 'storms.json'))!;
    expect(list.storms.map((s) => s.id)).toEqual(['wp192014', 'wp082014']);
    expect(await store.list('storms', 'lists')).toEqual(['jtwc.json', 'nhc.json']);
  });

  it('reads b-decks from a folder (the samples\' storms), missing folder meaning none', async () => {
    const decks = await mkdtemp(join(tmpdir(), 'isobar-decks-'));
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(decks, 'bwp192014.dat'), await readFixture(TROPICAL_FIXTURE.vongfong));
    const own = new ObsStore(await mkdtemp(join(tmpdir(), 'isobar-decks-store-')));
    await atcfFolderSource({ dir: decks }).poll({ ...context(), store: own });
    expect((await own.readJson<StormList>('storms', 'storms.json'))!.storms.map((s) => [s.id, s.source])).toEqual([['wp192014', 'jtwc']]);
    await atcfFolderSource({ dir: join(decks, 'none') }).poll({ ...context(), store: own });
    expect((await own.readJson<StormList>('storms', 'lists/decks.json'))!.storms).toEqual([]);
    await rm(decks, { recursive: true, force: true });
  });

  it('says why IBTrACS cannot be read (no IBTrACS fixture: a cut file from the documented header)', async () => {
    server.put('/ibtracs.csv', 'SID,SEASON,NUMBER,BASIN,SUBBASIN,NAME,ISO_TIME\n');
    const failure = await ibtracsSource({ url: `${server.url}/ibtracs.csv` }).poll(context()).then(() => null, (e: unknown) => e);
    expect(failure).toBeInstanceOf(ObsDataError);
    expect((failure as Error).message).toMatch(/IBTrACS truncated/);
  });
});

it('lists b-decks of an autoindex page and strips an NHC product page to its text', () => {
  expect(deckNames('<a href="../">../</a>\n<a href="bwp192014.dat">bwp192014.dat</a> <a href="bwp192014.dat">x</a> <a href="readme.txt">')).toEqual(['bwp192014.dat']);
  expect(productText('<html><body><pre class="x">ZCZC MIATCMAT4\nTEXT &amp; MORE</pre></body></html>')).toBe('ZCZC MIATCMAT4\nTEXT & MORE');
});

it('joins ISOBAR_OBS: nhc, ibtracs and the deck folder by default, jtwc only with its URL', () => {
  expect(obsConfigFromEnv(OBS_FACTORIES, {}).sources.map((s) => s.id).filter((id) => ['nhc', 'jtwc', 'ibtracs', 'atcfDecks'].includes(id))).toEqual(['nhc', 'ibtracs']);
  expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'jtwc' }).sources[0].unsupportedReason).toMatch(/ISOBAR_JTWC_URL/);
  expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'jtwc', ISOBAR_JTWC_URL: 'https://example.org/btk' }).sources[0].unsupportedReason).toBeUndefined();
});
