/**
 * GRIB2 decode throughput in Node (DESIGN.md budget: a 0.25° template-5.3 field at >= 30 M
 * values/s). The inputs are the real fixtures in ../shared/data (deterministic, nothing random to
 * seed); each case is warmed up through the JIT tiers, then timed by a self-timed loop whose
 * median is reported, with a sink over the decoded values so no work can be skipped.
 *
 *   npx tsx bench/grib.ts          (after npm run build:engine)
 *
 * The ecCodes comparison in the same run is wired by bench/run.ts.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Engine } from '../engine/engine.ts';
import { decodeField, inventory, type GribFieldInfo } from '../engine/grib/index.ts';

export interface GribBenchResult {
  name: string;
  medianMs: number;
  valuesPerSecond: number;
}

const DATA = new URL('../../shared/data/', import.meta.url);

/** The cases: a file and which of its fields. The first is the budget case. */
const CASES: { name: string; path: string; field: number }[] = [
  { name: 'GRIB2 5.3 complex + spatial differencing, GFS 0.25° gh500 (1440x721)', path: 'grib2/gfs0p25_gh500_20201026T00_f024_t5.3.grib2', field: 0 },
  { name: 'GRIB2 5.2 complex, GFS 1° 10u (360x181)', path: 'grib2/gfs1p0_10uv_20190106T12_f006_t5.2-complex.grib2', field: 0 },
  { name: 'GRIB2 5.0 simple, GFS 1° 10u (360x181)', path: 'grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2', field: 0 },
  { name: 'GRIB2 5.3 + bit-map, GEFS-Aerosols 0.25° subset', path: 'samples/air-quality/gefs-chem0p25_aerosol-pm_20240309T00_f000_subset_t5.3.grib2', field: 0 },
];

const WARM_UP_RUNS = 20;
const MIN_SAMPLES = 30;
const MIN_TIME_MS = 1500;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface GribBenchOptions {
  /** The engine module; defaults to engine/build/release.wasm. */
  wasm?: URL;
  /** Minimum timed milliseconds per case. */
  minTimeMs?: number;
}

/**
 * Median decode time per case. Returns [] (with a warning) when ../shared/data is absent, so a
 * checkout without the fixtures can still run the other benchmarks.
 */
export async function runGribBench(options: GribBenchOptions = {}): Promise<GribBenchResult[]> {
  if (!existsSync(fileURLToPath(DATA))) {
    console.warn(`[bench/grib] ${fileURLToPath(DATA)} is absent: GRIB2 decode not measured`);
    return [];
  }
  const wasm = options.wasm ?? new URL('../engine/build/release.wasm', import.meta.url);
  const engine = await Engine.create(await WebAssembly.compile(await readFile(wasm)));
  const results: GribBenchResult[] = [];
  let sink = 0;
  for (const c of CASES) {
    const bytes = new Uint8Array(await readFile(new URL(c.path, DATA)));
    const info: GribFieldInfo = inventory(bytes)[c.field];
    const run = async () => {
      const values = await decodeField(engine, bytes, info);
      sink += values[0] + values[values.length >> 1];
    };
    for (let i = 0; i < WARM_UP_RUNS; i++) await run();
    const samples: number[] = [];
    const started = performance.now();
    while (samples.length < MIN_SAMPLES || performance.now() - started < (options.minTimeMs ?? MIN_TIME_MS)) {
      const t0 = performance.now();
      await run();
      samples.push(performance.now() - t0);
    }
    const medianMs = median(samples);
    results.push({ name: c.name, medianMs, valuesPerSecond: info.numberOfValues / (medianMs / 1000) });
  }
  if (!Number.isFinite(sink)) throw new Error(`GRIB bench sink is ${sink}: a case decoded no numbers`);
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await runGribBench()) {
    console.log(`${r.name}: ${r.medianMs.toFixed(2)} ms median, ${(r.valuesPerSecond / 1e6).toFixed(1)} M values/s`);
  }
}
