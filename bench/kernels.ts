/**
 * Engine kernel benchmarks, each against its plain-TypeScript baseline in the same run
 * (STYLE.md habit 10): the particle step (WASM SIMD, WASM scalar, TS reference) and the tile
 * decode (WASM vs decodeDataTile + texel packing), plus the field build they depend on.
 *
 * No Node APIs and no `benchmark` package here: bench/node-kernels.ts feeds these cases to
 * Benchmark.js, and the browser bench calls runSelfTimed from a worker with its own clock.
 * Inputs are seeded; every case adds to a sink so that no work can be optimised away.
 */

import { decodeDataTile, encodeDataTile, type DecodedTile } from '../common/tile.ts';
import { PARTICLE_CAP, PARTICLE_MAX_AGE, worldSize, type View } from '../common/map.ts';
import { seededRandom } from '../common/seededRandom.ts';
import { tileBounds, TILE_NODES } from '../common/tiling.ts';
import { particleView, type DecodedTileHandle, type Engine, type FieldGrid } from '../engine/engine.ts';
import { packTexelsReference, ReferenceField, ReferenceParticles } from '../engine/reference.ts';
import { median } from './stats.ts';

export interface BenchCase {
  name: string;
  /** One operation (one particle step, one tile decode, ...). */
  run(): void;
}

export interface BenchSuite {
  name: string;
  /** The case the others are compared with. */
  baseline: string;
  cases: BenchCase[];
}

export interface CaseResult {
  name: string;
  /** Median time of one operation, ms. */
  medianMs: number;
  /** Baseline median / this median: how many times faster than the baseline. */
  speedup: number;
  samples: number;
  opsPerSample: number;
}

export interface SuiteResult {
  suite: string;
  baseline: string;
  cases: CaseResult[];
}

export interface KernelBenchSetup {
  suites: BenchSuite[];
  /** Accumulated by every case; report it (or check it is finite) so the work stays observable. */
  sink(): number;
  /** Releases what the suites hold in the engine. */
  dispose(): void;
}

/** The global field of data zoom 0: two 256x256 tiles side by side, 511 x 256 nodes with wrap. */
const GLOBAL_GRID: FieldGrid = {
  lon0: -180, lat0: 90, dlon: 180 / (TILE_NODES - 1), dlat: 180 / (TILE_NODES - 1), nx: 2 * (TILE_NODES - 1), ny: TILE_NODES, wrap: true,
};
/** A desktop map over the Pacific at zoom 3: it spans the antimeridian. */
const BENCH_VIEW: View = { lon: 165, lat: 20, zoom: 3, width: 1280, height: 720 };
/** Screen pixels per step per (m/s). */
const PIXELS_PER_STEP = 0.25;
const FIELD_BLEND = 0.4;

/**
 * A realistic wind (m/s): westerlies and trade winds by latitude plus 12 seeded vortices drifting
 * east with `phase` degrees, so the field has structure at every scale the particles see.
 */
function windField(seed: number): (lon: number, lat: number, phase: number) => [number, number] {
  const random = seededRandom(seed);
  const vortices = Array.from({ length: 12 }, () => ({
    lon: random() * 360 - 180, lat: random() * 140 - 70, radius: 8 + random() * 20, strength: (random() - 0.5) * 6,
  }));
  return (lon, lat, phase) => {
    const phi = (lat * Math.PI) / 180;
    let u = 15 * Math.sin(2 * phi) ** 2 * Math.sign(Math.abs(lat) - 30) + 4 * Math.cos(3 * phi);
    let v = 3 * Math.sin(((lon - phase) * Math.PI) / 40) * Math.cos(phi);
    for (const w of vortices) {
      let dx = lon - (w.lon + phase);
      dx -= 360 * Math.round(dx / 360);
      const dy = lat - w.lat;
      const swirl = w.strength * Math.exp(-(dx * dx + dy * dy) / (w.radius * w.radius));
      u -= swirl * dy * 0.4;
      v += swirl * dx * 0.4;
    }
    return [u, v];
  };
}

/** The two zoom-0 u/v tiles of one forecast step. */
function windTiles(wind: (lon: number, lat: number, phase: number) => [number, number], phase: number): Uint8Array[] {
  return [0, 1].map((x) => {
    const { west, north, east, south } = tileBounds({ z: 0, x, y: 0 });
    const n = TILE_NODES;
    const u = new Float32Array(n * n);
    const v = new Float32Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        [u[j * n + i], v[j * n + i]] = wind(west + (i * (east - west)) / (n - 1), north - (j * (north - south)) / (n - 1), phase);
      }
    }
    return encodeDataTile({ west, north, east, south, width: n, height: n, channels: [u, v] });
  });
}

/**
 * Builds the suites on `engine` (it becomes the engine's field and particle state). The seed
 * fixes the wind and the particles.
 */
export function createKernelSuites(engine: Engine, seed = 1): KernelBenchSetup {
  let sink = 0;
  const wind = windField(seed);
  const steps = [windTiles(wind, 0), windTiles(wind, 5)];
  const decoded: DecodedTile[][] = steps.map((tiles) => tiles.map((bytes) => decodeDataTile(bytes)));
  const handles: DecodedTileHandle[][] = steps.map((tiles) => tiles.map((bytes) => engine.decodeTile(bytes)));

  const buildEngineField = () => {
    for (const x of [0, 1]) engine.writeFieldTile({ a: handles[0][x], b: handles[1][x], t: FIELD_BLEND, x: x * 255, y: 0 });
    engine.finishField();
  };
  const buildReferenceField = (field: ReferenceField) => {
    for (const x of [0, 1]) field.writeTile({ a: decoded[0][x], b: decoded[1][x], t: FIELD_BLEND, x: x * 255, y: 0 });
    field.finish();
  };
  engine.setFieldGrid(GLOBAL_GRID);
  buildEngineField();
  const referenceField = new ReferenceField(GLOBAL_GRID);
  buildReferenceField(referenceField);

  const view = particleView(BENCH_VIEW);
  const init = { ...view, count: PARTICLE_CAP, seed, maxAge: PARTICLE_MAX_AGE };
  engine.initParticles(init);
  const referenceParticles = new ReferenceParticles(init);
  const step = { ...view, speed: (PIXELS_PER_STEP * 360) / worldSize(BENCH_VIEW.zoom), maxAge: PARTICLE_MAX_AGE };
  let probe = 0;
  const readVertex = (vertices: Float32Array) => {
    probe = (probe + 7919) % vertices.length;
    sink += vertices[probe];
  };

  const tile = steps[0][0];
  const probeNode = 256 * 100 + 77;
  const suites: BenchSuite[] = [
    {
      name: `particle step: ${PARTICLE_CAP} particles, RK2, global ${GLOBAL_GRID.nx + 1}x${GLOBAL_GRID.ny} field`,
      baseline: 'plain TS',
      cases: [
        { name: 'WASM SIMD', run: () => { engine.stepParticles({ ...step, kernel: 'simd' }); readVertex(engine.vertices()); } },
        { name: 'WASM scalar', run: () => { engine.stepParticles({ ...step, kernel: 'scalar' }); readVertex(engine.vertices()); } },
        { name: 'plain TS', run: () => { referenceParticles.step(referenceField, step); readVertex(referenceParticles.vertices); } },
      ],
    },
    {
      name: `tile decode: ${TILE_NODES}x${TILE_NODES}, 2 channels, floats + texels`,
      baseline: 'plain TS',
      cases: [
        {
          name: 'WASM SIMD',
          run: () => {
            const handle = engine.decodeTile(tile);
            sink += engine.texels(handle)[probeNode * 4] + handle.channel(1)[probeNode];
            engine.releaseTile(handle);
          },
        },
        {
          name: 'plain TS',
          run: () => {
            const floats = decodeDataTile(tile);
            sink += packTexelsReference(tile)[probeNode * 4] + floats.channels[1][probeNode];
          },
        },
      ],
    },
    {
      name: `field build: 2 tile pairs blended into the ${GLOBAL_GRID.nx + 1}x${GLOBAL_GRID.ny} field`,
      baseline: 'plain TS',
      cases: [
        { name: 'WASM SIMD', run: () => { buildEngineField(); sink += engine.sampleField({ lon: 10, lat: 20 })[0]; } },
        { name: 'plain TS', run: () => { buildReferenceField(referenceField); sink += referenceField.nodes[probeNode]; } },
      ],
    },
  ];
  return {
    suites,
    sink: () => sink,
    dispose: () => {
      for (const row of handles) for (const handle of row) engine.releaseTile(handle);
    },
  };
}

export interface SelfTimedOptions {
  /** A monotonic clock in ms: performance.now in a browser worker or in Node. */
  now: () => number;
  /** Timed samples per case (the median is reported). */
  samples?: number;
  /**
   * Each sample runs the operation enough times to last at least this long, so a coarse clock
   * (100 µs in a worker without cross-origin isolation) costs little precision.
   */
  minSampleMs?: number;
  /** Untimed runs of every case first, for the JIT tiers. */
  warmupRuns?: number;
}

/** Adds speedups relative to the suite's baseline. */
export function withSpeedups(suite: BenchSuite, timings: Omit<CaseResult, 'speedup'>[]): SuiteResult {
  const baseline = timings.find((t) => t.name === suite.baseline);
  if (!baseline) throw new Error(`Suite "${suite.name}" has no baseline case "${suite.baseline}"`);
  return {
    suite: suite.name,
    baseline: suite.baseline,
    cases: timings.map((t) => ({ ...t, speedup: baseline.medianMs / t.medianMs })),
  };
}

/**
 * Times every case with a plain loop (no benchmark package): warm-up, calibration of the batch
 * size, then `samples` rounds in which the cases of a suite take turns, so a slow moment of the
 * machine hits all of them alike. Returns the median per operation.
 */
export function runSelfTimed(suites: BenchSuite[], options: SelfTimedOptions): SuiteResult[] {
  const { now, samples = 31, minSampleMs = 5, warmupRuns = 50 } = options;
  return suites.map((suite) => {
    const batches = suite.cases.map((c) => {
      for (let i = 0; i < warmupRuns; i++) c.run();
      let ops = 1;
      for (;;) {
        const start = now();
        for (let i = 0; i < ops; i++) c.run();
        if (now() - start >= minSampleMs || ops >= 1 << 20) break;
        ops *= 2;
      }
      return ops;
    });
    const times: number[][] = suite.cases.map(() => []);
    for (let s = 0; s < samples; s++) {
      suite.cases.forEach((c, n) => {
        const start = now();
        for (let i = 0; i < batches[n]; i++) c.run();
        times[n].push((now() - start) / batches[n]);
      });
    }
    return withSpeedups(suite, suite.cases.map((c, n) => ({
      name: c.name, medianMs: median(times[n]), samples, opsPerSample: batches[n],
    })));
  });
}

/** A markdown table of the results, for bench/RESULTS.md. */
export function formatResults(results: SuiteResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`### ${r.suite}`, '', `| case | median ms | vs ${r.baseline} |`, '| --- | ---: | ---: |');
    for (const c of r.cases) lines.push(`| ${c.name} | ${c.medianMs.toFixed(4)} | ${c.speedup.toFixed(2)}x |`);
    lines.push('');
  }
  return lines.join('\n');
}
