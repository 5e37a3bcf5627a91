/**
 * The render worker of the page. It starts with the page, before React renders, so the engine
 * compiles and the first tiles load while the UI starts; the map view attaches its canvas to it.
 * Events from the worker fan out from here.
 */

import { signal } from '@preact/signals-core';
import { proxy, wrap, type Remote } from 'comlink';
import type { BasemapPlace, InitResult, IsolineLabelPlace, IsolineMarker, RenderApi, RenderEvent } from '../../workers/api.ts';
import { renderWorker } from './renderWorker.ts';

type Listener = (event: RenderEvent) => void;

const listeners = new Set<Listener>();
let remote: Remote<RenderApi> | null = null;

const renderInfo = signal<InitResult | null>(null);
export const renderError = signal<string | null>(null);
/** The isolines' label places and markers the worker sent last (the labels' layer may start later). */
export const isolineLabels = signal<{ labels: IsolineLabelPlace[]; markers: IsolineMarker[] }>({ labels: [], markers: [] });
/** The tile base map's place names the worker sent last. */
export const basemapPlaces = signal<BasemapPlace[]>([]);

function emit(event: RenderEvent): void {
  // The worker draws to its OffscreenCanvas without this thread: the particles are on screen at
  // the worker's time, however late a busy main thread reads the message.
  if (event.type === 'isolineLabels') isolineLabels.value = { labels: event.labels, markers: event.markers };
  if (event.type === 'basemapPlaces') basemapPlaces.value = event.places;
  if (event.type === 'firstParticles') performance.mark('isobar:first-particles', { startTime: Math.max(0, event.at - performance.timeOrigin) });
  listeners.forEach((l) => l(event));
}

export const renderClient = {
  /** The worker's API (the worker starts with boot/early.ts, or here on first use). */
  api(): Remote<RenderApi> {
    if (!remote) {
      remote = wrap<RenderApi>(renderWorker());
      void remote.listen(proxy(emit));
    }
    return remote;
  },
  ready(info: InitResult) {
    renderInfo.value = info;
    renderError.value = null;
  },
  failed(error: Error) {
    renderError.value = error.message;
  },
  on(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
