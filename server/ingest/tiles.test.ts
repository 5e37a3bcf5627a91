/**
 * The tile writer threads (TileFileWriter): what lands on disk is the gzip of what was handed
 * over, buffers come back for the next tiles, a failed write surfaces, and renderTile gives the
 * same bytes into a reused buffer as into a new one.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileByteLength } from '../../common/tile.ts';
import { TILE_NODES } from '../../common/tiling.ts';
import { Regridder } from '../../engine/regrid.ts';
import { loadEngine } from './engine.ts';
import { renderTile, TileFileWriter } from './tiles.ts';
import { tempDir } from './testing.ts';

function pattern(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let k = 0; k < length; k++) bytes[k] = (k * 7 + seed * 13 + (k >> 9)) & 0xff;
  return bytes;
}

describe('TileFileWriter', () => {
  let data: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    data = await tempDir();
  });
  afterAll(() => data?.remove());

  it('writes the gzip of every tile handed over, in its directory, and hands the buffers back', async () => {
    const writer = new TileFileWriter(join(data.dir, 'a'), { threads: 2, maxQueuedBytes: 100_000 });
    const length = 40_000;
    const expected = new Map<string, Uint8Array>();
    for (let k = 0; k < 24; k++) {
      const raw = writer.buffer(length);
      raw.set(pattern(length, k));
      const rel = join('tiles', String(k % 3), String(k % 5), `${k}.tile`);
      expected.set(rel, raw.slice());
      await writer.write(rel, raw);
      // Taken over: the caller's view is detached.
      expect(raw.byteLength).toBe(0);
    }
    await writer.flush();
    expect(writer.written).toBe(24);
    for (const [rel, raw] of expected) expect(gunzipSync(await readFile(join(data.dir, 'a', rel))).equals(raw), rel).toBe(true);
    // Every buffer came back, so the next ones are reused rather than new.
    const again = writer.buffer(length);
    expect(again.byteLength).toBe(length);
    expect(again.some((b) => b !== 0)).toBe(true);
    await writer.close();
    await expect(writer.write('late.tile', new Uint8Array(10))).rejects.toThrow(/closed/);
  });

  it('copies a view that is not its whole buffer, leaving the caller\'s bytes alone', async () => {
    const writer = new TileFileWriter(join(data.dir, 'b'), { threads: 1 });
    const whole = pattern(1000, 3);
    const part = whole.subarray(100, 600);
    await writer.write('part.tile', part);
    await writer.close();
    expect(whole.byteLength).toBe(1000);
    expect(gunzipSync(await readFile(join(data.dir, 'b', 'part.tile'))).equals(whole.subarray(100, 600))).toBe(true);
  });

  it('a write that fails is thrown by the next write or flush; close still returns', async () => {
    // The root is a file: no directory can be made under it.
    const root = join(data.dir, 'not-a-directory');
    await writeFile(root, 'x');
    const writer = new TileFileWriter(root, { threads: 2 });
    await writer.write('z/0.tile', pattern(100, 1));
    await expect(writer.flush()).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(writer.write('z/1.tile', pattern(100, 2))).rejects.toThrow(/ENOTDIR|EEXIST/);
    await writer.close();
  });

  it('renderTile gives the same bytes into a used buffer as into a new one', async () => {
    const engine = await loadEngine();
    const grid = { ni: 360, nj: 181, lon0: 0, dLon: 1, lat0: 90, dLat: 1, global: true };
    const values = new Float32Array(grid.ni * grid.nj);
    for (let k = 0; k < values.length; k++) values[k] = 250 + 30 * Math.sin(k / 500) + (k % 17);
    const regridders = [new Regridder(engine), new Regridder(engine)];
    try {
      regridders[0].load(values, grid);
      regridders[1].load(values.map((v) => -v / 10), grid);
      const quantizations = [{ offset: 150, scale: 1 / 64 }, { offset: -100, scale: 1 / 128 }];
      const address = { z: 1, x: 2, y: 1 };
      const fresh = renderTile(regridders, quantizations, address);
      const used = pattern(tileByteLength(2, TILE_NODES, TILE_NODES), 9);
      const again = renderTile(regridders, quantizations, address, used);
      expect(again).toBe(used);
      expect(Buffer.from(again).equals(Buffer.from(fresh))).toBe(true);
      expect(() => renderTile(regridders, quantizations, address, new Uint8Array(10))).toThrow(/bytes/);
    } finally {
      for (const r of regridders) r.release();
    }
  });
});
