import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createAifsSource, createEcmwfSource, ecmwfDataUrl, ecmwfField } from './ecmwf.ts';
import { SourceHttp } from './http.ts';
import { SILENT_LOGGER, type SourceContext } from './source.ts';
import { FixtureServer } from './fixtureServer.ts';
import { byteDifference, concatBytes, describeWithFixtures, fakeTime, FIXTURE, readFixture } from './testing.ts';
import { HOUR_MS } from '../../common/time.ts';

const SCHEDULE = { runHours: [0, 12], publishDelayMinutes: 60, lookbackHours: 48 };
const STEPS = [0, 3, 6];
const RUN_00 = Date.UTC(2025, 8, 12, 0);
const RUN_12 = Date.UTC(2025, 8, 12, 12);

describeWithFixtures('ECMWF open data sources against the fixture server', () => {
  let server: FixtureServer;
  let dir: string;
  let wanted: Uint8Array;
  let tprate: Uint8Array;

  beforeAll(async () => {
    server = await FixtureServer.start();
    // A step file as ECMWF publishes it, several parameters back to back: 2t, 10u, 10v, gh at
    // 500 hPa (from the real ECMWF and GFS fixtures), then the CCSDS-packed tprate nobody asks for.
    wanted = concatBytes([await readFixture(FIXTURE.ecmwf2t), await readFixture(FIXTURE.gfsWind1p0), await readFixture(FIXTURE.gfsGh500)]);
    tprate = await readFixture(FIXTURE.ecmwfTprate);
    const step = concatBytes([wanted, tprate]);
    for (const run of [RUN_00, RUN_12]) {
      for (const s of STEPS) {
        server.putEcmwf(ecmwfDataUrl('', 'ifs', run, s), step);
        server.putEcmwf(ecmwfDataUrl('', 'aifs-single', run, s), step);
      }
    }
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-ecmwf-'));
  });
  afterEach(async () => {
    server.clearLog();
    await rm(dir, { recursive: true, force: true });
  });

  const context = (now: number): SourceContext => {
    const time = fakeTime(now);
    return { http: new SourceHttp({ now: time.now, sleep: time.sleep }), log: SILENT_LOGGER, downloadDir: dir, now: time.now };
  };
  const FIELDS = [ecmwfField('10u'), ecmwfField('10v'), ecmwfField('2t'), ecmwfField('gh', 500), ecmwfField('tp', undefined, true), ecmwfField('2d', undefined, true)];

  it('skips a newest run with an unpublished step and fetches only the wanted fields', async () => {
    const missing = ecmwfDataUrl('', 'ifs', RUN_12, 3).replace(/\.grib2$/, '.index');
    const index = server.files.get(missing) as Uint8Array;
    server.remove(missing);
    try {
      const source = createEcmwfSource({ baseUrl: server.url, steps: STEPS, fields: FIELDS, schedule: SCHEDULE });
      const ctx = context(RUN_12 + 3 * HOUR_MS);
      const plan = await source.findLatestRun(ctx);
      expect(plan?.refTime).toBe(RUN_00);
      server.clearLog();
      const files = await source.download(plan!, ctx);
      for (const file of files) expect(byteDifference(new Uint8Array(await readFile(file)), wanted)).toBeNull();
      // 2t, 10u, 10v and gh are adjacent: one request per step, the tprate bytes never asked for.
      const ranged = server.requests(undefined, true);
      expect(ranged.map((r) => r.range)).toEqual(Array(3).fill(`bytes=0-${wanted.length - 1}`));
      expect(ranged.reduce((n, r) => n + r.bytes, 0)).toBe(3 * wanted.length);
    } finally {
      server.put(missing, index);
    }
  });

  it('reports a required parameter missing from the index by name', async () => {
    const source = createEcmwfSource({ baseUrl: server.url, steps: STEPS, fields: [...FIELDS, ecmwfField('msl')], schedule: SCHEDULE });
    const ctx = context(RUN_12 + 3 * HOUR_MS);
    const plan = (await source.findLatestRun(ctx))!;
    const before = server.requests(/\.grib2$/, true).length;
    // Every step's index lacks it: the first step is named, and nothing is fetched for the run.
    await expect(source.download(plan, ctx)).rejects.toThrow(/step 0 index has no msl/);
    expect(server.requests(/\.grib2$/, true).length).toBe(before);
  });

  it('downloads AIFS from its own path', async () => {
    const source = createAifsSource({ baseUrl: server.url, steps: STEPS, fields: [ecmwfField('tprate')], schedule: SCHEDULE });
    const ctx = context(RUN_12 + 3 * HOUR_MS);
    const plan = await source.findLatestRun(ctx);
    expect(plan?.refTime).toBe(RUN_12);
    const files = await source.download(plan!, ctx);
    expect(byteDifference(new Uint8Array(await readFile(files[2])), tprate)).toBeNull();
    expect(server.requests(/aifs-single\/0p25\/oper\/20250912120000-6h-oper-fc\.grib2$/, true).map((r) => r.range))
      .toEqual([`bytes=${wanted.length}-${wanted.length + tprate.length - 1}`]);
  });
});
