/**
 * What the satellite readers return: one image on the instrument's fixed grid (the geostationary
 * projection, geos.ts), row 0 north. The tile renderer (tiles.ts) reprojects it into the data-tile
 * pyramid; the grid is the radar's ProjectedGrid (server/obs/radar/field.ts) with a GEOS projection.
 */

import type { ProjectedGrid } from '../radar/field.ts';
import type { Geos } from './geos.ts';

/** A bad upstream file: the name says which format, the message says what is wrong. */
export class SatelliteFormatError extends Error {
  override name = 'SatelliteFormatError';
}

export interface GeosGrid extends ProjectedGrid {
  projection: Geos;
}

/** What a channel measures: brightness temperature (infrared) or reflectance factor (visible, 0..1 and a bit over). */
export type SatelliteQuantity = 'brightnessTemperature' | 'reflectance';

export interface SatelliteImage {
  /** Platform as the file names it, e.g. G16, G19, MSG3. */
  platform: string;
  /** Product and channel, e.g. `ABI-L2-CMIPF C13`. */
  product: string;
  /** Start of the scan, ms UTC. */
  time: number;
  quantity: SatelliteQuantity;
  /** Central wavelength, micrometres, when the file gives it. */
  wavelengthUm: number | null;
  grid: GeosGrid;
  /** Physical values per cell (kelvin or reflectance factor), row 0 north; NaN: no data (space, fill). */
  values: Float32Array;
}
