/**
 * The data tile contract (SPEC §7) of server/routes/tiles.ts and the render worker:
 *
 *   GET /tiles/v1.0/{directory}/{ref}/{valid}/{z}/{x}/{y}/{file}-{level}.{suffix}[?acRange={hours}]
 *
 * Accumulation files (common/catalogue/accumulations.ts) need `acRange`, whole hours from
 * AC_RANGE_MIN_HOURS to AC_RANGE_MAX_HOURS: the tile holds the amount (or, for gustAccu, the largest
 * gust) over [valid, valid + acRange]. Any other file is refused with one (400).
 *
 * ref and valid are hour stamps (YYYYMMDDHH, common/minifest.ts); the answer is the tile's bytes
 * (PNG-packed values, common/tile.ts).
 */

import { hourStamp } from '../minifest.ts';

export const TILE_ROUTE = '/tiles/v1.0/:dir/:ref/:valid/:z/:x/:y/:file';

export interface TilePathParts {
  directory: string;
  refTime: number;
  validTime: number;
  z: number;
  x: number;
  y: number;
  file: string;
  level: string;
  suffix: string;
  /** Accumulation files only: the range in hours. */
  acRange?: number;
}

export function tilePath(p: TilePathParts): string {
  return `/tiles/v1.0/${p.directory}/${hourStamp(p.refTime)}/${hourStamp(p.validTime)}/${p.z}/${p.x}/${p.y}/${p.file}-${p.level}.${p.suffix}${p.acRange === undefined ? '' : `?acRange=${p.acRange}`}`;
}
