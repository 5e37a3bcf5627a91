/**
 * How the vector tile base maps draw the layers of the Protomaps basemap schema
 * (docs.protomaps.com/basemaps/layers: earth, water, landuse, landcover, roads, boundaries,
 * buildings, places), per style. Rules are painted in order; a rule without kinds takes every
 * feature of its layer. Widths are CSS pixels.
 */

import type { Rgba, TileBasemapStyle } from '../../../common/basemapStyles.ts';

export interface VectorRule {
  layer: string;
  /** Feature property `kind` values; absent: all. */
  kinds?: readonly string[];
  type: 'fill' | 'line';
  color: Rgba;
  width?: number;
}

interface StylePalette {
  background: Rgba;
  earth: Rgba;
  water: Rgba;
  park: Rgba;
  forest: Rgba;
  urban: Rgba;
  glacier: Rgba;
  highway: Rgba;
  major: Rgba;
  minor: Rgba;
  boundary: Rgba;
  building: Rgba;
}

const PALETTES: Record<TileBasemapStyle, StylePalette> = {
  outdoor: {
    background: [0.67, 0.8, 0.88, 1], earth: [0.94, 0.93, 0.89, 1], water: [0.67, 0.8, 0.88, 1], park: [0.8, 0.9, 0.74, 1],
    forest: [0.7, 0.84, 0.65, 1], urban: [0.9, 0.88, 0.85, 1], glacier: [0.98, 0.98, 1, 1], highway: [0.95, 0.62, 0.35, 1],
    major: [1, 0.85, 0.55, 1], minor: [1, 1, 1, 1], boundary: [0.55, 0.45, 0.6, 0.8], building: [0.85, 0.82, 0.78, 1],
  },
  winter: {
    background: [0.72, 0.82, 0.9, 1], earth: [0.98, 0.98, 1, 1], water: [0.72, 0.82, 0.9, 1], park: [0.92, 0.95, 0.97, 1],
    forest: [0.82, 0.88, 0.86, 1], urban: [0.93, 0.93, 0.95, 1], glacier: [1, 1, 1, 1], highway: [0.6, 0.55, 0.7, 1],
    major: [0.7, 0.7, 0.8, 1], minor: [0.82, 0.82, 0.88, 1], boundary: [0.45, 0.45, 0.6, 0.8], building: [0.86, 0.86, 0.9, 1],
  },
  satellite: {
    background: [0.04, 0.08, 0.14, 1], earth: [0.2, 0.24, 0.18, 1], water: [0.04, 0.08, 0.14, 1], park: [0.16, 0.28, 0.14, 1],
    forest: [0.12, 0.22, 0.1, 1], urban: [0.3, 0.3, 0.3, 1], glacier: [0.85, 0.88, 0.9, 1], highway: [0.9, 0.8, 0.5, 0.9],
    major: [0.8, 0.8, 0.75, 0.8], minor: [0.7, 0.7, 0.7, 0.6], boundary: [1, 1, 1, 0.6], building: [0.35, 0.33, 0.3, 1],
  },
  topoMap: {
    background: [0.8, 0.88, 0.93, 1], earth: [0.96, 0.95, 0.92, 1], water: [0.6, 0.76, 0.88, 1], park: [0.84, 0.92, 0.8, 1],
    forest: [0.72, 0.86, 0.68, 1], urban: [0.9, 0.88, 0.86, 1], glacier: [1, 1, 1, 1], highway: [0.85, 0.3, 0.2, 1],
    major: [0.95, 0.75, 0.4, 1], minor: [0.75, 0.75, 0.75, 1], boundary: [0.5, 0.2, 0.5, 0.9], building: [0.8, 0.76, 0.72, 1],
  },
};

export function vectorRules(style: TileBasemapStyle): { background: Rgba; rules: VectorRule[] } {
  const p = PALETTES[style];
  return {
    background: p.background,
    rules: [
      { layer: 'earth', type: 'fill', color: p.earth },
      { layer: 'landcover', kinds: ['forest'], type: 'fill', color: p.forest },
      { layer: 'landcover', kinds: ['glacier', 'ice'], type: 'fill', color: p.glacier },
      { layer: 'landuse', kinds: ['forest', 'wood', 'nature_reserve'], type: 'fill', color: p.forest },
      { layer: 'landuse', kinds: ['park', 'grass', 'garden', 'meadow', 'golf_course', 'playground', 'national_park', 'protected_area'], type: 'fill', color: p.park },
      { layer: 'landuse', kinds: ['glacier'], type: 'fill', color: p.glacier },
      { layer: 'landuse', kinds: ['residential', 'industrial', 'commercial', 'urban_area', 'school', 'hospital', 'university'], type: 'fill', color: p.urban },
      { layer: 'water', type: 'fill', color: p.water },
      { layer: 'water', type: 'line', color: p.water, width: 1.5 },
      { layer: 'buildings', type: 'fill', color: p.building },
      { layer: 'boundaries', type: 'line', color: p.boundary, width: 1 },
      { layer: 'roads', kinds: ['minor_road', 'other', 'path'], type: 'line', color: p.minor, width: 1 },
      { layer: 'roads', kinds: ['major_road', 'medium_road'], type: 'line', color: p.major, width: 2 },
      { layer: 'roads', kinds: ['highway'], type: 'line', color: p.highway, width: 3 },
    ],
  };
}
