/** What the map shows: overlay, product and level (SPEC §3 Settings), validated against the catalogue. */

import { signal, computed, type ReadonlySignal } from '@preact/signals-core';
import { DEFAULT_LEVEL } from '../../common/catalogue/levels.ts';
import { DEFAULT_OVERLAY, overlayByIdent, type Overlay } from '../../common/catalogue/overlays.ts';
import { PRODUCTS, type Product } from '../../common/catalogue/products.ts';

export interface LayerModel {
  readonly overlay: ReadonlySignal<string>;
  readonly product: ReadonlySignal<string>;
  readonly level: ReadonlySignal<string>;
  readonly overlayDef: ReadonlySignal<Overlay>;
  readonly productDef: ReadonlySignal<Product>;
  /** Refuses idents the catalogue does not know (returns false). */
  setOverlay(ident: string): boolean;
  setProduct(ident: string): boolean;
  setLevel(ident: string): boolean;
}

export function createLayerModel(initial: { overlay?: string; product: string; level?: string }): LayerModel {
  const overlay = signal(initial.overlay && overlayByIdent(initial.overlay) ? initial.overlay : DEFAULT_OVERLAY);
  const product = signal(PRODUCTS[initial.product] ? initial.product : 'demo');
  const level = signal(initial.level ?? DEFAULT_LEVEL);
  const productDef = computed(() => PRODUCTS[product.value]);
  return {
    overlay,
    product,
    level,
    overlayDef: computed(() => overlayByIdent(overlay.value)!),
    productDef,
    setOverlay(ident) {
      if (!overlayByIdent(ident) || !productDef.value.overlays.includes(ident)) return false;
      overlay.value = ident;
      return true;
    },
    setProduct(ident) {
      if (!PRODUCTS[ident]) return false;
      product.value = ident;
      if (!PRODUCTS[ident].levels.includes(level.value)) level.value = PRODUCTS[ident].levels[0];
      return true;
    },
    setLevel(ident) {
      if (!productDef.value.levels.includes(ident)) return false;
      level.value = ident;
      return true;
    },
  };
}
