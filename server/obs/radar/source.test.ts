import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RadarCoverage, RadarMinifest } from '../../../common/radar.ts';
import { decodeDataTile } from '../../../common/tile.ts';
import { MINUTE_MS } from '../../../common/time.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { SILENT_LOGGER } from '../../live/source.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { RADAR_PROVIDERS, radarSource } from './source.ts';
import { RADAR_FIXTURE } from './testing.ts';

let dataDir: string;
let server: FixtureServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-radar-'));
  server = await FixtureServer.start();
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const PATH = '/weather/radar/composite/rx/raa01-rx_10000-latest-dwd---bin';
const FRAME_TIME = Date.UTC(2014, 7, 10, 20, 50);

function context(store: ObsStore): ObsContext {
  return { http: new SourceHttp({ retry: { attempts: 1 } }), log: SILENT_LOGGER, store, now: () => FRAME_TIME + 2 * MINUTE_MS, signal: new AbortController().signal };
}

describeWithFixtures('radar source', () => {
  it('downloads RADOLAN RX from the DWD layout and publishes tiles, coverage and minifest; a bad file keeps them', async () => {
    server.put(PATH, await readFixture(RADAR_FIXTURE.radolanRx));
    const store = new ObsStore(dataDir);
    const source = radarSource(RADAR_PROVIDERS.radolan({ ISOBAR_RADOLAN_URL: `${server.url}${PATH}` }));
    expect(source.intervalMinutes).toBe(3);
    await source.poll(context(store));
    const manifest = (await store.readJson<RadarMinifest>('radar', 'minifest2.json'))!;
    expect(manifest.frames).toHaveLength(1);
    expect(manifest.frames[0]).toMatchObject({ time: FRAME_TIME, sources: ['radolan'] });
    expect(manifest.sources).toEqual([expect.objectContaining({ id: 'radolan', attribution: expect.stringContaining('DWD'), latest: FRAME_TIME })]);
    expect(manifest.frames[0].tiles).toContain('0/1/0');
    const tile = decodeDataTile(gunzipSync(await readFile(store.path('radar', `frames/${manifest.frames[0].id}/0/1/0.tile`))));
    expect(tile.header.west).toBe(0);
    const coverage = (await store.readJson<RadarCoverage>('radar', 'coverage.json'))!;
    expect(coverage.sources[0].id).toBe('radolan');

    server.put(PATH, (await readFixture(RADAR_FIXTURE.radolanRx)).subarray(0, 40_000));
    await expect(source.poll(context(store))).rejects.toThrow(ObsDataError);
    expect(await store.readJson<RadarMinifest>('radar', 'minifest2.json')).toEqual(manifest);
  });
});
