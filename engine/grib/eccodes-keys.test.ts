/**
 * Product definition templates and centre-local parameters against ecCodes: ecCodes' grib_set
 * rewrote real GFS messages, and testdata/eccodes-expected.json holds what it changed in each
 * (sections 1 and 4) and what ecCodes 2.28 reads in the result (engine/grib/eccodes-expected.py).
 * The messages are rebuilt here from the shared GFS fixture, so these tests need no ecCodes.
 */

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inventory, type GribFieldInfo } from './index.ts';
import { concatBytes, describeWithFixtures, readFixture } from './testing.ts';

type Value = string | number | null;
/** What grib_set changed in a message of SOURCE: section 0's discipline, sections 1 and 4 (hex). */
interface Patch {
  source: number;
  discipline: number;
  section1: string;
  section4: string;
}
interface Recorded {
  eccodes: string;
  [set: string]: { cases: string[]; records: Record<string, Value>[]; messages: Patch[] } | string;
}

/** The GFS file whose messages grib_set rewrote (eccodes-expected.py SOURCE). */
const SOURCE = 'samples/gfs-2p5-full/gfs2p5_20110110T12_f120_full.grib2';

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

const hex = (text: string) => Uint8Array.from(text.match(/../g)!, (b) => parseInt(b, 16));

/** The sections (octets 5: number) of a GRIB2 message after section 0, before '7777'. */
function sectionsOf(message: Uint8Array): Map<number, Uint8Array> {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  const out = new Map<number, Uint8Array>();
  for (let at = 16; at < message.length - 4; at += view.getUint32(at)) out.set(message[at + 4], message.subarray(at, at + view.getUint32(at)));
  return out;
}

/** The messages of SOURCE in file order. */
function messagesOf(file: Uint8Array): Uint8Array[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const out: Uint8Array[] = [];
  for (let at = 0; at < file.length; at += Number(view.getBigUint64(at + 8))) out.push(file.subarray(at, at + Number(view.getBigUint64(at + 8))));
  return out;
}

/** A message as grib_set wrote it: the source message with the recorded sections 1 and 4. */
function rebuild(source: Uint8Array, patch: Patch): Uint8Array {
  const kept = sectionsOf(source);
  const body = [hex(patch.section1), kept.get(3)!, hex(patch.section4), kept.get(5)!, kept.get(6)!, kept.get(7)!];
  const length = 16 + body.reduce((n, s) => n + s.length, 0) + 4;
  const head = new Uint8Array(16);
  head.set([0x47, 0x52, 0x49, 0x42, 0, 0, patch.discipline, 2]);
  new DataView(head.buffer).setBigUint64(8, BigInt(length));
  return concatBytes(head, ...body, new Uint8Array([0x37, 0x37, 0x37, 0x37]));
}

describeWithFixtures('ecCodes keys of rewritten GFS messages', () => {
  describe.each(['product-templates.grib2', 'local-parameters.grib2'])('%s as ecCodes 2.28 reads it', (set) => {
    const { cases, records, messages } = expected[set] as { cases: string[]; records: Record<string, Value>[]; messages: Patch[] };
    let fields: GribFieldInfo[] = [];
    beforeAll(async () => {
      const source = messagesOf(await readFixture(SOURCE));
      fields = inventory(concatBytes(...messages.map((patch) => rebuild(source[patch.source], patch))));
    });

    it('has one field per recorded message', () => {
      expect(fields).toHaveLength(records.length);
    });

    it.each(cases.map((keys, k) => [k, keys] as const))('message %i (grib_set -s %s)', (k) => {
      const record = records[k];
      expect(asEccodes(fields[k], Object.keys(record))).toEqual(record);
    });
  });
});
