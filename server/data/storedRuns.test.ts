/**
 * The stored runs' tile memory: a tile read from the data directory (or rendered there) is kept in
 * the forms it is sent, so a repeated request reads no file and inflates nothing again.
 */

import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ingestFiles } from '../ingest/ingest.ts';
import { tileRelPath } from '../ingest/layout.ts';
import { loadEngine } from '../ingest/engine.ts';
import { describeWithFixtures, ingestClock, SAMPLE, tempDir } from '../ingest/testing.ts';
import { HOUR_MS } from '../../common/time.ts';
import { StoredRuns } from './storedRuns.ts';
import { TilePool } from './tilePool.ts';

const REF = Date.UTC(2017, 2, 22, 0);
const DIR = 'gfs2p5-20170322';

describeWithFixtures('StoredRuns tile memory', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    data = await tempDir();
    await ingestFiles([SAMPLE.gfs2p5Analysis], { dataDir: data.dir });
  }, 60_000);
  afterAll(() => data?.remove());

  it('keeps a tile read from disk, with its inflated bytes made once, and forgets a run that closes', async () => {
    const stored = new StoredRuns(data.dir, loadEngine, ingestClock().now);
    const run = (await stored.current(DIR))!;
    const tile = (await run.tile(REF, { z: 0, x: 1, y: 0 }, 'temp', 'surface'))!;
    expect(stored.tileCacheStats()).toMatchObject({ entries: 1, bytes: tile.gzip.byteLength });

    // Gone from disk, still answered: the second request reads no file.
    await rm(join(run.dir, tileRelPath(REF, 0, 1, 0, 'temp', 'surface')));
    expect(await run.tile(REF, { z: 0, x: 1, y: 0 }, 'temp', 'surface')).toBe(tile);

    const identity = await tile.identity();
    expect(identity.equals(gunzipSync(tile.gzip))).toBe(true);
    expect(await (await run.tile(REF, { z: 0, x: 1, y: 0 }, 'temp', 'surface'))!.identity()).toBe(identity);
    expect(stored.tileCacheStats().bytes).toBe(tile.gzip.byteLength + identity.byteLength);

    await run.close(); // as when the run is pruned
    expect(stored.tileCacheStats()).toMatchObject({ entries: 0, bytes: 0 });
    await stored.close();
  });

  it('renders a tile above the pre-rendered zoom on a tile thread, as in this thread, and stores it', async () => {
    const pool = new TilePool({ threads: 1 });
    try {
      const threaded = new StoredRuns(data.dir, loadEngine, ingestClock().now, { pool });
      const run = (await threaded.current(DIR))!;
      expect(run.manifest.layers['gh-500h'].prerendered).toBe(0);
      const path = join(run.dir, tileRelPath(REF, 1, 3, 1, 'gh', '500h'));
      const tile = (await run.tile(REF, { z: 1, x: 3, y: 1 }, 'gh', '500h'))!;
      expect(pool.stats()).toMatchObject({ completed: 1, failed: 0 });
      expect(tile.gzip.equals(await readFile(path))).toBe(true);
      // No native field for a valid time the run does not have: no data, as before.
      expect(await run.tile(REF + HOUR_MS, { z: 1, x: 3, y: 1 }, 'gh', '500h')).toBeNull();
      await threaded.close();

      await rm(path);
      const here = new StoredRuns(data.dir, loadEngine, ingestClock().now);
      const again = (await (await here.current(DIR))!.tile(REF, { z: 1, x: 3, y: 1 }, 'gh', '500h'))!;
      expect(again.gzip.equals(tile.gzip)).toBe(true);
      expect(pool.stats().completed).toBe(2); // rendered here, not on the pool
      await here.close();
    } finally {
      await pool.close();
    }
  });

  it('keeps no more than its budget', async () => {
    const probe = new StoredRuns(data.dir, loadEngine, ingestClock().now);
    const one = (await (await probe.current(DIR))!.tile(REF, { z: 0, x: 0, y: 0 }, 'wind', 'surface'))!;
    await probe.close();
    const stored = new StoredRuns(data.dir, loadEngine, ingestClock().now, { tileCacheBytes: one.gzip.byteLength });
    const run = (await stored.current(DIR))!;
    expect(await run.tile(REF, { z: 0, x: 0, y: 0 }, 'wind', 'surface')).not.toBeNull();
    expect(stored.tileCacheStats().entries).toBe(1);
    await run.tile(REF, { z: 0, x: 0, y: 0 }, 'pressure', 'surface');
    expect(stored.tileCacheStats().entries).toBe(1);
    expect(stored.tileCacheStats().bytes).toBeLessThanOrEqual(one.gzip.byteLength);
    await stored.close();
  });
});
