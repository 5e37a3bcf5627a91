/**
 * Model runs in object storage, against a real S3-compatible server (s3rver, started here): a run
 * ingested from the GFS 2.5° sample is uploaded, objects first and the pointer last, and served by
 * StoredRuns over S3 exactly as over the data directory (tiles stored and rendered on request, the
 * point forecast, the minifest), with no call to the store for a tile kept in memory and ranged
 * reads for the point store; an upload that fails midway leaves the previous run served; snapshots
 * of a run still arriving are served from S3 and their build's objects removed once it is
 * published; old runs are pruned only after the grace time, and a pruned run answers no data.
 */

import { access, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOUR_MS } from '../../common/time.ts';
import { buildApp } from '../app.ts';
import { StoredRuns, type StoredRun } from '../data/storedRuns.ts';
import { loadEngine } from '../ingest/engine.ts';
import { ingestFiles, type IngestOptions } from '../ingest/ingest.ts';
import {
  currentPointerKey, KEEP_RUNS, listRunIds, nativeRelPath, readCurrentRunId, readRunManifest, runKey, tileRelPath,
} from '../ingest/layout.ts';
import { describeWithFixtures, ingestClock, SAMPLE, splitByValidTime, tempDir } from '../ingest/testing.ts';
import type { ObjectInfo, ObjectStore } from './objectStore.ts';
import { buildKey, pruneStoredRuns, RUN_GRACE_MS } from './runPublication.ts';
import { startTestS3, type TestS3 } from './testing.ts';

const REF = Date.UTC(2017, 2, 22, 0);
const DIR = 'gfs2p5-20170322';
const SERIES = 'gfs1p0-michael2018';
const SERIES_START = Date.UTC(2018, 9, 6, 18);
/** Few pre-rendered zooms: fewer objects to upload, and zoom 1 is rendered on request. */
const PRERENDER = { surface: 0, levels: 0 };
/**
 * Places whose series are compared: in the 2.5° store (36 bytes a node) the first two read blocks
 * 1, 3 and 4 of points.bin and the statics block 5; the third's rows are in block 2, read by no other.
 */
const PLACES = [[48.2, 16.4], [-33.9, 151.2], [20.0, 0.5]] as const;

/** An S3 store seen from the test: calls and bytes read counted, and puts that fail after a number of them. */
class ObservedStore implements ObjectStore {
  calls = 0;
  rangedBytes = 0;
  wholeGets: string[] = [];
  puts = 0;
  constructor(private readonly inner: ObjectStore, private readonly failAfterPuts = Infinity) {}
  get description(): string {
    return this.inner.description;
  }
  get localRoot(): null {
    return null;
  }
  private count<T>(job: Promise<T>): Promise<T> {
    this.calls++;
    return job;
  }
  get(key: string): Promise<Buffer | null> {
    this.wholeGets.push(key);
    return this.count(this.inner.get(key));
  }
  async getRange(key: string, start: number, length: number): Promise<Buffer | null> {
    const bytes = await this.count(this.inner.getRange(key, start, length));
    this.rangedBytes += bytes?.length ?? 0;
    return bytes;
  }
  head(key: string): Promise<ObjectInfo | null> {
    return this.count(this.inner.head(key));
  }
  private failable(job: () => Promise<void>): Promise<void> {
    if (++this.puts > this.failAfterPuts) return Promise.reject(new Error('connection reset (test)'));
    return this.count(job());
  }
  putFile(key: string, path: string): Promise<void> {
    return this.failable(() => this.inner.putFile(key, path));
  }
  put(key: string, data: string | Uint8Array): Promise<void> {
    return this.failable(() => this.inner.put(key, data));
  }
  list(prefix: string): Promise<string[]> {
    return this.count(this.inner.list(prefix));
  }
  listAll(prefix: string): Promise<string[]> {
    return this.count(this.inner.listAll(prefix));
  }
  deletePrefix(prefix: string): Promise<void> {
    return this.count(this.inner.deletePrefix(prefix));
  }
  delete(keys: string[]): Promise<void> {
    return this.count(this.inner.delete(keys));
  }
}

const exists = (path: string) => access(path).then(() => true, () => false);

describeWithFixtures('model runs in object storage (s3rver)', () => {
  let s3: TestS3;
  let data: Awaited<ReturnType<typeof tempDir>>;
  let store: ObjectStore;
  let localDir: string;
  let s3Dir: string;
  let firstId: string;
  /** A reader of the first run, kept from the first case to see it pruned under it in the last. */
  let firstRun: StoredRun;
  const readers: StoredRuns[] = [];

  const ingest = (files: string[], options: Partial<IngestOptions> = {}) => ingestFiles(files, { dataDir: s3Dir, storage: store, prerender: PRERENDER, ...options });
  function reader(storage: ObjectStore): StoredRuns {
    const stored = new StoredRuns(s3Dir, loadEngine, ingestClock().now, { storage });
    readers.push(stored);
    return stored;
  }

  beforeAll(async () => {
    [s3, data] = await Promise.all([startTestS3(), tempDir('isobar-s3-runs-')]);
    store = s3.store('published');
    localDir = join(data.dir, 'local');
    s3Dir = join(data.dir, 'scratch');
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: localDir, prerender: PRERENDER });
    firstId = (await ingest([SAMPLE.gfs2p5Analysis])).runId!;
  }, 60_000);
  afterAll(async () => {
    for (const stored of readers) await stored.close();
    await s3?.close();
    await data?.remove();
  });

  it('uploads a run and points at it, keeps no copy on the ingest\'s disk, and serves what the data directory serves', async () => {
    expect(await readCurrentRunId(store, DIR)).toBe(firstId);
    expect(await exists(join(s3Dir, DIR, 'runs'))).toBe(false);
    expect(await readdir(join(s3Dir, DIR, 'staging')).catch(() => [])).toEqual([]);

    const local = new StoredRuns(localDir, loadEngine, ingestClock().now);
    readers.push(local);
    const observed = new ObservedStore(store);
    const remote = reader(observed);
    const [here, there] = [(await local.current(DIR))!, (await remote.current(DIR))!];
    firstRun = there;
    expect(there.manifest.id).toBe(firstId);
    const { update: _a, ...localMinifest } = await here.minifest();
    const { update: _b, ...remoteMinifest } = await there.minifest();
    expect(remoteMinifest).toEqual(localMinifest);

    // A stored tile, and one above the pre-rendered zoom rendered on request from the native field.
    for (const [address, file, level] of [[{ z: 0, x: 1, y: 0 }, 'temp', 'surface'], [{ z: 1, x: 3, y: 1 }, 'gh', '500h']] as const) {
      const [a, b] = [await here.tile(REF, address, file, level), await there.tile(REF, address, file, level)];
      expect(gunzipSync(b!.gzip).equals(gunzipSync(a!.gzip))).toBe(true);
      // Kept in memory: asked again, no call to the store at all.
      observed.calls = 0;
      expect(await there.tile(REF, address, file, level)).toBe(b);
      expect(observed.calls).toBe(0);
    }
    expect(await there.tile(REF + HOUR_MS, { z: 1, x: 3, y: 1 }, 'gh', '500h')).toBeNull();
    // The rendered tile and its native field are in the run's local cache (read again there once the tile leaves memory).
    expect(there.dir.startsWith(join(s3Dir, '.storage-cache'))).toBe(true);
    expect(await exists(join(there.dir, tileRelPath(REF, 1, 3, 1, 'gh', '500h')))).toBe(true);
    expect(await exists(join(there.dir, nativeRelPath(REF, 'gh', '500h')))).toBe(true);

    // The point forecast: the same values, read by ranges, never the whole store.
    const [pointsHere, pointsThere] = [(await here.pointStore())!, (await there.pointStore())!];
    for (const [lat, lon] of PLACES.slice(0, 2)) {
      expect(await pointsThere.series(lat, lon)).toEqual(await pointsHere.series(lat, lon));
      expect(await pointsThere.statics(lat, lon)).toEqual(await pointsHere.statics(lat, lon));
    }
    expect(observed.wholeGets.filter((key) => key.endsWith('.bin'))).toEqual([]);
    expect(observed.rangedBytes).toBeGreaterThan(0);
    expect(observed.rangedBytes).toBeLessThan(there.manifest.points!.bytes);
  });

  it('the server built with the store (AppOptions.storage) answers the point forecast as over the data directory', async () => {
    const url = `/forecast/point/${DIR}/v2.9/${PLACES[0][0]}/${PLACES[0][1]}`;
    const answers: unknown[] = [];
    for (const options of [{ dataDir: localDir }, { dataDir: s3Dir, storage: store }]) {
      const app = await buildApp({ now: ingestClock().now, distDir: null, prewarm: false, liveSources: null, ...options });
      try {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(200);
        answers.push(response.json());
      } finally {
        await app.close();
      }
    }
    expect(answers[1]).toEqual(answers[0]);
  });

  it('an upload failing midway leaves the previous run served; the build stays to publish again', async () => {
    const failing = new ObservedStore(store, 25);
    await expect(ingest([SAMPLE.gfs2p5Analysis], { storage: failing })).rejects.toThrow(/connection reset/);
    expect(failing.puts).toBeGreaterThan(25);
    expect(await readCurrentRunId(store, DIR)).toBe(firstId);
    const stored = reader(store);
    expect((await stored.current(DIR))!.manifest.id).toBe(firstId);
    expect(await (await stored.current(DIR))!.tile(REF, { z: 0, x: 0, y: 0 }, 'wind', 'surface')).not.toBeNull();

    const again = await ingest([SAMPLE.gfs2p5Analysis], { skipBuilt: true });
    expect(await readCurrentRunId(store, DIR)).toBe(again.runId);
    expect(again.steps).toEqual([0]);
  });

  it('serves snapshots of a run still arriving from their build\'s objects, which go once the run is published and readers moved on', async () => {
    await mkdir(join(data.dir, 'pieces'));
    const pieces = await splitByValidTime(SAMPLE.michael, join(data.dir, 'pieces'), 3);
    const stored = reader(store);
    await ingest(pieces.slice(0, 2), { publish: false, snapshots: { minIntervalMs: 0 } });
    const snapshot = (await stored.current(SERIES))!;
    expect(snapshot.manifest.objects).toBe(buildKey(SERIES, SERIES_START));
    expect(snapshot.manifest.hours).toEqual([0, 3]);
    expect(await snapshot.tile(SERIES_START + 3 * HOUR_MS, { z: 0, x: 0, y: 0 }, 'wind', 'surface')).not.toBeNull();

    const done = await ingest(pieces.slice(2), { skipBuilt: true });
    expect(await readCurrentRunId(store, SERIES)).toBe(done.runId);
    const published = (await readRunManifest(store, SERIES, done.runId!))!;
    expect(published.objects).toBeUndefined();
    expect(published.hours).toEqual([0, 3, 6]);
    // Within the grace time the snapshots and their build stay; after it they go.
    expect((await listRunIds(store, SERIES)).length).toBe(3);
    expect(await store.list(`${SERIES}/builds/`)).toHaveLength(1);
    const removed = await pruneStoredRuns(store, SERIES, Date.now() + RUN_GRACE_MS);
    expect(removed).toHaveLength(2);
    expect(await listRunIds(store, SERIES)).toEqual([done.runId]);
    expect(await store.list(`${SERIES}/builds/`)).toEqual([]);
    expect(await store.list(buildKey(SERIES, SERIES_START))).toEqual([]);
  });

  it(`keeps the newest ${KEEP_RUNS} runs, prunes an older one only after the grace time, and a pruned run answers no data`, async () => {
    const third = (await ingest([SAMPLE.gfs2p5Analysis])).runId!;
    const ids = await listRunIds(store, DIR);
    expect(ids[0]).toBe(third);
    expect(ids).toContain(firstId); // beyond KEEP_RUNS, but it stopped being current seconds ago

    const pointer = JSON.parse((await store.get(currentPointerKey(DIR)))!.toString()) as { retired: Record<string, string> };
    const retiredAt = Date.parse(pointer.retired[firstId]);
    expect(await pruneStoredRuns(store, DIR, retiredAt + RUN_GRACE_MS - 1)).toEqual([]);
    expect(await pruneStoredRuns(store, DIR, retiredAt + RUN_GRACE_MS)).toEqual([firstId]);
    expect(await listRunIds(store, DIR)).toEqual(ids.filter((id) => id !== firstId));
    expect(await store.list(runKey(DIR, firstId))).toEqual([]);
    // What the failed upload left (a run without run.json) goes hours later: another process may still be uploading it.
    const complete: string[] = [];
    for (const id of await listRunIds(store, DIR)) if (await readRunManifest(store, DIR, id)) complete.push(id);
    expect(complete).toHaveLength(KEEP_RUNS);
    await pruneStoredRuns(store, DIR, Date.now() + 24 * HOUR_MS);
    expect(await listRunIds(store, DIR)).toEqual(complete);

    // The reader that held the first run: a tile it had not kept, and a place in a block it had not read, are gone.
    expect(await firstRun.tile(REF, { z: 1, x: 0, y: 0 }, 'temp', 'surface')).toBeNull();
    const [lat, lon] = PLACES[2];
    await expect((await firstRun.pointStore())!.series(lat, lon)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
