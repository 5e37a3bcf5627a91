import { expect, it } from 'vitest';
import { RADAR_DBZ_QUANTIZATION } from '../../../common/radar.ts';
import { decodeDataTile } from '../../../common/tile.ts';
import { TILE_NODES, tileAt, tileBounds } from '../../../common/tiling.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { gridLocator, type RadarField } from './field.ts';
import { readRadolan } from './radolan.ts';
import { coverageRings, fieldExtent, packRadarTile, reduceRadarTile, renderRadarTile } from './tiles.ts';
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

describeWithFixtures('radar overview zooms', () => {
  it('keep the strongest echo of the top zoom under each node (max over the footprint), where nearest sampling loses it', async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { gunzipSync } = await import('node:zlib');
    const { writeFrameTiles } = await import('./publish.ts');
    const field = readRadolan(await readFixture(RADAR_FIXTURE.radolanRx));
    const dir = await mkdtemp(join(tmpdir(), 'isobar-radar-zooms-'));
    try {
      const written = await writeFrameTiles(dir, [field]);
      const read = async (key: string) => decodeDataTile(gunzipSync(await readFile(join(dir, `${key}.tile`)))).channels[0];
      const maxOf = (values: Float32Array) => values.reduce((m, v) => (v > m ? v : m), -Infinity);
      const top = await Promise.all(written.filter((k) => k.startsWith('6/')).map(read));
      const strongest = Math.max(...top.map(maxOf));
      const germany = tileAt(0, 10, 51);
      const overview = await read(`0/${germany.x}/${germany.y}`);
      // The overview holds the strongest echo of the top zoom...
      expect(maxOf(overview)).toBe(strongest);
      // ...which the nearest cell per node misses at zoom 0 (the reason for the maximum).
      const nearest = decodeDataTile(packRadarTile(germany, renderRadarTile(germany, [field], [fieldExtent(field)])!)).channels[0];
      expect(maxOf(nearest)).toBeLessThan(strongest);
      // Every zoom lists its tiles, low zooms first, as before.
      expect(written[0].startsWith('0/')).toBe(true);
      expect(new Set(written.map((k) => k.split('/')[0]))).toEqual(new Set(['0', '1', '2', '3', '4', '5', '6']));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reduces four children into one parent node by node', () => {
    const n = TILE_NODES;
    const child = new Uint16Array(n * n).fill(0xffff);
    child[10 * n + 21] = 100; // one echo node in the north-east child, at child node (21, 10)
    const parent = reduceRadarTile([null, child, null, null])!;
    // Global child node (255 + 21, 10) = (276, 10): parent nodes 138 (276 = 2 x 138) and row 5 (10 = 2 x 5).
    expect(parent[5 * n + 138]).toBe(100);
    expect(parent.filter((v) => v !== 0xffff)).toHaveLength(1);
    expect(reduceRadarTile([null, null, null, null])).toBeNull();
  });
});
