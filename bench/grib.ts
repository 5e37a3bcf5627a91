/**
 * GRIB2 decode throughput in Node (DESIGN.md budget: a 0.25° template-5.3 field at >= 30 M
 * values/s; issue 3 also asks for the JPEG 2000, PNG and CCSDS codecs' rates). The inputs are the
 * real fixtures in ../shared/data (deterministic, nothing random to seed); each case is warmed up
 * through the JIT tiers, then timed by a self-timed loop whose median is reported, with a sink over
 * the decoded values so no work can be skipped. One decode is decodeField() as the ingest calls it:
 * locate and parse the message, unpack, scale, allocate the Float32Array it returns.
 *
 *   npx tsx bench/grib.ts          (after npm run build:engine)
 *
 * The ecCodes baseline of the same run (bench/eccodes.ts) is wired by bench/run.ts.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Engine } from '../engine/engine.ts';
import { decodeField, inventory, type GribFieldInfo } from '../engine/grib/index.ts';
import { median } from './stats.ts';

export interface GribBenchResult {
  name: string;
  /** Data representation template, '5.3'. */
  template: string;
  /** Absolute path of the fixture and the 0-based index of the message decoded (the ecCodes baseline reads the same). */
  path: string;
  message: number;
  /** The DESIGN.md budget case (0.25° template 5.3). */
  budget: boolean;
  numberOfValues: number;
  medianMs: number;
  samples: number;
  valuesPerSecond: number;
}

const DATA = new URL('../../shared/data/', import.meta.url);

/** The cases: a file and which of its fields. The first is the budget case. */
const CASES: { name: string; path: string; field: number }[] = [
  { name: 'GRIB2 5.3 complex + spatial differencing, GFS 0.25° gh500 (1440x721)', path: 'grib2/gfs0p25_gh500_20201026T00_f024_t5.3.grib2', field: 0 },
  { name: 'GRIB2 5.40 JPEG 2000, GFS 0.25° gh500 (1440x721)', path: 'grib2/gfs0p25_gh500_20220210T00_f024_t5.40-jpeg2000.grib2', field: 0 },
  { name: 'GRIB2 5.41 PNG, GFS 0.25° gh500 (1440x721)', path: 'grib2/gfs0p25_gh500_20220210T00_f024_t5.41-png.grib2', field: 0 },
  { name: 'GRIB2 5.42 CCSDS, ECMWF IFS 0.25° tprate (1440x721)', path: 'grib2/ecmwf-ifs0p25_tprate_20250912T12_f000_t5.42-ccsds.grib2', field: 0 },
  { name: 'GRIB2 5.2 complex, GFS 1° 10u (360x181)', path: 'grib2/gfs1p0_10uv_20190106T12_f006_t5.2-complex.grib2', field: 0 },
  { name: 'GRIB2 5.0 simple, GFS 1° 10u (360x181)', path: 'grib2/gfs1p0_10uv_20190106T12_f006_t5.0-simple.grib2', field: 0 },
  { name: 'GRIB2 5.3 + bit-map, GEFS-Aerosols 0.25° subset', path: 'samples/air-quality/gefs-chem0p25_aerosol-pm_20240309T00_f000_subset_t5.3.grib2', field: 0 },
];

// Warm-up: WARM_UP_RUNS decodes or WARM_UP_MS, whichever ends first (a JPEG 2000 field takes far
// longer than a 1° field). Timing: at least minTimeMs; then on to MIN_SAMPLES samples unless that
// would take more than MAX_TIME_FACTOR x minTimeMs; never under FEWEST_SAMPLES.
const WARM_UP_RUNS = 20;
const WARM_UP_MS = 500;
const MIN_SAMPLES = 30;
const FEWEST_SAMPLES = 5;
const MAX_TIME_FACTOR = 3;
const MIN_TIME_MS = 1000;

export interface GribBenchOptions {
  /** The engine module; defaults to engine/build/release.wasm. */
  wasm?: URL;
  /** Minimum timed milliseconds per case. */
  minTimeMs?: number;
  /**
   * Called after each case, before the next: bench/run.ts times ecCodes on the same message there,
   * so both figures of a ratio come from the same few seconds of a machine whose load drifts.
   */
  afterCase?: (result: GribBenchResult) => Promise<void>;
  /** Only the cases whose data representation template is listed ('5.40'); all when absent. */
  templates?: readonly string[];
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
    if (options.templates && !options.templates.includes(`5.${info.dataTemplate}`)) continue;
    const run = async () => {
      const values = await decodeField(engine, bytes, info);
      sink += values[0] + values[values.length >> 1];
    };
    const warmStarted = performance.now();
    for (let i = 0; i < WARM_UP_RUNS && performance.now() - warmStarted < WARM_UP_MS; i++) await run();
    const minTimeMs = options.minTimeMs ?? MIN_TIME_MS;
    const samples: number[] = [];
    const started = performance.now();
    for (;;) {
      const elapsed = performance.now() - started;
      const enough = elapsed >= minTimeMs && samples.length >= FEWEST_SAMPLES
        && (samples.length >= MIN_SAMPLES || elapsed >= MAX_TIME_FACTOR * minTimeMs);
      if (enough) break;
      const t0 = performance.now();
      await run();
      samples.push(performance.now() - t0);
    }
    const medianMs = median(samples);
    results.push({
      name: c.name,
      template: `5.${info.dataTemplate}`,
      path: fileURLToPath(new URL(c.path, DATA)),
      message: info.message,
      budget: c === CASES[0],
      numberOfValues: info.numberOfValues,
      medianMs,
      samples: samples.length,
      valuesPerSecond: info.numberOfValues / (medianMs / 1000),
    });
    await options.afterCase?.(results[results.length - 1]);
  }
  if (!Number.isFinite(sink)) throw new Error(`GRIB bench sink is ${sink}: a case decoded no numbers`);
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await runGribBench()) {
    console.log(`${r.name}: ${r.medianMs.toFixed(2)} ms median, ${(r.valuesPerSecond / 1e6).toFixed(1)} M values/s`);
  }
}
