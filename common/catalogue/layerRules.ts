/**
 * The rules between overlays, levels and products (SPEC §3 "Levels", §4 "Product selection" and
 * "Levels"), as pure functions over the catalogue.
 */

import { LEVEL_IDENTS } from './levels.ts';
import { colorLayerOf, OVERLAY_IDENTS, type Overlay } from './overlays.ts';
import { PRODUCTS, type Product } from './products.ts';

/**
 * The levels the level selector offers for an overlay of a product: the colour layer's levels the
 * product has, in catalogue order; "Non-wind overlays without more-levels show only the first level".
 */
export function availableLevels(product: Product, overlay: Overlay): string[] {
  const layer = colorLayerOf(overlay);
  const levels = LEVEL_IDENTS.filter((l) => layer.levels.includes(l) && product.levels.includes(l));
  if (!overlay.moreLevels && overlay.ident !== 'wind') return levels.slice(0, 1);
  return levels;
}

/** SPEC §4 Levels: "if current is unavailable, first or surface". */
export function levelFor(current: string, product: Product, overlay: Overlay): string {
  const levels = availableLevels(product, overlay);
  if (levels.includes(current)) return current;
  return levels[0] ?? 'surface';
}

/** Whether a product covers a place (bounds null: global; boxes are [west, south, east, north]). */
export function productCovers(product: Product, lat: number, lon: number): boolean {
  if (!product.bounds) return true;
  const x = ((((lon + 180) % 360) + 360) % 360) - 180;
  return product.bounds.some(([w, s, e, n]) => lat >= s && lat <= n && (w <= e ? x >= w && x <= e : x >= w || x <= e));
}

/** The products of a list that cover a place. */
export function visibleProducts(idents: readonly string[], lat: number, lon: number): string[] {
  return idents.filter((i) => PRODUCTS[i] && productCovers(PRODUCTS[i], lat, lon));
}

/**
 * SPEC §4 Product selection, for an overlay: the current product when it has the overlay and is
 * visible, else the preferred product if visible and it has the overlay, else the first visible
 * product that does; null when none does.
 */
export function productForOverlay(overlay: string, current: string, preferred: string, visible: readonly string[]): string | null {
  const has = (ident: string) => !!PRODUCTS[ident]?.overlays.includes(overlay) && visible.includes(ident);
  if (has(current)) return current;
  if (has(preferred)) return preferred;
  return visible.find(has) ?? null;
}

/** Every overlay that at least one of these products has, in catalogue order. */
export function overlaysOf(idents: readonly string[]): string[] {
  const set = new Set(idents.flatMap((i) => PRODUCTS[i]?.overlays ?? []));
  return OVERLAY_IDENTS.filter((o) => set.has(o));
}

/**
 * Whether the map draws the product's run under an overlay that is not the product's own: the
 * warnings (capAlerts) show alone over the base map; the storms (hurricanes) over the product's
 * wind, where it has wind. Radar and satellite draw their own frames instead (never the run).
 */
export function drawsProductRun(overlay: Overlay, product: Product): boolean {
  if (overlay.ident === 'capAlerts') return false;
  if (overlay.ident === 'hurricanes') return product.overlays.includes('wind');
  return true;
}
