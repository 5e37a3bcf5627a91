/**
 * Product definition templates and centre-local parameters against ecCodes: the messages of
 * testdata/ were written by ecCodes' grib_set from a real GFS message and testdata/eccodes-expected.json
 * holds what ecCodes 2.28 reads in them (both made by engine/grib/eccodes-expected.py), so these
 * tests need neither ecCodes nor the shared fixtures.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inventory, type GribFieldInfo } from './index.ts';

type Value = string | number | null;
interface Recorded {
  eccodes: string;
  [file: string]: { cases: string[]; records: Record<string, Value>[] } | string;
}

const TESTDATA = new URL('testdata/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('eccodes-expected.json', TESTDATA), 'utf8')) as Recorded;

/** ecCodes key -> the inventory's name for it. */
const KEY_NAMES: Record<string, keyof GribFieldInfo> = {
  productDefinitionTemplateNumber: 'productTemplate', typeOfStatisticalProcessing: 'statisticalProcessing',
};

/** The inventory's view of a field in ecCodes' keys: null where the inventory has no value, as ecCodes' not_found. */
function asEccodes(info: GribFieldInfo, keys: string[]): Record<string, Value> {
  return Object.fromEntries(keys.map((key) => {
    const value = info[KEY_NAMES[key] ?? (key as keyof GribFieldInfo)];
    return [key, value === undefined ? null : (value as Value)];
  }));
}

describe.each(['product-templates.grib2', 'local-parameters.grib2'])('%s as ecCodes 2.28 reads it', (file) => {
  const { cases, records } = expected[file] as { cases: string[]; records: Record<string, Value>[] };
  const fields = inventory(new Uint8Array(readFileSync(new URL(file, TESTDATA))));

  it('has one field per recorded message', () => {
    expect(fields).toHaveLength(records.length);
  });

  it.each(cases.map((keys, k) => [k, keys] as const))('message %i (grib_set -s %s)', (k) => {
    const record = records[k];
    expect(asEccodes(fields[k], Object.keys(record))).toEqual(record);
  });
});
