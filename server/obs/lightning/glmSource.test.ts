import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { decodeFlashes, type FlashesManifest } from '../../../common/obs/flashes.ts';
import { MINUTE_MS } from '../../../common/time.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { ObsDataError, type ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { glmFileStart, glmHourPrefix, GlmSource } from './glmSource.ts';
import { readGlmFlashes } from './glm.ts';
import { GLM_FIXTURES } from './testing.ts';

let server: FixtureServer;
let dataDir: string;
const files: Uint8Array[] = [];
/** Just after the third file's end (2018-07-02 04:34:00Z). */
const NOW = Date.UTC(2018, 6, 2, 4, 34, 30);

function context(now: number, warnings: object[] = []): ObsContext {
  return {
    http: new SourceHttp({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
    store: new ObsStore(dataDir),
    log: { debug() {}, info() {}, warn: (obj) => void warnings.push(obj), error() {} },
    now: () => now,
    signal: new AbortController().signal,
  };
}

async function published(store: ObsStore) {
  const manifest = await store.readJson<FlashesManifest>('lightning', 'glm.json');
  if (!manifest) return null;
  const { readFile } = await import('node:fs/promises');
  return { manifest, flashes: decodeFlashes(new Uint8Array(await readFile(store.path('lightning', manifest.file)))) };
}

describeWithFixtures('GLM source against the fixture server (noaa-goes16 layout)', () => {
  beforeAll(async () => {
    server = await FixtureServer.start();
    for (const f of GLM_FIXTURES) files.push(await readFixture(f.fixture));
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    server.files.clear();
    server.clearFaults();
    server.clearLog();
  });
  const putAll = (count = 3) => GLM_FIXTURES.slice(0, count).forEach((f, i) => server.put(`/${f.key}`, files[i]));
  const source = () => new GlmSource({ buckets: [server.url] });

  it('names and folders: the file start from its name, the hour folder by day of year', () => {
    expect(glmFileStart(GLM_FIXTURES[1].name)).toBe(Date.UTC(2018, 6, 2, 4, 33, 20));
    expect(glmHourPrefix(NOW)).toBe('GLM-L2-LCFA/2018/183/04/');
    expect(glmHourPrefix(Date.UTC(2024, 11, 31, 23, 59))).toBe('GLM-L2-LCFA/2024/366/23/');
    expect(glmFileStart('OR_GLM-L2-LCFA_G16_s2018183043300_x.nc')).toBeNull();
  });

  it('publishes the last hour of flashes of every listed file (302 + 277 + 274), oldest first, with a manifest', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
    putAll();
    await source().poll(context(NOW));
    const out = await published(new ObsStore(dataDir));
    expect(out).not.toBeNull();
    const { manifest, flashes } = out!;
    expect(manifest).toMatchObject({ source: 'glm', flashes: 302 + 277 + 274, merged: 0, file: 'glm/20180702T0433400Z/flashes.bin' });
    expect(flashes.lon.length).toBe(853);
    const reads = await Promise.all(files.map((b) => readGlmFlashes(b)));
    const newest = Math.max(...reads.flatMap((r) => [...r.time]));
    expect(flashes.baseTime).toBe(newest);
    expect(manifest.newest).toBe(new Date(newest).toISOString());
    for (let i = 1; i < flashes.ageSeconds.length; i++) expect(flashes.ageSeconds[i]).toBeLessThanOrEqual(flashes.ageSeconds[i - 1]);
    // All over the Americas and the Atlantic (GOES-East's view).
    expect(Math.min(...flashes.lon)).toBeGreaterThan(-141.56);
    expect(Math.max(...flashes.lon)).toBeLessThan(-8.44);
    // One listing of the hour folder (04Z; 03Z too, the hour before now reaches into it) and one GET per file.
    expect(server.requests(/\.nc$/).length).toBe(3);
    expect(server.requests('/').length).toBe(2);
  });

  it('keeps only the hour before now: an hour later the first file is out', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
    putAll();
    // 05:33:25Z: the first file (04:33:00-04:33:20) has left the hour; the second's flashes before 04:33:25 too.
    const later = Date.UTC(2018, 6, 2, 5, 33, 25);
    await source().poll(context(later));
    const { flashes } = (await published(new ObsStore(dataDir)))!;
    const reads = await Promise.all(files.map((b) => readGlmFlashes(b)));
    const expected = reads.flatMap((r) => [...r.time]).filter((t) => t >= later - 60 * MINUTE_MS).length;
    expect(expected).toBeLessThan(277 + 274);
    expect(flashes.lon.length).toBe(expected);
  });

  it('refuses a truncated file by name, publishes the others, and does not fetch it again', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
    putAll();
    server.put(`/${GLM_FIXTURES[2].key}`, files[2].subarray(0, files[2].length >> 1));
    const warnings: object[] = [];
    const glm = source();
    await glm.poll(context(NOW, warnings));
    expect(warnings).toEqual([expect.objectContaining({ source: 'glm', file: GLM_FIXTURES[2].name, err: expect.stringMatching(/not a readable netCDF-4/) })]);
    expect((await published(new ObsStore(dataDir)))!.manifest.flashes).toBe(302 + 277);
    await glm.poll(context(NOW + 60_000, warnings));
    expect(server.requests(`/${GLM_FIXTURES[2].key}`).length).toBe(1);
  });

  it('an empty or broken upstream fails the poll with an ObsDataError and the last publication stays', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
    putAll(1);
    const glm = source();
    await glm.poll(context(NOW));
    const before = await published(new ObsStore(dataDir));
    expect(before!.manifest.flashes).toBe(302);
    server.files.clear();
    await expect(glm.poll(context(NOW + 60_000))).rejects.toBeInstanceOf(ObsDataError);
    server.fault({ path: '/', fault: { kind: 'status', status: 200 } });
    await expect(glm.poll(context(NOW + 60_000))).rejects.toThrow(/not an S3 bucket listing/);
    expect(await published(new ObsStore(dataDir))).toEqual(before);
  });

  it('publishes again when a new file comes, and removes the superseded item after the grace period', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-'));
    const store = new ObsStore(dataDir);
    putAll(2);
    const glm = source();
    await glm.poll(context(NOW));
    expect((await published(store))!.manifest.flashes).toBe(302 + 277);
    putAll(3);
    await glm.poll(context(NOW + MINUTE_MS));
    expect((await published(store))!.manifest.flashes).toBe(853);
    expect(await store.list('lightning', 'glm')).toEqual(['20180702T0433200Z', '20180702T0433400Z']);
    await glm.poll(context(NOW + 7 * MINUTE_MS));
    expect(await store.list('lightning', 'glm')).toEqual(['20180702T0433400Z']);
    // No new file since: no second download of any.
    expect(server.requests(/\.nc$/).length).toBe(3);
  });
});
