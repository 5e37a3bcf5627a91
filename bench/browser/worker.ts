/**
 * The kernel benchmarks (bench/kernels.ts) inside a Chromium dedicated worker, the place the render
 * worker runs them: the same WASM, the self-timed loop, performance.now at full precision when the
 * page is cross-origin isolated.
 */
import wasmUrl from '../../engine/build/release.wasm?url';
import { Engine } from '../../engine/engine.ts';
import { createKernelSuites, runSelfTimed, type SuiteResult } from '../kernels.ts';

export interface BrowserKernelReport {
  userAgent: string;
  crossOriginIsolated: boolean;
  results: SuiteResult[];
  sink: number;
}

self.onmessage = async () => {
  const engine = await Engine.create(await WebAssembly.compileStreaming(fetch(wasmUrl)));
  const setup = createKernelSuites(engine);
  const results = runSelfTimed(setup.suites, { now: () => performance.now(), samples: 41 });
  const report: BrowserKernelReport = { userAgent: navigator.userAgent, crossOriginIsolated: self.crossOriginIsolated, results, sink: setup.sink() };
  setup.dispose();
  postMessage(report);
};
