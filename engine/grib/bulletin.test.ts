/**
 * WMO bulletin headers around real GRIB2 messages (the framing NWS and GTS files carry): the
 * decoder skips them, as ecCodes does (`grib_ls` on such a file lists the same messages), and
 * reports any other bytes between messages as damage.
 */

import { beforeAll, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import { createEngine } from '../testing.ts';
import { skipBulletinFraming } from './bulletin.ts';
import { decodeField, GribError, inventory, type GribFieldInfo } from './index.ts';
import { concatBytes, describeWithFixtures, readFixture } from './testing.ts';

const text = (s: string) => new TextEncoder().encode(s);

/** One message as a GTS bulletin: starting line with sequence number, heading, message, end of message. */
const gts = (message: Uint8Array, sequence: number, heading: string) =>
  concatBytes(text(`\x01\r\r\n${String(sequence).padStart(3, '0')}\r\r\n${heading}\r\r\n`), message, text('\r\r\n\x03'));

/** One message as NDFD files carry it: the heading line alone. */
const ndfd = (message: Uint8Array, heading: string) => concatBytes(text(`${heading}\r\r\n`), message);

function messagesOf(bytes: Uint8Array): Uint8Array[] {
  const seen = new Map<number, Uint8Array>();
  for (const f of inventory(bytes)) seen.set(f.offset, bytes.subarray(f.offset, f.offset + f.length));
  return [...seen.values()];
}

/** Everything but where the message lies in the file. */
const withoutOffset = ({ offset: _offset, grid: { latitudes: _l, ...grid }, ...rest }: GribFieldInfo) => ({ ...rest, grid });

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine();
});

it('skips starting lines, headings with and without BBB, and end-of-message marks', () => {
  const framing = text('\x01\r\r\n123\r\r\nHTRA50 KWBC 061200 RRA\r\r\nLEUZ98 KWBN 171544\r\r\n');
  expect(skipBulletinFraming(framing, 0)).toBe(framing.length);
  expect(skipBulletinFraming(text('\r\r\n\x03\x01\r\r\n00042\r\r\n'), 0)).toBe(16);
  // Not a heading: stops where the bulletin framing ends.
  for (const other of ['<html>503</html>\r\n', '\x01\x02\x03', '\x01\r\nHTRA50 KWBC 061200\r\n', 'HTRA50 KWBC 0612\r\n', 'GRIB', 'htra50 kwbc 061200\r\n', '12\r\n']) {
    expect(skipBulletinFraming(text(other), 0), other).toBe(0);
  }
});

describeWithFixtures('GRIB2 files with WMO bulletin headers', () => {
  it.each([
    ['GFS 1° 5.3', 'grib2/gfs1p0_10uv_20190106T12_f006_t5.3-complex-spdiff.grib2'],
    ['GFS 2.5° several fields per message', 'samples/gfs-2p5-full/gfs2p5_20110110T12_f120_full.grib2'],
    ['ECMWF tiny', 'grib2/ecmwf_2t_16x31_20080206_t5.0-tiny.grib2'],
  ])('%s: the inventory and values are those of the unwrapped file', async (_name, path) => {
    const plain = await readFixture(path);
    const messages = messagesOf(plain).slice(0, 12);
    const unwrapped = concatBytes(...messages);
    const files = [
      concatBytes(...messages.map((m, k) => gts(m, k + 1, 'HTRA50 KWBC 061200'))),
      concatBytes(...messages.map((m) => ndfd(m, 'LEUZ98 KWBN 171544 CCA'))),
    ];
    const expected = inventory(unwrapped);
    for (const wrapped of files) {
      const fields = inventory(wrapped);
      expect(fields.map(withoutOffset)).toEqual(expected.map(withoutOffset));
      expect(fields[0].offset).toBeGreaterThan(0);
      for (const k of [0, fields.length - 1]) {
        expect(await decodeField(engine, wrapped, fields[k])).toEqual(await decodeField(engine, unwrapped, expected[k]));
      }
    }
  });

  it('still refuses other data between messages', async () => {
    const [first, second] = messagesOf(await readFixture('grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2'));
    const bad = concatBytes(gts(first, 1, 'HTRA50 KWBC 061200'), text('HTRA50 KWBC 061200\r\r\n<html>'), second);
    expect(() => inventory(bad)).toThrow(GribError);
    expect(() => inventory(bad)).toThrow(/Unexpected data at byte \d+ after message 0/);
    expect(() => inventory(concatBytes(text('hello\r\n'), first))).toThrow(/does not start with a GRIB message/);
  });
});
