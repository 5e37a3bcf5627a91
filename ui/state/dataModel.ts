/**
 * Which run the map shows: fetches the product's minifest (SPEC §3, cached 10 min per SPEC §9),
 * picks the first available product in order of preference at start-up, and keeps the timeline's
 * calendar up to date.
 */

import { effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { PREFERRED_PRODUCTS, PRODUCTS } from '../../common/catalogue/products.ts';
import { minifestPath, parseMinifest, type Calendar } from '../../common/minifest.ts';
import type { LayerModel } from './layerModel.ts';
import type { TimelineModel } from './timelineModel.ts';

// SPEC §9: minifest cached 10 min.
export const MINIFEST_REFRESH_MS = 10 * 60_000;

export type DataStatus = 'loading' | 'ready' | 'error';

export interface DataModel {
  readonly status: ReadonlySignal<DataStatus>;
  readonly error: ReadonlySignal<string | null>;
  /** True when the shown product is generated demo data. */
  readonly demo: ReadonlySignal<boolean>;
  /** Chooses the first product in `candidates` that the server has, then loads its calendar. */
  start(candidates: string[]): Promise<void>;
  reload(): Promise<void>;
  dispose(): void;
}

async function fetchCalendar(directory: string, signal?: AbortSignal): Promise<Calendar> {
  const response = await fetch(minifestPath(directory), { signal, headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`Request failed for URL ${minifestPath(directory)}: HTTP ${response.status}`);
  return parseMinifest(await response.json());
}

export function createDataModel(layer: LayerModel, timeline: TimelineModel): DataModel {
  const status = signal<DataStatus>('loading');
  const error = signal<string | null>(null);
  const demo = signal(false);
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopEffect: (() => void) | null = null;
  let loaded = '';

  const load = async (ident: string) => {
    const product = PRODUCTS[ident];
    status.value = 'loading';
    try {
      const calendar = await fetchCalendar(product.directory);
      if (layer.product.value !== ident) return;
      timeline.setCalendar(calendar);
      demo.value = !!product.demo;
      error.value = null;
      status.value = 'ready';
      loaded = ident;
    } catch (e) {
      error.value = (e as Error).message;
      status.value = 'error';
    }
  };

  return {
    status,
    error,
    demo,
    async start(candidates) {
      const order = [...new Set([...candidates, ...PREFERRED_PRODUCTS, 'demo'])].filter((p) => PRODUCTS[p]);
      // Ask for every candidate at once; the first in order of preference that answers wins.
      const results = await Promise.allSettled(order.map((p) => fetchCalendar(PRODUCTS[p].directory)));
      const index = results.findIndex((r) => r.status === 'fulfilled');
      if (index < 0) {
        error.value = results[0].status === 'rejected' ? String((results[0].reason as Error).message) : 'No product available';
        status.value = 'error';
        return;
      }
      const ident = order[index];
      layer.setProduct(ident);
      timeline.setCalendar((results[index] as PromiseFulfilledResult<Calendar>).value);
      demo.value = !!PRODUCTS[ident].demo;
      status.value = 'ready';
      loaded = ident;
      stopEffect = effect(() => {
        const p = layer.product.value;
        if (p !== loaded) void load(p);
      });
      timer = setInterval(() => void load(layer.product.value), MINIFEST_REFRESH_MS);
    },
    reload: () => load(layer.product.value),
    dispose() {
      if (timer) clearInterval(timer);
      stopEffect?.();
    },
  };
}
