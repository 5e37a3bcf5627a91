import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mercX, mercY } from '../../common/map.ts';
import { vectorRules } from '../layers/basemap/vectorStyle.ts';
import { buildVectorArchive, sampleBasemapLayers, serveBytes } from '../../tests/pmtilesArchive.ts';
import { decodeVectorTile, FILL_STRIDE, LINE_STRIDE, VectorArchive, type TileMesh } from './vectorTile.ts';

/** Tile 2/2/1 holds every sample feature (lon 10..20, lat 40..50). */
const Z = 2;
const X = 2;
const Y = 1;
const tileX = (lon: number) => mercX(lon) * 2 ** Z - X;
const tileY = (lat: number) => mercY(lat) * 2 ** Z - Y;
/** Area in tile units² of a lon/lat rectangle. */
const rectArea = (w: number, s: number, e: number, n: number) => (tileX(e) - tileX(w)) * (tileY(s) - tileY(n));

/** Sum of the triangle areas of the fill meshes' vertices of one colour. */
function fillArea(meshes: TileMesh[], color: readonly number[]): number {
  let area = 0;
  for (const { vertices, indices } of meshes) {
    for (let t = 0; t < indices.length; t += 3) {
      const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => i * FILL_STRIDE);
      if (color.some((v, k) => Math.abs(vertices[a + 2 + k] - v) > 1e-6)) continue;
      area += Math.abs((vertices[b] - vertices[a]) * (vertices[c + 1] - vertices[a + 1]) - (vertices[c] - vertices[a]) * (vertices[b + 1] - vertices[a + 1])) / 2;
    }
  }
  return area;
}

describe('vector tile base maps from a PMTiles archive', () => {
  let server: Awaited<ReturnType<typeof serveBytes>>;
  const { rules } = vectorRules('outdoor');
  const colorOf = (layer: string, kind?: string) => rules.find((r) => r.layer === layer && r.type === 'fill' && (!kind || r.kinds?.includes(kind)))!.color;

  beforeAll(async () => {
    server = await serveBytes(buildVectorArchive(sampleBasemapLayers(), 0, 3));
  });
  afterAll(() => server.close());

  it('reads the header and tiles by byte range, and nothing where the archive has no tile', async () => {
    const archive = new VectorArchive(server.url);
    expect(await archive.zooms()).toEqual({ minZoom: 0, maxZoom: 3 });
    expect(await archive.tile(Z, X, Y)).toBeInstanceOf(Uint8Array);
    expect(await archive.tile(2, 0, 0)).toBeNull();
    expect(await archive.tile(5, 0, 0)).toBeNull();
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => /^bytes=\d+-\d+$/.test(r))).toBe(true);
  });

  it('triangulates polygons with their holes: the earth, lake and forest areas of the features', async () => {
    const bytes = (await new VectorArchive(server.url).tile(Z, X, Y))!;
    const { fills } = decodeVectorTile(bytes, rules, 'en');
    // MVT coordinates are integers of a 4096 extent: areas agree to well under 1 %.
    const earth = rectArea(10, 40, 20, 50) - rectArea(14, 44, 16, 46);
    expect(fillArea(fills, colorOf('earth'))).toBeCloseTo(earth, 4);
    expect(fillArea(fills, colorOf('water')) / rectArea(14, 44, 16, 46)).toBeCloseTo(1, 2);
    expect(fillArea(fills, colorOf('landuse', 'forest')) / rectArea(17, 47, 19, 49)).toBeCloseTo(1, 2);
    for (const { vertices, indices } of fills) {
      expect(vertices.length % FILL_STRIDE).toBe(0);
      expect(Math.max(...indices)).toBeLessThan(vertices.length / FILL_STRIDE);
    }
  });

  it('makes each line segment a strip of two triangles with unit normals and the rule width', async () => {
    const bytes = (await new VectorArchive(server.url).tile(Z, X, Y))!;
    const { lines } = decodeVectorTile(bytes, rules, 'en');
    const highway = rules.find((r) => r.layer === 'roads' && r.kinds?.includes('highway'))!;
    const quads: number[][] = [];
    for (const { vertices } of lines) {
      for (let v = 0; v < vertices.length / LINE_STRIDE; v += 4) {
        const at = v * LINE_STRIDE;
        if (vertices[at + 4] !== highway.width) continue;
        quads.push(Array.from(vertices.subarray(at, at + 4 * LINE_STRIDE)));
      }
    }
    expect(quads.length).toBeGreaterThan(0);
    // The highway runs from (10.5° E, 48° N) to (19.5° E, 42° N): its direction, and the normals across it.
    const dx = tileX(19.5) - tileX(10.5);
    const dy = tileY(42) - tileY(48);
    for (const q of quads) {
      const [nx, ny] = [q[2], q[3]];
      expect(Math.hypot(nx, ny)).toBeCloseTo(1, 5);
      expect(Math.abs(nx * dx + ny * dy) / Math.hypot(dx, dy)).toBeLessThan(0.01);
      expect(q[LINE_STRIDE + 2]).toBeCloseTo(-nx, 6);
    }
    // The segments together span the road.
    const xs = quads.flatMap((q) => [q[0], q[2 * LINE_STRIDE]]);
    expect(Math.min(...xs)).toBeCloseTo(tileX(10.5), 2);
    expect(Math.max(...xs)).toBeCloseTo(tileX(19.5), 2);
    // The river (one segment) is a line of the water layer; the lake, a polygon of the same layer, is not outlined.
    const river = rules.find((r) => r.layer === 'water' && r.type === 'line')!;
    const riverVertices = lines.reduce((n, { vertices }) => n + vertices.filter((v, i) => i % LINE_STRIDE === 4 && v === river.width).length, 0);
    expect(riverVertices).toBe(4);
  });

  it('names places in the user language where the tile has it, else by their name', async () => {
    const bytes = (await new VectorArchive(server.url).tile(Z, X, Y))!;
    const de = decodeVectorTile(bytes, rules, 'de').places;
    const fr = decodeVectorTile(bytes, rules, 'fr').places;
    // Highest population rank first.
    expect(de.map((p) => p.name)).toEqual(['Insel', 'Passdorf', 'Borgo', 'Casale']);
    expect(fr.map((p) => p.name)).toEqual(['Isola', 'Valico', 'Borgo', 'Casale']);
    expect(de.map((p) => p.localName)).toEqual(['Isola', 'Valico', 'Borgo', 'Casale']);
    expect(fr[0].x).toBeCloseTo(tileX(18), 3);
    expect(fr[0].y).toBeCloseTo(tileY(44), 3);
    expect(fr[0]).toMatchObject({ kind: 'locality', rank: 10, minZoom: 4 });
    expect(fr[2]).toMatchObject({ kind: 'neighbourhood', rank: 2, minZoom: 12 });
  });

  it('refuses what is not a PMTiles archive of vector tiles', async () => {
    const junk = await serveBytes(new Uint8Array(200).fill(7));
    try {
      await expect(new VectorArchive(junk.url).zooms()).rejects.toThrow(/magic/i);
    } finally {
      await junk.close();
    }
  });
});
