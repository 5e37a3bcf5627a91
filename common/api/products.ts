/**
 * What the server has data for (SPEC §7) — the contract of server/routes/metadata.ts and the map's
 * data model (ui/state/dataModel.ts):
 *
 *   GET /metadata/v1.0/products.json               -> ProductsAnswer: every served product with its
 *                                                     free minifest, so a page starts from one request
 *   GET /metadata/v1.0/{directory}/minifest.json   -> MinifestAnswer (?premium=true for Premium)
 *
 * common/minifest.ts reads a minifest's steps into a calendar.
 */

import type { Infer } from './schema.ts';

export const PRODUCTS_PATH = '/metadata/v1.0/products.json';
export const MINIFEST_ROUTE = '/metadata/v1.0/:dir/minifest.json';
export const DIRECTORY_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** The minifest format this server writes (MinifestAnswer.v). */
export const MINIFEST_VERSION = '1.0';

export function minifestPath(directory: string, premium = false): string {
  return `/metadata/v1.0/${encodeURIComponent(directory)}/minifest.json${premium ? '?premium=true' : ''}`;
}

/** SPEC §3 "Minifest", as this server answers it. */
export const MINIFEST_ANSWER = {
  type: 'object',
  required: ['ref', 'dst', 'v'],
  properties: {
    /** Reference (run) time, ISO 8601 UTC. */
    ref: { type: 'string' },
    /** [step, from, to] in hours after ref, inclusive, ascending. */
    dst: { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 3 } },
    /** When the run became visible, ISO 8601 UTC. */
    update: { type: 'string' },
    v: { type: 'string' },
    /** The generated demo product. */
    demo: { type: 'boolean' },
    /** Ingested runs: a fixed historical sample, shown with its own dates. */
    sample: { type: 'boolean' },
    /** Ingested runs: the levels each tile file has. */
    layers: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
} as const;
export type MinifestAnswer = Infer<typeof MINIFEST_ANSWER>;

const SERVED_PRODUCT_PROPERTIES = {
  ident: { type: 'string' },
  directory: { type: 'string' },
  /** Reference time of the current run, YYYYMMDDHH. */
  ref: { type: 'string' },
  demo: { type: 'boolean' },
  sample: { type: 'boolean' },
} as const;

export const SERVED_PRODUCT = {
  type: 'object',
  required: ['ident', 'directory', 'ref', 'minifest'],
  properties: {
    ...SERVED_PRODUCT_PROPERTIES,
    /** The product's minifest, as GET minifestPath(directory) answers it for everyone. */
    minifest: MINIFEST_ANSWER,
  },
} as const;
/** One entry of GET /metadata/v1.0/products.json. */
export type ServedProduct = Infer<typeof SERVED_PRODUCT>;

export const PRODUCTS_ANSWER = {
  type: 'object',
  required: ['products'],
  properties: { products: { type: 'array', items: SERVED_PRODUCT } },
} as const;
export type ProductsAnswer = Infer<typeof PRODUCTS_ANSWER>;

/**
 * How a client reads the list: each entry on its own, with its minifest read apart, so an entry it
 * cannot read (or a minifest from a newer server) costs only that product, not the list.
 */
export const PRODUCTS_LIST = {
  type: 'object',
  required: ['products'],
  properties: { products: { type: 'array', items: { type: 'object' } } },
} as const;
export const SERVED_PRODUCT_ENTRY = {
  type: 'object',
  required: ['ident', 'directory', 'ref'],
  properties: { ...SERVED_PRODUCT_PROPERTIES, minifest: {} },
} as const;
