import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { LiveProgress } from './progress.ts';
import { storedProgressReader, writeProgress } from './sharedProgress.ts';
import { SECOND_MS } from '../../common/time.ts';

let dir: string | null = null;
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("an ingest process's runs on their way are read by a web process from the store, and go when they end or go stale", async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobar-progress-'));
  const store = new LocalDirectoryStore(dir);
  let t = 1_000_000;
  const progress = new LiveProgress();
  stop = writeProgress(progress, store, { log: (message, error) => expect.fail(`${message}: ${String(error)}`), now: () => t, everyMs: 10 });
  const read = storedProgressReader(store, () => t);
  expect(await read()).toEqual([]);

  progress.start({ source: 'gfs', product: 'gfs', refTime: Date.UTC(2024, 0, 2, 0), total: 3 });
  progress.update('gfs', { downloaded: 2, built: 1, served: 1 });
  progress.start({ source: 'icon-eu', product: 'iconEu', refTime: Date.UTC(2024, 0, 2, 0), total: 5 });
  // A web process answers from its last read for 2 s, then reads again.
  expect(await read()).toEqual([]);
  await vi.waitFor(async () => {
    t += 2 * SECOND_MS;
    expect((await read()).map((run) => run.source)).toEqual(['gfs', 'icon-eu']);
  });
  expect((await read())[0]).toEqual({ source: 'gfs', product: 'gfs', refTime: Date.UTC(2024, 0, 2, 0), total: 3, downloaded: 2, built: 1, served: 1 });

  progress.end('icon-eu');
  await vi.waitFor(async () => {
    t += 2 * SECOND_MS;
    expect((await read()).map((run) => run.source)).toEqual(['gfs']);
  });
  // Its process stops: what it wrote goes.
  await stop();
  t += 2 * SECOND_MS;
  expect(await read()).toEqual([]);
});

it('leaves out progress its process stopped writing (killed) 30 s ago', async () => {
  dir = await mkdtemp(join(tmpdir(), 'isobar-progress-'));
  const store = new LocalDirectoryStore(dir);
  let t = 1_000_000;
  const progress = new LiveProgress();
  progress.start({ source: 'gfs', product: 'gfs', refTime: Date.UTC(2024, 0, 2, 0), total: 3 });
  stop = writeProgress(progress, store, { log: (message) => expect.fail(message), now: () => t, everyMs: 10 });
  await vi.waitFor(async () => expect(await store.list('live/progress/')).toEqual(['gfs.json']));
  await stop();
  // Written again as a killed process leaves it: never removed.
  await store.put('live/progress/gfs.json', JSON.stringify({ run: progress.list()[0], written: t }));
  const read = storedProgressReader(store, () => t);
  expect(await read()).toHaveLength(1);
  t += 30 * SECOND_MS;
  expect(await read()).toEqual([]);
});
