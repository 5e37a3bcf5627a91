/**
 * Vector tiles of a tile base map: read from a PMTiles archive (the `pmtiles` package, by HTTP
 * range), decoded as Mapbox vector tiles (@mapbox/vector-tile over pbf) and turned into meshes
 * the GPU draws as they are: polygons triangulated with earcut, lines as thin strips of quads
 * (each vertex carries the segment's normal and width; the shader extrudes it in screen pixels),
 * places as labels in the user's language (the tile's name:xx, else name).
 *
 * Coordinates stay in the tile's own frame, 0..1 across and down, so a float32 is exact enough at
 * every zoom; the draw places the tile by its corner and size in normalised Mercator.
 */

import { VectorTile, classifyRings } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import earcut from 'earcut';
import { PMTiles, TileType } from 'pmtiles';
import type { Rgba } from '../../common/basemapStyles.ts';
import type { VectorRule } from '../layers/basemap/vectorStyle.ts';

/** Floats per fill vertex: x, y, r, g, b, a. */
export const FILL_STRIDE = 6;
/** Floats per line vertex: x, y, normal x, normal y, width (CSS px), r, g, b, a. */
export const LINE_STRIDE = 9;
/** 16-bit indices: WebGL 1 without OES_element_index_uint. */
const MAX_VERTICES = 65536;

export interface TileMesh {
  vertices: Float32Array;
  indices: Uint16Array;
}

export interface PlaceLabel {
  /** The name in the user's language (name:xx), else the local name. */
  name: string;
  /** The feature's own name (local language), where it differs from `name` or not. */
  localName: string;
  /** Position in the tile, 0..1 (a place in the tile's buffer lies a little outside). */
  x: number;
  y: number;
  /** Protomaps kind: country, region, locality, neighbourhood ... */
  kind: string;
  /** Protomaps population_rank: higher first. */
  rank: number;
  /** Protomaps min_zoom: the zoom from which the schema means the place to be shown (0 where absent). */
  minZoom: number;
}

export interface VectorTileGeometry {
  fills: TileMesh[];
  lines: TileMesh[];
  places: PlaceLabel[];
}

/** Vertices and 16-bit indices, cut into meshes of at most 65536 vertices. */
class MeshWriter {
  private readonly meshes: TileMesh[] = [];
  private vertices: number[] = [];
  private indices: number[] = [];

  constructor(private readonly stride: number) {}

  /** Room for `count` more vertices in the current mesh, starting a new one if needed; the base index. */
  reserve(count: number): number {
    if (count > MAX_VERTICES) throw new Error(`A feature of ${count} vertices does not fit a 16-bit mesh`);
    if (this.vertices.length / this.stride + count > MAX_VERTICES) this.flush();
    return this.vertices.length / this.stride;
  }

  vertex(...values: number[]): void {
    for (const v of values) this.vertices.push(v);
  }

  index(...values: number[]): void {
    for (const v of values) this.indices.push(v);
  }

  private flush(): void {
    if (this.indices.length) this.meshes.push({ vertices: Float32Array.from(this.vertices), indices: Uint16Array.from(this.indices) });
    this.vertices = [];
    this.indices = [];
  }

  finish(): TileMesh[] {
    this.flush();
    return this.meshes;
  }
}

function writePolygon(out: MeshWriter, rings: { x: number; y: number }[][], extent: number, color: Rgba): void {
  const flat: number[] = [];
  const holes: number[] = [];
  for (const [i, ring] of rings.entries()) {
    if (i > 0) holes.push(flat.length / 2);
    for (const p of ring) flat.push(p.x / extent, p.y / extent);
  }
  const count = flat.length / 2;
  const triangles = earcut(flat, holes, 2);
  if (!triangles.length) return;
  if (count <= MAX_VERTICES) {
    const base = out.reserve(count);
    for (let i = 0; i < count; i++) out.vertex(flat[2 * i], flat[2 * i + 1], ...color);
    for (const t of triangles) out.index(base + t);
    return;
  }
  // A polygon of more vertices than a 16-bit mesh holds: its triangles go on their own vertices.
  for (let t = 0; t < triangles.length; t += 3) {
    const base = out.reserve(3);
    for (let k = 0; k < 3; k++) out.vertex(flat[2 * triangles[t + k]], flat[2 * triangles[t + k] + 1], ...color);
    out.index(base, base + 1, base + 2);
  }
}

function writeLine(out: MeshWriter, line: { x: number; y: number }[], extent: number, color: Rgba, width: number): void {
  for (let i = 1; i < line.length; i++) {
    const ax = line[i - 1].x / extent;
    const ay = line[i - 1].y / extent;
    const bx = line[i].x / extent;
    const by = line[i].y / extent;
    const dx = bx - ax;
    const dy = by - ay;
    const length = Math.hypot(dx, dy);
    if (length === 0) continue;
    const nx = -dy / length;
    const ny = dx / length;
    const base = out.reserve(4);
    out.vertex(ax, ay, nx, ny, width, ...color);
    out.vertex(ax, ay, -nx, -ny, width, ...color);
    out.vertex(bx, by, nx, ny, width, ...color);
    out.vertex(bx, by, -nx, -ny, width, ...color);
    out.index(base, base + 1, base + 2, base + 1, base + 3, base + 2);
  }
}

/** A numeric feature property, 0 where it is absent or not a number. */
function finiteOr0(value: unknown): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

function matches(rule: VectorRule, kind: unknown): boolean {
  return !rule.kinds || rule.kinds.includes(String(kind));
}

/** Decodes one MVT tile into fill and line meshes (painted in the rules' order) and place labels. */
export function decodeVectorTile(bytes: Uint8Array, rules: readonly VectorRule[], lang: string): VectorTileGeometry {
  const tile = new VectorTile(new PbfReader(bytes));
  const fills = new MeshWriter(FILL_STRIDE);
  const lines = new MeshWriter(LINE_STRIDE);
  for (const rule of rules) {
    const layer = tile.layers[rule.layer];
    if (!layer) continue;
    for (let i = 0; i < layer.length; i++) {
      const feature = layer.feature(i);
      if (!matches(rule, feature.properties.kind)) continue;
      if (rule.type === 'fill' && feature.type === 3) {
        for (const polygon of classifyRings(feature.loadGeometry())) writePolygon(fills, polygon, layer.extent, rule.color);
      } else if (rule.type === 'line' && feature.type === 2) {
        for (const line of feature.loadGeometry()) writeLine(lines, line, layer.extent, rule.color, rule.width ?? 1);
      }
    }
  }
  const places: PlaceLabel[] = [];
  const placeLayer = tile.layers.places;
  for (let i = 0; placeLayer && i < placeLayer.length; i++) {
    const feature = placeLayer.feature(i);
    if (feature.type !== 1) continue;
    const props = feature.properties;
    const own = typeof props.name === 'string' ? props.name : '';
    const translated = props[`name:${lang}`];
    const name = typeof translated === 'string' && translated ? translated : own;
    if (!name) continue;
    const [point] = feature.loadGeometry()[0];
    places.push({
      name,
      localName: own || name,
      x: point.x / placeLayer.extent,
      y: point.y / placeLayer.extent,
      kind: String(props.kind ?? ''),
      rank: finiteOr0(props.population_rank),
      minZoom: finiteOr0(props.min_zoom),
    });
  }
  places.sort((a, b) => b.rank - a.rank);
  return { fills: fills.finish(), lines: lines.finish(), places };
}

/** A PMTiles archive of vector tiles, read by byte range. */
export class VectorArchive {
  private readonly archive: PMTiles;
  private readonly checked: Promise<{ minZoom: number; maxZoom: number }>;

  constructor(readonly url: string) {
    this.archive = new PMTiles(url);
    this.checked = this.archive.getHeader().then((header) => {
      if (header.tileType !== TileType.Mvt) throw new Error(`${url} holds tiles of type ${header.tileType}, not Mapbox vector tiles`);
      return { minZoom: header.minZoom, maxZoom: header.maxZoom };
    });
  }

  /** The zooms the archive has tiles for (from its header). */
  zooms(): Promise<{ minZoom: number; maxZoom: number }> {
    return this.checked;
  }

  /** The tile's MVT bytes, decompressed; null where the archive has none (open sea, outside its bounds). */
  async tile(z: number, x: number, y: number, signal?: AbortSignal): Promise<Uint8Array | null> {
    await this.checked;
    const answer = await this.archive.getZxy(z, x, y, signal);
    return answer ? new Uint8Array(answer.data) : null;
  }
}
