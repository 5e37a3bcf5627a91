/** Runs the engine kernel benchmarks in a dedicated worker and exposes the results to the harness. */
import type { BrowserKernelReport } from './worker.ts';

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
worker.onmessage = (e: MessageEvent<BrowserKernelReport>) => {
  Object.assign(window, { benchResults: e.data });
  document.getElementById('out')!.textContent = JSON.stringify(e.data, null, 2);
};
worker.onerror = (e) => Object.assign(window, { benchResults: { error: e.message } });
worker.postMessage('run');
