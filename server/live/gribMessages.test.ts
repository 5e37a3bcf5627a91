import { describe, expect, it } from 'vitest';
import { gribMessages, GribFormatError } from './gribMessages.ts';
import { concatBytes, describeWithFixtures, FIXTURE, readFixture } from './testing.ts';

/** A smallest GRIB2 "message": section 0 and the end marker, `length` bytes in all. */
function message(length = 20, edition = 2): Uint8Array {
  const bytes = new Uint8Array(length);
  bytes.set([0x47, 0x52, 0x49, 0x42, 0, 0, 0, edition]);
  new DataView(bytes.buffer).setBigUint64(8, BigInt(length));
  bytes.set([0x37, 0x37, 0x37, 0x37], length - 4);
  return bytes;
}

describe('gribMessages', () => {
  it('finds back-to-back messages', () => {
    expect(gribMessages(concatBytes([message(20), message(33), message(24)]))).toEqual([
      { offset: 0, length: 20 }, { offset: 20, length: 33 }, { offset: 53, length: 24 },
    ]);
  });

  it.each([
    ['empty', new Uint8Array(0), /empty/],
    ['no GRIB', concatBytes([new Uint8Array([1, 2, 3, 4]), message()]), /No "GRIB" at byte 0/],
    ['edition 1', message(20, 1), /edition 1/],
    ['cut short', message(40).subarray(0, 30), /claims 40 bytes; 30 are there/],
    ['no 7777', (() => { const m = message(24); m[23] = 0; return m; })(), /does not end with "7777"/],
    ['trailing bytes', concatBytes([message(), new Uint8Array(3)]), /Truncated GRIB message at byte 20/],
    ['HTML error page', new TextEncoder().encode('<html><body>503 Service Unavailable</body></html>'), /No "GRIB"/],
  ])('refuses %s', (_name, bytes, error) => {
    expect(() => gribMessages(bytes)).toThrow(GribFormatError);
    expect(() => gribMessages(bytes)).toThrow(error);
  });
});

describeWithFixtures('gribMessages on real files', () => {
  it('walks the 2018 GFS wind series: 160 messages covering the file', async () => {
    const bytes = await readFixture(FIXTURE.gfsWindSeries);
    const spans = gribMessages(bytes);
    expect(spans).toHaveLength(160);
    expect(spans.reduce((n, s) => n + s.length, 0)).toBe(bytes.length);
  });
});

describe('gribMessages with WMO bulletin headers', () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it('skips the starting line, heading and end of message of each bulletin (NWS / GTS files)', () => {
    const bytes = concatBytes([
      text('\x01\r\r\n001\r\r\nHTRA50 KWBC 061200\r\r\n'), message(20), text('\r\r\n\x03'),
      text('\x01\r\r\n002\r\r\nHTRA51 KWBC 061200 RRA\r\r\n'), message(24), text('\r\r\n\x03'),
    ]);
    expect(gribMessages(bytes)).toEqual([{ offset: 31, length: 20 }, { offset: 90, length: 24 }]);
  });

  it('refuses headers without a message, and other text', () => {
    expect(() => gribMessages(text('\x01\r\r\n001\r\r\nHTRA50 KWBC 061200\r\r\n\r\r\n\x03'))).toThrow(/No GRIB message/);
    expect(() => gribMessages(concatBytes([text('HTRA50 KWBC 061200\r\r\nNot found\r\n'), message()]))).toThrow(/No "GRIB" at byte 21/);
  });
});
