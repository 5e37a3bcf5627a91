/**
 * The point-series store (points.ts) from hand-made slabs: steps with different variables, and
 * steps with none (a step that brought only pressure levels writes no slab), come out as one
 * record per node with the missing values NaN; the run-constant values (the model's terrain
 * height) after them, one per node.
 */

import { mkdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DATA } from '../../common/tile.ts';
import {
  pointGridFor, PointStoreError, PointStoreReader, slabPath, staticSlabPath, writePointStore, writeSlab, type PointStoreHeader,
} from './points.ts';
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

  it('keeps run-constant values once per node after the records, in the header\'s order; version 1 stores have none', async () => {
    // Elevation (m) = -1000 + q / 4; the slab's columns in another order than the header's.
    const elevation = Uint16Array.from({ length: nodes }, (_, k) => 4000 + 400 * k);
    elevation[2] = NO_DATA;
    const other = q(7);
    await writeSlab(staticSlabPath(data.dir), nodes, [other, elevation]);
    const withStatics: PointStoreHeader = { ...header, statics: [{ ident: 'elevation', offset: -1000, scale: 0.25 }] };
    const path = join(data.dir, 'statics.bin');
    const steps = header.hours.map((hour) => ({ hour, path: slabPath(data.dir, hour), variables: [] }));
    const bytes = await writePointStore(path, withStatics, steps, { path: staticSlabPath(data.dir), variables: ['other', 'elevation'] });
    expect(bytes).toBe(Math.ceil((12 + JSON.stringify(withStatics).length) / 16) * 16 + nodes * (2 * 3 + 1) * 2);
    const reader = await PointStoreReader.open(path);
    try {
      expect(reader.header.statics).toEqual(withStatics.statics);
      // Node (1, 1), k = 5: -1000 + (4000 + 2000) / 4 = 500 m.
      expect(await reader.statics(1, 11, false)).toEqual({ elevation: 500 });
      // Between nodes 0 and 1 (k = 0, 1): 0 and 100 m.
      expect((await reader.statics(2, 10.25))!.elevation).toBeCloseTo(25, 5);
      // Halfway between node 1 and node 2 (missing): the missing node is left out of the weights.
      expect((await reader.statics(2, 11.5))!.elevation).toBe(100);
      expect(await reader.statics(5, 11)).toBeNull();
      // The step records are where they were.
      expect([...(await reader.series(1, 11, false))!.values.temp]).toEqual([NaN, NaN, NaN]);
    } finally {
      await reader.close();
    }
    await expect(writePointStore(path, withStatics, steps)).rejects.toThrow(/static slab lacks/);

    // A version 1 store (before the static section): read as before, with no constants.
    const v1 = join(data.dir, 'v1.bin');
    await writePointStore(v1, header, steps);
    const file = await readFile(v1);
    file.writeUInt16LE(1, 4);
    await writeFile(v1, file);
    const old = await PointStoreReader.open(v1);
    try {
      expect(await old.statics(1, 11)).toEqual({});
      expect((await old.series(1, 11))!.hours).toEqual([0, 6, 12]);
    } finally {
      await old.close();
    }
    file.writeUInt16LE(3, 4);
    await writeFile(v1, file);
    await expect(PointStoreReader.open(v1)).rejects.toThrow(/version 3; this build reads 1 and 2/);
  });
});
