/**
 * Layer choices that involve more than one model (SPEC §4 "Product selection"): choosing an
 * overlay picks a product that has it; a product that does not cover the map centre is replaced
 * by a visible one; choosing a product that does not cover the place reverts with the SPEC §8
 * message. Products are those the server has data for (dataModel.served).
 *
 * An overlay that no served product covers at the map centre (PM2.5 over Europe, where only an
 * aerosol sample of Africa has it) is not chosen silently: the overlay menu says why (SPEC §8
 * "Data not available for this location") and offers the product nearest the centre that has it,
 * which moves the map into its area.
 */

import { batch, effect, signal, type ReadonlySignal } from '@preact/signals-core';
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

/** An overlay no product has here, and the nearest product that has it, with where the map goes for it. */
export interface OverlayOffer {
  overlay: string;
  product: string;
  lat: number;
  lon: number;
}

const offer = signal<OverlayOffer | null>(null);
/** The last overlay choice that no product covers at the map centre, with the nearest product that has it. */
export const overlayOffer: ReadonlySignal<OverlayOffer | null> = offer;

/** Share of a product's box kept clear at its edges when the map moves into it: the view then shows its data. */
const OFFER_INSET = 0.25;

/**
 * The product of `idents` with the overlay whose area is nearest a place (distance on the sphere to
 * the nearest point of its boxes), and the point the map moves to for it: the nearest point of its
 * box inset by a quarter on each side. Null when none of them has the overlay.
 */
export function nearestProductWith(overlay: string, idents: readonly string[], lat: number, lon: number): { product: string; lat: number; lon: number } | null {
  let best: { product: string; lat: number; lon: number; km: number } | null = null;
  for (const ident of idents) {
    const def = PRODUCTS[ident];
    if (!def?.overlays.includes(overlay)) continue;
    const boxes = def.bounds ?? [[-180, -90, 180, 90] as const];
    for (const [w, s, e, n] of boxes) {
      const east = e >= w ? e : e + 360;
      const dw = (east - w) * OFFER_INSET;
      const dh = (n - s) * OFFER_INSET;
      // The place's longitude in the box's turn of the world nearest it.
      const mid = (w + east) / 2;
      const x = lon + Math.round((mid - lon) / 360) * 360;
      const to = { lat: Math.min(n - dh, Math.max(s + dh, lat)), lon: Math.min(east - dw, Math.max(w + dw, x)) };
      const km = greatCircleKm(lat, x, to.lat, to.lon);
      if (!best || km < best.km) best = { product: ident, lat: to.lat, lon: ((((to.lon + 180) % 360) + 360) % 360) - 180, km };
    }
  }
  return best && { product: best.product, lat: best.lat, lon: best.lon };
}

const EARTH_RADIUS_KM = 6371;

function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Shows an overlay, switching to a product that has it where the current one does not. Where no
 * served product covers the map centre with it, nothing changes and the offer of the nearest one
 * is made (overlayOffer); returns whether the overlay is shown.
 */
export function chooseOverlay(app: AppState, overlay: string): boolean {
  const { layer } = app;
  offer.value = null;
  if (layer.setOverlay(overlay)) return true;
  if (app.data.local.peek()) return false;
  const { lat, lon } = centre(app);
  const served = servedIdents(app);
  const product = productForOverlay(overlay, layer.product.peek(), app.settings.get('preferredProduct') as string, visibleProducts(served, lat, lon));
  if (!product) {
    const nearest = nearestProductWith(overlay, served, lat, lon);
    offer.value = nearest && { overlay, ...nearest };
    return false;
  }
  layer.setProduct(product);
  return layer.setOverlay(overlay);
}

/** Takes the offer: the map moves into the product's area, which then shows the overlay. */
export function acceptOverlayOffer(app: AppState): boolean {
  const taken = offer.peek();
  offer.value = null;
  if (!taken) return false;
  batch(() => {
    app.map.moveTo({ lat: taken.lat, lon: taken.lon });
    app.layer.setProduct(taken.product);
  });
  return app.layer.setOverlay(taken.overlay);
}

export function dismissOverlayOffer(): void {
  offer.value = null;
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
