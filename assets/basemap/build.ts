/**
 * Builds the offline basemap (common/basemap.ts) from Natural Earth via npm world-atlas:
 * land polygons triangulated with earcut, coastlines as the land mesh, borders as the interior
 * country mesh. Writes public/generated/basemap/{110m,50m}.bin and gzip siblings.
 *
 *   tsx assets/basemap/build.ts
 */

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import earcut from 'earcut';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { MultiPolygon, MultiLineString, Position } from 'geojson';
import { encodeBasemap, type BasemapMesh } from '../../common/basemap.ts';
import { mercX, mercY } from '../../common/map.ts';

const require = createRequire(import.meta.url);
const outDir = fileURLToPath(new URL('../../public/generated/basemap/', import.meta.url));

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

class MeshBuilder {
  private vertices: number[] = [];
  private indices: number[] = [];
  private readonly lookup = new Map<string, number>();

  vertex(lon: number, lat: number): number {
    const x = mercX(lon);
    if (x < X0 || x > X1) throw new Error(`Basemap vertex at ${lon}° is outside the quantization range`);
    const qx = Math.round(((x - X0) / (X1 - X0)) * Q);
    const qy = Math.round(mercY(lat) * Q);
    const key = `${qx},${qy}`;
    let index = this.lookup.get(key);
    if (index === undefined) {
      index = this.vertices.length / 2;
      if (index >= 65536) throw new Error('Basemap mesh has more than 65536 vertices');
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
  for (const polygon of polygons.coordinates) {
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
    const triangles = earcut(flat, holes, 2);
    const points = rings.flat();
    const ids = points.map(([lon, lat]) => builder.vertex(lon, lat));
    for (const t of triangles) builder.push(ids[t]);
  }
  return builder.build();
}

function lineMesh(lines: MultiLineString): BasemapMesh {
  const builder = new MeshBuilder();
  for (const line of lines.coordinates) {
    const u = unwrap(line);
    for (let i = 1; i < u.length; i++) {
      const [a, b] = [u[i - 1], u[i]];
      // Edges along the map's bottom (the Antarctic closing edge) are not coastline.
      if (a[1] < -85 && b[1] < -85) continue;
      const ia = builder.vertex(a[0], a[1]);
      const ib = builder.vertex(b[0], b[1]);
      if (ia !== ib) builder.push(ia, ib);
    }
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
    land: landMesh(landFeatures.features[0].geometry),
    coast: lineMesh(mesh(land, land.objects.land) as MultiLineString),
    borders: lineMesh(mesh(countries, countries.objects.countries, (a, b) => a !== b) as MultiLineString),
  });
  await writeFile(`${outDir}${resolution}.bin`, bytes);
  await writeFile(`${outDir}${resolution}.bin.gz`, gzipSync(bytes, { level: 9 }));
  return bytes.byteLength;
}

await mkdir(outDir, { recursive: true });
for (const resolution of ['110m', '50m'] as const) {
  const size = await build(resolution);
  console.log(`basemap ${resolution}: ${(size / 1024).toFixed(0)} KiB`);
}
