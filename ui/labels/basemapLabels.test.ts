import { describe, expect, it } from 'vitest';
import { lonLatToScreen } from '../../common/map.ts';
import type { BasemapPlace } from '../../workers/api.ts';
import { labelClass, placeNames, type NamePlacement } from './basemapLabels.ts';

const view = { lon: 12, lat: 47, zoom: 12, width: 800, height: 600 };
const place = (name: string, lon: number, lat: number, over: Partial<BasemapPlace> = {}): BasemapPlace => ({
  name, localName: name, lon, lat, kind: 'locality', rank: 5, minZoom: 0, ...over,
});
const placement = (over: Partial<NamePlacement> = {}): NamePlacement => ({
  view,
  width: (p) => p.name.length * 7,
  fits: (x, y, w, h) => x - w / 2 >= 0 && y - h / 2 >= 0 && x + w / 2 <= view.width && y + h / 2 <= view.height,
  blocked: () => false,
  named: () => false,
  ...over,
});

describe('base-map place names', () => {
  it('are drawn at their place, highest rank first, and a lower one that would touch a drawn name is left out', () => {
    const town = place('Pass Town', 12.03, 47.02, { rank: 8 });
    // 0.002° east of the town: about 6 px, the names would overlap.
    const crowded = place('Borgo', 12.032, 47.02, { rank: 2 });
    const apart = place('Casale', 11.95, 46.97, { rank: 1 });
    const placed = placeNames([crowded, apart, town], placement());
    expect(placed.map((p) => p.place.name)).toEqual(['Pass Town', 'Casale']);
    const at = lonLatToScreen(view, town.lon, town.lat);
    expect(placed[0]).toMatchObject({ x: at.x, y: at.y });
    expect(placed[0].box.right - placed[0].box.left).toBe(9 * 7);
  });

  it('are shown from their min_zoom on', () => {
    const placed = placeNames([place('Casale', 11.98, 47.02, { minZoom: 14 }), place('Borgo', 11.97, 46.985, { minZoom: 12 })], placement());
    expect(placed.map((p) => p.place.name)).toEqual(['Borgo']);
  });

  it('keep clear of the labels ranked above and leave a place a city label names to it', () => {
    const a = place('Valico', 12.03, 47.02);
    const b = place('Borgo', 11.97, 46.985);
    expect(placeNames([a, b], placement({ blocked: (box) => box.left > view.width / 2 })).map((p) => p.place.name)).toEqual(['Borgo']);
    expect(placeNames([a, b], placement({ named: (p) => p.name === 'Borgo' })).map((p) => p.place.name)).toEqual(['Valico']);
  });

  it('leave out names cut by the view\'s edge', () => {
    // 0.15° west of the centre at zoom 12: about 440 px, past the 400 px half width.
    expect(placeNames([place('Edge', 11.85, 47)], placement())).toEqual([]);
  });

  it('take their style from the Protomaps kind', () => {
    expect(['country', 'region', 'locality', 'neighbourhood', 'macrohood'].map(labelClass)).toEqual(['country', 'region', 'locality', 'minor', 'minor']);
  });
});
