import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGfsSource, gfsDataUrl, noaaField } from './gfs.ts';
import { SourceHttp } from './http.ts';
import { nextRoundDelay, progressLogger, readSourceState, startLiveSources, startScheduler, type IngestFn, type Scheduler, type SchedulerOptions } from './scheduler.ts';
import type { LiveSource, RunPlan, SourceContext, SourceLogger } from './source.ts';
import { runFolderPath } from './runFolder.ts';
import { LocalDirectoryStore } from '../storage/localDirectory.ts';
import { scrape } from '../ops/metrics.ts';
import { FixtureServer } from './fixtureServer.ts';
import { byteDifference, describeWithFixtures, fakeTime, FIXTURE, readFixture, splitByRunAndStep, untilAborted } from './testing.ts';
import { HOUR_MS, MINUTE_MS } from '../../common/time.ts';

describe('nextRoundDelay', () => {
  const base = { intervalMs: 720 * MINUTE_MS, publishDelayMs: 240 * MINUTE_MS, retryDelayMs: 30 * MINUTE_MS, jitter: 0.05, random: () => 0 };
  const R = Date.UTC(2024, 0, 2, 0);
  it.each([
    ['after a run: until the next run should be out (12Z + 4 h)', { now: R + 5 * HOUR_MS, lastRefTime: R, failed: false }, 11 * HOUR_MS],
    ['the next run is late: poll again after the retry delay', { now: R + 17 * HOUR_MS, lastRefTime: R, failed: false }, 30 * MINUTE_MS],
    ['after a failure: the retry delay', { now: R + 5 * HOUR_MS, lastRefTime: R, failed: true }, 30 * MINUTE_MS],
    ['nothing found yet: the retry delay', { now: R, lastRefTime: undefined, failed: false }, 30 * MINUTE_MS],
  ])('%s', (_name, p, expected) => {
    expect(nextRoundDelay({ ...base, ...p })).toBe(expected);
  });

  it('adds up to a twentieth of the interval as jitter, never less than the base', () => {
    const late = nextRoundDelay({ ...base, random: () => 0.999999, now: R + 5 * HOUR_MS, lastRefTime: R, failed: false });
    expect(late).toBeGreaterThan(11 * HOUR_MS);
    expect(late).toBeLessThanOrEqual(11 * HOUR_MS + 36 * MINUTE_MS);
  });
});

/** A sleep the test releases by hand; each call is recorded with its delay. */
function manualSleep() {
  const pending: { ms: number; resolve: () => void }[] = [];
  const all: number[] = [];
  const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
    all.push(ms);
    pending.push({ ms, resolve });
    untilAborted(signal).catch(reject);
  });
  const next = async () => {
    for (let i = 0; pending.length === 0; i++) {
      if (i > 2000) throw new Error('no round ended');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return pending.shift() as { ms: number; resolve: () => void };
  };
  return { sleep, next, all };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > 2000) throw new Error('condition never met');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function captureLog(): SourceLogger & { entries: { level: string; obj: object; msg?: string }[] } {
  const entries: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The step files the scheduler hands the ingest, as they come. */
async function fileList(files: string[] | AsyncIterable<string>): Promise<string[]> {
  const list: string[] = [];
  for await (const file of files) list.push(file);
  return list;
}

/** A source without HTTP: `latest` is what upstream has; a download writes one step file. */
class FakeSource implements LiveSource {
  readonly product: string;
  readonly label = 'Fake model';
  readonly intervalMinutes = 720;
  readonly premiumIntervalMinutes = 360;
  readonly publishDelayMinutes = 240;
  latest: number | null = null;
  /** Calls of findLatestRun: a round looking upstream. */
  finds = 0;
  downloads: number[] = [];
  running = 0;
  mostRunning = 0;
  gate: Promise<void> | null = null;
  constructor(readonly id: string, readonly unsupportedReason?: string) {
    this.product = `${id}-product`;
  }

  async findLatestRun(_ctx: SourceContext, newerThan?: number): Promise<RunPlan | null> {
    this.finds++;
    return this.latest !== null && (newerThan === undefined || this.latest > newerThan) ? { source: this.id, refTime: this.latest, steps: [0] } : null;
  }

  async download(plan: RunPlan, ctx: SourceContext): Promise<string[]> {
    this.running++;
    this.mostRunning = Math.max(this.mostRunning, this.running);
    try {
      this.downloads.push(plan.refTime);
      const gate = this.gate;
      if (gate) {
        await new Promise<void>((resolve, reject) => {
          void gate.then(resolve);
          untilAborted(ctx.signal).catch(reject);
        });
      }
      ctx.signal?.throwIfAborted();
      const folder = runFolderPath(ctx.downloadDir, plan.refTime);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'f000.grib2'), `run ${plan.refTime}`);
      return [join(folder, 'f000.grib2')];
    } finally {
      this.running--;
    }
  }
}

describe('progressLogger', () => {
  const lines = () => {
    const logged: string[] = [];
    const log = progressLogger({ info: (fields: object) => {
      const p = fields as { phase?: string; done: number; total: number };
      logged.push(`${p.phase ?? '-'} ${p.done}/${p.total}`);
    } }, { source: 'gfs' }, 'progress');
    return { log, logged };
  };

  it('logs a known total at each tenth and each phase change, no more', () => {
    const { log, logged } = lines();
    for (let done = 1; done <= 40; done++) log({ phase: 'download', done, total: 40 });
    log({ phase: 'publish', done: 1, total: 1 });
    expect(logged).toEqual([
      'download 1/40', 'download 4/40', 'download 8/40', 'download 12/40', 'download 16/40', 'download 20/40',
      'download 24/40', 'download 28/40', 'download 32/40', 'download 36/40', 'download 40/40', 'publish 1/1',
    ]);
  });

  it('logs each step of a run whose total grows as its files land: a stalled step shows as the last line', () => {
    const { log, logged } = lines();
    for (let done = 1; done <= 3; done++) log({ phase: 'step', done, total: done });
    log({ phase: 'step', done: 3, total: 3 });
    expect(logged).toEqual(['step 1/1', 'step 2/2', 'step 3/3']);
  });
});

describe('startScheduler', () => {
  let dataDir: string;
  let scheduler: Scheduler | null;
  const R1 = Date.UTC(2024, 0, 2, 0);
  const R2 = Date.UTC(2024, 0, 2, 12);

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-scheduler-'));
    scheduler = null;
  });
  afterEach(async () => {
    await scheduler?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const ingestSpy = () => {
    const calls: { files: string[]; product?: string; content: string[] }[] = [];
    const ingest: IngestFn = async (files, options) => {
      const list = await fileList(files);
      calls.push({ files: list, product: options.product, content: await Promise.all(list.map((f) => readFile(f, 'utf8'))) });
      return { product: options.product ?? '', refTime: 0, steps: [0], variables: ['wind'], tiles: 1, ms: 1 };
    };
    return { ingest, calls };
  };

  const start = (options: Partial<SchedulerOptions> & Pick<SchedulerOptions, 'sources'>) => {
    scheduler = startScheduler({ logger: captureLog(), dataDir, now: () => R1 + 5 * HOUR_MS, random: () => 0, ...options });
    return scheduler;
  };

  it('ingests each new run once, not again for the same run, and follows the interval', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    const { ingest, calls } = ingestSpy();
    const time = manualSleep();
    start({ sources: [source], ingest, sleep: time.sleep });

    const first = await time.next();
    expect(calls).toEqual([{ files: [join(runFolderPath(join(dataDir, 'downloads/fake'), R1), 'f000.grib2')], product: 'fake-product', content: [`run ${R1}`] }]);
    // Next round when the 12Z run should be out: 12Z + 240 min publication delay, from 05Z.
    expect(first.ms).toBe(11 * HOUR_MS);
    expect((await readSourceState(new LocalDirectoryStore(dataDir), 'fake'))?.refTime).toBe(R1);
    // The run's download folder goes once ingested.
    expect(existsSync(runFolderPath(join(dataDir, 'downloads/fake'), R1))).toBe(false);
    // Its metrics (server/ops/metrics.ts): the ingest's time, when the source last published, the data's age (5 h at 05Z).
    const metrics = (await scrape()).body;
    expect(metrics).toMatch(/^isobar_ingest_duration_seconds_count\{product="fake-product"\} [1-9]/m);
    expect(metrics).toContain(`isobar_source_last_success_seconds{source="fake"} ${(R1 + 5 * HOUR_MS) / 1000}`);
    expect(metrics).toContain(`isobar_source_data_age_seconds{source="fake"} ${5 * 3600}`);

    first.resolve();
    const second = await time.next();
    expect(calls).toHaveLength(1);
    expect(source.downloads).toEqual([R1]);
    expect(second.ms).toBe(11 * HOUR_MS);

    source.latest = R2;
    second.resolve();
    await time.next();
    expect(calls.map((c) => c.content[0])).toEqual([`run ${R1}`, `run ${R2}`]);
  });

  it('remembers the last run across restarts', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    const { ingest, calls } = ingestSpy();
    let time = manualSleep();
    start({ sources: [source], ingest, sleep: time.sleep });
    await time.next();
    await scheduler?.stop();

    time = manualSleep();
    start({ sources: [source], ingest, sleep: time.sleep });
    await time.next();
    expect(calls).toHaveLength(1);
    expect(source.downloads).toEqual([R1]);
  });

  it('follows the Premium interval when asked', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    const time = manualSleep();
    start({ sources: [source], ingest: ingestSpy().ingest, sleep: time.sleep, premium: true });
    // 06Z + 240 min, from 05Z.
    expect((await time.next()).ms).toBe(5 * HOUR_MS);
  });

  it('logs a failed ingest, keeps the download and retries after the retry delay', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    const log = captureLog();
    let fail = true;
    const { ingest: ok, calls } = ingestSpy();
    const ingest: IngestFn = async (files, options) => {
      if (fail) {
        fail = false;
        throw new Error('disk full');
      }
      return ok(files, options);
    };
    const time = manualSleep();
    start({ sources: [source], ingest, sleep: time.sleep, logger: log, retryDelayMs: 10 * MINUTE_MS });
    const first = await time.next();
    expect(first.ms).toBe(10 * MINUTE_MS);
    expect(log.entries.find((e) => e.level === 'error')).toMatchObject({ obj: { source: 'fake', err: 'disk full' } });
    expect(await readSourceState(new LocalDirectoryStore(dataDir), 'fake')).toBeNull();
    expect(existsSync(join(runFolderPath(join(dataDir, 'downloads/fake'), R1), 'f000.grib2'))).toBe(true);
    first.resolve();
    await time.next();
    expect(calls).toHaveLength(1);
    expect((await readSourceState(new LocalDirectoryStore(dataDir), 'fake'))?.refTime).toBe(R1);
  });

  it('runs one job at a time', async () => {
    const a = new FakeSource('a');
    const b = new FakeSource('b');
    a.latest = b.latest = R1;
    let open = () => {};
    a.gate = b.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const time = manualSleep();
    start({ sources: [a, b], ingest: ingestSpy().ingest, sleep: time.sleep });
    await until(() => a.downloads.length + b.downloads.length > 0);
    // While that job runs the other source has not even looked upstream: its round waits in the
    // queue. (Rounds run side by side would both have looked before either downloads: both loops
    // start together and go through the same steps.)
    expect(a.finds + b.finds).toBe(1);
    expect(a.downloads.length + b.downloads.length).toBe(1);
    open();
    await time.next();
    await time.next();
    expect(a.downloads).toEqual([R1]);
    expect(b.downloads).toEqual([R1]);
    expect(a.mostRunning + b.mostRunning).toBe(2);
    expect(Math.max(a.mostRunning, b.mostRunning)).toBe(1);
  });

  it('stops a running job when the server closes', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    source.gate = new Promise(() => {});
    const { ingest, calls } = ingestSpy();
    const controller = new AbortController();
    start({ sources: [source], ingest, sleep: manualSleep().sleep, signal: controller.signal });
    await until(() => source.downloads.length === 1);
    controller.abort(new Error('closing'));
    await scheduler?.done;
    expect(calls).toEqual([]);
  });

  it('does not start a source marked unsupported, and says why', async () => {
    const source = new FakeSource('icon', 'icosahedral grid');
    source.latest = R1;
    const log = captureLog();
    start({ sources: [source], ingest: ingestSpy().ingest, sleep: manualSleep().sleep, logger: log });
    await scheduler?.stop();
    expect(source.downloads).toEqual([]);
    expect(log.entries).toContainEqual({ level: 'warn', obj: { source: 'icon', reason: 'icosahedral grid' }, msg: 'live source not started' });
  });

  it('leaves the machine to another live process holding the lock, and takes a stale lock', async () => {
    const source = new FakeSource('fake');
    source.latest = R1;
    await mkdir(join(dataDir, 'downloads'), { recursive: true });
    // pid 1 is alive in any container.
    await writeFile(join(dataDir, 'downloads/.lock'), '1');
    const time = manualSleep();
    start({ sources: [source], ingest: ingestSpy().ingest, sleep: time.sleep, retryDelayMs: 5 * MINUTE_MS });
    expect((await time.next()).ms).toBe(5 * MINUTE_MS);
    expect(source.downloads).toEqual([]);
    await writeFile(join(dataDir, 'downloads/.lock'), '999999999');
    expect(await scheduler?.runRound('fake')).toEqual({ kind: 'ingested', refTime: R1 });
    expect(existsSync(join(dataDir, 'downloads/.lock'))).toBe(false);
  });
});

describe('startLiveSources', () => {
  it('starts nothing unless ISOBAR_SOURCES names sources', () => {
    expect(startLiveSources({ logger: captureLog(), env: {} })).toBeNull();
    expect(startLiveSources({ logger: captureLog(), env: { ISOBAR_SOURCES: 'none' } })).toBeNull();
  });

  it('starts the named sources, refusing ICON global with a warning', async () => {
    const log = captureLog();
    const live = startLiveSources({ logger: log, env: { ISOBAR_SOURCES: 'icon', ISOBAR_DATA_DIR: tmpdir() } });
    await live?.stop();
    expect(live).not.toBeNull();
    expect(log.entries.map((e) => [e.level, e.msg])).toEqual([['warn', 'live source not started']]);
  });

  it('throws on a bad configuration', () => {
    expect(() => startLiveSources({ logger: captureLog(), env: { ISOBAR_SOURCES: 'nam' } })).toThrow(/unknown source "nam"/);
  });
});

describeWithFixtures('scheduler with the GFS source and the fixture server', () => {
  let server: FixtureServer;
  let dataDir: string;
  let scheduler: Scheduler | null = null;

  beforeEach(async () => {
    server = await FixtureServer.start();
    dataDir = await mkdtemp(join(tmpdir(), 'isobar-scheduler-gfs-'));
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = null;
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('downloads the newest complete run, hands its step files to the ingest once, then asks nothing', async () => {
    const series = splitByRunAndStep(await readFixture(FIXTURE.gfsWindSeries));
    for (const [run, steps] of series) for (const [step, bytes] of steps) server.putNoaa(gfsDataUrl('', run, step, '1p00'), bytes);
    const newest = Date.UTC(2018, 9, 16, 18);
    // The newest run's f003 is not out yet: the run before it is taken.
    server.remove(`${gfsDataUrl('', newest, 3, '1p00')}.idx`);
    const source = createGfsSource({
      baseUrl: server.url, grid: '1p00', steps: [0, 3], schedule: { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 24 },
      fields: [noaaField('UGRD', '10 m above ground'), noaaField('VGRD', '10 m above ground')],
    });
    const ingested: { refTime: number; differences: (string | null)[] }[] = [];
    const ingest: IngestFn = async (files, options) => {
      const list = await fileList(files);
      const refTime = Date.UTC(2018, 9, 16, 12);
      ingested.push({
        refTime,
        differences: await Promise.all(list.map(async (f, i) => byteDifference(new Uint8Array(await readFile(f)), series.get(refTime)?.get([0, 3][i])))),
      });
      expect(options.product).toBe('gfs');
      return { product: 'gfs', refTime, steps: [0, 3], variables: ['wind'], tiles: 1, ms: 1 };
    };
    const time = fakeTime(Date.UTC(2018, 9, 16, 23));
    const sleeper = manualSleep();
    const log = captureLog();
    scheduler = startScheduler({
      logger: log, dataDir, sources: [source], ingest, now: time.now, sleep: sleeper.sleep, random: () => 0,
      http: new SourceHttp({ now: time.now, sleep: time.sleep }),
    });
    await sleeper.next();
    expect(ingested).toEqual([{ refTime: Date.UTC(2018, 9, 16, 12), differences: [null, null] }]);
    expect(log.entries.map((e) => e.msg)).toContain('run ingested');

    server.clearLog();
    // Upstream still has nothing newer that is complete: the newest run is probed, nothing else.
    expect(await scheduler.runRound('gfs')).toEqual({ kind: 'none', lastRefTime: Date.UTC(2018, 9, 16, 12) });
    expect(server.log.map((r) => [r.method, r.path])).toEqual([['HEAD', `${gfsDataUrl('', newest, 3, '1p00')}.idx`]]);
    expect(ingested).toHaveLength(1);
  });
});
