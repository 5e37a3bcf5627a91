/**
 * Reprojection of radar composites into the data-tile pyramid (common/tiling.ts, common/tile.ts):
 * one dBZ channel quantized by RADAR_DBZ_QUANTIZATION, several providers merged by the maximum
 * dBZ where they overlap, nearest cell (radar cells are about the node spacing at the top zoom).
 *
 * The kernel per tile: for a latitude/longitude grid (MRMS) two lookup tables, the source column
 * of each of the 256 node columns and the source row of each node row, so a node costs two array
 * reads; for a projected grid (RADOLAN, ODIM) one forward projection per node. Tiles where no
 * provider has an echo are not written (the client reads their absence as no rain).
 */

import { RADAR_DBZ_QUANTIZATION } from '../../../common/radar.ts';
import { NO_DATA, packDataTile, Predictor } from '../../../common/tile.ts';
import { TILE_NODES, tileBounds, tileColumns, tileRows, type TileAddress, type TileBounds } from '../../../common/tiling.ts';
import { gridLocator, type RadarField } from './field.ts';

export type FieldExtent = TileBounds;

/** Longitude/latitude box of a field's grid (projected grids: scanned on a 0.25° lattice, widened by one lattice step). */
export function fieldExtent(field: RadarField): FieldExtent {
  const g = field.grid;
  if (g.kind === 'latlon') {
    return { west: g.lon0 - g.dLon / 2, east: g.lon0 + (g.width - 0.5) * g.dLon, north: g.lat0 + g.dLat / 2, south: g.lat0 - (g.height - 0.5) * g.dLat };
  }
  const at = gridLocator(g);
  const out = new Float64Array(2);
  let west = 180;
  let east = -180;
  let north = -90;
  let south = 90;
  const step = 0.25;
  for (let lat = -89.875; lat < 90; lat += step) {
    for (let lon = -180; lon < 180; lon += step) {
      at(lon, lat, out);
      if (out[0] >= -1 && out[0] <= g.width && out[1] >= -1 && out[1] <= g.height) {
        west = Math.min(west, lon);
        east = Math.max(east, lon);
        north = Math.max(north, lat);
        south = Math.min(south, lat);
      }
    }
  }
  if (west > east) throw new Error(`${field.product}: grid covers no longitude/latitude point`);
  return { west: west - step, east: east + step, north: Math.min(90, north + step), south: Math.max(-90, south - step) };
}

function intersects(a: TileBounds, b: TileBounds): boolean {
  return a.west < b.east && b.west < a.east && a.south < b.north && b.south < a.north;
}

/** Tiles of zoom z that overlap any of the extents. */
export function tilesOver(z: number, extents: TileBounds[]): TileAddress[] {
  const out: TileAddress[] = [];
  for (let y = 0; y < tileRows(z); y++) {
    for (let x = 0; x < tileColumns(z); x++) {
      const b = tileBounds({ z, x, y });
      if (extents.some((e) => intersects(b, e))) out.push({ z, x, y });
    }
  }
  return out;
}

const { offset: Q_OFFSET, scale: Q_SCALE } = RADAR_DBZ_QUANTIZATION;
const Q_TOP = 0xfffe;

/**
 * Quantized dBZ of one tile, max over the fields (NO_DATA where none has an echo), or null when
 * the tile has no echo at all.
 */
export function renderRadarTile(address: TileAddress, fields: readonly RadarField[], extents: readonly FieldExtent[]): Uint16Array | null {
  const bounds = tileBounds(address);
  const n = TILE_NODES;
  const step = (bounds.east - bounds.west) / (n - 1);
  const q = new Uint16Array(n * n).fill(NO_DATA);
  let any = false;
  const cols = new Int32Array(n);
  const rows = new Int32Array(n);
  const out = new Float64Array(2);
  for (let f = 0; f < fields.length; f++) {
    if (!intersects(bounds, extents[f])) continue;
    const field = fields[f];
    const g = field.grid;
    const dbz = field.dbz;
    const w = g.width;
    const h = g.height;
    if (g.kind === 'latlon') {
      for (let i = 0; i < n; i++) {
        let dl = bounds.west + i * step - g.lon0;
        dl -= 360 * Math.floor((dl + 180) / 360);
        const c = Math.round(dl / g.dLon);
        cols[i] = c >= 0 && c < w ? c : -1;
        const r = Math.round((g.lat0 - (bounds.north - i * step)) / g.dLat);
        rows[i] = r >= 0 && r < h ? r * w : -1;
      }
      for (let j = 0; j < n; j++) {
        const base = rows[j];
        if (base < 0) continue;
        const line = j * n;
        for (let i = 0; i < n; i++) {
          const c = cols[i];
          if (c < 0) continue;
          const v = dbz[base + c];
          if (v !== v) continue;
          const qv = Math.min(Q_TOP, Math.max(0, Math.round((v - Q_OFFSET) / Q_SCALE)));
          const k = line + i;
          if (q[k] === NO_DATA || qv > q[k]) q[k] = qv;
          any = true;
        }
      }
    } else {
      const at = gridLocator(g);
      for (let j = 0; j < n; j++) {
        const lat = bounds.north - j * step;
        const line = j * n;
        for (let i = 0; i < n; i++) {
          at(bounds.west + i * step, lat, out);
          const c = Math.round(out[0]);
          const r = Math.round(out[1]);
          if (c < 0 || c >= w || r < 0 || r >= h) continue;
          const v = dbz[r * w + c];
          if (v !== v) continue;
          const qv = Math.min(Q_TOP, Math.max(0, Math.round((v - Q_OFFSET) / Q_SCALE)));
          const k = line + i;
          if (q[k] === NO_DATA || qv > q[k]) q[k] = qv;
          any = true;
        }
      }
    }
  }
  return any ? q : null;
}

/**
 * A tile of zoom z from its four children at z + 1 (`[north-west, north-east, south-west,
 * south-east]`, null where a child has no echo): each node takes the maximum over its footprint,
 * the child nodes within half a node spacing of it. Nearest sampling at low zooms reads one cell
 * in thousands (at zoom 0 a node is 0.7°, 50 RADOLAN cells), so a small storm would vanish from
 * the overview; the maximum keeps it. Node spacings halve exactly from one zoom to the next
 * (common/tiling.ts: 255 intervals per tile), so parent node i is child node 2i of the pair of
 * children side by side, and its footprint the child nodes 2i - 1 .. 2i + 1. Null without echo.
 */
export function reduceRadarTile(children: readonly (Uint16Array | null)[]): Uint16Array | null {
  if (children.every((c) => c === null)) return null;
  const n = TILE_NODES;
  const last = 2 * (n - 1); // global child node index runs 0..510; 255 is shared by both children
  const q = new Uint16Array(n * n).fill(NO_DATA);
  let any = false;
  for (let j = 0; j < n; j++) {
    const y0 = Math.max(0, 2 * j - 1);
    const y1 = Math.min(last, 2 * j + 1);
    for (let i = 0; i < n; i++) {
      const x0 = Math.max(0, 2 * i - 1);
      const x1 = Math.min(last, 2 * i + 1);
      let best = NO_DATA;
      for (let gy = y0; gy <= y1; gy++) {
        const south = gy > n - 1 ? 1 : 0;
        const ly = gy - south * (n - 1);
        for (let gx = x0; gx <= x1; gx++) {
          const east = gx > n - 1 ? 1 : 0;
          const child = children[south * 2 + east];
          if (!child) continue;
          const v = child[ly * n + gx - east * (n - 1)];
          if (v !== NO_DATA && (best === NO_DATA || v > best)) best = v;
        }
      }
      if (best !== NO_DATA) {
        q[j * n + i] = best;
        any = true;
      }
    }
  }
  return any ? q : null;
}

/** Packs a rendered tile in the data-tile format (row-delta predictor). */
export function packRadarTile(address: TileAddress, q: Uint16Array): Uint8Array {
  return packDataTile({
    ...tileBounds(address), width: TILE_NODES, height: TILE_NODES, predictor: Predictor.RowDelta,
    channels: [{ offset: Q_OFFSET, scale: Q_SCALE, q }],
  });
}

/**
 * Coverage outline of a field: the boundary of its coverage mask sampled on a lattice of `step`
 * degrees, as closed rings of [lon, lat] (cell edges between covered and uncovered lattice
 * cells, joined into rings).
 */
export function coverageRings(field: RadarField, extent: FieldExtent, step = 0.1): [number, number][][] {
  const at = gridLocator(field.grid);
  const out = new Float64Array(2);
  const nx = Math.ceil((extent.east - extent.west) / step) + 2;
  const ny = Math.ceil((extent.north - extent.south) / step) + 2;
  const lon0 = extent.west - step;
  const lat0 = extent.north + step;
  const mask = new Uint8Array(nx * ny);
  const { width: w, height: h } = field.grid;
  for (let j = 1; j < ny - 1; j++) {
    for (let i = 1; i < nx - 1; i++) {
      at(lon0 + (i + 0.5) * step, lat0 - (j + 0.5) * step, out);
      const c = Math.round(out[0]);
      const r = Math.round(out[1]);
      if (c >= 0 && c < w && r >= 0 && r < h && field.coverage[r * w + c]) mask[j * nx + i] = 1;
    }
  }
  // Directed boundary edges (covered cell on the left when walking), keyed by start vertex.
  const next = new Map<number, number[]>();
  const vid = (i: number, j: number): number => j * (nx + 1) + i;
  const edge = (a: number, b: number): void => {
    const list = next.get(a);
    if (list) list.push(b);
    else next.set(a, [b]);
  };
  const inside = (i: number, j: number): boolean => i >= 0 && j >= 0 && i < nx && j < ny && mask[j * nx + i] === 1;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      if (!inside(i, j)) continue;
      if (!inside(i, j - 1)) edge(vid(i, j), vid(i + 1, j)); // north edge, walking east
      if (!inside(i + 1, j)) edge(vid(i + 1, j), vid(i + 1, j + 1)); // east edge, walking south
      if (!inside(i, j + 1)) edge(vid(i + 1, j + 1), vid(i, j + 1)); // south edge, walking west
      if (!inside(i - 1, j)) edge(vid(i, j + 1), vid(i, j)); // west edge, walking north
    }
  }
  const rings: [number, number][][] = [];
  const point = (v: number): [number, number] => {
    const i = v % (nx + 1);
    const j = Math.floor(v / (nx + 1));
    return [Math.round((lon0 + i * step) * 1e4) / 1e4, Math.round((lat0 - j * step) * 1e4) / 1e4];
  };
  for (const [start] of next) {
    while ((next.get(start)?.length ?? 0) > 0) {
      const ring: [number, number][] = [point(start)];
      let v = start;
      for (;;) {
        const list = next.get(v)!;
        const to = list.pop()!;
        if (list.length === 0) next.delete(v);
        v = to;
        const p = point(v);
        const last = ring.length > 1 ? ring[ring.length - 2] : null;
        const prev = ring[ring.length - 1];
        // Drop the middle of straight runs.
        if (last && (last[0] === prev[0] && prev[0] === p[0] || last[1] === prev[1] && prev[1] === p[1])) ring[ring.length - 1] = p;
        else ring.push(p);
        if (v === start || !next.has(v)) break;
      }
      if (ring.length >= 4) rings.push(ring);
    }
  }
  return rings;
}
