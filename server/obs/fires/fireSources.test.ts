// No real FIRMS or HMS answer is among the fixtures: the fixture server serves the small files of
// testing.ts, built from the providers' documented columns, at the providers' URL layouts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { firespotsFromGeoJson } from '../../../common/obs/fires.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { obsConfigFromEnv } from '../core/config.ts';
import { OBS_FACTORIES } from '../sources.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { FirmsSource, hmsPath, HmsSource } from './fireSources.ts';
import { FIRMS_MODIS_CSV_BUILT, FIRMS_VIIRS_CSV_BUILT, HMS_TEXT_BUILT } from './testing.ts';

let server: FixtureServer;
let dataDir: string;
/** The detections of testing.ts are of 2024-07-14 (day 196); the poll comes at 20:00Z that day. */
const NOW = Date.UTC(2024, 6, 14, 20);
const KEY = 'abcdef0123456789abcdef0123456789';

function context(warnings: object[] = []): ObsContext {
  return {
    http: new SourceHttp({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
    store: new ObsStore(dataDir),
    log: { debug() {}, info() {}, warn: (obj) => void warnings.push(obj), error() {} },
    now: () => NOW,
    signal: new AbortController().signal,
  };
}

beforeAll(async () => {
  server = await FixtureServer.start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-fires-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
  server.files.clear();
  server.clearFaults();
  server.clearLog();
});

describe('FIRMS source', () => {
  it('publishes the detections of each product as firespots GeoJSON with its credit line', async () => {
    server.put(`/api/area/csv/${KEY}/VIIRS_NOAA20_NRT/world/1`, FIRMS_VIIRS_CSV_BUILT);
    server.put(`/api/area/csv/${KEY}/MODIS_NRT/world/1`, FIRMS_MODIS_CSV_BUILT);
    const source = new FirmsSource(KEY, server.url, ['VIIRS_NOAA20_NRT', 'MODIS_NRT']);
    await source.poll(context());
    const doc = await new ObsStore(dataDir).readJson<Record<string, unknown>>('fires', 'firms.geojson');
    expect(doc).toMatchObject({ type: 'FeatureCollection', source: 'firms', attribution: source.attribution, updated: new Date(NOW).toISOString() });
    const spots = firespotsFromGeoJson(doc);
    expect(spots.map((s) => s.time)).toEqual([...spots.map((s) => s.time)].sort((a, b) => a - b));
    expect(spots).toHaveLength(4);
    expect(spots.find((s) => s.sensor === 'T MODIS')?.confidence).toEqual({ kind: 'percent', value: 78 });
  });

  it('needs a key, and keeps it out of errors and logs', async () => {
    expect(new FirmsSource('').unsupportedReason).toMatch(/ISOBAR_FIRMS_KEY is not set/);
    expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'firms' }).sources[0].unsupportedReason).toMatch(/ISOBAR_FIRMS_KEY/);
    expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'firms', ISOBAR_FIRMS_KEY: KEY }).sources[0].unsupportedReason).toBeUndefined();
    server.put(`/api/area/csv/${KEY}/VIIRS_NOAA20_NRT/world/1`, 'Invalid MAP_KEY.');
    const warnings: object[] = [];
    const poll = new FirmsSource(KEY, server.url, ['VIIRS_NOAA20_NRT']).poll(context(warnings));
    await expect(poll).rejects.toBeInstanceOf(ObsDataError);
    await expect(new FirmsSource(KEY, server.url, ['VIIRS_NOAA20_NRT']).poll(context(warnings))).rejects.toThrow(/answered no CSV: "Invalid MAP_KEY\."/);
    server.fault({ path: /VIIRS/, fault: { kind: 'status', status: 500 }, times: Infinity });
    const failed = await new FirmsSource(KEY, server.url, ['VIIRS_NOAA20_NRT']).poll(context(warnings)).catch((e: Error) => e);
    expect(String((failed as Error).message)).not.toContain(KEY);
    expect(warnings.length).toBeGreaterThan(0);
    expect(JSON.stringify(warnings)).not.toContain(KEY);
    expect(await new ObsStore(dataDir).readJson('fires', 'firms.geojson')).toBeNull();
  });

  it('a truncated answer fails the poll and the last document stays', async () => {
    server.put(`/api/area/csv/${KEY}/VIIRS_NOAA20_NRT/world/1`, FIRMS_VIIRS_CSV_BUILT);
    const source = new FirmsSource(KEY, server.url, ['VIIRS_NOAA20_NRT']);
    await source.poll(context());
    const before = await new ObsStore(dataDir).readJson('fires', 'firms.geojson');
    server.put(`/api/area/csv/${KEY}/VIIRS_NOAA20_NRT/world/1`, FIRMS_VIIRS_CSV_BUILT.slice(0, -25));
    await expect(source.poll(context())).rejects.toThrow(/truncated\?/);
    expect(await new ObsStore(dataDir).readJson('fires', 'firms.geojson')).toEqual(before);
  });
});

describe('HMS source', () => {
  it('reads today\'s file and yesterday\'s (absent here) in the NOAA layout, keeps the last 24 h', async () => {
    expect(hmsPath(NOW)).toBe('/pub/FIRE/web/HMS/Fire_Points/Text/2024/07/hms_fire20240714.txt');
    server.put(hmsPath(NOW), HMS_TEXT_BUILT);
    await new HmsSource(server.url).poll(context());
    const spots = firespotsFromGeoJson(await new ObsStore(dataDir).readJson('fires', 'hms.geojson'));
    expect(spots.map((s) => s.sensor)).toEqual(['GOES-WEST', 'NOAA 20']);
    expect(server.requests(hmsPath(NOW - 86_400_000))[0].status).toBe(404);
  });

  it('no file at all, or an error page instead of one, fails the poll by name', async () => {
    await expect(new HmsSource(server.url).poll(context())).rejects.toThrow(/neither today's nor yesterday's/);
    server.put(hmsPath(NOW), '<html>Service Unavailable</html>');
    await expect(new HmsSource(server.url).poll(context())).rejects.toThrow(/hms: .*hms_fire20240714.txt: HMS text: header/);
  });
});
