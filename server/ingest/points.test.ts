/**
 * The point-series store (points.ts) from hand-made slabs: steps with different variables, and
 * steps with none (a step that brought only pressure levels writes no slab), come out as one
 * record per node with the missing values NaN.
 */

import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DATA } from '../../common/tile.ts';
import { pointGridFor, PointStoreError, PointStoreReader, slabPath, writePointStore, writeSlab, type PointStoreHeader } from './points.ts';
import { tempDir } from './testing.ts';

describe('point-series store', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    data = await tempDir('isobar-points-test-');
    await mkdir(join(data.dir, 'points'));
  });
  afterAll(() => data?.remove());

  // 4 x 3 nodes, 10..13 E, 2..0 N; temp = 150 + q / 64, rh = q / 64.
  const grid = pointGridFor({ west: 10, east: 13, north: 2, south: 0 }, 1);
  const nodes = grid.nx * grid.ny;
  const header: PointStoreHeader = {
    refTime: Date.UTC(2024, 0, 1), hours: [0, 6, 12], grid,
    variables: [{ ident: 'temp', offset: 150, scale: 1 / 64 }, { ident: 'rh', offset: 0, scale: 1 / 64 }],
  };
  const q = (base: number) => Uint16Array.from({ length: nodes }, (_, k) => base + k);

  it('writes every step\'s variables into one record per node; a step without a slab is missing', async () => {
    expect(grid).toMatchObject({ nx: 4, ny: 3, lon0: 10, lat0: 2, global: false });
    // Hour 0: temp and rh; hour 6: nothing (no slab file at all); hour 12: rh only, in its own column order.
    await writeSlab(slabPath(data.dir, 0), nodes, [q(6400), q(3200)]);
    const rh12 = q(1000);
    rh12[5] = NO_DATA;
    await writeSlab(slabPath(data.dir, 12), nodes, [rh12]);
    const path = join(data.dir, 'points.bin');
    const bytes = await writePointStore(path, header, [
      { hour: 0, path: slabPath(data.dir, 0), variables: ['temp', 'rh'] },
      { hour: 6, path: slabPath(data.dir, 6), variables: [] },
      { hour: 12, path: slabPath(data.dir, 12), variables: ['rh'] },
    ]);
    const reader = await PointStoreReader.open(path);
    try {
      expect(reader.header).toEqual(header);
      // Node (i, j) = (1, 1): k = 5, at 1 N 11 E.
      const node = (await reader.series(1, 11, false))!;
      expect(node).toMatchObject({ lat: 1, lon: 11, hours: [0, 6, 12] });
      expect([...node.values.temp]).toEqual([150 + 6405 / 64, NaN, NaN]);
      expect([...node.values.rh]).toEqual([3205 / 64, NaN, NaN]);
      const other = (await reader.series(0, 13, false))!; // k = 11
      expect([...other.values.rh]).toEqual([3211 / 64, NaN, 1011 / 64]);
      // Halfway between nodes 5 (missing) and 6: the missing node is left out of the weights.
      expect((await reader.series(1, 11.5))!.values.rh[2]).toBe(1006 / 64);
      expect((await reader.series(0.5, 12.5))!.values.rh[2]).toBeCloseTo((1006 + 1007 + 1010 + 1011) / 4 / 64, 5);
      expect(await reader.series(5, 11)).toBeNull();
      expect(await reader.series(1, 20)).toBeNull();
    } finally {
      await reader.close();
    }
    expect(bytes).toBe(Math.ceil((12 + JSON.stringify(header).length) / 16) * 16 + nodes * 2 * 3 * 2);
    // A store cut short is refused on opening.
    await truncate(path, bytes - 2);
    await expect(PointStoreReader.open(path)).rejects.toThrow(PointStoreError);
    await writeFile(path, 'not a store at all');
    await expect(PointStoreReader.open(path)).rejects.toThrow(/not a point-series store/);
  });
});
