import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { expect, it } from 'vitest';
import h5wasm from 'h5wasm/node';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { GlmFormatError, readGlmFlashes } from './glm.ts';
import { GLM_FIXTURES } from './testing.ts';

// h5wasm/node opens real files (glm.ts): these go to the temporary folder, one name per worker thread.
const GROUPS_PATH = join(tmpdir(), `isobar-glm-groups-${process.pid}-${threadId}.nc`);
const IDS_PATH = join(tmpdir(), `isobar-glm-ids-${process.pid}-${threadId}.nc`);

/** The group level of the same file, read straight from h5wasm (raw packed values). */
async function groups(bytes: Uint8Array): Promise<{ parent: Int16Array; energy: Int16Array; time: Int16Array; energyScale: number; timeScale: number }> {
  const m = await h5wasm.ready;
  m.FS.writeFile(GROUPS_PATH, bytes);
  const file = new h5wasm.File(GROUPS_PATH, 'r');
  try {
    const get = (name: string) => file.get(name) as InstanceType<typeof h5wasm.Dataset>;
    const scale = (name: string) => Number((get(name).attrs.scale_factor.value as Float32Array)[0]);
    return {
      parent: get('group_parent_flash_id').value as Int16Array,
      energy: get('group_energy').value as Int16Array,
      time: get('group_time_offset').value as Int16Array,
      energyScale: scale('group_energy'),
      timeScale: scale('group_time_offset'),
    };
  } finally {
    file.close();
    m.FS.unlink(GROUPS_PATH);
  }
}

describeWithFixtures('GLM L2 LCFA flashes (three GOES-16 files, 2018-07-02 04:33Z)', () => {
  for (const fixture of GLM_FIXTURES) {
    it(`${fixture.name}: ${fixture.flashes} flashes inside the file's field of view and time`, async () => {
      const glm = await readGlmFlashes(await readFixture(fixture.fixture));
      expect(glm.flashCount).toBe(fixture.flashes);
      expect(glm.lat.length).toBe(fixture.flashes);
      expect(glm.datasetName).toBe(fixture.name);
      expect(glm.platform).toBe('G16');
      // GOES-16's view as the file states it (nominal subpoint 75° W on the equator).
      expect(glm.view).toEqual({ subpointLon: -75, subpointLat: 0, west: expect.closeTo(-141.56, 4), east: expect.closeTo(-8.44, 4), south: expect.closeTo(-66.56, 4), north: expect.closeTo(66.56, 4) });
      expect(glm.end - glm.start).toBe(20_000);
      // The field of view of GOES-East (lat_field_of_view_bounds ±66.56, lon -141.56..-8.44).
      for (let i = 0; i < glm.lat.length; i++) {
        expect(Math.abs(glm.lat[i])).toBeLessThanOrEqual(66.56);
        expect(glm.lon[i]).toBeGreaterThanOrEqual(-141.56);
        expect(glm.lon[i]).toBeLessThanOrEqual(-8.44);
        // A flash's first event may precede the file (it began in the one before) by its duration,
        // at most flash_time_threshold (3 s) before; never after the file's end.
        expect(glm.time[i]).toBeGreaterThan(glm.start - 3000);
        expect(glm.time[i]).toBeLessThanOrEqual(glm.end);
        expect(glm.areaKm2[i]).toBeGreaterThan(0);
        expect([0, 1, 3, 5]).toContain(glm.quality[i]);
      }
    });
  }

  it('unpacks by the netCDF conventions: each flash energy is the sum of its groups (cell_methods "sum"), its first event no later than its groups', async () => {
    const bytes = await readFixture(GLM_FIXTURES[0].fixture);
    const glm = await readGlmFlashes(bytes);
    const g = await groups(bytes);
    const m = await h5wasm.ready;
    m.FS.writeFile(IDS_PATH, bytes);
    const file = new h5wasm.File(IDS_PATH, 'r');
    const ids = (file.get('flash_id') as InstanceType<typeof h5wasm.Dataset>).value as Int16Array;
    file.close();
    m.FS.unlink(IDS_PATH);
    const sum = new Map<number, number>();
    const count = new Map<number, number>();
    const earliest = new Map<number, number>();
    for (let j = 0; j < g.parent.length; j++) {
      const parent = g.parent[j] & 0xffff; // _Unsigned
      sum.set(parent, (sum.get(parent) ?? 0) + (g.energy[j] & 0xffff) * g.energyScale);
      count.set(parent, (count.get(parent) ?? 0) + 1);
      earliest.set(parent, Math.min(earliest.get(parent) ?? Infinity, g.time[j] * g.timeScale));
    }
    let checked = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] & 0xffff;
      const groupSum = sum.get(id);
      expect(groupSum).toBeDefined();
      // Each packed energy is rounded to its step (1.526e-15 J): half a step for the flash and each of its groups.
      const bound = (count.get(id)! + 1) * 0.5 * g.energyScale;
      expect(Math.abs(glm.energyJ[i] - groupSum!)).toBeLessThanOrEqual(bound * 1.0001);
      expect(glm.time[i] - glm.start).toBeLessThanOrEqual(earliest.get(id)! + 1);
      checked++;
    }
    expect(checked).toBe(302);
    // The largest flash energies must be ordinary (femtojoules to picojoules), which they are only
    // when the unsigned 16-bit values are read as unsigned.
    expect(Math.max(...glm.energyJ)).toBeLessThan(1e-10);
    expect(Math.min(...glm.energyJ)).toBeGreaterThanOrEqual(0);
  });

  it('refuses a truncated file and one that is not GLM with a GlmFormatError', async () => {
    const bytes = await readFixture(GLM_FIXTURES[1].fixture);
    for (const cut of [bytes.length - 1000, Math.floor(bytes.length / 2), 100, 0]) {
      await expect(readGlmFlashes(bytes.subarray(0, cut))).rejects.toBeInstanceOf(GlmFormatError);
    }
    const garbled = bytes.slice();
    garbled.fill(0x55, 0, 512);
    await expect(readGlmFlashes(garbled)).rejects.toBeInstanceOf(GlmFormatError);
    await expect(readGlmFlashes(new TextEncoder().encode('<Error><Code>NoSuchKey</Code></Error>'))).rejects.toThrow(/not a readable netCDF-4/);
  });

  it('names what an HDF5 file that is not GLM is not (the ODIM radar composite)', async () => {
    const odim = await readFixture('obs/radar/rmi-belgium_odim-comp_20190606T0000.hdf');
    await expect(readGlmFlashes(odim)).rejects.toThrow(/not a GLM L2 LCFA product/);
  });
});
