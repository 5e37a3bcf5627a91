/**
 * Atomic publication (layout.ts): a run becomes visible all at once, when it is complete. While
 * another run of the product is being built, or after a build fails or is aborted part-way,
 * current.json names the previous run and ServedProducts serves it; a later complete ingest becomes
 * current; runs beyond KEEP_RUNS are removed; an older run ingested late never replaces a newer one.
 *
 * The runs are built from real steps of ../shared/data: the Hurricane Michael series cut into one
 * file per valid time (as an upstream publishes them), and the GFS 2.5° analysis.
 */

import { access, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hourStamp } from '../../common/minifest.ts';
import type { ServedProducts, RunData } from '../data/servedProducts.ts';
import type { StoredRuns } from '../data/storedRuns.ts';
import { HttpError } from '../http/httpError.ts';
import { loadEngine } from './engine.ts';
import { engineGribReader, type GribReader } from './fields.ts';
import { IngestError, ingestFiles, type IngestOptions } from './ingest.ts';
import {
  currentPointerPath, KEEP_RUNS, listRunIds, productDir, readCurrentRunId, runDir, stagingDir,
} from './layout.ts';
import { describeWithFixtures, readTile, SAMPLE, servingSide, splitByValidTime, tempDir } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const SERIES = 'gfs1p0-michael2018';
const START = Date.UTC(2018, 9, 6, 18);

const exists = (path: string) => access(path).then(() => true, () => false);

/** Every file under a directory, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

describeWithFixtures('atomic publication of a run', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  let dataDir: string;
  let pieces: string[];
  let sources: ServedProducts;
  let stored: StoredRuns;
  let clock: ReturnType<typeof servingSide>['clock'];
  let engineReader: GribReader;
  /** The first published run, and what the server answered for it. */
  let first: { id: string; minifest: Record<string, unknown>; run: RunData };

  const ingest = (files: string[], options: Partial<IngestOptions> = {}) => ingestFiles(files, { dataDir, prerender: { surface: 0, levels: 0 }, ...options });

  /** What the server serves for the series product now (a fresh look at current.json). */
  async function served(): Promise<{ id: string | undefined; minifest: Record<string, unknown>; refTime: number }> {
    clock.advance();
    const product = await sources.byDirectory(SERIES);
    return { id: (await stored.current(SERIES))?.manifest.id, minifest: await product.minifest(), refTime: (await product.current()).refTime };
  }

  /** current.json, the runs and ServedProducts all still show the first run, and no half-written file is anywhere but staging. */
  async function expectFirstRunServed(): Promise<void> {
    expect(await readCurrentRunId(dataDir, SERIES)).toBe(first.id);
    expect(await listRunIds(dataDir, SERIES)).toEqual([first.id]);
    const now = await served();
    expect(now.id).toBe(first.id);
    expect(now.minifest).toEqual(first.minifest);
    const tile = await readTile(sources, SERIES, START, START + 3 * HOUR_MS, { z: 0, x: 0, y: 0 }, 'wind', 'surface');
    expect(tile.channels).toHaveLength(2);
    const outside = (await filesUnder(productDir(dataDir, SERIES))).filter((f) => !f.startsWith('staging/'));
    expect(outside.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(outside.filter((f) => !f.startsWith(`runs/${first.id}/`))).toEqual(['current.json']);
  }

  beforeAll(async () => {
    data = await tempDir();
    dataDir = join(data.dir, 'data');
    await mkdir(join(data.dir, 'pieces'));
    pieces = await splitByValidTime(SAMPLE.michael, join(data.dir, 'pieces'), 4);
    ({ sources, stored, clock } = servingSide(dataDir));
    engineReader = engineGribReader(await loadEngine());
  });
  afterAll(async () => {
    await stored?.close();
    await data?.remove();
  });

  it('a complete ingest becomes current', async () => {
    const result = await ingest(pieces.slice(0, 2));
    expect(result).toMatchObject({ product: SERIES, refTime: START, steps: [0, 3] });
    expect(await readCurrentRunId(dataDir, SERIES)).toBe(result.runId);
    const now = await served();
    expect(now).toMatchObject({ id: result.runId, refTime: START, minifest: { ref: '2018-10-06T18:00:00.000Z', dst: [[3, 0, 3]] } });
    first = { id: result.runId!, minifest: now.minifest, run: await (await sources.byDirectory(SERIES)).current() };
    expect(await exists(stagingDir(dataDir, SERIES, START))).toBe(false);
  });

  it('while a second run is being built the first is served; a reader failing part-way publishes nothing', async () => {
    let decodes = 0;
    let midway = 'not reached' as 'not reached' | 'checked' | Error;
    const reader: GribReader = {
      inventory: (bytes) => engineReader.inventory(bytes),
      async decode(bytes, info) {
        decodes++;
        if (decodes === 3) {
          // A step of the new run (u and v of one file) is written to staging, the next is being read.
          try {
            const staging = stagingDir(dataDir, SERIES, START);
            expect(JSON.parse(await readFile(join(staging, 'build.json'), 'utf8')).hours).toEqual([0]);
            expect(await exists(join(staging, '.lock'))).toBe(true);
            await expectFirstRunServed();
            midway = 'checked';
          } catch (error) {
            midway = error as Error;
          }
        }
        if (decodes === 5) throw new Error('the disk is on fire');
        return engineReader.decode(bytes, info);
      },
    };
    const error = await ingest(pieces, { reader }).then(() => null, (e: unknown) => e);
    if (midway instanceof Error) throw midway;
    expect(midway).toBe('checked');
    expect(error).toBeInstanceOf(IngestError);
    expect((error as Error).message).toContain(pieces[2]);
    expect((error as Error).message).toContain('the disk is on fire');
    await expectFirstRunServed();
    // The steps already built wait in staging for the next ingest of the run; the lock is released.
    const staging = stagingDir(dataDir, SERIES, START);
    expect(JSON.parse(await readFile(join(staging, 'build.json'), 'utf8')).hours).toEqual([0, 3]);
    expect(await exists(join(staging, '.lock'))).toBe(false);
  });

  it('an ingest aborted through its AbortSignal publishes nothing', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    let steps = 0;
    const error = await ingest(pieces, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'step' && ++steps === 3) controller.abort(reason);
      },
    }).then(() => null, (e: unknown) => e);
    expect(error).toBe(reason);
    expect(steps).toBe(3);
    await expectFirstRunServed();
    expect(await exists(join(stagingDir(dataDir, SERIES, START), '.lock'))).toBe(false);
  });

  it('an ingest aborted in the middle of a step publishes nothing', async () => {
    const controller = new AbortController();
    const reader: GribReader = {
      inventory: (bytes) => engineReader.inventory(bytes),
      async decode(bytes, info) {
        controller.abort(new Error('stop now'));
        return engineReader.decode(bytes, info);
      },
    };
    await expect(ingest(pieces, { reader, signal: controller.signal })).rejects.toThrow('stop now');
    await expectFirstRunServed();
  });

  let second: string;
  it('publish: false keeps the run staged and unseen; a later ingest completes it and it becomes current', async () => {
    const staged = await ingest(pieces.slice(0, 3), { publish: false });
    expect(staged.runId).toBeUndefined();
    expect(staged.steps).toEqual([0, 3, 6]);
    await expectFirstRunServed();

    const result = await ingest(pieces.slice(3));
    expect(result.steps).toEqual([0, 3, 6, 9]);
    second = result.runId!;
    expect(second).not.toBe(first.id);
    expect(await readCurrentRunId(dataDir, SERIES)).toBe(second);
    expect(await listRunIds(dataDir, SERIES)).toEqual([second, first.id]);
    expect(await exists(stagingDir(dataDir, SERIES, START))).toBe(false);
    const now = await served();
    expect(now.id).toBe(second);
    expect(now.minifest).toMatchObject({ dst: [[3, 0, 9]] });
    const tile = await readTile(sources, SERIES, START, START + 9 * HOUR_MS, { z: 0, x: 1, y: 0 }, 'wind', 'surface');
    expect(tile.header.west).toBe(0);
  });

  it(`keeps the newest ${KEEP_RUNS} runs; a request on a pruned run answers 404`, async () => {
    const third = (await ingest(pieces.slice(0, 1))).runId!;
    expect(await readCurrentRunId(dataDir, SERIES)).toBe(third);
    expect(await listRunIds(dataDir, SERIES)).toEqual([third, second]);
    expect(await exists(runDir(dataDir, SERIES, first.id))).toBe(false);
    expect((await served()).id).toBe(third);
    // A request that looked up the first run before it was pruned.
    const error = await first.run.tile(START, { z: 0, x: 0, y: 0 }, 'wind', 'surface').then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(404);
    const pointError = await first.run.point(27, -87, {}).then(() => null, (e: unknown) => e);
    expect(pointError).toBeInstanceOf(HttpError);
    expect((pointError as HttpError).statusCode).toBe(404);
  });

  it('an older run ingested late is published but does not replace the current one', async () => {
    const product = 'gfs2p5-20170322';
    const ref = Date.UTC(2017, 2, 22, 0);
    /** The analysis, as if it were the run `shift` hours later. */
    const shifted = (shift: number): GribReader => ({
      inventory: (bytes) => engineReader.inventory(bytes).map((info) => ({ ...info, refTime: info.refTime + shift * HOUR_MS })),
      decode: (bytes, info) => engineReader.decode(bytes, { ...info, refTime: info.refTime - shift * HOUR_MS }),
    });
    const current = (await ingest([SAMPLE.gfs2p5Analysis], { product })).runId!;
    const older = await ingest([SAMPLE.gfs2p5Analysis], { product, reader: shifted(-6) });
    expect(older.runId).toMatch(/^2017032118-/);
    expect(await readCurrentRunId(dataDir, product)).toBe(current);
    expect(await listRunIds(dataDir, product)).toEqual([current, older.runId]);
    clock.advance();
    expect((await (await sources.byIdent(product)).current()).refTime).toBe(ref);

    const newer = (await ingest([SAMPLE.gfs2p5Analysis], { product, reader: shifted(6) })).runId!;
    expect(newer.slice(0, 10)).toBe(hourStamp(ref + 6 * HOUR_MS));
    expect(await readCurrentRunId(dataDir, product)).toBe(newer);
    // Pruning keeps the newest reference times, not the latest publications.
    expect(await listRunIds(dataDir, product)).toEqual([newer, current]);
    clock.advance();
    const served6 = await (await sources.byIdent(product)).current();
    expect(served6.refTime).toBe(ref + 6 * HOUR_MS);
    expect(JSON.parse(await readFile(currentPointerPath(dataDir, product), 'utf8')).run).toBe(newer);
  });
});
