import { appendFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createGfsSource, gfsDataUrl, noaaField } from './gfs.ts';
import { createGfsWaveSource, gfsWaveDataUrl } from './gfsWave.ts';
import { SourceHttp } from './http.ts';
import { RunFolder } from './runFolder.ts';
import { SILENT_LOGGER, type SourceContext } from './source.ts';
import { FixtureServer, type RequestRecord } from './fixtureServer.ts';
import { byteDifference, concatBytes, describeWithFixtures, fakeTime, FIXTURE, readFixture, splitByRunAndStep } from './testing.ts';
import { gribFields, type FieldIdentity } from './fixtureIndex.ts';
import { HOUR_MS } from '../../common/time.ts';

const WIND_10M = [noaaField('UGRD', '10 m above ground'), noaaField('VGRD', '10 m above ground')];
const TEST_SCHEDULE = { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 48 };

async function fileBytes(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path));
}

/** Whether every completed (path, range) was served once: nothing fetched twice. */
function duplicates(records: RequestRecord[]): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const r of records.filter((x) => x.completed)) {
    const key = `${r.path} ${r.range}`;
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
  return twice;
}

describeWithFixtures('GFS source against the fixture server', () => {
  let server: FixtureServer;
  let dir: string;
  let series: Map<number, Map<number, Uint8Array>>;
  let full: Uint8Array;

  beforeAll(async () => {
    server = await FixtureServer.start();
    // The 2018 1° wind series: each 6-hourly run's f000 and f003, published as GFS would.
    series = splitByRunAndStep(await readFixture(FIXTURE.gfsWindSeries));
    for (const [run, steps] of series) {
      for (const [step, bytes] of steps) server.putNoaa(gfsDataUrl('', run, step, '1p00'), bytes);
    }
    // A complete GFS 2.5° file (343 fields) as every step of one run.
    full = await readFixture(FIXTURE.gfs2p5Full);
    for (const step of [0, 3, 6, 9]) server.putNoaa(gfsDataUrl('', Date.UTC(2011, 0, 10, 12), step, '2p50'), full);
    server.putNoaa(gfsWaveDataUrl('', Date.UTC(2026, 7, 19, 0), 0, 'global.0p16'), await readFixture(FIXTURE.wave));
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-gfs-'));
  });
  afterEach(async () => {
    server.clearFaults();
    server.clearLog();
    server.onRequest = null;
    await rm(dir, { recursive: true, force: true });
  });

  const context = (now: number, signal?: AbortSignal): SourceContext => {
    const time = fakeTime(now);
    return { http: new SourceHttp({ now: time.now, sleep: time.sleep }), log: SILENT_LOGGER, downloadDir: dir, now: time.now, signal };
  };
  const windSource = () => createGfsSource({ baseUrl: server.url, grid: '1p00', steps: [0, 3], fields: WIND_10M, schedule: TEST_SCHEDULE });

  it('finds the newest complete run', async () => {
    const plan = await windSource().findLatestRun(context(Date.UTC(2018, 9, 16, 23)));
    expect(plan?.refTime).toBe(Date.UTC(2018, 9, 16, 18));
    expect(plan?.steps).toEqual([0, 3]);
  });

  it('skips a newest run whose last step is not published, with one HEAD', async () => {
    const path = gfsDataUrl('', Date.UTC(2018, 9, 16, 18), 3, '1p00');
    const idx = server.files.get(`${path}.idx`) as Uint8Array;
    server.remove(`${path}.idx`);
    try {
      const plan = await windSource().findLatestRun(context(Date.UTC(2018, 9, 16, 23)));
      expect(plan?.refTime).toBe(Date.UTC(2018, 9, 16, 12));
      expect(server.requests(/gfs\.20181016\/18\//).map((r) => [r.method, r.status])).toEqual([['HEAD', 404]]);
    } finally {
      server.put(`${path}.idx`, idx);
    }
  });

  it('skips a newest run with a step missing in the middle', async () => {
    const path = gfsDataUrl('', Date.UTC(2018, 9, 16, 18), 0, '1p00');
    const idx = server.files.get(`${path}.idx`) as Uint8Array;
    server.remove(`${path}.idx`);
    try {
      const plan = await windSource().findLatestRun(context(Date.UTC(2018, 9, 16, 23)));
      expect(plan?.refTime).toBe(Date.UTC(2018, 9, 16, 12));
    } finally {
      server.put(`${path}.idx`, idx);
    }
  });

  it('steps over a run missing upstream (2018-10-10 18Z)', async () => {
    const plan = await windSource().findLatestRun(context(Date.UTC(2018, 9, 10, 21)));
    expect(plan?.refTime).toBe(Date.UTC(2018, 9, 10, 12));
  });

  it('asks nothing when no run is newer than the last one taken', async () => {
    const plan = await windSource().findLatestRun(context(Date.UTC(2018, 9, 16, 23)), Date.UTC(2018, 9, 16, 18));
    expect(plan).toBeNull();
    expect(server.log).toEqual([]);
  });

  it('returns null when nothing in the look-back is complete', async () => {
    expect(await windSource().findLatestRun(context(Date.UTC(2030, 0, 1)))).toBeNull();
  });

  it('downloads the run: the bytes equal the fixture messages, one merged range per step', async () => {
    const source = windSource();
    const run = Date.UTC(2018, 9, 16, 18);
    const ctx = context(run + 5 * HOUR_MS);
    const plan = await source.findLatestRun(ctx);
    expect(plan?.refTime).toBe(run);
    server.clearLog();
    const files = await source.download(plan!, ctx);
    expect(files).toEqual([0, 3].map((step) => new RunFolder(join(dir, '2018101618')).stepFile(step)));
    for (const [i, step] of [0, 3].entries()) expect(byteDifference(await fileBytes(files[i]), series.get(run)?.get(step))).toBeNull();
    const ranged = server.requests(undefined, true);
    expect(ranged).toHaveLength(2);
    expect(ranged.reduce((n, r) => n + r.bytes, 0)).toBe([0, 3].reduce((n, s) => n + (series.get(run)?.get(s)?.length ?? 0), 0));
  });

  // Isobar's GFS fields, told by their GRIB2 identity (not by the .idx names the source matches).
  const wanted = (f: FieldIdentity): boolean => {
    const id = `${f.discipline}.${f.category}.${f.number}`;
    const t = f.surface1?.type;
    const v = f.surface1?.value;
    if (t === 100) return ['0.2.2', '0.2.3', '0.0.0', '0.3.5'].includes(id) && [850, 700, 500, 300, 250, 200].includes((v ?? 0) / 100);
    if (t === 103 && v === 10) return ['0.2.2', '0.2.3'].includes(id);
    if (t === 103 && v === 2) return ['0.0.0', '0.0.6', '0.1.1'].includes(id);
    if (t === 101) return id === '0.3.1';
    // Surface: gust, CAPE, precipitation, snow water equivalent (WEASD), and the model's terrain height (HGT) at a run's first step.
    // Surface: also the overlays straight from model fields (snow depth, categorical precipitation,
    // visibility, the surface temperature with land and ice for the SST).
    if (t === 1) return ['0.2.22', '0.7.6', '0.1.8', '0.1.13', '0.3.5', '0.1.11', '0.1.192', '0.1.193', '0.1.194', '0.1.195', '0.19.0', '0.0.0', '2.0.0', '10.2.0'].includes(id);
    if (t === 200 && id === '0.14.0') return true;
    if (t === 214 || t === 224 || t === 234 || t === 200) return ['0.6.1', '0.6.3', '0.6.4', '0.6.5'].includes(id);
    // The freezing level, the convective cloud bottom and top, the cloud ceiling.
    if (t === 4) return id === '0.3.5';
    if (t === 242 || t === 243) return id === '0.3.0';
    if (t === 215) return id === '0.3.5';
    return false;
  };

  it('fetches only the wanted fields of a full file: bytes and requests counted', async () => {
    const fields = gribFields(full).filter(wanted);
    const messages = [...new Map(fields.map((f) => [f.messageOffset, f])).values()].sort((a, b) => a.messageOffset - b.messageOffset);
    const expected = concatBytes(messages.map((m) => full.subarray(m.messageOffset, m.messageOffset + m.messageLength)));
    const merged = messages.filter((m, i) => i === 0 || messages[i - 1].messageOffset + messages[i - 1].messageLength !== m.messageOffset).length;

    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [9], schedule: TEST_SCHEDULE });
    const ctx = context(Date.UTC(2011, 0, 10, 14));
    const plan = await source.findLatestRun(ctx);
    server.clearLog();
    const [file] = await source.download(plan!, ctx);
    expect(byteDifference(await fileBytes(file), expected)).toBeNull();
    const ranged = server.requests(undefined, true);
    expect(ranged.map((r) => r.status)).toEqual(Array(merged).fill(206));
    expect(ranged.reduce((n, r) => n + r.bytes, 0)).toBe(expected.length);
    expect(server.log).toHaveLength(merged);
    // 36 of the file's 343 fields (u and v share messages), a small share of its bytes.
    expect(fields.length).toBeGreaterThan(30);
    expect(expected.length).toBeLessThan(full.length / 5);
  });

  it('fetches the model\'s terrain height (HGT at the surface) with the run\'s first step only', async () => {
    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [0, 3, 6], schedule: TEST_SCHEDULE });
    const ctx = context(Date.UTC(2011, 0, 10, 14));
    const files = await source.download((await source.findLatestRun(ctx))!, ctx);
    const orography = (f: FieldIdentity) => f.discipline === 0 && f.category === 3 && f.number === 5 && f.surface1?.type === 1;
    const counts = await Promise.all(files.map(async (file) => gribFields(await fileBytes(file)).filter(orography).length));
    expect(counts).toEqual([1, 0, 0]);
    // Everything else is fetched at every step.
    const others = await Promise.all(files.map(async (file) => gribFields(await fileBytes(file)).filter((f) => !orography(f)).length));
    expect(new Set(others).size).toBe(1);
  });

  it('downloads through 5xx, 429, resets and truncated bodies', async () => {
    const path = /\/gfs\.20110110\/12\/atmos\//;
    server.fault({ path, ranged: true, fault: { kind: 'status', status: 503 }, times: 2 });
    server.fault({ path, ranged: true, fault: { kind: 'status', status: 429, headers: { 'retry-after': '3' } } });
    server.fault({ path, ranged: true, fault: { kind: 'reset' } });
    server.fault({ path, ranged: true, fault: { kind: 'truncate', afterBytes: 5000 } });
    server.fault({ path: /\.idx$/, fault: { kind: 'status', status: 502 } });
    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [0, 3], schedule: TEST_SCHEDULE, concurrency: 1 });
    const ctx = context(Date.UTC(2011, 0, 10, 14));
    const files = await source.download((await source.findLatestRun(ctx))!, ctx);
    const clean = await mkdtemp(join(tmpdir(), 'isobar-gfs-clean-'));
    try {
      const cleanCtx = { ...context(Date.UTC(2011, 0, 10, 14)), downloadDir: clean };
      const reference = await source.download((await source.findLatestRun(cleanCtx))!, cleanCtx);
      for (const [i, file] of files.entries()) expect(byteDifference(await fileBytes(file), await fileBytes(reference[i]))).toBeNull();
    } finally {
      await rm(clean, { recursive: true, force: true });
    }
    expect(ctx.http.stats.retries).toBe(6);
  });

  it('does not retry a 404 on a data file', async () => {
    const path = gfsDataUrl('', Date.UTC(2011, 0, 10, 12), 6, '2p50');
    server.remove(path);
    try {
      const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [6], schedule: TEST_SCHEDULE });
      const ctx = context(Date.UTC(2011, 0, 10, 14));
      await expect(source.download((await source.findLatestRun(ctx))!, ctx)).rejects.toThrow(/HTTP 404/);
      expect(server.requests(path)).toHaveLength(1);
    } finally {
      server.put(path, full);
    }
  });

  it('resumes an interrupted download: nothing fetched twice', async () => {
    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [0, 3, 6, 9], schedule: TEST_SCHEDULE, concurrency: 1 });
    const now = Date.UTC(2011, 0, 10, 14);
    // The 7th range request is held back and the client aborts as it arrives: the server never answers it.
    const controller = new AbortController();
    let ranged = 0;
    server.onRequest = (req) => {
      if (req.headers.range && ++ranged === 7) controller.abort(new Error('server closing'));
    };
    server.fault({ path: /atmos/, ranged: true, after: 6, fault: { kind: 'slow', delayMs: 300 } });
    const first = context(now, controller.signal);
    await expect(source.download((await source.findLatestRun(first))!, first)).rejects.toThrow('server closing');
    // The held request waits out its delay on the server, then finds its client gone: not answered.
    await server.settled();
    expect(server.requests(undefined, true).filter((r) => r.completed)).toHaveLength(6);

    server.onRequest = null;
    const indexRequests = server.requests(/\.idx$/).length;
    const second = context(now);
    const files = await source.download((await source.findLatestRun(second))!, second);
    // The indexes were kept with the run: not asked for again.
    expect(server.requests(/\.idx$/)).toHaveLength(indexRequests);
    const served = server.requests(undefined, true);
    expect(duplicates(served)).toEqual([]);
    // Every step is the same file upstream; the first also brings the model's terrain height.
    const laterStep = await fileBytes(files[1]);
    for (const file of files.slice(1)) expect(byteDifference(await fileBytes(file), laterStep)).toBeNull();
    const firstStep = await fileBytes(files[0]);
    expect(gribFields(firstStep).length).toBe(gribFields(laterStep).length + 1);
    expect(served.filter((r) => r.completed).reduce((n, r) => n + r.bytes, 0)).toBe(firstStep.length + 3 * laterStep.length);

    // A third call fetches nothing: every step is marked complete.
    server.clearLog();
    const third = context(now);
    await source.download((await source.findLatestRun(third))!, third);
    expect(server.log).toEqual([]);
  });

  it('keeps the whole chunks of a torn part file and fetches only the rest', async () => {
    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [9], schedule: TEST_SCHEDULE });
    const ctx = context(Date.UTC(2011, 0, 10, 14));
    const [file] = await source.download((await source.findLatestRun(ctx))!, ctx);
    const whole = await fileBytes(file);
    const firstRange = server.requests(undefined, true)[0];
    const [, a, b] = /bytes=(\d+)-(\d+)/.exec(firstRange.range ?? '') ?? [];
    const firstChunk = Number(b) - Number(a) + 1;
    // As if the process died while writing the second chunk.
    const folder = new RunFolder(join(dir, '2011011012'));
    await unlink(file);
    await writeFile(folder.partFile(9), whole.subarray(0, firstChunk));
    await appendFile(folder.partFile(9), whole.subarray(firstChunk, firstChunk + 100));
    server.clearLog();
    const again = await source.download((await source.findLatestRun(ctx))!, ctx);
    expect(byteDifference(await fileBytes(again[0]), whole)).toBeNull();
    const ranges = server.requests(undefined, true).map((r) => r.range);
    expect(ranges).not.toContain(firstRange.range);
    expect(server.requests(undefined, true).reduce((n, r) => n + r.bytes, 0)).toBe(whole.length - firstChunk);
  });

  it('plans a step afresh when its file no longer matches the index kept with the run', async () => {
    const source = createGfsSource({ baseUrl: server.url, grid: '2p50', steps: [9], schedule: TEST_SCHEDULE });
    const ctx = context(Date.UTC(2011, 0, 10, 14));
    const folder = new RunFolder(join(dir, '2011011012'));
    await folder.create();
    // An index from before the file was republished: every offset one byte off.
    const index = new TextDecoder().decode(server.files.get(`${gfsDataUrl('', Date.UTC(2011, 0, 10, 12), 9, '2p50')}.idx`));
    await folder.writeIndex(9, index.replace(/^(\d+(?:\.\d+)?):(\d+):/gm, (_m, n: string, o: string) => `${n}:${Number(o) + 1}:`));
    await expect(source.download((await source.findLatestRun(ctx))!, ctx)).rejects.toThrow(/GRIB/);
    expect(await folder.readIndex(9)).toBeNull();
    const [file] = await source.download((await source.findLatestRun(ctx))!, ctx);
    expect(gribFields(await fileBytes(file)).length).toBeGreaterThan(30);
  });

  it('downloads GFS-Wave significant wave height', async () => {
    const source = createGfsWaveSource({ baseUrl: server.url, grid: 'global.0p16', steps: [0], schedule: TEST_SCHEDULE });
    const ctx = context(Date.UTC(2026, 7, 19, 2));
    const plan = await source.findLatestRun(ctx);
    expect(plan?.refTime).toBe(Date.UTC(2026, 7, 19, 0));
    const [file] = await source.download(plan!, ctx);
    expect(byteDifference(await fileBytes(file), await readFixture(FIXTURE.wave))).toBeNull();
  });
});
