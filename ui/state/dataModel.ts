/**
 * Which run the map shows: fetches the product's minifest (SPEC §3, cached 10 min per SPEC §9),
 * picks the first available product in order of preference at start-up, and keeps the timeline's
 * calendar up to date.
 */

import { batch, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { PREFERRED_PRODUCTS, PRODUCTS, type Product } from '../../common/catalogue/products.ts';
import {
  MINIFEST_ANSWER, minifestPath, PRODUCTS_LIST, PRODUCTS_PATH, SERVED_PRODUCT_ENTRY, type ServedProduct as ServedAnswer,
} from '../../common/api/products.ts';
import { fits } from '../../common/api/schema.ts';
import { parseMinifest, type Calendar } from '../../common/minifest.ts';
import { fetchAnswer } from '../http/fetchAnswer.ts';
import type { LayerModel } from './layerModel.ts';
import type { TimelineModel } from './timelineModel.ts';
import { MINUTE_MS } from '../../common/time.ts';

// SPEC §9: minifest cached 10 min.
const MINIFEST_REFRESH_MS = 10 * MINUTE_MS;

export type DataStatus = 'loading' | 'ready' | 'error';

/** A product the server has data for (GET /metadata/v1.0/products.json, common/api/products.ts): what the map keeps of it. */
export type ServedProduct = Pick<ServedAnswer, 'ident' | 'ref' | 'demo' | 'sample'>;

export interface DataModel {
  readonly status: ReadonlySignal<DataStatus>;
  readonly error: ReadonlySignal<string | null>;
  /** True when the shown product is generated demo data. */
  readonly demo: ReadonlySignal<boolean>;
  /** Chooses the first product in `candidates` that the server has, then loads its calendar. */
  start(candidates: string[]): Promise<void>;
  reload(): Promise<void>;
  /**
   * Reads the served products again (a run of a live source arrived). When the demo product shows
   * because nothing real was served at start-up, `pick` chooses the real product to show instead
   * (SPEC §4 product selection); the product shown otherwise has its calendar read again.
   */
  refreshServed(pick: (served: readonly ServedProduct[]) => string | null): Promise<void>;
  /** Shows a file opened in the browser as its own product, with its own calendar. */
  showLocal(local: { product: Product; refTime: number; timestamps: number[]; overlays: string[] }): void;
  /** Back to the product shown before the file; returns the file's product ident, if one was shown. */
  closeLocal(): string | null;
  /** The opened file's product while it is shown. */
  readonly local: ReadonlySignal<Product | null>;
  /** The catalogue products the server has data for, in catalogue order (the product picker's list). */
  readonly served: ReadonlySignal<readonly ServedProduct[]>;
  /** The product chosen at start-up by preference; any other shown product goes into the URL. */
  readonly startProduct: ReadonlySignal<string | null>;
  /**
   * The product whose calendar the timeline holds. It lags the layer's product while a new
   * calendar loads; the map waits for them to agree so that it never asks one product for
   * another's steps.
   */
  readonly calendarProduct: ReadonlySignal<string | null>;
  dispose(): void;
}

async function fetchCalendar(directory: string, signal?: AbortSignal): Promise<Calendar> {
  return parseMinifest(await fetchAnswer(MINIFEST_ANSWER, minifestPath(directory), { signal }));
}

/**
 * The served products the catalogue knows, with the calendar of each readable minifest the list
 * carries; null when the answer cannot be read (the picker then shows the current product only).
 */
async function fetchServed(cache?: RequestCache): Promise<{ products: ServedProduct[]; calendars: Map<string, Calendar> } | null> {
  try {
    const answer = await fetchAnswer(PRODUCTS_LIST, PRODUCTS_PATH, cache ? { cache } : {});
    const products: ServedProduct[] = [];
    const calendars = new Map<string, Calendar>();
    for (const entry of answer.products) {
      if (!fits(SERVED_PRODUCT_ENTRY, entry)) continue;
      const { ident, ref, demo, sample, minifest } = entry;
      // A product of a newer catalogue than this page's is not offered.
      if (!Object.prototype.hasOwnProperty.call(PRODUCTS, ident)) continue;
      products.push({ ident, ref, ...(demo === true ? { demo } : {}), ...(sample === true ? { sample } : {}) });
      try {
        calendars.set(ident, parseMinifest(minifest));
      } catch {
        // Listed with a minifest whose steps cannot be read: start-up asks the product's own address instead.
      }
    }
    return { products, calendars };
  } catch {
    return null;
  }
}

/** Asks for each product's minifest at once: the first in order that answers wins, else the first one's error. */
async function firstAnswering(order: string[]): Promise<{ ident: string; calendar: Calendar } | { error: string }> {
  const results = await Promise.allSettled(order.map((p) => fetchCalendar(PRODUCTS[p].directory)));
  const index = results.findIndex((r) => r.status === 'fulfilled');
  if (index >= 0) return { ident: order[index], calendar: (results[index] as PromiseFulfilledResult<Calendar>).value };
  const first = results[0];
  return { error: first?.status === 'rejected' ? String((first.reason as Error).message) : 'No product available' };
}

export function createDataModel(layer: LayerModel, timeline: TimelineModel): DataModel {
  const status = signal<DataStatus>('loading');
  const error = signal<string | null>(null);
  const demo = signal(false);
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopEffect: (() => void) | null = null;
  let loaded = '';
  const local = signal<Product | null>(null);
  const served = signal<readonly ServedProduct[]>([]);
  const startProduct = signal<string | null>(null);
  const calendarProduct = signal<string | null>(null);
  const localCalendars = new Map<string, Calendar>();
  let beforeLocal: string | null = null;

  /**
   * Shows a calendar. A sample or a file from another day starts at its first step rather than at
   * the step nearest to now, unless the time shown is already inside it.
   */
  const enterCalendar = (ident: string, calendar: Calendar, ownDates: boolean) => {
    const shown = timeline.timestamp.peek();
    const outside = (t: number) => t < calendar.start || t > calendar.end;
    batch(() => {
      timeline.setCalendar(calendar);
      if (ownDates && outside(shown) && outside(Date.now())) timeline.setTimestamp(calendar.start);
      calendarProduct.value = ident;
    });
  };

  const load = async (ident: string) => {
    const calendar = localCalendars.get(ident);
    if (calendar) {
      enterCalendar(ident, calendar, true);
      demo.value = false;
      error.value = null;
      status.value = 'ready';
      loaded = ident;
      return;
    }
    const product = PRODUCTS[ident];
    if (!product) return;
    status.value = 'loading';
    try {
      const calendar = await fetchCalendar(product.directory);
      if (layer.product.value !== ident) return;
      enterCalendar(ident, calendar, !!product.sample);
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
    local,
    served,
    startProduct,
    calendarProduct,
    showLocal({ product, refTime, timestamps, overlays }) {
      const previous = local.value;
      localCalendars.set(product.ident, { refTime, timestamps, start: timestamps[0], end: timestamps[timestamps.length - 1] });
      layer.addLocalProduct(product);
      if (!previous) beforeLocal = layer.product.peek();
      layer.setProduct(product.ident);
      layer.setOverlay(overlays[0]);
      local.value = product;
      if (previous) {
        localCalendars.delete(previous.ident);
        layer.removeLocalProduct(previous.ident);
      }
    },
    closeLocal() {
      const shown = local.value;
      if (!shown) return null;
      local.value = null;
      layer.setProduct(beforeLocal ?? 'demo');
      localCalendars.delete(shown.ident);
      layer.removeLocalProduct(shown.ident);
      return shown.ident;
    },
    async start(candidates) {
      const order = [...new Set([...candidates, ...PREFERRED_PRODUCTS, 'demo'])].filter((p) => PRODUCTS[p]);
      // The product list carries each served product's minifest: one request picks the first
      // product in order of preference that the server has. Without a readable list, every
      // candidate's own minifest is asked for at once and the first in order that answers wins.
      const list = await fetchServed();
      served.value = list?.products ?? [];
      const listed = list ? order.filter((p) => list.products.some((s) => s.ident === p)) : order;
      const inline = listed.find((p) => list?.calendars.has(p));
      const choice = inline ? { ident: inline, calendar: list!.calendars.get(inline)! } : await firstAnswering(listed);
      if ('error' in choice) {
        error.value = choice.error;
        status.value = 'error';
        return;
      }
      const { ident, calendar } = choice;
      layer.setProduct(ident);
      startProduct.value = ident;
      enterCalendar(ident, calendar, !!PRODUCTS[ident].sample);
      demo.value = !!PRODUCTS[ident].demo;
      status.value = 'ready';
      loaded = ident;
      stopEffect = effect(() => {
        const p = layer.product.value;
        if (p !== loaded) void load(p);
      });
      timer = setInterval(() => {
        if (!localCalendars.has(layer.product.value)) void load(layer.product.value);
      }, MINIFEST_REFRESH_MS);
    },
    reload: () => load(layer.product.value),
    async refreshServed(pick) {
      // Asked because the server said something changed: the browser's copy (max-age 60 s) may be
      // the list from before, so it is checked with the server.
      const list = await fetchServed('no-cache');
      if (!list) return;
      served.value = list.products;
      const shown = layer.product.peek();
      if (shown === 'demo' && startProduct.peek() === 'demo') {
        const next = pick(list.products.filter((p) => !p.demo && !p.sample));
        if (next) {
          // The start-up choice, made again now that something real is served: it stays out of the URL.
          startProduct.value = next;
          layer.setProduct(next);
        }
        return;
      }
      if (!localCalendars.has(shown) && list.products.some((p) => p.ident === shown)) await load(shown);
    },
    dispose() {
      if (timer) clearInterval(timer);
      stopEffect?.();
    },
  };
}
