import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { loadEngine } from '../../ingest/engine.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import { MrmsError, readMrms } from './mrms.ts';
import { radarFixturePath, RADAR_FIXTURE } from './testing.ts';

describeWithFixtures('MRMS reflectivity reader', () => {
  it('decodes the CONUS 0.01° field exactly as wgrib2 does, with no-coverage and no-echo apart', async () => {
    const field = await readMrms(await loadEngine(), await readFixture(RADAR_FIXTURE.mrms));
    expect(field.time).toBe(Date.UTC(2023, 3, 6, 12, 0, 39));
    expect(field.grid).toMatchObject({ kind: 'latlon', width: 7000, height: 3500, lat0: 54.995, dLat: 0.01, dLon: 0.01 });
    if (field.grid.kind === 'latlon') expect(field.grid.lon0).toBeCloseTo(-129.995, 6);
    const xz = spawnSync('xz', ['-dc', radarFixturePath('mrmsWgrib2')], { maxBuffer: 128 * 1024 * 1024 });
    expect(xz.status).toBe(0);
    const golden = new Float32Array(new Uint8Array(xz.stdout).slice().buffer);
    expect(golden.length).toBe(7000 * 3500);
    let mismatches = 0;
    let noCoverage = 0;
    let noEcho = 0;
    for (let i = 0; i < golden.length; i++) {
      const g = golden[i];
      if (g === -999) {
        noCoverage++;
        if (field.coverage[i] !== 0 || !Number.isNaN(field.dbz[i])) mismatches++;
      } else if (g === -99) {
        noEcho++;
        if (field.coverage[i] !== 1 || !Number.isNaN(field.dbz[i])) mismatches++;
      } else if (field.coverage[i] !== 1 || Math.abs(field.dbz[i] - g) > 1e-4) {
        mismatches++;
      }
    }
    expect(mismatches).toBe(0);
    expect(noCoverage).toBe(8528048);
    expect(noEcho).toBe(15041671);
  });

  it('refuses a truncated or corrupt file with a named error', async () => {
    const engine = await loadEngine();
    const bytes = await readFixture(RADAR_FIXTURE.mrms);
    await expect(readMrms(engine, bytes.subarray(0, bytes.length >> 1))).rejects.toThrow(MrmsError);
    const grib = new Uint8Array(spawnSync('gzip', ['-dc', radarFixturePath('mrms')], { maxBuffer: 64 * 1024 * 1024 }).stdout);
    await expect(readMrms(engine, gzipSync(grib.subarray(0, 500_000)))).rejects.toThrow(MrmsError);
    await expect(readMrms(engine, new TextEncoder().encode('<html>404</html>'))).rejects.toThrow(/not a readable GRIB2 file/);
  });
});
