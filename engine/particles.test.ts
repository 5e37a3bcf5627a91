import { beforeAll, describe, expect, it } from 'vitest';
import { decodeDataTile, Predictor } from '../common/tile.ts';
import { mercY, PARTICLE_CAP, worldSize } from '../common/map.ts';
import { particleView, type Engine, type FieldGrid, type Kernel } from './engine.ts';
import { ReferenceField, ReferenceParticles } from './reference.ts';
import { createEngine, GLOBAL_Z0_GRID, rawTile, syntheticWind, windTile, type EngineTarget } from './testing.ts';

/** Degrees per (m/s) per step for `pixelsPerStep` screen pixels per (m/s) at a zoom. */
function speedAt(zoom: number, pixelsPerStep: number): number {
  return (pixelsPerStep * 360) / worldSize(zoom);
}

type Wind = (lon: number, lat: number) => [number, number];

/**
 * A global field of data zoom 0 from two forecast steps (a, b) blended at t, written into every
 * engine and into a reference field.
 */
function buildField(engines: Engine[], windA: Wind, windB: Wind, t: number): ReferenceField {
  const steps = [windA, windB].map((wind) => [0, 1].map((x) => windTile({ z: 0, x, y: 0 }, wind)));
  const reference = new ReferenceField(GLOBAL_Z0_GRID);
  for (const engine of engines) engine.setFieldGrid(GLOBAL_Z0_GRID);
  for (const x of [0, 1]) {
    for (const engine of engines) {
      const a = engine.decodeTile(steps[0][x]);
      const b = engine.decodeTile(steps[1][x]);
      engine.writeFieldTile({ a, b, t, x: x * 255, y: 0 });
      engine.releaseTile(a);
      engine.releaseTile(b);
    }
    reference.writeTile({ a: decodeDataTile(steps[0][x]), b: decodeDataTile(steps[1][x]), t, x: x * 255, y: 0 });
  }
  for (const engine of engines) engine.finishField();
  reference.finish();
  return reference;
}

function wrapHalfTurn(lon: number): number {
  return lon - 360 * Math.floor((lon + 180) / 360);
}

describe.each<EngineTarget>(['release', 'debug'])('particles against the TS reference (%s build)', (target) => {
  let simd: Engine;
  let scalar: Engine;
  let reference: ReferenceField;
  beforeAll(async () => {
    [simd, scalar] = await Promise.all([createEngine(target), createEngine(target)]);
    reference = buildField([simd, scalar], (lon, lat) => syntheticWind(lon, lat, 0), (lon, lat) => syntheticWind(lon, lat, 6), 0.35);
  });

  // Zoom-3 views over the Pacific: they span the antimeridian, so particles cross it. The SIMD
  // kernel wraps lon - centre on one side, chosen by the sign of the centre: both are run.
  it.each([170, -170])('SIMD and scalar kernels follow the reference for 200 RK2 steps across the antimeridian (centre %d°)', (centerLon) => {
    const view = particleView({ lon: centerLon, lat: 10, zoom: 3, width: 1280, height: 720 });
    expect(view.west < -180 || view.east > 180).toBe(true);
    const init = { ...view, count: 14999, seed: 7, maxAge: 100 }; // odd: the SIMD kernel's scalar tail
    simd.initParticles(init);
    scalar.initParticles(init);
    const plain = new ReferenceParticles(init);
    const step = { ...view, speed: speedAt(3, 0.6), maxAge: 100 };
    let respawns = 0;
    let crossings = 0;
    for (let s = 0; s < 200; s++) {
      const before = Float64Array.from(plain.lon);
      simd.stepParticles({ ...step, kernel: 'simd' });
      scalar.stepParticles({ ...step, kernel: 'scalar' });
      plain.step(reference, step);
      for (let k = 0; k < plain.count; k++) {
        if (plain.age[k] === 0) respawns++;
        else if (Math.abs(plain.lon[k] - before[k]) > 180) crossings++;
      }
    }
    // The run is meaningful: particles respawned for every reason and crossed ±180°.
    expect(respawns).toBeGreaterThan(20000);
    expect(crossings).toBeGreaterThan(50);

    const a = simd.positions();
    const b = scalar.positions();
    expect(a.lon).toEqual(b.lon);
    expect(a.lat).toEqual(b.lat);
    expect(a.age).toEqual(b.age);
    expect(simd.vertices()).toEqual(scalar.vertices());

    // Bit for bit: the reference repeats every operation, and respawns take their latitudes from
    // the same spawn table (engine/spawn.ts).
    expect(a.lon).toEqual(plain.lon);
    expect(a.lat).toEqual(plain.lat);
    expect(a.age).toEqual(plain.age);
    expect(simd.vertices()).toEqual(plain.vertices);
  });
});

describe('particle behaviour', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });

  const kernels: Kernel[] = ['simd', 'scalar'];

  it('spawns every particle inside the view, uniformly on screen, with ages in [0, maxAge)', () => {
    const view = particleView({ lon: -30, lat: 35, zoom: 3, width: 1280, height: 720 });
    engine.initParticles({ ...view, count: PARTICLE_CAP, seed: 0, maxAge: 100 });
    const { lon, lat, age } = engine.positions();
    const vertices = engine.vertices();
    let topHalf = 0;
    const yMiddle = (view.yTop + view.yBottom) / 2;
    const wrong: number[] = [];
    for (let k = 0; k < PARTICLE_CAP; k++) {
      const rel = wrapHalfTurn(lon[k] - view.centerLon);
      const ok = lon[k] >= -180 && lon[k] < 180
        && rel >= view.west - view.centerLon - 1e-9 && rel <= view.east - view.centerLon + 1e-9
        && lat[k] >= view.south - 1e-9 && lat[k] <= view.north + 1e-9
        && age[k] >= 0 && age[k] < 100
        && vertices[4 * k] === vertices[4 * k + 2] && vertices[4 * k + 1] === vertices[4 * k + 3];
      if (!ok) wrong.push(k);
      if (mercY(lat[k]) < yMiddle) topHalf++;
    }
    expect(wrong).toEqual([]);
    // Uniform in Mercator y, not in latitude: half of them above the screen's middle.
    expect(topHalf / PARTICLE_CAP).toBeCloseTo(0.5, 1);
    expect(new Set(age).size).toBe(100);
    // Seed 0 selects a fixed seed: the same particles again; another seed gives others.
    const first = Float64Array.from(lon);
    engine.initParticles({ ...view, count: PARTICLE_CAP, seed: 0, maxAge: 100 });
    expect(engine.positions().lon).toEqual(first);
    engine.initParticles({ ...view, count: PARTICLE_CAP, seed: 1, maxAge: 100 });
    expect(engine.positions().lon).not.toEqual(first);
  });

  it.each(kernels)('respawns aged particles and particles that leave the view (%s)', (kernel) => {
    buildField([engine], () => [25, 10], () => [25, 10], 0);
    const view = particleView({ lon: 20, lat: 45, zoom: 5, width: 800, height: 600 });
    const maxAge = 7;
    engine.initParticles({ ...view, count: 5001, seed: 3, maxAge });
    // The kernels' view test: f32 offsets from the view's centre (particles.ts).
    const f32 = Math.fround;
    const [viewWest, viewEast] = [f32(view.west - view.centerLon), f32(view.east - view.centerLon)];
    const [viewSouth, viewNorth] = [f32(view.south - view.centerLat), f32(view.north - view.centerLat)];
    let agedOut = 0;
    let leftView = 0;
    for (let s = 0; s < 40; s++) {
      const before = { lon: Float64Array.from(engine.positions().lon), lat: Float64Array.from(engine.positions().lat), age: Int32Array.from(engine.positions().age) };
      engine.stepParticles({ ...view, speed: speedAt(5, 2), maxAge, kernel });
      const { lon, lat, age } = engine.positions();
      const vertices = engine.vertices();
      const wrong: number[] = [];
      for (let k = 0; k < lon.length; k++) {
        const rel = f32(wrapHalfTurn(lon[k] - view.centerLon));
        const relLat = f32(lat[k] - view.centerLat);
        let ok = rel >= viewWest && rel <= viewEast && relLat >= viewSouth && relLat <= viewNorth && age[k] <= maxAge
          && vertices[4 * k + 2] === rel && vertices[4 * k + 3] === relLat;
        if (age[k] === 0) {
          ok &&= vertices[4 * k] === vertices[4 * k + 2] && vertices[4 * k + 1] === vertices[4 * k + 3];
          if (before.age[k] === maxAge) agedOut++;
          else leftView++;
        } else {
          // The segment starts where the particle was (prev = new - the f32 displacement, within
          // f32 roundings of the old position's offset).
          ok &&= age[k] === before.age[k] + 1
            && Math.abs(vertices[4 * k + 1] - (before.lat[k] - view.centerLat)) < 1e-5;
        }
        if (!ok) wrong.push(k);
      }
      expect(wrong).toEqual([]);
    }
    expect(agedOut).toBeGreaterThan(1000);
    expect(leftView).toBeGreaterThan(100);
  });

  it.each(kernels)('respawns particles that sample no data (%s)', (kernel) => {
    // A field with a hole: no data over 0..40°E, 0..30°N.
    const hole = (lon: number, lat: number): [number, number] => (lon > 0 && lon < 40 && lat > 0 && lat < 30 ? [NaN, NaN] : [-8, 3]);
    buildField([engine], hole, hole, 0);
    const view = particleView({ lon: 20, lat: 15, zoom: 3, width: 1280, height: 720 });
    engine.initParticles({ ...view, count: 4000, seed: 11, maxAge: 1000 });
    let holeRespawns = 0;
    for (let s = 0; s < 20; s++) {
      const before = { lon: Float64Array.from(engine.positions().lon), lat: Float64Array.from(engine.positions().lat) };
      engine.stepParticles({ ...view, speed: speedAt(3, 1), maxAge: 1000, kernel });
      const { age } = engine.positions();
      const survivors: number[] = [];
      for (let k = 0; k < age.length; k++) {
        const [u] = engine.sampleField({ lon: before.lon[k], lat: before.lat[k] });
        if (Number.isNaN(u)) {
          if (age[k] !== 0) survivors.push(k);
          holeRespawns++;
        }
      }
      expect(survivors).toEqual([]);
    }
    expect(holeRespawns).toBeGreaterThan(200);
  });

  it.each(kernels)('respawns particles outside a regional field and moves those inside (%s)', (kernel) => {
    // A 20° x 20° field (0..20°E, 20..40°N, u = 10, v = 5 m/s) in a view 225° wide: most particles
    // start outside it and must sample NaN there.
    const n = 21 * 21;
    engine.setFieldGrid({ lon0: 0, lat0: 40, dlon: 1, dlat: 1, nx: 21, ny: 21, wrap: false });
    const tile = engine.decodeTile(rawTile({
      width: 21, height: 21, predictor: Predictor.None, q: [new Uint16Array(n).fill(10), new Uint16Array(n).fill(5)],
      offsets: [0, 0], scales: [1, 1], west: 0, north: 40, east: 20, south: 20,
    }));
    engine.writeFieldTile({ a: tile, b: tile, t: 0, x: 0, y: 0 });
    engine.finishField();
    engine.releaseTile(tile);
    const view = particleView({ lon: 10, lat: 30, zoom: 3, width: 1280, height: 720 });
    engine.initParticles({ ...view, count: 4001, seed: 4, maxAge: 1000 });
    const before = { lon: Float64Array.from(engine.positions().lon), lat: Float64Array.from(engine.positions().lat), age: Int32Array.from(engine.positions().age) };
    const speed = speedAt(3, 0.5); // a step of ~1°, a midpoint ~0.5° away
    engine.stepParticles({ ...view, speed, maxAge: 1000, kernel });
    const after = engine.positions();
    const wrong: number[] = [];
    let outside = 0;
    let inside = 0;
    for (let k = 0; k < 4001; k++) {
      const [lon, lat] = [before.lon[k], before.lat[k]];
      if (lon < 0 || lon > 20 || lat < 20 || lat > 40) {
        outside++;
        if (after.age[k] !== 0) wrong.push(k);
      } else if (lon > 1.5 && lon < 18.5 && lat > 21.5 && lat < 38.5) {
        inside++;
        if (after.age[k] !== before.age[k] + 1 || Math.abs(after.lon[k] - (lon + speed * 10)) > 1e-5) wrong.push(k);
      }
    }
    expect(wrong).toEqual([]);
    expect(outside).toBeGreaterThan(3500);
    expect(inside).toBeGreaterThan(20);
  });

  it.each(kernels)('draws short segments across the antimeridian and keeps longitudes in [-180, 180) (%s)', (kernel) => {
    buildField([engine], () => [30, 0], () => [30, 0], 0);
    const view = particleView({ lon: 180, lat: 0, zoom: 4, width: 1024, height: 512 });
    engine.initParticles({ ...view, count: 3000, seed: 5, maxAge: 100000 });
    const speed = speedAt(4, 0.5);
    let crossed = 0;
    for (let s = 0; s < 100; s++) {
      const before = Float64Array.from(engine.positions().lon);
      engine.stepParticles({ ...view, speed, maxAge: 100000, kernel });
      const { lon, age } = engine.positions();
      const vertices = engine.vertices();
      const wrong: number[] = [];
      for (let k = 0; k < lon.length; k++) {
        const length = Math.hypot(vertices[4 * k + 2] - vertices[4 * k], vertices[4 * k + 3] - vertices[4 * k + 1]);
        let ok = lon[k] >= -180 && lon[k] < 180 && Math.abs(vertices[4 * k + 2]) <= 180 && length < 2;
        if (age[k] > 0) {
          ok &&= Math.abs(vertices[4 * k + 2] - vertices[4 * k] - speed * 30) < 1e-4;
          if (before[k] > 170 && lon[k] < -170) crossed++;
        }
        if (!ok) wrong.push(k);
      }
      expect(wrong).toEqual([]);
    }
    expect(crossed).toBeGreaterThan(100);
  });

  it.each(kernels)('integrates with the RK2 midpoint rule (%s)', (kernel) => {
    // Northward wind growing eastward: the midpoint sample differs from the start sample.
    const reference = buildField([engine], (lon) => [20, 0.2 * lon], (lon) => [20, 0.2 * lon], 0);
    const view = particleView({ lon: 0, lat: 20, zoom: 3, width: 1280, height: 720 });
    engine.initParticles({ ...view, count: 1000, seed: 2, maxAge: 1000 });
    const before = { lon: Float64Array.from(engine.positions().lon), lat: Float64Array.from(engine.positions().lat) };
    const speed = speedAt(3, 1);
    engine.stepParticles({ ...view, speed, maxAge: 1000, kernel });
    const after = engine.positions();
    // The midpoint p + (speed / 2) (U1, V1) is taken in the f32 grid coordinates the sampler
    // uses (particles.ts): kx, ky are speed / 2 in columns and rows per (m/s).
    const half = 0.5 * speed;
    const kx = Math.fround(half * reference.invDlon);
    const ky = Math.fround(-half * reference.invDlat);
    const wrong: number[] = [];
    let moved = 0;
    let differsFromEuler = 0;
    let offGeographicMidpoint = 0;
    for (let k = 0; k < 1000; k++) {
      if (after.age[k] === 0) continue;
      moved++;
      const [u1, v1] = engine.sampleField({ lon: before.lon[k], lat: before.lat[k] });
      const gx = reference.gridX(before.lon[k]);
      const gy = reference.gridY(before.lat[k]);
      reference.sampleGridInto(reference.wrapColumn(Math.fround(gx + Math.fround(kx * u1))), Math.fround(gy + Math.fround(ky * v1)));
      const [u2, v2] = reference.sampled;
      // The displacement is f32(speed) * sample in f32, added to the f64 position.
      const speedF = Math.fround(speed);
      if (after.lon[k] !== before.lon[k] + Math.fround(speedF * u2) || after.lat[k] !== before.lat[k] + Math.fround(speedF * v2)) wrong.push(k);
      // ... which is the geographic midpoint up to the f32 rounding of grid coordinates.
      const [geoU2, geoV2] = engine.sampleField({ lon: before.lon[k] + half * u1, lat: before.lat[k] + half * v1 });
      offGeographicMidpoint = Math.max(offGeographicMidpoint, Math.abs(speed * (u2 - geoU2)), Math.abs(speed * (v2 - geoV2)));
      if (Math.abs(after.lat[k] - (before.lat[k] + speed * v1)) > 1e-4) differsFromEuler++;
    }
    expect(wrong).toEqual([]);
    expect(moved).toBeGreaterThan(950);
    expect(differsFromEuler).toBe(moved);
    // Degrees: f32 grid coordinates are within ~1e-4 cells (2 ulps at 512 columns), ~1.3e-5 m/s
    // of this V gradient, times speed; a step here is ~3.5 degrees.
    expect(offGeographicMidpoint).toBeLessThan(5e-6);
  });

  it('moves particles the same number of screen pixels at every zoom and latitude', () => {
    const [u, v] = [10, 5];
    buildField([engine], () => [u, v], () => [u, v], 0);
    const pixelsPerStep = 0.4; // px per step per (m/s)
    for (const zoom of [3, 6]) {
      for (const lat of [0, 60]) {
        const view = particleView({ lon: 0, lat, zoom, width: 1280, height: 720 });
        engine.initParticles({ ...view, count: 2000, seed: 9, maxAge: 1000 });
        const before = { lon: Float64Array.from(engine.positions().lon), lat: Float64Array.from(engine.positions().lat) };
        engine.stepParticles({ ...view, speed: speedAt(zoom, pixelsPerStep), maxAge: 1000, kernel: 'simd' });
        const after = engine.positions();
        const size = worldSize(zoom);
        let worst = 0;
        let moved = 0;
        for (let k = 0; k < 2000; k++) {
          if (after.age[k] === 0) continue;
          moved++;
          const dx = (wrapHalfTurn(after.lon[k] - before.lon[k]) / 360) * size;
          const dy = (mercY(after.lat[k]) - mercY(before.lat[k])) * size; // north is up: y decreases
          worst = Math.max(worst, Math.abs(dx / (pixelsPerStep * u) - 1), Math.abs(dy / -(pixelsPerStep * v) - 1));
        }
        expect(moved).toBeGreaterThan(1900);
        expect(worst).toBeLessThan(1e-3);
      }
    }
  });

  it('refuses bad parameters', async () => {
    const fresh = await createEngine();
    const view = particleView({ lon: 0, lat: 0, zoom: 3, width: 800, height: 600 });
    expect(() => fresh.stepParticles({ ...view, speed: 0.1, maxAge: 10, kernel: 'simd' })).toThrow(/setFieldGrid/);
    fresh.setFieldGrid({ ...(GLOBAL_Z0_GRID as FieldGrid) });
    expect(() => fresh.stepParticles({ ...view, speed: 0.1, maxAge: 10, kernel: 'simd' })).toThrow(/initParticles/);
    expect(() => fresh.initParticles({ ...view, count: PARTICLE_CAP + 1, seed: 1, maxAge: 10 })).toThrow(/0 to 15000/);
    expect(() => fresh.initParticles({ ...view, count: 10, seed: 1, maxAge: 0 })).toThrow(/maxAge/);
    expect(() => fresh.initParticles({ ...view, east: view.west, count: 10, seed: 1, maxAge: 10 })).toThrow(/west < east/);
    fresh.initParticles({ ...view, count: 10, seed: 1, maxAge: 10 });
    expect(() => fresh.stepParticles({ ...view, speed: 0.1, maxAge: 10, kernel: 'ts' as Kernel })).toThrow(/Unknown particle kernel/);
    expect(() => fresh.stepParticles({ ...view, speed: NaN, maxAge: 10, kernel: 'simd' })).toThrow(/speed/);
  });
});
