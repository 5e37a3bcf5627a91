/**
 * Runs the engine kernel benchmarks (bench/kernels.ts) in Node with the `benchmark` package and
 * prints medians and ratios. `npx tsx bench/node-kernels.ts` (after `npm run build:engine`);
 * `--self-timed` uses the browser's plain timing loop instead, to compare the two harnesses.
 */

import Benchmark from 'benchmark';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { Engine } from '../engine/engine.ts';
import { createKernelSuites, formatResults, runSelfTimed, withSpeedups, type BenchSuite, type SuiteResult } from './kernels.ts';
import { median } from './stats.ts';

export interface NodeKernelOptions {
  /** The engine module; defaults to engine/build/release.wasm. */
  wasm?: URL;
  /** Benchmark.js budget per case (seconds) and its minimum number of samples. */
  maxTime?: number;
  minSamples?: number;
  selfTimed?: boolean;
}

export interface NodeKernelReport {
  runtime: string;
  harness: 'benchmark.js' | 'self-timed';
  results: SuiteResult[];
  /** The benchmark sink (finite when every case did its work). */
  sink: number;
}

/** Each case through Benchmark.js; its per-cycle samples (seconds per op) give the median. */
function runBenchmarkSuite(suite: BenchSuite, maxTime: number, minSamples: number): SuiteResult {
  const timings = suite.cases.map((c) => {
    const bench = new Benchmark(c.name, c.run, { maxTime, minSamples });
    bench.run({ async: false });
    if (bench.error) throw bench.error;
    return {
      name: c.name,
      medianMs: median(bench.stats.sample) * 1000,
      samples: bench.stats.sample.length,
      opsPerSample: bench.count,
    };
  });
  return withSpeedups(suite, timings);
}

export async function runNodeKernelBenches(options: NodeKernelOptions = {}): Promise<NodeKernelReport> {
  const wasm = options.wasm ?? new URL('../engine/build/release.wasm', import.meta.url);
  const engine = await Engine.create(await WebAssembly.compile(await readFile(wasm)));
  const setup = createKernelSuites(engine);
  try {
    // Warm-up: every case through the JIT tiers before anything is timed.
    for (const suite of setup.suites) for (const c of suite.cases) for (let i = 0; i < 50; i++) c.run();
    const results = options.selfTimed
      ? runSelfTimed(setup.suites, { now: () => performance.now() })
      : setup.suites.map((suite) => runBenchmarkSuite(suite, options.maxTime ?? 2, options.minSamples ?? 40));
    return {
      runtime: `Node ${process.versions.node} (V8 ${process.versions.v8})`,
      harness: options.selfTimed ? 'self-timed' : 'benchmark.js',
      results,
      sink: setup.sink(),
    };
  } finally {
    setup.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runNodeKernelBenches({ selfTimed: process.argv.includes('--self-timed') });
  console.log(`## Engine kernels, ${report.runtime}, ${report.harness}\n`);
  console.log(formatResults(report.results));
  if (!Number.isFinite(report.sink)) throw new Error(`Benchmark sink is ${report.sink}: a case produced no numbers`);
}
