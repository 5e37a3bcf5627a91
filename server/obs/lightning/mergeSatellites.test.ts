/**
 * GOES-East and GOES-West flashes merged. There is no GOES-West (GOES-17/18) GLM fixture: West's
 * flashes here are the real GOES-16 flashes of the three fixtures, each flash inside West's view
 * moved as a second satellite's fix of it would be (a few km of parallax, tens of ms) and each one
 * outside it moved into the part of West's view East does not see. West's view is read from a real
 * GOES-16 file rewritten as GOES-West's (testing.ts goesWestCopy: subpoint 137.2° W, the field of
 * view moved with it); the source test polls such files from a second bucket.
 */

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { greatCircleKm } from '../../../common/capAlerts.ts';
import { decodeFlashes, type FlashesManifest } from '../../../common/obs/flashes.ts';
import { seededRandom } from '../../../common/seededRandom.ts';
import { FixtureServer } from '../../live/fixtureServer.ts';
import { SourceHttp } from '../../live/http.ts';
import { describeWithFixtures, readFixture } from '../../live/testing.ts';
import type { ObsContext } from '../core/source.ts';
import { ObsStore } from '../core/store.ts';
import { readGlmFlashes, type GlmFile } from './glm.ts';
import { GlmSource } from './glmSource.ts';
import { inView, mergeSatellites, SAME_FLASH_KM, SAME_FLASH_MS, type SatelliteFlash } from './mergeSatellites.ts';
import { GLM_FIXTURES, goesWestCopy, goesWestView, westName, type WestFlash } from './testing.ts';

/** km per degree of latitude (as in mergeSatellites.ts). */
const KM_PER_DEGREE = 111.195;
/** GOES-West's view: longitudes -141.56..-8.44 of the GOES-16 files moved to its subpoint. */
const WEST = { ...goesWestView({ subpointLon: -75, west: -141.56, east: -8.44 }), subpointLat: 0, south: -66.56, north: 66.56 };

/** (lon, lat) moved `km` towards `bearing` (radians from north), on the local tangent plane. */
function moved(lon: number, lat: number, km: number, bearing: number): [number, number] {
  return [lon + (km * Math.sin(bearing)) / (KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180)), lat + (km * Math.cos(bearing)) / KM_PER_DEGREE];
}

/** West's copy of East's flashes: those West sees moved by km in [min, max) and dt in ±[min, max) ms; the others into West-only longitudes. */
function westMove(seed: number, km: [number, number], ms: [number, number], quality: (i: number) => number | null) {
  const random = seededRandom(seed);
  return (i: number, lon: number, lat: number): WestFlash => {
    const [d, bearing, dt, sign] = [km[0] + random() * (km[1] - km[0]), random() * 2 * Math.PI, ms[0] + random() * (ms[1] - ms[0]), random() < 0.5 ? -1 : 1];
    if (!inView(WEST, lon, lat)) return { lon: -150 - (lon - WEST.east) * 0.4, lat, dtMs: 0, quality: 0 }; // -150..-175: West alone
    const [westLon, westLat] = moved(lon, lat, d, bearing);
    return { lon: westLon, lat: westLat, dtMs: sign * dt, quality: quality(i) ?? 0 };
  };
}

interface Tagged extends SatelliteFlash {
  side: 'east' | 'west';
  /** Flash index over the three files, the same in a West copy as in its East original. */
  n: number;
}

function tagged(files: readonly GlmFile[], side: Tagged['side']): Tagged[] {
  const out: Tagged[] = [];
  let n = 0;
  for (const glm of files) {
    for (let i = 0; i < glm.lat.length; i++, n++) {
      out.push({ lon: glm.lon[i], lat: glm.lat[i], time: glm.time[i], quality: glm.quality[i], platform: glm.platform, view: glm.view, side, n });
    }
  }
  return out;
}

describeWithFixtures('GOES-East and GOES-West flashes merged (no GOES-West fixture: West copies of the three GOES-16 files)', () => {
  const eastBytes: Uint8Array[] = [];
  let east: Tagged[];
  /** East flashes West also sees, by n. */
  let overlap: Set<number>;
  /** The first file as GOES-West's (every flash 0.05° west and 40 ms later). */
  let westFile: GlmFile;
  beforeAll(async () => {
    for (const f of GLM_FIXTURES) eastBytes.push(await readFixture(f.fixture));
    east = tagged(await Promise.all(eastBytes.map((b) => readGlmFlashes(b))), 'east');
    overlap = new Set(east.filter((f) => inView(WEST, f.lon, f.lat)).map((f) => f.n));
    westFile = await readGlmFlashes(await goesWestCopy(eastBytes[0], (i, lon, lat) => ({ lon: lon - 0.05, lat, dtMs: 40, quality: 0 })));
  });

  /** West's copy of every East flash, moved by `move`, with the view the West file states. */
  function westFlashes(move: (i: number, lon: number, lat: number) => WestFlash): Tagged[] {
    return east.map((e) => {
      const to = move(e.n, e.lon, e.lat);
      return { lon: to.lon, lat: to.lat, time: e.time + to.dtMs, quality: to.quality, platform: westFile.platform, view: westFile.view, side: 'west', n: e.n };
    });
  }

  it('reads the West copy\'s view: G17 at 137.2° W, its view across the antimeridian; East and West overlap from 141.56° W to 70.64° W', () => {
    expect(westFile.platform).toBe('G17');
    expect(westFile.view.subpointLon).toBeCloseTo(-137.2, 4);
    expect(westFile.view.west).toBeCloseTo(156.24, 4);
    expect(westFile.view.east).toBeCloseTo(-70.64, 4);
    for (const [lon, inEast, inWest] of [[-100, true, true], [-140, true, true], [-60, true, false], [-150, false, true], [179.5, false, true], [-179.5, false, true], [150, false, false]] as const) {
      expect([inView(east[0].view, lon, 10), inView(westFile.view, lon, 10)]).toEqual([inEast, inWest]);
    }
    expect(inView(westFile.view, -100, 70)).toBe(false);
    // 454 of the 853 flashes (the Great Plains and Central America at night) are in both views.
    expect(overlap.size).toBe(159 + 151 + 144);
    // The file's flashes are moved as asked (here 40 ms later and 0.05° west; time on the 2 ms step).
    expect(westFile.lat.length).toBe(GLM_FIXTURES[0].flashes);
    expect(westFile.time[7] - (east[7].time + 40)).toBe(0);
    expect(westFile.lon[7]).toBeCloseTo(east[7].lon - 0.05, 4);
  });

  it('merges every flash both saw (a few km and tens of ms apart) with its own copy, keeps the good or the nearer-to-nadir one, and drops no flash one satellite alone saw', async () => {
    // Every fifth West copy is degraded (flash_quality_flag 3).
    const west = westFlashes(westMove(2, [0.5, 6], [2, 60], (i) => (i % 5 === 0 ? 3 : east[i].quality)));
    const { kept, merged } = mergeSatellites([...east, ...west]);
    expect(merged).toBe(overlap.size);
    expect(kept.length).toBe(east.length + west.length - overlap.size);
    const keptIds = new Set(kept.map((f) => `${f.side}${f.n}`));
    const counts = { east: 0, west: 0 };
    for (const e of east) {
      const w = west[e.n];
      if (!overlap.has(e.n)) {
        // Outside the overlap both are kept: East's flash, and West's (moved to where only West sees).
        expect(keptIds.has(`east${e.n}`) && keptIds.has(`west${e.n}`)).toBe(true);
        continue;
      }
      expect(greatCircleKm(e.lon, e.lat, w.lon, w.lat)).toBeLessThan(6.01);
      expect(Math.abs(e.time - w.time)).toBeLessThanOrEqual(60);
      const nadir = (f: Tagged) => greatCircleKm(f.lon, f.lat, f.view.subpointLon, f.view.subpointLat);
      const expected = (e.quality === 0) !== (w.quality === 0) ? (e.quality === 0 ? 'east' : 'west') : nadir(e) <= nadir(w) ? 'east' : 'west';
      expect([keptIds.has(`east${e.n}`), keptIds.has(`west${e.n}`)]).toEqual([expected === 'east', expected === 'west']);
      counts[expected]++;
    }
    // Both rules are at work: West keeps the flashes nearer 137.2° W than 75° W (west of about 106° W), East the others and the degraded Wests.
    expect(counts.east).toBeGreaterThan(300);
    expect(counts.west).toBeGreaterThan(20);
  });

  it('keeps both copies when they are farther apart than the LCFA thresholds, in space or in time; merges only copies another East flash is that near (checked pair by pair)', async () => {
    const far = westFlashes(westMove(3, [SAME_FLASH_KM + 2, SAME_FLASH_KM + 5], [2, 60], () => null));
    const late = westFlashes(westMove(4, [0.5, 6], [SAME_FLASH_MS + 20, SAME_FLASH_MS + 100], () => null));
    const near = (a: Tagged, b: Tagged) => Math.abs(a.time - b.time) <= SAME_FLASH_MS && greatCircleKm(a.lon, a.lat, b.lon, b.lat) <= SAME_FLASH_KM;
    const coincidences: number[] = [];
    for (const west of [far, late]) {
      for (const e of east) if (overlap.has(e.n)) expect(near(e, west[e.n])).toBe(false);
      // Distinct East flashes come as near as 356 ms and 1.0 km, 288 ms and 7.4 km in these files: a
      // copy moved away from its own flash can land within the thresholds of another, and is then that
      // flash's duplicate by the rule (as a flash West alone saw would be, next to one East alone saw).
      // The merge's count is the O(n²) count of those.
      const expected = west.filter((w) => east.some((e) => e.n !== w.n && near(e, w))).length;
      const { kept, merged } = mergeSatellites([...east, ...west]);
      expect(merged).toBe(expected);
      expect(kept.length).toBe(east.length + west.length - expected);
      coincidences.push(expected);
    }
    // 1 of the 454 copies moved 18.5-21.5 km, 19 of those moved 350-430 ms.
    expect(coincidences).toEqual([1, 19]);
  });

  it('with one satellite nothing is compared: every flash is kept', () => {
    const { kept, merged } = mergeSatellites(east);
    expect(merged).toBe(0);
    expect(kept).toEqual(east);
  });

  it('a GlmSource on the GOES-East and GOES-West buckets publishes each flash once and counts the merged ones in the manifest', async () => {
    const eastServer = await FixtureServer.start();
    const westServer = await FixtureServer.start();
    const dataDir = await mkdtemp(join(tmpdir(), 'isobar-glm-merge-'));
    try {
      const move = westMove(5, [0.5, 6], [2, 60], () => null);
      let offset = 0;
      for (const [k, f] of GLM_FIXTURES.entries()) {
        eastServer.put(`/${f.key}`, eastBytes[k]);
        const base = offset;
        westServer.put(`/${westName(f.key)}`, await goesWestCopy(eastBytes[k], (i, lon, lat) => move(base + i, lon, lat)));
        offset += f.flashes;
      }
      const store = new ObsStore(dataDir);
      const ctx: ObsContext = {
        http: new SourceHttp({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
        store,
        log: { debug() {}, info() {}, warn() {}, error() {} },
        now: () => Date.UTC(2018, 6, 2, 4, 34, 30),
        signal: new AbortController().signal,
      };
      await new GlmSource({ buckets: [eastServer.url, westServer.url] }).poll(ctx);
      const manifest = (await store.readJson<FlashesManifest>('lightning', 'glm.json'))!;
      expect(manifest).toMatchObject({ flashes: 2 * 853 - overlap.size, merged: overlap.size });
      const flashes = decodeFlashes(new Uint8Array(await readFile(store.path('lightning', manifest.file))));
      expect(flashes.lon.length).toBe(manifest.flashes);
      // The flashes West alone saw (moved to 150°-175° W) are all there.
      expect([...flashes.lon].filter((lon) => lon < -149.9).length).toBe(853 - overlap.size);
    } finally {
      await eastServer.close();
      await westServer.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
