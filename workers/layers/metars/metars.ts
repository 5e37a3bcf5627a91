/**
 * METAR stations (SPEC §3 pois "metars") as marks (layers/points): a disc each in the colour of
 * its flight category (common/aviation/flightCategory.ts, the Aviation Weather Center's colours),
 * grey where the report gives none.
 */

import { FLIGHT_CATEGORIES, FLIGHT_CATEGORY_COLOURS } from '../../../common/aviation/flightCategory.ts';
import type { PointSet } from '../points/points.ts';

const SIZE_PX = 9;
const ALPHA = 240;
const NO_CATEGORY: [number, number, number] = [140, 140, 140];

/** `category` indexes FLIGHT_CATEGORIES; -1 (or any other value) is none. */
export function metarMarks(lon: Float32Array, lat: Float32Array, category: Int8Array): PointSet {
  const n = lon.length;
  const color = new Uint8Array(4 * n);
  const size = new Float32Array(n).fill(SIZE_PX);
  for (let i = 0; i < n; i++) {
    const name = FLIGHT_CATEGORIES[category[i]];
    color.set(name ? FLIGHT_CATEGORY_COLOURS[name] : NO_CATEGORY, 4 * i);
    color[4 * i + 3] = ALPHA;
  }
  return { lon, lat, color, size };
}
