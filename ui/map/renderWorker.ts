/** The render worker of the page, created once: by the first boot module (boot/early.ts) or on first use. */

let started: Worker | null = null;

export function renderWorker(): Worker {
  started ??= new Worker(new URL('../../workers/render.worker.ts', import.meta.url), { type: 'module', name: 'render' });
  return started;
}
