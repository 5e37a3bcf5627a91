/**
 * Which served products a model sounding can be drawn from at a place: those with pressure levels
 * (common/catalogue/products.ts `levels`) whose area holds the place. The map's product comes first
 * where it is one of them, so the sounding shows the model the map shows.
 */

import { LEVELS } from '../../../common/catalogue/levels.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';

const PRESSURE_LEVELS = new Set(LEVELS.filter((l) => l.hPa !== undefined).map((l) => l.ident));

const covers = (bounds: readonly (readonly [number, number, number, number])[] | null, lat: number, lon: number) => {
  if (!bounds) return true;
  const x = ((lon + 540) % 360) - 180;
  return bounds.some(([w, s, e, n]) => lat >= s && lat <= n && x >= w && x <= e);
};

export function soundingProducts(served: readonly string[], mapProduct: string | null, lat: number, lon: number): string[] {
  const usable = served.filter((ident) => {
    const product = PRODUCTS[ident];
    return !!product && !product.demo && product.levels.some((l) => PRESSURE_LEVELS.has(l)) && covers(product.bounds, lat, lon);
  });
  return mapProduct && usable.includes(mapProduct) ? [mapProduct, ...usable.filter((p) => p !== mapProduct)] : usable;
}
