/**
 * What every radar reader returns: one composite frame on its native grid, in dBZ, with where the
 * radars see (coverage) apart from where they see no echo. Readers of each format (mrms.ts,
 * radolan.ts, odim.ts) fill it; tiles.ts reprojects it into the data-tile pyramid.
 */

import type { Projection } from './projection.ts';

/** A bad upstream file: the name says which format, the message says what is wrong. */
export class RadarFormatError extends Error {
  override name = 'RadarFormatError';
}

/** Cell centres of a regular latitude/longitude grid, row 0 north (MRMS). */
export interface LatLonGrid {
  kind: 'latlon';
  width: number;
  height: number;
  /** Centre of cell (0, 0): the north-west cell. */
  lon0: number;
  lat0: number;
  dLon: number;
  /** Positive: rows go south. */
  dLat: number;
}

/** A projected grid: cell (col, row) has its centre at x0 + (col + 0.5) dx, y0 - (row + 0.5) dy, row 0 north. */
export interface ProjectedGrid {
  kind: 'projected';
  width: number;
  height: number;
  projection: Projection;
  /** Projected coordinates (m) of the north-west corner of the grid (the outer edge of cell (0, 0)). */
  x0: number;
  y0: number;
  dx: number;
  dy: number;
}

export type RadarGrid = LatLonGrid | ProjectedGrid;

export interface RadarField {
  /** Product as the upstream names it (e.g. MRMS ReflectivityAtLowestAltitude, RADOLAN RX). */
  product: string;
  /** Observation (or nowcast valid) time, ms UTC. */
  time: number;
  grid: RadarGrid;
  /** dBZ per cell, row 0 north; NaN: no echo to show (no precipitation, no data or outside coverage). */
  dbz: Float32Array;
  /** 1 where the radars cover the cell (a value or a no-echo), 0 where no radar sees. */
  coverage: Uint8Array;
}

/**
 * Fractional grid position (col, row of cell centres) of a lon/lat point; col/row outside
 * [-0.5, width - 0.5) means outside the grid. `out` receives col, row.
 */
export function gridLocator(grid: RadarGrid): (lon: number, lat: number, out: Float64Array) => void {
  if (grid.kind === 'latlon') {
    return (lon, lat, out) => {
      let dl = lon - grid.lon0;
      dl -= 360 * Math.floor((dl + 180) / 360);
      out[0] = dl / grid.dLon;
      out[1] = (grid.lat0 - lat) / grid.dLat;
    };
  }
  const xy = new Float64Array(2);
  return (lon, lat, out) => {
    grid.projection.forward(lon, lat, xy);
    out[0] = (xy[0] - grid.x0) / grid.dx - 0.5;
    out[1] = (grid.y0 - xy[1]) / grid.dy - 0.5;
  };
}
