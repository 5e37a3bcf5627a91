/**
 * Builds the offline basemap (common/basemap.ts) from Natural Earth via npm world-atlas:
 * land polygons triangulated with earcut, coastlines as the land mesh, borders as the interior
 * country mesh. Writes public/generated/basemap/{110m,50m}.bin and gzip siblings, and the 10m
 * detail cut into region cells (10m/{z}-{x}-{y}.bin and 10m/index.json): 10m holds far more than
 * the 65 536 vertices of a 16-bit mesh, and a view loads only the cells it touches, from zoom 5
 * (common/basemapStyles.ts BASEMAP_10M_FROM_ZOOM); a user who never zooms in downloads what he
 * did before.
 *
 * Natural Earth 10m lakes, rivers and admin-1 borders are in no npm package: the build takes them,
 * where present, from ISOBAR_NATURAL_EARTH_DIR (default assets/basemap/naturalearth/) as the
 * GeoJSON files of github.com/nvkelso/natural-earth-vector/tree/master/geojson:
 *   ne_10m_lakes.geojson, ne_10m_rivers_lake_centerlines.geojson,
 *   ne_10m_admin_1_states_provinces_lines.geojson
 * and puts them into the 10m cells.
 *
 *   tsx assets/basemap/build.ts
 */

import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import earcut from 'earcut';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { FeatureCollection, MultiPolygon, MultiLineString, Position } from 'geojson';
import { emptyMesh, encodeBasemap, type BasemapCellIndex, type BasemapMesh } from '../../common/basemap.ts';
import { mercX, mercY } from '../../common/map.ts';

const require = createRequire(import.meta.url);
const outDir = fileURLToPath(new URL('../../public/generated/basemap/', import.meta.url));
const naturalEarthDir = process.env.ISOBAR_NATURAL_EARTH_DIR ?? fileURLToPath(new URL('./naturalearth/', import.meta.url));
/** 10m cells start as a 4 x 4 grid of Web Mercator and split in four where a mesh would pass 65 536 vertices. */
const CELL_START_ZOOM = 2;
const CELL_MAX_ZOOM = 8;

/** Quantization range of x: polygons across the antimeridian run a little past 0..1. */
const X0 = -0.25;
const X1 = 1.25;
const Q = 65535;

/**
 * Makes consecutive longitudes continuous (no jump over 180°), so a ring or line crossing the
 * antimeridian stays whole, then moves the whole of it by a turn if it drifted so that its
 * westmost point lies in [-180, 180).
 */
function unwrap(points: Position[]): Position[] {
  const out: Position[] = [];
  let shift = 0;
  for (let i = 0; i < points.length; i++) {
    if (i > 0) {
      const d = points[i][0] + shift - out[i - 1][0];
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    out.push([points[i][0] + shift, points[i][1]]);
  }
  const west = Math.min(...out.map((p) => p[0]));
  const turns = Math.floor((west + 180) / 360);
  return turns ? out.map(([lon, lat]) => [lon - 360 * turns, lat]) : out;
}

class MeshFullError extends Error {}

class MeshBuilder {
  private vertices: number[] = [];
  private indices: number[] = [];
  private readonly lookup = new Map<string, number>();

  constructor(private readonly x0 = X0, private readonly x1 = X1, private readonly y0 = 0, private readonly y1 = 1) {}

  vertex(lon: number, lat: number): number {
    const x = mercX(lon);
    if (x < this.x0 - 1e-9 || x > this.x1 + 1e-9) throw new Error(`Basemap vertex at ${lon}° is outside the quantization range`);
    const qx = Math.round(((x - this.x0) / (this.x1 - this.x0)) * Q);
    const qy = Math.round(((mercY(lat) - this.y0) / (this.y1 - this.y0)) * Q);
    const key = `${qx},${qy}`;
    let index = this.lookup.get(key);
    if (index === undefined) {
      index = this.vertices.length / 2;
      if (index >= 65536) throw new MeshFullError('Basemap mesh has more than 65536 vertices');
      this.vertices.push(qx, qy);
      this.lookup.set(key, index);
    }
    return index;
  }

  push(...indices: number[]): void {
    this.indices.push(...indices);
  }

  build(): BasemapMesh {
    return { vertices: Uint16Array.from(this.vertices), indices: Uint16Array.from(this.indices) };
  }
}

function landMesh(polygons: MultiPolygon): BasemapMesh {
  const builder = new MeshBuilder();
  for (const triangle of polygonTriangles(polygons.coordinates)) builder.push(...triangle.map(([lon, lat]) => builder.vertex(lon, lat)));
  return builder.build();
}

function lineMesh(lines: MultiLineString): BasemapMesh {
  const builder = new MeshBuilder();
  // Edges along the map's bottom (the Antarctic closing edge) are not coastline: lineSegments leaves them out.
  for (const [a, b] of lineSegments(lines.coordinates)) {
    const ia = builder.vertex(a[0], a[1]);
    const ib = builder.vertex(b[0], b[1]);
    if (ia !== ib) builder.push(ia, ib);
  }
  return builder.build();
}

async function build(resolution: '110m' | '50m'): Promise<number> {
  const land = JSON.parse(await readFile(require.resolve(`world-atlas/land-${resolution}.json`), 'utf8')) as Topology<{ land: GeometryCollection }>;
  const countries = JSON.parse(await readFile(require.resolve(`world-atlas/countries-${resolution}.json`), 'utf8')) as Topology<{ countries: GeometryCollection }>;
  const landFeatures = feature(land, land.objects.land) as unknown as { features: { geometry: MultiPolygon }[] };
  const bytes = encodeBasemap({
    x0: X0,
    x1: X1,
    y0: 0,
    y1: 1,
    land: landMesh(landFeatures.features[0].geometry),
    coast: lineMesh(mesh(land, land.objects.land) as MultiLineString),
    borders: lineMesh(mesh(countries, countries.objects.countries, (a, b) => a !== b) as MultiLineString),
    lakes: emptyMesh(),
    rivers: emptyMesh(),
    admin1: emptyMesh(),
  });
  await writeFile(`${outDir}${resolution}.bin`, bytes);
  await writeFile(`${outDir}${resolution}.bin.gz`, gzipSync(bytes, { level: 9 }));
  return bytes.byteLength;
}

// ---- 10m: region cells --------------------------------------------------------------------------

type Triangle = [Position, Position, Position];
type Segment = [Position, Position];
interface CellContent {
  land: Triangle[];
  coast: Segment[];
  borders: Segment[];
  lakes: Triangle[];
  rivers: Segment[];
  admin1: Segment[];
}
const TRIANGLE_PARTS = ['land', 'lakes'] as const;
const SEGMENT_PARTS = ['coast', 'borders', 'rivers', 'admin1'] as const;

/** The triangles of polygons, in unwrapped lon/lat. */
function polygonTriangles(polygons: Position[][][]): Triangle[] {
  const out: Triangle[] = [];
  for (const polygon of polygons) {
    const rings = polygon.map((ring) => {
      const u = unwrap(ring);
      // A ring around the South Pole (Antarctica) ends 360° from where it starts: close it along the pole.
      const first = u[0];
      const last = u[u.length - 1];
      if (Math.abs(last[0] - first[0]) > 180) u.push([last[0], -90], [first[0], -90]);
      return u;
    });
    const flat: number[] = [];
    const holes: number[] = [];
    for (const [i, ring] of rings.entries()) {
      if (i > 0) holes.push(flat.length / 2);
      for (const [lon, lat] of ring) flat.push(mercX(lon), mercY(lat));
    }
    const points = rings.flat();
    const t = earcut(flat, holes, 2);
    for (let k = 0; k < t.length; k += 3) out.push([points[t[k]], points[t[k + 1]], points[t[k + 2]]]);
  }
  return out;
}

function lineSegments(lines: Position[][]): Segment[] {
  const out: Segment[] = [];
  for (const line of lines) {
    const u = unwrap(line);
    for (let i = 1; i < u.length; i++) {
      if (u[i - 1][1] < -85 && u[i][1] < -85) continue;
      out.push([u[i - 1], u[i]]);
    }
  }
  return out;
}

/** Where a shape's middle falls in normalised Mercator (x unwrapped). */
function middle(points: Position[]): [number, number] {
  let x = 0;
  let y = 0;
  for (const [lon, lat] of points) {
    x += mercX(lon);
    y += mercY(lat);
  }
  return [x / points.length, y / points.length];
}

/** The content of a cell of zoom z, dealt to the cells of zoom z + 1 by where each shape's middle falls. */
function split(content: CellContent, z: number): { z: number; x: number; y: number; content: CellContent }[] {
  const n = 2 ** (z + 1);
  const children = new Map<string, { z: number; x: number; y: number; content: CellContent }>();
  const put = (part: keyof CellContent, unwrapped: Triangle | Segment) => {
    // A shape east of the antimeridian (Chukotka at 190°) goes to its cell in the world's own
    // copy, moved a turn west, so the cell's extent stays where its content is.
    const turns = Math.floor(middle(unwrapped)[0]);
    const shape = (turns ? unwrapped.map(([lon, lat]) => [lon - 360 * turns, lat]) : unwrapped) as Triangle | Segment;
    const [mx, my] = middle(shape);
    const cx = Math.min(n - 1, Math.floor(mx * n));
    const cy = Math.min(n - 1, Math.max(0, Math.floor(my * n)));
    const key = `${cx}/${cy}`;
    let child = children.get(key);
    if (!child) {
      child = { z: z + 1, x: cx, y: cy, content: { land: [], coast: [], borders: [], lakes: [], rivers: [], admin1: [] } };
      children.set(key, child);
    }
    (child.content[part] as (Triangle | Segment)[]).push(shape);
  };
  for (const part of [...TRIANGLE_PARTS, ...SEGMENT_PARTS]) for (const shape of content[part]) put(part, shape);
  return [...children.values()];
}

/** Writes a cell, or its four quarters where one of its meshes would not fit 16 bits. */
async function writeCell(z: number, x: number, y: number, content: CellContent, index: BasemapCellIndex): Promise<number> {
  const all = [...TRIANGLE_PARTS.flatMap((p) => content[p].flat()), ...SEGMENT_PARTS.flatMap((p) => content[p].flat())];
  if (!all.length) return 0;
  const xs = all.map(([lon]) => mercX(lon));
  const ys = all.map(([, lat]) => mercY(lat));
  const bounds = { x0: xs.reduce((a, b) => Math.min(a, b)), x1: xs.reduce((a, b) => Math.max(a, b)), y0: ys.reduce((a, b) => Math.min(a, b)), y1: ys.reduce((a, b) => Math.max(a, b)) };
  try {
    const triangles = (shapes: Triangle[]) => {
      const builder = new MeshBuilder(bounds.x0, bounds.x1, bounds.y0, bounds.y1);
      for (const t of shapes) builder.push(...t.map(([lon, lat]) => builder.vertex(lon, lat)));
      return builder.build();
    };
    const segments = (shapes: Segment[]) => {
      const builder = new MeshBuilder(bounds.x0, bounds.x1, bounds.y0, bounds.y1);
      for (const [a, b] of shapes) {
        const ia = builder.vertex(a[0], a[1]);
        const ib = builder.vertex(b[0], b[1]);
        if (ia !== ib) builder.push(ia, ib);
      }
      return builder.build();
    };
    const bytes = encodeBasemap({
      ...bounds,
      land: triangles(content.land),
      lakes: triangles(content.lakes),
      coast: segments(content.coast),
      borders: segments(content.borders),
      rivers: segments(content.rivers),
      admin1: segments(content.admin1),
    });
    const id = `${z}-${x}-${y}`;
    await writeFile(join(outDir, '10m', `${id}.bin`), bytes);
    await writeFile(join(outDir, '10m', `${id}.bin.gz`), gzipSync(bytes, { level: 9 }));
    index.cells.push({ id, ...bounds });
    return bytes.byteLength;
  } catch (error) {
    if (!(error instanceof MeshFullError) || z >= CELL_MAX_ZOOM) throw error;
    let size = 0;
    for (const child of split(content, z)) size += await writeCell(child.z, child.x, child.y, child.content, index);
    return size;
  }
}

/** An optional Natural Earth GeoJSON file's polygons or lines; none where the file is not there. */
async function naturalEarth(file: string, kind: 'polygons' | 'lines'): Promise<Position[][][] | Position[][]> {
  const path = join(naturalEarthDir, file);
  if (!existsSync(path)) {
    console.log(`basemap 10m: ${path} not present, skipped`);
    return [];
  }
  const data = JSON.parse(await readFile(path, 'utf8')) as FeatureCollection;
  const out: (Position[][] | Position[])[] = [];
  for (const { geometry } of data.features) {
    if (!geometry) continue;
    if (kind === 'polygons' && geometry.type === 'Polygon') out.push(geometry.coordinates);
    else if (kind === 'polygons' && geometry.type === 'MultiPolygon') out.push(...geometry.coordinates);
    else if (kind === 'lines' && geometry.type === 'LineString') out.push(geometry.coordinates);
    else if (kind === 'lines' && geometry.type === 'MultiLineString') out.push(...geometry.coordinates);
  }
  return out as Position[][][] | Position[][];
}

async function build10m(): Promise<{ bytes: number; cells: number }> {
  const land = JSON.parse(await readFile(require.resolve('world-atlas/land-10m.json'), 'utf8')) as Topology<{ land: GeometryCollection }>;
  const countries = JSON.parse(await readFile(require.resolve('world-atlas/countries-10m.json'), 'utf8')) as Topology<{ countries: GeometryCollection }>;
  const landFeatures = feature(land, land.objects.land) as unknown as { features: { geometry: MultiPolygon }[] };
  const world: CellContent = {
    land: polygonTriangles(landFeatures.features[0].geometry.coordinates),
    coast: lineSegments((mesh(land, land.objects.land) as MultiLineString).coordinates),
    borders: lineSegments((mesh(countries, countries.objects.countries, (a, b) => a !== b) as MultiLineString).coordinates),
    lakes: polygonTriangles(await naturalEarth('ne_10m_lakes.geojson', 'polygons') as Position[][][]),
    rivers: lineSegments(await naturalEarth('ne_10m_rivers_lake_centerlines.geojson', 'lines') as Position[][]),
    admin1: lineSegments(await naturalEarth('ne_10m_admin_1_states_provinces_lines.geojson', 'lines') as Position[][]),
  };
  await rm(join(outDir, '10m'), { recursive: true, force: true });
  await mkdir(join(outDir, '10m'), { recursive: true });
  const index: BasemapCellIndex = { cells: [] };
  let bytes = 0;
  for (const cell of split(world, CELL_START_ZOOM - 1)) bytes += await writeCell(cell.z, cell.x, cell.y, cell.content, index);
  index.cells.sort((a, b) => a.id.localeCompare(b.id));
  await writeFile(join(outDir, '10m', 'index.json'), JSON.stringify(index));
  return { bytes, cells: index.cells.length };
}

await mkdir(outDir, { recursive: true });
for (const resolution of ['110m', '50m'] as const) {
  const size = await build(resolution);
  console.log(`basemap ${resolution}: ${(size / 1024).toFixed(0)} KiB`);
}
const detail = await build10m();
console.log(`basemap 10m: ${detail.cells} cells, ${(detail.bytes / 1024).toFixed(0)} KiB`);
