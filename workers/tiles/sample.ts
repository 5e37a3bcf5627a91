/**
 * Value of a decoded tile at a point, for the picker. Matches the raster shader: bilinear, missing
 * nodes skipped and fewer than two valid nodes give no value (SPEC §5); for a class field
 * (`nearest`: precipitation type codes) the nearest node's code as it is, round half up.
 */

import type { TileHeader } from '../../common/tile.ts';

/** Channel values at lon/lat (lon in the tile's frame, wrapped by 360 if needed), or null. */
export function sampleTile(header: TileHeader, channels: Float32Array[], lon: number, lat: number, sampling: 'bilinear' | 'nearest' = 'bilinear'): number[] | null {
  const { west, east, north, south, width, height } = header;
  let x = lon;
  while (x < west) x += 360;
  while (x > east + 1e-9 && x - 360 >= west - 1e-9) x -= 360;
  if (x < west - 1e-9 || x > east + 1e-9 || lat > north + 1e-9 || lat < south - 1e-9) return null;
  const gx = ((x - west) / (east - west)) * (width - 1);
  const gy = ((north - lat) / (north - south)) * (height - 1);
  const i = Math.min(width - 2, Math.max(0, Math.floor(gx)));
  const j = Math.min(height - 2, Math.max(0, Math.floor(gy)));
  const fx = Math.min(1, Math.max(0, gx - i));
  const fy = Math.min(1, Math.max(0, gy - j));
  if (sampling === 'nearest') {
    const k = (fy < 0.5 ? j : j + 1) * width + (fx < 0.5 ? i : i + 1);
    return Number.isNaN(channels[0][k]) ? null : channels.map((values) => values[k]);
  }
  const nodes: [number, number][] = [
    [j * width + i, (1 - fx) * (1 - fy)],
    [j * width + i + 1, fx * (1 - fy)],
    [(j + 1) * width + i, (1 - fx) * fy],
    [(j + 1) * width + i + 1, fx * fy],
  ];
  const valid = nodes.filter(([k]) => !Number.isNaN(channels[0][k]));
  if (valid.length < 2) return null;
  const weight = valid.reduce((s, [, w]) => s + w, 0);
  return channels.map((values) => {
    let sum = 0;
    for (const [k, w] of valid) sum += values[k] * w;
    return weight > 0 ? sum / weight : values[valid[0][0]];
  });
}

/** Meteorological direction (degrees, where the wind blows from) of a u/v vector. */
export function windDirection(u: number, v: number): number {
  const deg = (270 - (Math.atan2(v, u) * 180) / Math.PI) % 360;
  return deg < 0 ? deg + 360 : deg;
}
