/**
 * The decoder against real data (issue 3, item 2): every field of every GRIB file in
 * ../shared/data equals ecCodes' view in expected-eccodes.json; the GFS 1° wind packings equal
 * their CSVs; the zero-bit GDAS field and the CCSDS field equal wgrib2's output; the edge-case
 * files decode as they should. Values are compared to the packing's precision: half a quantum
 * (2^E / 10^D / 2) plus float32 rounding.
 */

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine } from '../testing.ts';
import { decodeField, eccodesSummary, GribError, inventory, toNorthUp, type GribFieldInfo } from './index.ts';
import {
  codecUnavailable, describeWithFixtures, FIXTURES_DIR, fixturesPresent, readExpected, readFixture, type EccodesRecord,
} from './testing.ts';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

/** Half a quantum of the field's packing, plus float32 rounding of a value of size `magnitude`. */
function tolerance(info: GribFieldInfo, magnitude: number): number {
  const { binaryScale, decimalScale } = info.packing;
  return 2 ** binaryScale / 10 ** decimalScale / 2 + Math.abs(magnitude) * 2 ** -23;
}

function expectClose(actual: number, expected: number, tol: number, what: string): void {
  if (!(Math.abs(actual - expected) <= tol)) {
    expect.fail(`${what}: ${actual} differs from ${expected} by ${Math.abs(actual - expected)} (allowed ${tol})`);
  }
}

async function checkAgainstEccodes(path: string, records: EccodesRecord[]): Promise<void> {
  const bytes = await readFixture(path);
  const fields = inventory(bytes);
  expect(fields.length, `${path}: field count`).toBe(records.length);
  for (const [k, info] of fields.entries()) {
    const r = records[k];
    const label = `${path} field ${k} (${r.shortName} ${r.typeOfLevel} ${r.level})`;
    const values = await decodeField(engine, bytes, info);
    // What `npm run grib -- inventory` prints for this field.
    const { min, max, mean, first5, shortName, paramId, ...keys } = eccodesSummary(info, values);
    const { min: eMin, max: eMax, mean: eMean, first5: eFirst5, shortName: eShortName, paramId: eParamId, ...expectedKeys } = r;
    expect(keys, label).toEqual(expectedKeys);
    // Parameter names: equal wherever our table knows the parameter.
    if (shortName !== 'unknown') expect({ shortName, paramId }, label).toEqual({ shortName: eShortName, paramId: eParamId });
    expectClose(min!, eMin, tolerance(info, eMin), `${label}: min`);
    expectClose(max!, eMax, tolerance(info, eMax), `${label}: max`);
    expectClose(mean!, eMean, tolerance(info, eMean), `${label}: mean`);
    eFirst5.forEach((e, i) => {
      if (e === null) expect(first5[i], `${label}: first5[${i}]`).toBeNull();
      else expectClose(first5[i]!, e, tolerance(info, e), `${label}: first5[${i}]`);
    });
  }
}

describeWithFixtures('GRIB2 decoder against ecCodes (expected-eccodes.json)', () => {
  it('covers 900+ fields in grib2/ and samples/', async () => {
    const expected = await readExpected();
    const total = Object.values(expected).reduce((n, e) => n + e.records.length, 0);
    expect(total).toBeGreaterThanOrEqual(900);
    expect(Object.keys(expected).some((p) => p.startsWith('samples/'))).toBe(true);
  });

  // One test per file, listed at collection time (nothing to list when the fixtures are absent).
  const files = fixturesPresent
    ? Object.entries(JSON.parse(readFileSync(new URL('expected-eccodes.json', FIXTURES_DIR), 'utf8')) as Record<string, { records: EccodesRecord[] }>)
    : [];
  for (const [path, { records }] of files) {
    const unavailable = codecUnavailable(records.map((r) => r.dataRepresentationTemplateNumber));
    const run = unavailable ? it.skip : it;
    const note = unavailable ? ` (skipped: ${unavailable})` : '';
    run(`${path}: ${records.length} field(s) equal ecCodes${note}`, () => checkAgainstEccodes(path, records), 120_000);
  }
});

function readCsv(text: string): number[] {
  return text.trim().split(/\r?\n/).map(Number);
}

describeWithFixtures('GRIB2 decoder against other references', () => {
  it('decodes the three packings of the GFS 1° 10 m wind to the CSV values', async () => {
    const u = readCsv(await readFile(new URL('grib2/gfs1p0_10uv_20190106T12_f006_expected_u.csv', FIXTURES_DIR), 'utf8'));
    const v = readCsv(await readFile(new URL('grib2/gfs1p0_10uv_20190106T12_f006_expected_v.csv', FIXTURES_DIR), 'utf8'));
    expect(u.length).toBe(65160);
    for (const name of ['t5.0-simple', 't5.2-complex', 't5.3-complex-spdiff']) {
      const bytes = await readFixture(`grib2/gfs1p0_10uv_20190106T12_f006_${name}.grib2`);
      const fields = inventory(bytes);
      expect(fields.map((f) => f.shortName)).toEqual(['10u', '10v']);
      for (const [k, expected] of [u, v].entries()) {
        const values = await decodeField(engine, bytes, fields[k]);
        // The CSVs print 5 decimals; the packing's quantum is 2^E / 10^D.
        const tol = tolerance(fields[k], 100) + 0.5e-5;
        let worst = 0;
        for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(values[i] - expected[i]));
        expect(worst, `${name} ${fields[k].shortName}`).toBeLessThanOrEqual(tol);
      }
    }
  });

  it('decodes the zero-bit GDAS field exactly as wgrib2 does', async () => {
    const bytes = await readFixture('grib2/gdas0p25_r_7Pa_20230111T12_t5.3-constant-nbits0.grib2');
    const [info] = inventory(bytes);
    expect(info).toMatchObject({ bitsPerValue: 0, dataTemplate: 3, typeOfLevel: 'isobaricInPa', level: 7 });
    const raw = execFileSync('xz', ['-dc', fileURLToPath(new URL('grib2/wgrib2-reference/gdas-46-wgrib2-le.bin.xz', FIXTURES_DIR))], { maxBuffer: 1 << 26 });
    const reference = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    const values = await decodeField(engine, bytes, info);
    expect(values.length).toBe(reference.length);
    expect(Array.from(values)).toEqual(Array.from(reference));
  });

  it('decodes the synthetic 2x3 field with scanning mode 96 and a bit-map', async () => {
    const bytes = await readFixture('grib2/synthetic_2x3_scanmode_bitmap_t5.0.grib2');
    const [info] = inventory(bytes);
    expect(info.grid).toMatchObject({ Ni: 2, Nj: 3, scanningMode: 0x60, mappable: true });
    const values = await decodeField(engine, bytes, info);
    expect(Array.from(values)).toEqual([NaN, 1, 2, 3, 4, 5]);
    // 0x60: j consecutive (columns), rows going north: column 0 holds rows south -> north.
    const north = toNorthUp(info, values);
    expect(Array.from(north.values)).toEqual([2, 5, 1, 4, NaN, 3]);
    expect(north.lat0).toBe(info.grid.north);
  });

  it('decodes the tiny ECMWF field and lays it out north-up', async () => {
    const bytes = await readFixture('grib2/ecmwf_2t_16x31_20080206_t5.0-tiny.grib2');
    const [info] = inventory(bytes);
    expect(info).toMatchObject({ centre: 'ecmf', shortName: '2t', paramId: 167, typeOfLevel: 'heightAboveGround', level: 2 });
    const values = await decodeField(engine, bytes, info);
    const north = toNorthUp(info, values);
    // Scanning mode 0 is already north-up: the same values, with the grid's own corner.
    expect(north.values).toEqual(values);
    expect([north.Ni, north.Nj, north.lat0, north.lon0]).toEqual([16, 31, info.grid.lat1, info.grid.lon1]);
  });

  it('decodes the icosahedral ICON field but reports its grid as unsupported for mapping', async () => {
    const bytes = await readFixture('grib2/icon-global-icosahedral_tot_prec_20211120T18_f000_t5.0-constant.grib2');
    const [info] = inventory(bytes);
    expect(info.grid).toMatchObject({ type: 'unstructured_grid', template: 101, mappable: false });
    expect(info.grid.unsupportedReason).toMatch(/unstructured/);
    const values = await decodeField(engine, bytes, info);
    expect(values.length).toBe(2949120);
    expect(values.every((v) => v === 0)).toBe(true);
    expect(() => toNorthUp(info, values)).toThrow(GribError);
    expect(() => toNorthUp(info, values)).toThrow(/unstructured_grid grid \(template 3\.101\)/);
  });

  describe('codec templates (engine/codecs)', () => {
    const runIf = (templates: number[]) => (codecUnavailable(templates) ? it.skip : it);
    const note = (templates: number[]) => (codecUnavailable(templates) ? ` (skipped: ${codecUnavailable(templates)})` : '');

    runIf([40, 41])(`decodes the JPEG 2000 and PNG gh500 files identically${note([40, 41])}`, async () => {
      const decoded: Float32Array[] = [];
      for (const name of ['t5.40-jpeg2000', 't5.41-png']) {
        const bytes = await readFixture(`grib2/gfs0p25_gh500_20220210T00_f024_${name}.grib2`);
        const [info] = inventory(bytes);
        decoded.push(await decodeField(engine, bytes, info));
      }
      expect(decoded[0].length).toBe(1440 * 721);
      expect(decoded[0]).toEqual(decoded[1]);
    });

    runIf([42])(`decodes the ECMWF CCSDS field as wgrib2 does${note([42])}`, async () => {
      const bytes = await readFixture('grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2');
      const [info] = inventory(bytes);
      const raw = execFileSync('xz', ['-dc', fileURLToPath(new URL('grib2/wgrib2-reference/ecmwf-realtime-oper-fc-89-le.bin.xz', FIXTURES_DIR))], { maxBuffer: 1 << 26 });
      const reference = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
      const values = await decodeField(engine, bytes, info);
      expect(values.length).toBe(reference.length);
      const tol = tolerance(info, 1);
      let worst = 0;
      for (let i = 0; i < values.length; i++) worst = Math.max(worst, Math.abs(values[i] - reference[i]));
      expect(worst).toBeLessThanOrEqual(tol);
    });
  });
});
