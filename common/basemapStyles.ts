/**
 * The base maps of SPEC §2 ("Map: ... Base maps: gray, simple, landmask, outdoor, winter,
 * satellite"; SPEC §3 settings map: sznmap, sat, winter) and their palettes.
 *
 * gray, simple and landmask are the offline Natural Earth basemap (common/basemap.ts) drawn in
 * different colours (setting basemapStyle); outdoor, winter and satellite come from tile sources
 * the server is configured with (common/api/basemaps.ts) and are drawn above DETAIL_MAP_ZOOM,
 * where the map selector opens (SPEC §2); topoMap is the same kind of source drawn as an overlay.
 */

/** Premultiplied-free RGBA, 0..1. */
export type Rgba = readonly [number, number, number, number];

export const OFFLINE_BASEMAP_STYLES = ['gray', 'simple', 'landmask'] as const;
export type OfflineBasemapStyle = (typeof OFFLINE_BASEMAP_STYLES)[number];

/** Colours of the offline basemap's parts. */
export interface BasemapPalette {
  /** Where the weather layer is transparent. */
  sea: Rgba;
  land: Rgba;
  coast: Rgba;
  borders: Rgba;
  /** Natural Earth 10m admin-1 (state and province) borders, where provided. */
  admin1: Rgba;
  /** Natural Earth 10m lakes (fill) and rivers (lines), where provided. */
  lakes: Rgba;
  rivers: Rgba;
  graticule: Rgba;
}

/**
 * The one palette table of the offline basemap. gray: the dark land and sea Isobar has always drawn
 * under the weather colours; simple: lighter land, stronger lines; landmask: land and sea only (no
 * borders, rivers or lakes' outlines), for reading the sea/land contrast.
 */
export const BASEMAP_PALETTES: Record<OfflineBasemapStyle, BasemapPalette> = {
  gray: {
    sea: [0.055, 0.09, 0.15, 1],
    land: [0.17, 0.19, 0.21, 1],
    coast: [1, 1, 1, 0.55],
    borders: [1, 1, 1, 0.3],
    admin1: [1, 1, 1, 0.14],
    lakes: [0.055, 0.09, 0.15, 1],
    rivers: [0.45, 0.6, 0.8, 0.35],
    graticule: [1, 1, 1, 0.1],
  },
  simple: {
    sea: [0.62, 0.72, 0.8, 1],
    land: [0.93, 0.92, 0.88, 1],
    coast: [0.2, 0.25, 0.3, 0.8],
    borders: [0.25, 0.2, 0.25, 0.6],
    admin1: [0.25, 0.2, 0.25, 0.25],
    lakes: [0.62, 0.72, 0.8, 1],
    rivers: [0.4, 0.55, 0.75, 0.7],
    graticule: [0.1, 0.1, 0.1, 0.15],
  },
  landmask: {
    sea: [0, 0, 0, 1],
    land: [0.42, 0.42, 0.42, 1],
    coast: [0, 0, 0, 0],
    borders: [0, 0, 0, 0],
    admin1: [0, 0, 0, 0],
    lakes: [0, 0, 0, 1],
    rivers: [0, 0, 0, 0],
    graticule: [1, 1, 1, 0.1],
  },
};

/** The base maps drawn from configured tile sources, and the topoMap overlay (SPEC §2, §4 overlay idents). */
export const TILE_BASEMAP_STYLES = ['outdoor', 'winter', 'satellite', 'topoMap'] as const;
export type TileBasemapStyle = (typeof TILE_BASEMAP_STYLES)[number];

/** SPEC §3 setting map (sznmap, sat, winter): the base map each value stands for. */
export const MAP_SETTING_STYLES: Record<'sznmap' | 'sat' | 'winter', TileBasemapStyle> = {
  sznmap: 'outdoor',
  sat: 'satellite',
  winter: 'winter',
};

/** The server's environment variable that configures each tile base map (README "Base maps"). */
export const TILE_BASEMAP_ENV: Record<TileBasemapStyle, string> = {
  outdoor: 'ISOBAR_BASEMAP_OUTDOOR',
  winter: 'ISOBAR_BASEMAP_WINTER',
  satellite: 'ISOBAR_BASEMAP_SATELLITE',
  topoMap: 'ISOBAR_BASEMAP_TOPOMAP',
};

/**
 * SPEC §2: "The map-selector opens automatically above zoom 11": the zoom above which the detailed
 * base map of the map setting is drawn instead of the offline one.
 */
export const DETAIL_MAP_ZOOM = 11;

/** Natural Earth detail by zoom: 110m, then 50m from zoom 4, then 10m from zoom 5. */
export const BASEMAP_50M_FROM_ZOOM = 4;
export const BASEMAP_10M_FROM_ZOOM = 5;
