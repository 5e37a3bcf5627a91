/** What the map shows: overlay, product and level (SPEC §3 Settings), validated against the catalogue. */

import { batch, signal, computed, type ReadonlySignal } from '@preact/signals-core';
import { availableLevels, levelFor } from '../../common/catalogue/layerRules.ts';
import { DEFAULT_LEVEL } from '../../common/catalogue/levels.ts';
import { DEFAULT_OVERLAY, isObservationOverlay, overlayByIdent, type Overlay } from '../../common/catalogue/overlays.ts';
import { PRODUCTS, type Product } from '../../common/catalogue/products.ts';

export interface LayerModel {
  readonly overlay: ReadonlySignal<string>;
  readonly product: ReadonlySignal<string>;
  readonly level: ReadonlySignal<string>;
  readonly overlayDef: ReadonlySignal<Overlay>;
  readonly productDef: ReadonlySignal<Product>;
  /** The levels the level selector offers now (SPEC §3 Levels). */
  readonly levels: ReadonlySignal<readonly string[]>;
  /** Products of files opened in the browser, by ident (not in the catalogue). */
  readonly localProducts: ReadonlySignal<Readonly<Record<string, Product>>>;
  /** Refuses idents the catalogue does not know (returns false). */
  setOverlay(ident: string): boolean;
  setProduct(ident: string): boolean;
  setLevel(ident: string): boolean;
  addLocalProduct(product: Product): void;
  removeLocalProduct(ident: string): void;
}

export function createLayerModel(initial: { overlay?: string; product: string; level?: string }): LayerModel {
  const overlay = signal(initial.overlay && overlayByIdent(initial.overlay) ? initial.overlay : DEFAULT_OVERLAY);
  const product = signal(PRODUCTS[initial.product] ? initial.product : 'demo');
  const level = signal(initial.level ?? DEFAULT_LEVEL);
  const localProducts = signal<Record<string, Product>>({});
  const find = (ident: string): Product | undefined => PRODUCTS[ident] ?? localProducts.value[ident];
  const productDef = computed(() => find(product.value) ?? PRODUCTS.demo);
  const overlayDef = computed(() => overlayByIdent(overlay.value)!);
  // SPEC §4 Levels: recomputed on product or overlay change; an unavailable one becomes the first or surface.
  const fixLevel = () => {
    level.value = levelFor(level.peek(), productDef.peek(), overlayDef.peek());
  };
  return {
    overlay,
    product,
    level,
    localProducts,
    overlayDef,
    productDef,
    levels: computed(() => availableLevels(productDef.value, overlayDef.value)),
    setOverlay(ident) {
      // Observation overlays (radar) are shown over any product (common/catalogue OBSERVATION_OVERLAYS).
      if (!overlayByIdent(ident) || !(productDef.peek().overlays.includes(ident) || isObservationOverlay(ident))) return false;
      batch(() => {
        overlay.value = ident;
        fixLevel();
      });
      return true;
    },
    setProduct(ident) {
      const def = find(ident);
      if (!def) return false;
      batch(() => {
        product.value = ident;
        // SPEC §4 product selection: changing product picks an overlay it has.
        if (!def.overlays.includes(overlay.peek()) && !isObservationOverlay(overlay.peek())) overlay.value = def.overlays[0];
        fixLevel();
      });
      return true;
    },
    addLocalProduct(def) {
      localProducts.value = { ...localProducts.value, [def.ident]: def };
    },
    removeLocalProduct(ident) {
      const { [ident]: _gone, ...rest } = localProducts.value;
      localProducts.value = rest;
    },
    setLevel(ident) {
      if (!availableLevels(productDef.peek(), overlayDef.peek()).includes(ident)) return false;
      level.value = ident;
      return true;
    },
  };
}
