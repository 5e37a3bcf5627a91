/**
 * loadSamples: a sample already published is left alone, unless its run came from a build before
 * the level store (run.json without `levelPoints`): that one is loaded again.
 */

import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readCurrentRunId, runDir } from './layout.ts';
import { loadSamples } from './samples.ts';
import { describeWithFixtures, SAMPLE, tempDir } from './testing.ts';

const PRODUCT = 'gfs2p5-20170322';

describeWithFixtures('loadSamples', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  afterAll(() => data?.remove());

  it('loads a sample once, and again when its run predates the level store', async () => {
    data = await tempDir('isobar-samples-test-');
    const samples = join(data.dir, 'samples');
    await mkdir(samples);
    await copyFile(SAMPLE.gfs2p5Analysis, join(samples, 'analysis.grib2'));
    const dataDir = join(data.dir, 'data');
    const first = await loadSamples(samples, dataDir);
    expect(first.failures).toEqual([]);
    expect(first.loaded.map((r) => r.product)).toEqual([PRODUCT]);
    const id = (await readCurrentRunId(dataDir, PRODUCT))!;

    expect(await loadSamples(samples, dataDir)).toMatchObject({ loaded: [], present: [PRODUCT] });

    // The run as an older build wrote it.
    const path = join(runDir(dataDir, PRODUCT, id), 'run.json');
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(manifest.levelPoints).toMatchObject({ file: 'levels.bin' });
    delete manifest.levelPoints;
    await writeFile(path, JSON.stringify(manifest));
    const again = await loadSamples(samples, dataDir);
    expect(again.loaded.map((r) => r.product)).toEqual([PRODUCT]);
    expect(await readCurrentRunId(dataDir, PRODUCT)).not.toBe(id);
  }, 60_000);
});
