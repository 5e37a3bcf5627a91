/**
 * Polygons in lon/lat for the GPU, for any layer that draws areas (warnings now): rings to
 * normalised Web Mercator relative to an origin near them, filled by earcut triangles with a colour
 * per vertex, and outlined as line sets the isoline shaders widen (isolines.ts segmentQuads).
 *
 *   fill.position  Float32Array, 2 per vertex: Mercator x, y minus origin
 *   fill.colour    Float32Array, 4 per vertex: premultiplied r, g, b, a in 0..1
 *   fill.count     vertices (3 per triangle)
 *   outlines       one IsolineSet-shaped set per colour: points (Mercator, absolute), lines
 */

import earcut from 'earcut';
import { mercX, mercY } from '../../../common/map.ts';
import type { IsolineSet } from '../isolines/isolineBuilder.ts';

export interface ColouredPolygons {
  /** Outer rings, flat [lon, lat, ...], closed. */
  rings: number[][];
  /** [r, g, b] 0..255. */
  rgb: readonly [number, number, number];
}

export interface PolygonMesh {
  origin: [number, number];
  fill: { position: Float32Array; colour: Float32Array; count: number };
  outlines: { rgb: readonly [number, number, number]; set: IsolineSet }[];
}

/** Fills and outlines of `groups`, the fill `fillAlpha` opaque (straight alpha 0..1). */
export function polygonMesh(groups: readonly ColouredPolygons[], fillAlpha: number): PolygonMesh {
  const first = groups.find((g) => g.rings.length)?.rings[0];
  const origin: [number, number] = first ? [mercX(first[0]), mercY(first[1])] : [0, 0];
  const positions: number[] = [];
  const colours: number[] = [];
  const outlines: PolygonMesh['outlines'] = [];
  for (const { rings, rgb } of groups) {
    const points: number[] = [];
    const lines: IsolineSet['lines'] = [];
    const [r, g, b] = rgb.map((c) => (c / 255) * fillAlpha);
    for (const ring of rings) {
      const merc = new Array<number>(ring.length);
      for (let i = 0; i < ring.length; i += 2) {
        merc[i] = mercX(ring[i]);
        merc[i + 1] = mercY(ring[i + 1]);
      }
      // The closing point repeats the first: earcut wants it once.
      const open = merc.slice(0, merc.length - 2);
      const triangles = earcut(open, undefined, 2);
      for (const k of triangles) {
        positions.push(open[2 * k] - origin[0], open[2 * k + 1] - origin[1]);
        colours.push(r, g, b, fillAlpha);
      }
      lines.push({ start: points.length / 2, count: merc.length / 2, closed: true, heavy: false, label: '' });
      points.push(...merc);
    }
    if (lines.length) outlines.push({ rgb, set: { points: Float64Array.from(points), lines, extrema: [], wrap: false } });
  }
  return {
    origin,
    fill: { position: Float32Array.from(positions), colour: Float32Array.from(colours), count: positions.length / 2 },
    outlines,
  };
}
