import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { MINUTE_MS } from '../../../common/time.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { gridLocator } from './field.ts';
import { RadvorError, readRadvorBytes, readRadvorFile, readTar } from './radvor.ts';
import { radarFixturePath, RADAR_FIXTURE } from './testing.ts';

describeWithFixtures('RADVOR nowcast reader', () => {
  it('reads the 25 RV frames of the archive, +0 to +120 min, on the DE1200 grid', async () => {
    const frames = await readRadvorFile(radarFixturePath('radvor'));
    expect(frames).toHaveLength(25);
    const analysis = Date.UTC(2022, 9, 18, 7, 0);
    expect(frames.map((f) => f.time)).toEqual(Array.from({ length: 25 }, (_, i) => analysis + i * 5 * MINUTE_MS));
    expect(frames[0].product).toBe('DWD RADOLAN RV');
    expect(frames[0].grid).toMatchObject({ width: 1100, height: 1200, dx: 1000, dy: 1000 });
    // DWD's DE1200 definition puts the origin at the grid's north-west corner; the RADOLAN
    // reference point 9° E 51° N lies inside, near the centre.
    const out = new Float64Array(2);
    gridLocator(frames[0].grid)(9, 51, out);
    expect(out[0]).toBeGreaterThan(400);
    expect(out[0]).toBeLessThan(700);
    expect(out[1]).toBeGreaterThan(500);
    expect(out[1]).toBeLessThan(700);
  }, 60_000);

  it('refuses a truncated archive with RadvorError', async () => {
    const bz = await readFixture(RADAR_FIXTURE.radvor);
    await expect(readRadvorBytes(bz.subarray(0, bz.length >> 1))).rejects.toThrow(RadvorError);
    const tar = new Uint8Array(spawnSync('bzip2', ['-dc', radarFixturePath('radvor')], { maxBuffer: 128 * 1024 * 1024 }).stdout);
    expect(() => readTar(tar.subarray(0, 3_000_000))).toThrow(/truncated/);
    const bad = tar.slice(0, 1024);
    bad[0] ^= 0xff;
    expect(() => readTar(bad)).toThrow(/checksum/);
  }, 60_000);
});
