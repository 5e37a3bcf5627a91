import { describe, expect, it } from 'vitest';
import type { BasemapSource } from '../../../common/api/basemaps.ts';
import { rasterTileUrl, tileBasemapFor, type TileBasemapChoice } from './tileBasemap.ts';

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
