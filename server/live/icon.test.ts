import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { bzip2Available } from './bunzip2.ts';
import { gribMessages } from './gribMessages.ts';
import { SourceHttp } from './http.ts';
import { createIconEuSource, createIconSource, iconFileName, iconListingUrl } from './icon.ts';
import type { PerFileField } from './perFileSource.ts';
import { SILENT_LOGGER, type SourceContext } from './source.ts';
import { FixtureServer } from './fixtureServer.ts';
import { byteDifference, bzip2, concatBytes, describeWithFixtures, fakeTime, FIXTURE, readFixture } from './testing.ts';

const SCHEDULE = { runHours: [0, 6, 12, 18], publishDelayMinutes: 60, lookbackHours: 24 };
const RUN_00 = Date.UTC(2024, 0, 2, 0);
const RUN_06 = Date.UTC(2024, 0, 2, 6);
const FIELDS: PerFileField[] = [
  { variable: 'U_10M' }, { variable: 'V_10M' }, { variable: 'T_2M' }, { variable: 'FI', levelHPa: 500 }, { variable: 'CLCT', optional: true },
];
const hasBzip2 = await bzip2Available();
if (!hasBzip2) console.warn('[sources] the bzip2 program is absent: the DWD ICON tests are skipped (Debian package bzip2)');

describeWithFixtures('DWD ICON sources against the fixture server', () => {
  let server: FixtureServer;
  let dir: string;
  const content = new Map<string, Uint8Array>();

  const put = (model: 'icon' | 'icon-eu', run: number, step: number, field: PerFileField, grib: Uint8Array) => {
    const path = `${new URL(iconListingUrl('http://x', model, run, field)).pathname}${iconFileName(model, run, step, field)}`;
    server.put(path, bzip2(grib) as Uint8Array);
    return path;
  };

  beforeAll(async () => {
    if (!hasBzip2) return;
    server = await FixtureServer.start();
    // Stand-ins: GFS 1° u and v for U_10M / V_10M, the ECMWF 2 m temperature, the GFS 500 hPa height.
    const wind = await readFixture(FIXTURE.gfsWind1p0);
    const [u, v] = gribMessages(wind).map((m) => wind.subarray(m.offset, m.offset + m.length));
    content.set('U_10M', u).set('V_10M', v).set('T_2M', await readFixture(FIXTURE.ecmwf2t)).set('FI', await readFixture(FIXTURE.gfsGh500));
    for (const run of [RUN_00, RUN_06]) {
      for (const step of [0, 3]) for (const field of FIELDS.slice(0, 4)) put('icon-eu', run, step, field, content.get(field.variable) as Uint8Array);
    }
    put('icon', Date.UTC(2021, 10, 20, 18), 0, { variable: 'TOT_PREC' }, await readFixture(FIXTURE.iconIcosahedral));
    // bzip2 runs once per file (17 of them): seconds on a loaded machine, past the 10 s hook default.
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'isobar-icon-'));
  });
  afterEach(async () => {
    server?.clearLog();
    server?.clearFaults();
    await rm(dir, { recursive: true, force: true });
  });

  const context = (now: number): SourceContext => {
    const time = fakeTime(now);
    return { http: new SourceHttp({ now: time.now, sleep: time.sleep }), log: SILENT_LOGGER, downloadDir: dir, now: time.now };
  };

  it.skipIf(!hasBzip2)('finds the newest run whose files are all listed, then downloads and joins them', async () => {
    const missing = `/icon-eu/grib/06/t_2m/${iconFileName('icon-eu', RUN_06, 3, { variable: 'T_2M' })}`;
    const kept = server.files.get(missing) as Uint8Array;
    server.remove(missing);
    try {
      const source = createIconEuSource({ baseUrl: server.url, steps: [0, 3], fields: FIELDS, schedule: SCHEDULE });
      const ctx = context(Date.UTC(2024, 0, 2, 12));
      const plan = await source.findLatestRun(ctx);
      expect(plan?.refTime).toBe(RUN_00);
      // One listing per variable directory and run hour; the listing of 06 stopped at t_2m.
      expect(server.requests(/\/$/).map((r) => r.path)).toEqual([
        '/icon-eu/grib/06/u_10m/', '/icon-eu/grib/06/v_10m/', '/icon-eu/grib/06/t_2m/',
        '/icon-eu/grib/00/u_10m/', '/icon-eu/grib/00/v_10m/', '/icon-eu/grib/00/t_2m/', '/icon-eu/grib/00/fi/', '/icon-eu/grib/00/clct/',
      ]);
      server.clearLog();
      const files = await source.download(plan!, ctx);
      const expected = concatBytes(['U_10M', 'V_10M', 'T_2M', 'FI'].map((v) => content.get(v) as Uint8Array));
      for (const file of files) expect(byteDifference(new Uint8Array(await readFile(file)), expected)).toBeNull();
      expect(server.log.map((r) => [r.range, r.status])).toEqual(Array(8).fill([null, 200]));
    } finally {
      server.put(missing, kept);
    }
  });

  it.skipIf(!hasBzip2)('continues a broken file transfer with Range', async () => {
    const path = `/icon-eu/grib/06/fi/${iconFileName('icon-eu', RUN_06, 0, { variable: 'FI', levelHPa: 500 })}`;
    server.fault({ path, fault: { kind: 'truncate', afterBytes: 10_000 } });
    const source = createIconEuSource({ baseUrl: server.url, steps: [0], fields: FIELDS, schedule: SCHEDULE });
    const ctx = context(Date.UTC(2024, 0, 2, 12));
    const [file] = await source.download((await source.findLatestRun(ctx))!, ctx);
    expect(server.requests(path).map((r) => r.range)).toEqual([null, 'bytes=10000-']);
    const expected = concatBytes(['U_10M', 'V_10M', 'T_2M', 'FI'].map((v) => content.get(v) as Uint8Array));
    expect(byteDifference(new Uint8Array(await readFile(file)), expected)).toBeNull();
  });

  it.skipIf(!hasBzip2)('downloads ICON global icosahedral files (the scheduler then refuses them)', async () => {
    const source = createIconSource({ baseUrl: server.url, steps: [0], fields: [{ variable: 'TOT_PREC' }], schedule: SCHEDULE });
    expect(source.unsupportedReason).toMatch(/icosahedral grid \(GRIB2 grid template 3\.101\)/);
    const ctx = context(Date.UTC(2021, 10, 20, 22));
    const plan = await source.findLatestRun(ctx);
    expect(plan?.refTime).toBe(Date.UTC(2021, 10, 20, 18));
    const [file] = await source.download(plan!, ctx);
    expect(byteDifference(new Uint8Array(await readFile(file)), await readFixture(FIXTURE.iconIcosahedral))).toBeNull();
  });
});
