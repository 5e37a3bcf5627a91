/**
 * Keeps the settings store and the map's models in step (SPEC §3 Settings, §4 "Startup overlay,
 * last product and last step are remembered only for subscribers", §9 "Session counter
 * incremented each load"): the shown overlay, level and product are saved as they change; a
 * subscriber whose URL names none gets the saved ones back at start-up.
 */

import { effect } from '@preact/signals-core';
import { PRODUCTS } from '../../common/catalogue/products.ts';
import type { AppState } from '../state/appState.ts';

export function startSettingsSync(app: AppState): () => void {
  const { settings, layer, initialUrl } = app;
  settings.set('sessionCounter', (settings.get('sessionCounter') as number) + 1);
  if (settings.get('subscription') === 'premium') {
    const overlay = (settings.get('startUpOverlay') as string | null) ?? (settings.get('overlay') as string);
    const product = (settings.get('startUpLastProduct') as string | null) ?? (settings.get('product') as string);
    if (!initialUrl.overlay) layer.setOverlay(overlay);
    if (!initialUrl.product && !app.data.local.peek()) layer.setProduct(product);
  }
  const stops = [
    effect(() => {
      settings.set('overlay', layer.overlay.value);
    }),
    effect(() => {
      settings.set('level', layer.level.value);
    }),
    effect(() => {
      // Files opened in the browser are not catalogue products: never saved (the product of a file
      // may change a moment before the data model says it is local).
      const product = layer.product.value;
      if (!app.data.local.value && Object.prototype.hasOwnProperty.call(PRODUCTS, product)) settings.set('product', product);
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
