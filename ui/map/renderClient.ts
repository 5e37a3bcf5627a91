/**
 * The one place the UI reaches the render worker from outside the map view: events, readiness,
 * stats for /debug and tests. Holds no state of its own beyond the current proxy.
 */

import { signal } from '@preact/signals-react';
import type { Remote } from 'comlink';
import type { InitResult, RenderApi, RenderEvent } from '../../workers/api.ts';

type Listener = (event: RenderEvent) => void;

const listeners = new Set<Listener>();
let current: Remote<RenderApi> | null = null;

export const renderInfo = signal<InitResult | null>(null);
export const renderError = signal<string | null>(null);

export const renderClient = {
  emit(event: RenderEvent) {
    if (event.type === 'firstParticles') performance.mark('isobar:first-particles');
    listeners.forEach((l) => l(event));
  },
  ready(info: InitResult, api: Remote<RenderApi>) {
    current = api;
    renderInfo.value = info;
    renderError.value = null;
  },
  failed(error: Error) {
    renderError.value = error.message;
  },
  detach(api: Remote<RenderApi>) {
    if (current === api) current = null;
  },
  on(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The worker's API while the map is mounted. */
  api(): Remote<RenderApi> | null {
    return current;
  },
};
