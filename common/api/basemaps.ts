/**
 * Which tile base maps this server is configured with (SPEC §2 base maps outdoor, winter,
 * satellite and the topoMap overlay; common/basemapStyles.ts) — the contract of
 * server/routes/basemaps.ts, read by the map selector and the render worker:
 *
 *   GET /metadata/v1.0/basemaps.json            -> BasemapsAnswer
 *   GET /basemap/v1/{style}.pmtiles             an archive configured as a local file, with
 *                                               range requests (PMTiles is read by byte range)
 *
 * A source is either raster XYZ tiles (a URL template with {z}, {x} and {y}) or a PMTiles archive
 * of vector tiles in the Protomaps basemap schema (layers earth, water, landuse, roads,
 * boundaries, places ...). A style that is not configured is absent from `sources`.
 */

import type { Infer } from './schema.ts';
import { TILE_BASEMAP_STYLES } from '../basemapStyles.ts';

export const BASEMAPS_PATH = '/metadata/v1.0/basemaps.json';
export const BASEMAP_ARCHIVE_ROUTE = '/basemap/v1/:file';

export function basemapArchivePath(style: string): string {
  return `/basemap/v1/${style}.pmtiles`;
}

export const BASEMAP_SOURCE = {
  type: 'object',
  required: ['kind', 'url', 'minZoom', 'maxZoom'],
  additionalProperties: false,
  properties: {
    /** raster: XYZ image tiles; pmtiles: a PMTiles v3 archive of Mapbox vector tiles. */
    kind: { type: 'string', enum: ['raster', 'pmtiles'] },
    /** raster: the template ({z}/{x}/{y}); pmtiles: the archive, absolute or on this server. */
    url: { type: 'string', minLength: 1 },
    minZoom: { type: 'integer', minimum: 0, maximum: 24 },
    /** Tiles exist up to this zoom; the map draws them scaled beyond it. */
    maxZoom: { type: 'integer', minimum: 0, maximum: 24 },
    /** The data's credit line, shown with the map. */
    attribution: { type: 'string' },
  },
} as const;
export type BasemapSource = Infer<typeof BASEMAP_SOURCE>;

export const BASEMAPS_ANSWER = {
  type: 'object',
  required: ['sources'],
  additionalProperties: false,
  properties: {
    sources: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(TILE_BASEMAP_STYLES.map((style) => [style, BASEMAP_SOURCE])) as {
        outdoor: typeof BASEMAP_SOURCE; winter: typeof BASEMAP_SOURCE; satellite: typeof BASEMAP_SOURCE; topoMap: typeof BASEMAP_SOURCE;
      },
    },
  },
} as const;
export type BasemapsAnswer = Infer<typeof BASEMAPS_ANSWER>;
