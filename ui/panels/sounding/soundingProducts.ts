/**
 * Which served products a model sounding can be drawn from at a place: those with pressure levels
 * (common/catalogue/products.ts `levels`) whose area holds the place. The map's product comes first
 * where it is one of them, so the sounding shows the model the map shows.
 */

import type { LevelForecast } from '../../../common/api/forecast.ts';
import { LEVELS } from '../../../common/catalogue/levels.ts';
import { productCovers } from '../../../common/catalogue/layerRules.ts';
import { PRODUCTS } from '../../../common/catalogue/products.ts';

const PRESSURE_LEVELS = new Set(LEVELS.filter((l) => l.hPa !== undefined).map((l) => l.ident));

export function soundingProducts(served: readonly string[], mapProduct: string | null, lat: number, lon: number): string[] {
  const usable = served.filter((ident) => {
    const product = PRODUCTS[ident];
    return !!product && !product.demo && product.levels.some((l) => PRESSURE_LEVELS.has(l)) && productCovers(product, lat, lon);
  });
  return mapProduct && usable.includes(mapProduct) ? [mapProduct, ...usable.filter((p) => p !== mapProduct)] : usable;
}

/** Whether a meteogram answer has pressure levels with temperatures: a product a sounding can be drawn from. */
export function hasSoundingLevels(answer: LevelForecast): boolean {
  return answer.header.levels.some((l) => answer.data[`temp-${l}`]);
}
