/**
 * loadSamples: a sample already published is left alone, unless its run came from a build before
 * the level store (run.json without `levelPoints`) or before the point store's static section
 * (`points` without `statics`): that one is loaded again.
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
    const second = (await readCurrentRunId(dataDir, PRODUCT))!;
    expect(second).not.toBe(id);

    // A run from a build before the point store kept the model's terrain height: loaded again too.
    const secondPath = join(runDir(dataDir, PRODUCT, second), 'run.json');
    const secondManifest = JSON.parse(await readFile(secondPath, 'utf8')) as { points: Record<string, unknown> };
    expect(secondManifest.points.statics).toEqual(['elevation']);
    delete secondManifest.points.statics;
    await writeFile(secondPath, JSON.stringify(secondManifest));
    expect((await loadSamples(samples, dataDir)).loaded.map((r) => r.product)).toEqual([PRODUCT]);
    expect(await readCurrentRunId(dataDir, PRODUCT)).not.toBe(second);
  }, 90_000);
});
