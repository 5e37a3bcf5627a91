import { expect, it } from 'vitest';
import { RADAR_DBZ_QUANTIZATION } from '../../../common/radar.ts';
import { decodeDataTile } from '../../../common/tile.ts';
import { TILE_NODES, tileAt, tileBounds } from '../../../common/tiling.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { gridLocator, type RadarField } from './field.ts';
import { readRadolan } from './radolan.ts';
import { coverageRings, fieldExtent, packRadarTile, renderRadarTile } from './tiles.ts';
import { RADAR_FIXTURE } from './testing.ts';

function insideRing(ring: [number, number][], lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describeWithFixtures('radar tiles', () => {
  it('puts the nearest RADOLAN cell at every node of a tile over Germany, in 0.5 dBZ steps', async () => {
    const field = readRadolan(await readFixture(RADAR_FIXTURE.radolanRx));
    const extent = fieldExtent(field);
    expect(extent.west).toBeLessThan(2.1);
    expect(extent.east).toBeGreaterThan(15.7);
    const address = tileAt(6, 10, 51);
    const q = renderRadarTile(address, [field], [extent]);
    expect(q).not.toBeNull();
    const tile = decodeDataTile(packRadarTile(address, q!));
    const b = tileBounds(address);
    const step = (b.east - b.west) / (TILE_NODES - 1);
    const at = gridLocator(field.grid);
    const out = new Float64Array(2);
    let compared = 0;
    for (let k = 0; k < TILE_NODES * TILE_NODES; k += 37) {
      const i = k % TILE_NODES;
      const j = Math.floor(k / TILE_NODES);
      at(b.west + i * step, b.north - j * step, out);
      const expected = field.dbz[Math.round(out[1]) * 900 + Math.round(out[0])];
      const got = tile.channels[0][k];
      if (Number.isNaN(expected)) expect(got).toBeNaN();
      else {
        expect(Math.abs(got - expected)).toBeLessThanOrEqual(RADAR_DBZ_QUANTIZATION.scale / 2);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('merges providers by the maximum dBZ and writes no tile where nobody sees an echo', async () => {
    const a = readRadolan(await readFixture(RADAR_FIXTURE.radolanRx));
    const b: RadarField = { ...a, dbz: a.dbz.map((v, i) => (i % 2 ? v + 10 : v - 10)) };
    const extents = [fieldExtent(a), fieldExtent(b)];
    const address = tileAt(5, 10, 51);
    const merged = renderRadarTile(address, [a, b], extents)!;
    const onlyA = renderRadarTile(address, [a], [extents[0]])!;
    const onlyB = renderRadarTile(address, [b], [extents[1]])!;
    for (let k = 0; k < merged.length; k++) {
      const expected = onlyA[k] === 0xffff ? onlyB[k] : onlyB[k] === 0xffff ? onlyA[k] : Math.max(onlyA[k], onlyB[k]);
      expect(merged[k]).toBe(expected);
    }
    expect(renderRadarTile(tileAt(5, -40, 0), [a], [extents[0]])).toBeNull();
  });

  it('outlines the RADOLAN coverage around Germany', async () => {
    const field = readRadolan(await readFixture(RADAR_FIXTURE.radolanRx));
    const rings = coverageRings(field, fieldExtent(field));
    expect(rings.length).toBeGreaterThan(0);
    const outer = rings.reduce((a, r) => (r.length > a.length ? r : a));
    expect(outer[0]).toEqual(outer[outer.length - 1]);
    expect(insideRing(outer, 10, 51)).toBe(true); // central Germany
    expect(insideRing(outer, 2.35, 48.86)).toBe(false); // Paris
    expect(insideRing(outer, 12.5, 41.9)).toBe(false); // Rome
  });
});
