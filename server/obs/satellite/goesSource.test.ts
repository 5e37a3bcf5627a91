// No GOES ABI fixture exists: the bucket holds ABI L2 files written the PUG's way by the test
// (testing.ts writeAbiFile), under their real names in the NOAA open bucket layout.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SATELLITE_INFO_ANSWER } from '../../../common/api/satellite.ts';
import { schemaProblem } from '../../../common/api/schema.ts';
import type { SatelliteInfo } from '../../../common/satellite.ts';
import { decodeDataTile } from '../../../common/tile.ts';
import { MINUTE_MS } from '../../../common/time.ts';
import { tileBounds } from '../../../common/tiling.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { SILENT_LOGGER } from '../../live/source.ts';
import { obsConfigFromEnv } from '../core/config.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { OBS_FACTORIES } from '../sources.ts';
import { ObsStore } from '../core/store.ts';
import { abiFileName, SATELLITE_FACTORIES } from './goesSource.ts';
import { writeAbiFile } from './testing.ts';

let dataDir: string;
let server: FixtureServer;
beforeAll(async () => {
  server = await FixtureServer.start();
});
beforeEach(async () => {
  server.files.clear();
  server.clearLog();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = await mkdtemp(join(tmpdir(), 'isobar-sat-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const SCAN = Date.UTC(2025, 5, 1, 12, 0, 21, 700); // day of year 152
const KEY = 'ABI-L2-MCMIPF/2025/152/12/OR_ABI-L2-MCMIPF-M6_G19_s20251521200217_e20251521209525_c20251521210020.nc';
const NEXT = 'ABI-L2-MCMIPF/2025/152/12/OR_ABI-L2-MCMIPF-M6_G19_s20251521210217_e20251521219525_c20251521220020.nc';
const ir = (lon: number, lat: number) => 300 - 0.8 * Math.abs(lat) - 0.1 * Math.abs(lon + 75);
const vis = (_lon: number, lat: number) => 0.15 + 0.5 * Math.cos((lat * Math.PI) / 180) ** 2;

function context(store: ObsStore, now: number): ObsContext {
  return { http: new SourceHttp({ retry: { attempts: 1 } }), log: SILENT_LOGGER, store, now: () => now, signal: new AbortController().signal };
}

const mcmip = (start: number) => writeAbiFile({ platform: 'G19', lon0: -75, start: new Date(start), cells: 200, bands: [{ band: 2, wavelengthUm: 0.64, field: vis }, { band: 13, wavelengthUm: 10.33, field: ir }] });

describe('GOES satellite source', () => {
  it('reads ABI file names', () => {
    expect(abiFileName(KEY.split('/').pop()!)).toEqual({ product: 'MCMIPF', band: null, platform: 'G19', start: SCAN });
    expect(abiFileName('OR_ABI-L2-CMIPF-M6C13_G18_s20251521200217_e20251521209525_c20251521210020.nc')).toMatchObject({ product: 'CMIPF', band: 13, platform: 'G18' });
    expect(abiFileName('OR_GLM-L2-LCFA_G16_s20181830433000_e20181830433200_c20181830433226.nc')).toBeNull();
  });

  it('lists the GOES-East bucket, publishes the newest full disk as tiles and info.json; a bad newer file keeps them', async () => {
    server.put(`/${KEY}`, await mcmip(SCAN));
    const store = new ObsStore(dataDir);
    const source = SATELLITE_FACTORIES.goesEast.create({ ISOBAR_GOES_EAST_URL: server.url, ISOBAR_SATELLITE_MAX_ZOOM: '2' });
    expect(source).toMatchObject({ id: 'goesEast', kind: 'satellite', intervalMinutes: 3 });
    await source.poll(context(store, SCAN + 12 * MINUTE_MS));
    const info = (await store.readJson<SatelliteInfo>('satellite', 'info.json'))!;
    expect(info).toMatchObject({ version: 1, minZoom: 0, maxZoom: 2 });
    expect(schemaProblem(SATELLITE_INFO_ANSWER, info)).toBeNull();
    expect(schemaProblem(SATELLITE_INFO_ANSWER, await store.readJson('satellite', 'archive/info.json'))).toBeNull();
    expect(info.channels.map((c) => c.name)).toEqual(['ir', 'composite']);
    expect(info.frames).toHaveLength(1);
    expect(info.frames[0]).toMatchObject({ time: SCAN, source: 'goesEast' });
    expect(info.sources).toEqual([expect.objectContaining({ id: 'goesEast', latest: SCAN, lon0: -75, attribution: expect.stringContaining('NOAA') })]);
    expect(await store.readJson('satellite', 'archive/info.json')).toMatchObject({ frames: [] });
    // Zoom 2 tile x 2, y 1 (90° W..45° W, 0°..45° N) is on the disk; its nodes hold the infrared field.
    expect(info.frames[0].tiles).toContain('2/2/1');
    const tile = decodeDataTile(gunzipSync(await readFile(store.path('satellite', `frames/${info.frames[0].id}/2/2/1.tile`))));
    const b = tileBounds({ z: 2, x: 2, y: 1 });
    const k = 128 * 256 + 128;
    const step = (b.east - b.west) / 255;
    expect(Math.abs(tile.channels[0][k] - ir(b.west + 128 * step, b.north - 128 * step))).toBeLessThan(1);
    expect(info.frames[0].tiles.some((t) => t.startsWith('2/7/'))).toBe(false); // 135° E..180°: off GOES-East's disk

    // Nothing newer: the next poll fetches no file.
    await source.poll(context(store, SCAN + 15 * MINUTE_MS));
    expect(server.requests(/\.nc$/).length).toBe(1);

    // A truncated newer scan: refused by name, the frame before keeps serving.
    server.put(`/${NEXT}`, (await mcmip(SCAN + 10 * MINUTE_MS)).subarray(0, 30_000));
    await expect(source.poll(context(store, SCAN + 22 * MINUTE_MS))).rejects.toThrow(ObsDataError);
    await expect(source.poll(context(store, SCAN + 22 * MINUTE_MS))).rejects.toThrow(/AbiError/);
    expect(await store.readJson<SatelliteInfo>('satellite', 'info.json')).toEqual(info);
  });

  it('moves frames older than the live window to archive/info.json', async () => {
    server.put(`/${KEY}`, await mcmip(SCAN));
    const store = new ObsStore(dataDir);
    const source = SATELLITE_FACTORIES.goesEast.create({ ISOBAR_GOES_EAST_URL: server.url, ISOBAR_SATELLITE_MAX_ZOOM: '0' });
    await source.poll(context(store, SCAN + 12 * MINUTE_MS));
    const later = 'ABI-L2-MCMIPF/2025/152/15/OR_ABI-L2-MCMIPF-M6_G19_s20251521500217_e20251521509525_c20251521510020.nc';
    server.put(`/${later}`, await mcmip(SCAN + 3 * 60 * MINUTE_MS));
    await source.poll(context(store, SCAN + 3 * 60 * MINUTE_MS + 12 * MINUTE_MS));
    const info = (await store.readJson<SatelliteInfo>('satellite', 'info.json'))!;
    const archive = (await store.readJson<SatelliteInfo>('satellite', 'archive/info.json'))!;
    expect(info.frames.map((f) => f.time)).toEqual([SCAN + 3 * 60 * MINUTE_MS]);
    expect(archive.frames.map((f) => f.time)).toEqual([SCAN]);
  });

  it('reads the band 13 CMIPF file alone with ISOBAR_GOES_PRODUCT=CMIPF: the composite is the infrared greyscale', async () => {
    const c13 = 'ABI-L2-CMIPF/2025/152/12/OR_ABI-L2-CMIPF-M6C13_G18_s20251521200217_e20251521209525_c20251521210020.nc';
    const c02 = 'ABI-L2-CMIPF/2025/152/12/OR_ABI-L2-CMIPF-M6C02_G18_s20251521200217_e20251521209525_c20251521210020.nc';
    server.put(`/${c13}`, await writeAbiFile({ platform: 'G18', lon0: -137, start: new Date(SCAN), cells: 150, bands: [{ band: 13, wavelengthUm: 10.33, field: () => 255 }] }));
    server.put(`/${c02}`, new TextEncoder().encode('not read'));
    const store = new ObsStore(dataDir);
    const source = SATELLITE_FACTORIES.goesWest.create({ ISOBAR_GOES_WEST_URL: server.url, ISOBAR_GOES_PRODUCT: 'CMIPF', ISOBAR_SATELLITE_MAX_ZOOM: '1' });
    await source.poll(context(store, SCAN + 12 * MINUTE_MS));
    expect(server.requests(`/${c02}`)).toHaveLength(0);
    const info = (await store.readJson<SatelliteInfo>('satellite', 'info.json'))!;
    expect(info.sources).toEqual([expect.objectContaining({ id: 'goesWest', lon0: -137 })]);
    const frame = info.frames[0];
    const tile = decodeDataTile(gunzipSync(await readFile(store.path('satellite', `frames/${frame.id}/${frame.tiles[0]}.tile`))));
    const k = tile.channels[0].findIndex((v) => !Number.isNaN(v));
    expect(tile.channels[0][k]).toBeCloseTo(255, 1);
    expect(tile.channels[1][k]).toBeCloseTo(0.5, 3); // (310 - 255) / (310 - 200)
  });

  it('fails by name when the bucket has no file for the last two hours', async () => {
    const store = new ObsStore(dataDir);
    const source = SATELLITE_FACTORIES.goesWest.create({ ISOBAR_GOES_WEST_URL: server.url });
    await expect(source.poll(context(store, SCAN))).rejects.toThrow(/no MCMIPF file/);
    expect(() => SATELLITE_FACTORIES.goesWest.create({ ISOBAR_GOES_PRODUCT: 'RadF' })).toThrow(/MCMIPF or CMIPF/);
  });

  it('is followed when ISOBAR_OBS names it, not by default', () => {
    expect(obsConfigFromEnv(OBS_FACTORIES, { ISOBAR_OBS: 'goesEast,goesWest' }).sources.map((s) => [s.id, s.kind])).toEqual([['goesEast', 'satellite'], ['goesWest', 'satellite']]);
    expect(obsConfigFromEnv(OBS_FACTORIES, {}).sources.map((s) => s.kind)).not.toContain('satellite');
  });
});
