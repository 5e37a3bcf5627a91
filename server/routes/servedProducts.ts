/**
 * Which products this server can answer for. Until the ingest pipeline lands there is no live
 * data, so only the demo product is served (DESIGN.md "Data, honestly"); asking for a real model
 * gets a 404 that says so instead of a silent substitute.
 */

import { PRODUCTS, type Product } from '../../common/catalogue/index.ts';
import { notFound } from '../http/httpError.ts';

const SERVED: readonly Product[] = [PRODUCTS.demo];

function unavailable(what: string, product: Product | undefined): Error {
  if (product) {
    return notFound(`No data for ${product.modelName} (${what}) has been loaded on this server; it serves only the demo product (directory "${PRODUCTS.demo.directory}")`);
  }
  return notFound(`Unknown product ${what}; this server serves only the demo product (directory "${PRODUCTS.demo.directory}")`);
}

/** The served product whose tile/minifest directory this is, else a 404 naming what is served. */
export function servedProductByDirectory(directory: string): Product {
  const served = SERVED.find((p) => p.directory === directory);
  if (served) return served;
  throw unavailable(`directory "${directory}"`, Object.values(PRODUCTS).find((p) => p.directory === directory));
}

/** The served product with this ident (point forecast paths use idents), else a 404. */
export function servedProductByIdent(ident: string): Product {
  const served = SERVED.find((p) => p.ident === ident);
  if (served) return served;
  throw unavailable(`"${ident}"`, Object.prototype.hasOwnProperty.call(PRODUCTS, ident) ? PRODUCTS[ident] : undefined);
}
