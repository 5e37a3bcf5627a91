/**
 * What the hurricanes overlay draws for storms (the render worker's vector shapes, workers/api.ts
 * LonLatShapes): each track as a line coloured by the class of each fix (Saffir-Simpson,
 * common/tropical/category.ts), a point at each fix, the forecast track as a lighter line with
 * points, and NHC's cone as one translucent fill. Longitudes are kept continuous along a track.
 */

import type { StormDetail } from '../../../common/api/storms.ts';
import { CATEGORY_COLORS, stormCategory } from '../../../common/tropical/category.ts';
import type { LonLatShapes } from '../../../workers/api.ts';

/** Track width and point radius, CSS px. */
export const STORM_STYLE = { trackPx: 3, forecastPx: 2, fixRadiusPx: 3.5, forecastRadiusPx: 4.5, coneColor: [1, 1, 1, 0.28] as [number, number, number, number] };

const rgba = (windKt: number | null, alpha = 1): number[] => {
  const [r, g, b] = CATEGORY_COLORS[stormCategory(windKt ?? 0)];
  return [r / 255, g / 255, b / 255, alpha];
};

/** Longitudes made continuous: each within 180° of the one before. */
function unwrap(lons: readonly number[]): number[] {
  const out: number[] = [];
  for (const lon of lons) {
    const prev = out[out.length - 1];
    out.push(prev === undefined ? lon : prev + ((((lon - prev) % 360) + 540) % 360) - 180);
  }
  return out;
}

export function stormShapes(storms: readonly StormDetail[]): LonLatShapes {
  const shapes: LonLatShapes = { lines: [], points: [], fills: [] };
  for (const s of storms) {
    if (s.cone) shapes.fills.push({ rings: s.cone.rings, color: STORM_STYLE.coneColor });
  }
  for (const s of storms) {
    const lons = unwrap(s.track.map((f) => f.lon));
    const points = s.track.flatMap((f, i) => [lons[i], f.lat]);
    const colors = s.track.flatMap((f) => rgba(f.windKt));
    shapes.lines.push({ points, colors, widthPx: STORM_STYLE.trackPx });
    shapes.points.push({ points, colors, radiusPx: STORM_STYLE.fixRadiusPx });
    if (s.forecast && s.forecast.points.length) {
      const f = s.forecast.points;
      const flons = unwrap(f.map((p) => p.lon));
      const fpoints = f.flatMap((p, i) => [flons[i], p.lat]);
      shapes.lines.push({ points: fpoints, colors: f.flatMap((p) => rgba(p.windKt, 0.7)), widthPx: STORM_STYLE.forecastPx });
      shapes.points.push({ points: fpoints, colors: f.flatMap((p) => rgba(p.windKt)), radiusPx: STORM_STYLE.forecastRadiusPx });
    }
  }
  return shapes;
}
