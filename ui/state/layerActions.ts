/**
 * Layer choices that involve more than one model (SPEC §4 "Product selection"): choosing an
 * overlay picks a product that has it; a product that does not cover the map centre is replaced
 * by a visible one; choosing a product that does not cover the place reverts with the SPEC §8
 * message. Products are those the server has data for (dataModel.served).
 */

import { effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { productCovers, productForOverlay, visibleProducts } from '../../common/catalogue/layerRules.ts';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import type { AppState } from './appState.ts';

export interface LayerNotice {
  key: string;
  values: Record<string, string>;
  at: number;
}

const notice = signal<LayerNotice | null>(null);
/** The last product-selection message (SPEC §8), shown by the product picker. */
export const layerNotice: ReadonlySignal<LayerNotice | null> = notice;

function servedIdents(app: AppState): string[] {
  const served = app.data.served.peek().map((p) => p.ident);
  const current = app.layer.product.peek();
  return served.length ? served : PRODUCTS[current] ? [current] : [];
}

function centre(app: AppState): { lat: number; lon: number } {
  return { lat: app.map.lat.peek(), lon: app.map.lon.peek() };
}

/** Shows an overlay, switching to a product that has it where the current one does not. */
export function chooseOverlay(app: AppState, overlay: string): boolean {
  const { layer } = app;
  if (layer.setOverlay(overlay)) return true;
  if (app.data.local.peek()) return false;
  const { lat, lon } = centre(app);
  const product = productForOverlay(overlay, layer.product.peek(), app.settings.get('preferredProduct') as string, visibleProducts(servedIdents(app), lat, lon));
  if (!product) return false;
  layer.setProduct(product);
  return layer.setOverlay(overlay);
}

/** Shows a product chosen by the user; one that does not cover the map centre is refused with the SPEC §8 message. */
export function chooseProduct(app: AppState, ident: string): boolean {
  const def = PRODUCTS[ident];
  const previous = app.layer.product.peek();
  if (def && !def.sample) {
    const { lat, lon } = centre(app);
    if (!productCovers(def, lat, lon)) {
      notice.value = { key: 'product.unavailableHere', values: { model: def.modelName, prevModel: PRODUCTS[previous]?.modelName ?? previous }, at: Date.now() };
      return false;
    }
  }
  notice.value = null;
  const ok = app.layer.setProduct(ident);
  if (ok && def) app.settings.set('preferredProduct', ident);
  return ok;
}

/**
 * SPEC §4: "when visible products change and the current is not visible, use the preferred
 * product if it supports the overlay, else the first visible that does". Samples are never
 * replaced: they are shown on purpose, wherever the map is.
 */
export function startProductRules(app: AppState): () => void {
  return effect(() => {
    const lat = app.map.lat.value;
    const lon = app.map.lon.value;
    void app.data.served.value;
    const current = app.layer.product.peek();
    const def = PRODUCTS[current];
    if (!def || def.sample || app.data.local.peek()) return;
    if (productCovers(def, lat, lon)) return;
    const next = productForOverlay(app.layer.overlay.peek(), current, app.settings.signal('preferredProduct').peek() as string, visibleProducts(servedIdents(app), lat, lon));
    if (next && next !== current) app.layer.setProduct(next);
  });
}
