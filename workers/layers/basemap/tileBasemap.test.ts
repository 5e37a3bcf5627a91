import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BasemapSource } from '../../../common/api/basemaps.ts';
import { mercX, mercY } from '../../../common/map.ts';
import { buildVectorArchive, sampleBasemapLayers, serveBytes } from '../../../tests/pmtilesArchive.ts';
import { decodeVectorTile, VectorArchive, type PlaceLabel } from '../../tiles/vectorTile.ts';
import { placesOfTiles, rasterTileUrl, tileBasemapFor, type TileBasemapChoice } from './tileBasemap.ts';
import { vectorRules } from './vectorStyle.ts';

const outdoor: BasemapSource = { kind: 'pmtiles', url: '/basemap/v1/outdoor.pmtiles', minZoom: 0, maxZoom: 15 };
const topo: BasemapSource = { kind: 'raster', url: 'https://topo.example/{z}/{x}/{y}.png', minZoom: 0, maxZoom: 17 };

describe('which tile base map is drawn', () => {
  const choice = (over: Partial<TileBasemapChoice>): TileBasemapChoice => ({ map: 'outdoor', topoMap: false, sources: { outdoor }, lang: 'en', ...over });

  it('the map setting\'s map above zoom 11 (SPEC §2), the offline map at 11 and below', () => {
    expect(tileBasemapFor(choice({}), 11)).toBeNull();
    expect(tileBasemapFor(choice({}), 11.01)).toEqual({ style: 'outdoor', source: outdoor });
  });

  it('nothing where the map setting\'s map is not configured', () => {
    expect(tileBasemapFor(choice({ map: 'satellite' }), 14)).toBeNull();
    expect(tileBasemapFor(choice({ sources: {} }), 14)).toBeNull();
  });

  it('the topoMap overlay at every zoom where it is configured', () => {
    expect(tileBasemapFor(choice({ topoMap: true, sources: { outdoor, topoMap: topo } }), 4)).toEqual({ style: 'topoMap', source: topo });
    expect(tileBasemapFor(choice({ topoMap: true }), 4)).toBeNull();
  });

  it('fills a raster template', () => {
    expect(rasterTileUrl(topo.url, { z: 12, x: 2212, y: 1387 })).toBe('https://topo.example/12/2212/1387.png');
  });
});

describe('the place names of the tiles drawn', () => {
  let server: Awaited<ReturnType<typeof serveBytes>>;
  beforeAll(async () => {
    server = await serveBytes(buildVectorArchive(sampleBasemapLayers(), 0, 6));
  });
  afterAll(() => server.close());
  const tileOf = (z: number, lon: number, lat: number) => ({ z, x: Math.floor(mercX(lon) * 2 ** z), y: Math.floor(mercY(lat) * 2 ** z) });
  const decoded = async (tile: { z: number; x: number; y: number }, lang: string) => {
    const bytes = (await new VectorArchive(server.url).tile(tile.z, tile.x, tile.y))!;
    return { ...tile, places: decodeVectorTile(bytes, vectorRules('outdoor').rules, lang).places };
  };

  it('are in lon/lat where the archive put them, in the user language, once where a parent and its child both hold them', async () => {
    const child = await decoded(tileOf(6, 12.03, 47.02), 'en');
    const parent = await decoded(tileOf(5, 12.03, 47.02), 'en');
    expect(child.places.map((p) => p.name)).toEqual(['Pass Town', 'Borgo', 'Farmstead']);
    // The zoom-5 parent holds the island's town too (18° E is within its 11.25°).
    const places = placesOfTiles([parent, child]);
    expect(places.map((p) => p.name)).toEqual(['Isola', 'Pass Town', 'Borgo', 'Farmstead']);
    const town = places[1];
    expect(town).toMatchObject({ localName: 'Valico', kind: 'locality', rank: 8, minZoom: 8 });
    // Tile coordinates are 1/4096 of a zoom-6 tile (about 0.0014° of longitude).
    expect(town.lon).toBeCloseTo(12.03, 2);
    expect(town.lat).toBeCloseTo(47.02, 2);
  });

  it('leave out what lies in a tile\'s buffer, outside its own square (the neighbour draws it)', () => {
    const place = (name: string, x: number, y: number): PlaceLabel => ({ name, localName: name, x, y, kind: 'locality', rank: 1, minZoom: 0 });
    const places = placesOfTiles([{ z: 1, x: 0, y: 0, places: [place('Inside', 0.5, 0.5), place('Buffer', 1.01, 0.5), place('Above', 0.5, -0.01)] }]);
    expect(places.map((p) => p.name)).toEqual(['Inside']);
    expect(places[0].lon).toBeCloseTo(-90, 9);
    expect(places[0].lat).toBeCloseTo(66.51326, 4);
  });

  it('keep two places of one name that lie apart', () => {
    const a: PlaceLabel = { name: 'Springfield', localName: 'Springfield', x: 0.2, y: 0.5, kind: 'locality', rank: 3, minZoom: 0 };
    const b: PlaceLabel = { ...a, x: 0.8, rank: 5 };
    expect(placesOfTiles([{ z: 3, x: 2, y: 2, places: [a, b] }]).map((p) => p.rank)).toEqual([5, 3]);
  });
});
