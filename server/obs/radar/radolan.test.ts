import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { dbzToMmh } from '../../../common/catalogue/metrics.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { gridLocator } from './field.ts';
import { parseRadolanHeader, RadolanError, readRadolan, readRadolanProduct } from './radolan.ts';
import { RADAR_FIXTURE } from './testing.ts';

// Corner coordinates of the 900 x 900 RADOLAN grid (outer cell edges) as the Kompositformat lists them.
const CORNERS_900 = {
  sw: [3.5889, 46.9526], nw: [2.0715, 54.5877], ne: [15.7208, 54.7405], se: [14.6209, 47.0705],
} as const;

describeWithFixtures('RADOLAN reader', () => {
  it('reads the RX header as written in the file', async () => {
    const bytes = gunzipSync(await readFixture(RADAR_FIXTURE.radolanRx));
    const header = parseRadolanHeader(bytes);
    expect(header).toMatchObject({
      product: 'RX', time: Date.UTC(2014, 7, 10, 20, 50), bytes: 810138, formatVersion: 3, software: '2.13.1', precision: 1,
      intervalMinutes: 5, rows: 900, cols: 900, leadMinutes: 0, dataOffset: 138,
    });
    expect(header.sites).toEqual(['boo', 'ros', 'emd', 'hnr', 'umd', 'pro', 'ess', 'asd', 'neu', 'nhb', 'oft', 'tur', 'isn', 'fbg', 'mem', 'bdy']);
    expect(bytes.length).toBe(header.bytes);
  });

  it('places the 900 x 900 grid on its documented corners (polar stereographic, 60° N, 10° E)', async () => {
    const { grid } = readRadolanProduct(await readFixture(RADAR_FIXTURE.radolanRx));
    const at = gridLocator(grid);
    const out = new Float64Array(2);
    const expectCell = ([lon, lat]: readonly [number, number], col: number, row: number): void => {
      at(lon, lat, out);
      expect(Math.abs(out[0] - col)).toBeLessThan(0.01);
      expect(Math.abs(out[1] - row)).toBeLessThan(0.01);
    };
    // Corners are cell edges: half a cell outside the first and last cell centres. Row 0 is north.
    expectCell(CORNERS_900.sw, -0.5, 899.5);
    expectCell(CORNERS_900.nw, -0.5, -0.5);
    expectCell(CORNERS_900.ne, 899.5, -0.5);
    expectCell(CORNERS_900.se, 899.5, 899.5);
    // The lower-left corner in RADOLAN km coordinates (Kompositformat: x -523.4622, y -4658.645).
    expect(grid.x0 / 1000).toBeCloseTo(-523.4622, 3);
    expect((grid.y0 - 900 * grid.dy) / 1000).toBeCloseTo(-4658.645, 2);
  });

  it('converts RX RVP6 to dBZ and keeps no-data out of the coverage', async () => {
    const raw = gunzipSync(await readFixture(RADAR_FIXTURE.radolanRx));
    const product = readRadolanProduct(raw);
    // The file's first byte after ETX is the south-west cell: row 899 of the north-up grid.
    const first = raw[138];
    const value = product.values[899 * 900];
    if (first === 250) expect(product.coverage[899 * 900]).toBe(0);
    else expect(value).toBe(first / 2 - 32.5);
    let noData = 0;
    for (let i = 138; i < raw.length; i++) if (raw[i] === 250 || raw[i] === 249) noData++;
    expect(product.coverage.length - product.coverage.reduce((a, b) => a + b, 0)).toBe(noData);
  });

  it('reads RW (0.1 mm per hour) and gives dBZ by the Z-R relation', async () => {
    const raw = gunzipSync(await readFixture(RADAR_FIXTURE.radolanRw));
    const product = readRadolanProduct(raw);
    expect(product.header).toMatchObject({ product: 'RW', precision: 0.1, intervalMinutes: 60, formatVersion: 3 });
    const view = new DataView(raw.buffer, raw.byteOffset);
    let checked = 0;
    for (let i = 0; i < 900 * 900 && checked < 50; i++) {
      const v = view.getUint16(134 + 2 * i, true);
      const k = (899 - Math.floor(i / 900)) * 900 + (i % 900);
      if (v & 0x2000) expect(product.coverage[k]).toBe(0);
      else if ((v & 0xfff) > 0) {
        expect(product.values[k]).toBeCloseTo((v & 0xfff) * 0.1, 5);
        checked++;
      }
    }
    expect(checked).toBe(50);
    const field = readRadolan(raw);
    const k = product.values.findIndex((v) => v > 1);
    expect(dbzToMmh(field.dbz[k])).toBeCloseTo(product.values[k], 4);
  });

  it('refuses truncated and foreign input with RadolanError', async () => {
    const raw = gunzipSync(await readFixture(RADAR_FIXTURE.radolanRx));
    expect(() => readRadolanProduct(raw.subarray(0, 5000))).toThrow(/truncated/);
    expect(() => readRadolanProduct(new TextEncoder().encode('<html>not found</html>'))).toThrow(RadolanError);
    const gz = await readFixture(RADAR_FIXTURE.radolanRx);
    expect(() => readRadolanProduct(gz.subarray(0, gz.length - 100))).toThrow(RadolanError);
  });
});
